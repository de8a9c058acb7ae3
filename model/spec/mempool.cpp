// mempool.cpp — mm/mempool.c reserves and their KASAN hooks
// (mm/kasan/common.c __kasan_mempool_{poison,unpoison}_{object,pages} since
// v6.8; kasan_slab_free_mempool / kasan_poison_pages before: the era's
// mempool_hooks rule says which).
//
// mempool_alloc here is mempool_alloc_preallocated (what the KUnit cases use):
// it takes an element from the reserve. mempool_free puts the element back
// while the reserve is below min_nr, and frees it otherwise.
#include "effects.hpp"
#include "error.hpp"
#include "model.hpp"

namespace tagproof::spec {

namespace {
std::uint64_t round_up(std::uint64_t x, std::uint64_t g) { return (x + g - 1) / g * g; }
}  // namespace

int Model::mempool_create(Mempool::Kind kind, std::uint64_t size_or_order, unsigned min_nr, int cpu) {
    Mempool pl;
    pl.id = (int)pools_.size();
    pl.kind = kind;
    if (kind == Mempool::pages) pl.order = unsigned(size_or_order);
    else pl.elem_size = size_or_order;
    if (kind == Mempool::slab) pl.cache = kmem_cache_create("mempool_cache", size_or_order);
    pools_.push_back(pl);
    int id = pl.id;
    gfp_t g = gfp_->mask("GFP_KERNEL");
    for (unsigned i = 0; i < min_nr; ++i) {
        Ptr e;
        if (kind == Mempool::kmalloc) e = kmalloc(size_or_order, g, cpu);
        else if (kind == Mempool::slab) e = kmem_cache_alloc(pools_[id].cache, g, cpu);
        else {
            int pg = alloc_pages(pools_[id].order, g, cpu, ObjKind::mempool_page,
                                 "mempool page (order " + std::to_string(pools_[id].order) + ")");
            if (pg < 0) throw InputError("", "mempool_create: out of model memory");
            e = page_address(pg);
        }
        pools_[id].min_nr = min_nr;
        mempool_free(id, e);  // add_element() of the pre-fill
    }
    pools_[id].min_nr = min_nr;
    return id;
}

// The element a mempool hands out is held to its caller's requirements too
// (coverage: mempool pages are page_alloc memory, elements are slab objects).
Ptr Model::mempool_alloc(int pool, int cpu) {
    Ptr e = mempool_take(pool, cpu);
    if (e.obj >= 0) oracle_coverage(objects_[e.obj], e.tag);
    return e;
}

Ptr Model::mempool_take(int pool, int cpu) {
    Mempool& pl = pools_.at(pool);
    if (pl.reserve.empty()) throw InputError("", "mempool_alloc_preallocated: the reserve is empty");
    Ptr e = pl.reserve.back();
    pl.reserve.pop_back();
    Object& o = objects_[e.obj];
    o.live = true;
    if (!rt_.kasan_enabled) return e;
    if (pl.kind == Mempool::pages) {
        // __kasan_mempool_unpoison_pages = __kasan_unpoison_pages(page, order, false):
        // a new random tag, subject to sampling.
        // a new random tag, subject to sampling (effects.hpp mempool_page_unpoison_effect).
        auto s = v_.kasan_unpoison_pages(env_, pl.order, cpus_[cpu].sample_skip);
        cpus_[cpu].sample_skip = std::int64_t(s.skip_next);
        // the sampler counted it as it counts an allocation (kasan_sample_page_alloc):
        // sampling-accounting counts it too (an order-based era; a flag-based one
        // asks the allocation's __GFP_KASAN_SAMPLE, which a re-issue has not)
        if (rt_.hw_tags_enabled && cfg_.boot.page_alloc_sample > 1 && !gfp_->defines("__GFP_KASAN_SAMPLE"))
            oracle_sampling(cpu, pl.order >= cfg_.boot.page_alloc_sample_order, s.tag, false);
        const bool tags = cfg_.build.mode != Mode::generic;
        const Tag drawn = s.tag && tags ? random_tag("mempool page tag") : KASAN_TAG_KERNEL;
        const auto fx = kernel::mempool_page_unpoison_effect<kernel::Concrete>(env_, s, drawn);
        const std::uint64_t n = std::uint64_t(1) << pl.order;
        if (s.tag) kasan_unpoison(Ptr{o.base, drawn, o.id}, n * PAGE_SIZE, false, o.id);
        if (fx.page_tag_written) page_kasan_tag_set(o.pfn, n, Tag(fx.page_tag));
        if (s.tag && tags) objects_[e.obj].tag = drawn;
        check_block_effect(o.pfn, fx);
        return page_address(e.obj);
    }
    const auto hooks = v_.mempool_hooks(env_);
    const bool whole = hooks.unpoison_whole_slot;  // kasan_unpoison_range(e, __ksize(e))
    if (o.kind == ObjKind::kmalloc_large) {
        if (whole) {
            kasan_unpoison(e, PAGE_SIZE << o.order, false, o.id);
            o.size = pl.elem_size;
            return e;
        }
        kasan_unpoison(e, pl.elem_size, false, o.id);
        // __kasan_mempool_unpoison_object: poison_kmalloc_large_redzone, the variant's rule
        std::uint64_t rz = o.base + v_.kmalloc_large_redzone_start(env_, pl.elem_size),
                      end = o.base + (PAGE_SIZE << o.order);
        if (end > rz) kasan_poison(rz, end - rz, shadow_poison(KASAN_PAGE_REDZONE_GENERIC), false);
        o.size = pl.elem_size;
        return e;
    }
    // a slab element: effects.hpp mempool_element_effect (kmalloc's effect, the
    // element's tag kept), written as slab_alloc writes it and checked the same way
    const Cache& c = caches_[o.cache];
    const bool kmalloc_pool = pl.kind == Mempool::kmalloc;
    const auto fx = kernel::mempool_element_effect<kernel::Concrete>(env_, hooks, e.tag, kmalloc_pool,
                                                                     v_.kmalloc_redzone_start(env_, pl.elem_size));
    // __ksize(): slab_ksize() is s->object_size for Generic's SLAB_KASAN
    // caches, the whole slot (s->size) in the tag modes
    const std::uint64_t ksize = cfg_.build.mode == Mode::generic ? c.object_size : c.slot_size;
    const std::uint64_t unpoisoned = whole ? ksize : c.object_size;
    const std::uint64_t size = whole ? ksize : kmalloc_pool ? pl.elem_size : c.object_size;
    Ptr p{o.base, Tag(fx.ptr_tag), o.id};
    kasan_unpoison(p, unpoisoned, false, o.id);
    if (fx.redzone_poisoned) {  // poison_kmalloc_redzone(): Generic marks the partial last granule first
        if (cfg_.build.mode == Mode::generic) kasan_unpoison(p, size, false, o.id);
        std::uint64_t rz = o.base + fx.redzone_from, rz_end = round_up(o.base + c.object_size, G_);
        if (rz_end > rz) kasan_poison(rz, rz_end - rz, shadow_poison(KASAN_SLAB_REDZONE_GENERIC), false);
    }
    check_slab_effect(o.id, size, fx, 0, 0);
    return p;
}

void Model::mempool_free(int pool, const Ptr& p) {
    Mempool& pl = pools_.at(pool);
    if (pl.reserve.size() >= pl.min_nr) {
        // the reserve is full: give it back to the allocator
        if (pl.kind == Mempool::pages) {
            int id = page_object(p);
            if (id >= 0) free_pages(id);
        } else {
            kfree(p);
        }
        return;
    }
    // add_element() -> kasan_poison_element(); a failed check leaks the element on purpose.
    if (!rt_.kasan_enabled) {
        int id = pl.kind == Mempool::pages ? page_object(p) : p.obj;
        if (id >= 0) objects_[id].live = false;
        pools_[pool].reserve.push_back(Ptr{p.addr, p.tag, id});
        return;
    }
    const auto hooks = v_.mempool_hooks(env_);
    if (pl.kind == Mempool::pages) {
        int id = page_object(p);
        if (id < 0) throw InputError("", "mempool_free of a pointer that is no page of the pool");
        Object& o = objects_[id];
        std::uint64_t pfn = o.pfn;
        kernel::BlockState<kernel::Concrete> now;
        now.page_tag = page_kasan_tag(pfn);
        const auto fx = kernel::mempool_page_poison_effect<kernel::Concrete>(env_, hooks, now);
        if (fx.mem_written) {
            if (hooks.check_page_frees) {
                Ptr tagged = page_address(id);
                if ((p.addr | ~ADDR_MASK) != o.base) { report_free(p, "invalid-free"); return; }
                if (!kasan_byte_accessible(tagged)) { report_free(p, "double-free"); return; }
            }
            kasan_poison(o.base, PAGE_SIZE << o.order, shadow_poison(KASAN_PAGE_FREE_GENERIC), false);
            check_block_effect(pfn, fx);
        }
        o.live = false;
        pools_[pool].reserve.push_back(page_address(id));
        return;
    }
    int obj;
    if (!slab_free_checks(p, obj, "mempool_free")) {
        // v6.1 .. v6.7: reported, and the element goes into the reserve all the same
        const int bad = p.obj >= 0 ? p.obj : obj;
        if (hooks.keep_bad_element && bad >= 0 && objects_[bad].base == (p.addr | ~ADDR_MASK)) {
            objects_[bad].live = false;
            pools_[pool].reserve.push_back(Ptr{objects_[bad].base, objects_[bad].tag, bad});
            notes_.push_back(label_ + ": mempool_free: the element is added to the reserve anyway (add_element)");
        }
        return;
    }
    Object& o = objects_[obj];
    if (o.kind == ObjKind::kmalloc_large) {
        kasan_poison(o.base, PAGE_SIZE << o.order, shadow_poison(KASAN_PAGE_FREE_GENERIC), false);
    } else {
        poison_slab_object(obj, true, false);  // kasan_mempool_poison_object: no quarantine
    }
    o.live = false;
    pools_[pool].reserve.push_back(Ptr{o.base, o.tag, obj});
}

}  // namespace tagproof::spec
