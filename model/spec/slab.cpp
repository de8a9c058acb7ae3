// slab.cpp — kmalloc / kmem_cache objects: SLUB's slot layout and the KASAN
// hooks of mm/kasan/common.c (__kasan_poison_slab, __kasan_slab_alloc,
// __kasan_kmalloc, __kasan_slab_pre_free, __kasan_slab_free, __kasan_krealloc,
// kasan_check_byte), and large kmalloc through page_alloc.
#include <algorithm>

#include "error.hpp"
#include "layout.hpp"
#include "model.hpp"
#include "promises.hpp"

namespace tagproof::spec {

using layout::get_order;
using layout::round_up;
using layout::slab_order;

// The slot's entries are one run of `ring` (ordered by slot); the tag's entry,
// if any, leaves its place and the new one ends the slot's run.
void Slab::ring_record(std::uint32_t slot, Tag tag, bool freed) {
    auto first = std::lower_bound(ring.begin(), ring.end(), slot,
                                  [](const RingEntry& e, std::uint32_t s) { return e.slot < s; });
    auto end = first;
    while (end != ring.end() && end->slot == slot) ++end;
    auto same = std::find_if(first, end, [&](const RingEntry& e) { return e.tag == tag; });
    if (same != end) {
        std::rotate(same, same + 1, end);  // the old entry to the run's end, the others kept in order
        (end - 1)->freed = freed;
        return;
    }
    ring.insert(end, RingEntry{slot, tag, freed});
}

const RingEntry* Slab::ring_newest(std::uint32_t slot, Tag tag) const {
    for (const RingEntry& e : ring)
        if (e.slot == slot && e.tag == tag) return &e;
    return nullptr;
}

// kmalloc's size class (layout.hpp) under the era's minimum alignment.
int Model::kmalloc_cache_for(std::uint64_t size) {
    const std::uint64_t minalign = v_.kmalloc_minalign(env_);
    std::uint64_t cls = layout::kKmallocClasses[layout::kmalloc_index(size, minalign)];
    std::string name = "kmalloc-" + (cls >= 1024 ? std::to_string(cls / 1024) + "k" : std::to_string(cls));
    for (const Cache& c : caches_)
        if (c.name == name) return c.id;
    Cache c;
    c.id = (int)caches_.size();
    c.name = name;
    c.object_size = c.slot_size = cls;
    c.order = slab_order(cls);
    c.is_kmalloc = true;
    caches_.push_back(c);
    return c.id;
}

int Model::kmem_cache_create(const std::string& name, std::uint64_t size, bool ctor, bool typesafe_by_rcu) {
    if (size == 0 || size > 8192) throw InputError("", "kmem_cache_create: object size must be 1..8192");
    Cache c;
    c.id = (int)caches_.size();
    c.name = name;
    c.object_size = size;
    // s->size: aligned to the slab minimum alignment (arch_slab_minalign: 16 with HW tags on)
    std::uint64_t align = (cfg_.build.mode == Mode::hw_tags && rt_.hw_tags_enabled) || cfg_.build.mode == Mode::sw_tags
                              ? 16 : 8;
    c.slot_size = round_up(size, align);
    c.order = slab_order(c.slot_size);
    c.ctor_or_rcu = ctor || typesafe_by_rcu;
    c.typesafe_by_rcu = typesafe_by_rcu;
    caches_.push_back(c);
    return c.id;
}

Ptr Model::slab_alloc(int cid, std::uint64_t size, gfp_t gfp, int cpu, const std::string& what) {
    int si = -1, slot = -1;
    {
        Cache& c = caches_.at(cid);
        if (!c.freelist.empty()) {
            std::tie(si, slot) = c.freelist.back();
            c.freelist.pop_back();
        } else {
            for (int s = 0; s < (int)c.slabs.size() && si < 0; ++s)
                for (int k = 0; k < (int)c.slabs[s].slot_obj.size(); ++k)
                    if (c.slabs[s].slot_obj[k] == -1) {
                        si = s;
                        slot = k;
                        break;
                    }
        }
    }
    if (si < 0) {
        // allocate_slab(): page_alloc with the reclaim bits of the caller and
        // __GFP_COMP (__GFP_SKIP_KASAN is not in GFP_RECLAIM_MASK), then
        // __kasan_poison_slab: page tags reset, the whole slab poisoned.
        unsigned order = caches_[cid].order;
        gfp_t sgfp = (gfp & (gfp_->mask("GFP_KERNEL") | gfp_->mask("__GFP_NOWARN"))) | gfp_->mask("__GFP_COMP");
        int pobj = alloc_pages(order, sgfp, cpu, ObjKind::slab_page, "slab page of " + caches_[cid].name);
        if (pobj < 0) return Ptr{0, KASAN_TAG_KERNEL, -1, true};
        Cache& c = caches_[cid];
        std::uint64_t pfn = objects_[pobj].pfn, n = std::uint64_t(1) << order;
        page_kasan_tag_reset(pfn, n);
        if (rt_.kasan_enabled) kasan_poison(linear(pfn), n * PAGE_SIZE, shadow_poison(KASAN_SLAB_REDZONE_GENERIC), false);
        Slab s;
        s.pfn = pfn;
        s.order = order;
        std::size_t nslots = (n * PAGE_SIZE) / c.slot_size;
        s.slot_obj.assign(nslots, -1);
        s.slot_tag.assign(nslots, KASAN_TAG_KERNEL);
        c.slabs.push_back(s);
        si = (int)c.slabs.size() - 1;
        slot = 0;
        // __kasan_init_slab_obj: ctor / TYPESAFE_BY_RCU caches fix each object's tag now.
        if (rt_.kasan_enabled && c.ctor_or_rcu && cfg_.build.mode != Mode::generic)
            for (std::size_t k = 0; k < nslots; ++k) caches_[cid].slabs[si].slot_tag[k] = random_tag("slab object tag");
    }
    Cache& c = caches_[cid];
    Slab& s = c.slabs[si];
    int id = new_object(ObjKind::slab, what);
    Object& o = objects_[id];
    o.base = linear(s.pfn) + std::uint64_t(slot) * c.slot_size;
    o.size = size;
    o.cache = cid;
    o.slab = si;
    o.slot = slot;
    o.gfp = gfp;
    o.cpu = cpu;
    s.slot_obj[slot] = id;

    // The object's tag, redzone and zeroing from the one transition
    // (effects.hpp slab_alloc_effect); the writes below must give them, which
    // check_slab_effect asks. A tag is drawn only when the object gets a new one.
    const bool init = kernel::slab_want_init_on_alloc(env_, cfg_.boot, gfp, c.ctor_or_rcu);
    const bool memset = v_.slab_memset_init(env_, init);
    const bool per_alloc = v_.slab_tag_per_alloc(env_, c.ctor_or_rcu);
    const Tag drawn = rt_.kasan_enabled && cfg_.build.mode != Mode::generic && per_alloc ? random_tag("slab object tag")
                                                                                         : KASAN_TAG_KERNEL;
    const auto fx = kernel::slab_alloc_effect<kernel::Concrete>(
        env_, per_alloc, drawn, caches_[cid].slabs[si].slot_tag[slot], v_.slab_alloc_kasan_init(env_, init), memset,
        caches_[cid].is_kmalloc, v_.kmalloc_redzone_start(env_, size));
    const Tag t = Tag(fx.ptr_tag);
    Object& ob = objects_[id];  // (random_tag may have grown objects_)
    ob.tag = t;
    Ptr p{ob.base, t, id};
    if (fx.obj_written) {
        kasan_unpoison(p, c.object_size, fx.kasan_init, id);  // __kasan_slab_alloc
        if (fx.redzone_poisoned) {                                            // __kasan_kmalloc
            if (cfg_.build.mode == Mode::generic) kasan_unpoison(p, size, false, id);
            std::uint64_t rz = ob.base + fx.redzone_from, rz_end = round_up(ob.base + c.object_size, G_);
            if (rz_end > rz) kasan_poison(rz, rz_end - rz, shadow_poison(KASAN_SLAB_REDZONE_GENERIC), false);
        }
    }
    if (memset) set_data(ob.base, c.object_size, DATA_ZERO);
    check_slab_effect(id, size, fx, 0, c.object_size);
    ob.caller = cid == pgd_cache_ ? kernel::Caller::pgd_slab
                : c.is_kmalloc       ? kernel::Caller::kmalloc
                                     : kernel::Caller::kmem_cache;
    ob.ctor_or_rcu = c.ctor_or_rcu;
    ob.typesafe_by_rcu = c.typesafe_by_rcu;
    ob.promised_zero = requirement_of(ob).zero_data;
    ob.resize_zero = kernel::resize_asked_zero<kernel::Concrete>(env_, gfp);
    caches_[cid].slabs[si].ring_record(std::uint32_t(slot), t, false);
    oracle_after_alloc(id);
    return p;
}

// What slab_alloc / krealloc wrote against effects.hpp: the tag (Generic:
// shadow byte) of the object's first granule, of the granule holding its last
// byte and of the redzone's first granule, each as slab_granule_after says;
// the bytes [zero_from, zero_from + zero_len) when the effect zeroes. A
// difference is the model's own bug (logic_error), never a finding.
void Model::check_slab_effect(int id, std::uint64_t size, const kernel::SlabAllocEffect<kernel::Concrete>& fx,
                              std::uint64_t zero_from, std::uint64_t zero_len) const {
    const Object& o = objects_.at(id);
    const Cache& c = caches_.at(o.cache);
    auto bad = [&](const std::string& what) {
        throw std::logic_error("the model's slab code and effects.hpp disagree on " + what + " of " + o.what);
    };
    if (fx.obj_written && size > 0) {
        std::vector<std::uint64_t> granules = {0, (size - 1) / G_ * G_};
        if (fx.redzone_poisoned && fx.redzone_from < round_up(c.object_size, G_)) granules.push_back(fx.redzone_from);
        for (std::uint64_t g : granules)
            if (mem_tag(Ptr{o.base + g, KASAN_TAG_KERNEL, id}) !=
                Tag(kernel::slab_granule_after<kernel::Concrete>(env_, fx, size, g)))
                bad("the granule at offset " + std::to_string(g));
    }
    if (fx.data_zeroed && !data_zero(Ptr{o.base + zero_from, KASAN_TAG_KERNEL, id}, zero_len)) bad("the zeroing");
}

Ptr Model::kmalloc(std::uint64_t size, gfp_t gfp, int cpu) {
    if (cpu < 0 || cpu >= (int)cpus_.size()) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (size == 0) return Ptr{0x10, KASAN_TAG_KERNEL, -1, true};  // ZERO_SIZE_PTR
    std::string what = "kmalloc(" + std::to_string(size) + ")";
    if (size > layout::KMALLOC_MAX_CACHE_SIZE) return kmalloc_large(size, gfp, cpu);
    return slab_alloc(kmalloc_cache_for(size), size, gfp, cpu, what);
}

Ptr Model::kmalloc_large(std::uint64_t size, gfp_t gfp, int cpu) {
    // ___kmalloc_large_node: page_alloc with __GFP_COMP, then kasan_kmalloc_large.
    // Above KMALLOC_MAX_SIZE the page allocator refuses the order (with a WARN
    // unless __GFP_NOWARN) and kmalloc returns NULL.
    if (get_order(size) > 10) {
        notes_.push_back(label_ + ": kmalloc(" + std::to_string(size) +
                         "): above KMALLOC_MAX_SIZE (order 10, 4 MiB): WARN in __alloc_pages, NULL");
        return Ptr{0, KASAN_TAG_KERNEL, -1, true};
    }
    int id = alloc_pages(get_order(size), gfp | gfp_->mask("__GFP_COMP"), cpu, ObjKind::kmalloc_large,
                         "kmalloc(" + std::to_string(size) + ")");
    if (id < 0) return Ptr{0, KASAN_TAG_KERNEL, -1, true};
    Ptr p = page_address(id);
    objects_[id].size = size;
    if (rt_.kasan_enabled) {
        if (cfg_.build.mode == Mode::generic) kasan_unpoison(p, size, false, id);
        // __kasan_kmalloc_large / poison_kmalloc_large_redzone: from the variant's rule to the block's end
        std::uint64_t rz = p.addr + v_.kmalloc_large_redzone_start(env_, size),
                      end = p.addr + (PAGE_SIZE << objects_[id].order);
        if (end > rz) kasan_poison(rz, end - rz, shadow_poison(KASAN_PAGE_REDZONE_GENERIC), false);
    }
    return p;
}

// __kasan_slab_pre_free / check_page_allocation: invalid-free when the pointer
// is not an object start, double-free when the byte check fails. Returns false
// (and reports) when the object must not be freed.
bool Model::slab_free_checks(const Ptr& p, int& obj, const char* fn) {
    obj = -1;
    Where w = translate(p.addr);
    if (!w.mapped || w.area >= 0) {
        notes_.push_back(label_ + ": " + fn + " of an address that is not in the linear map");
        return false;
    }
    const PageState& pg = pages_[w.pfn];
    int pobj = pg.allocated ? pages_[pg.head_pfn].obj : -1;
    if (pobj >= 0 && objects_[pobj].kind == ObjKind::kmalloc_large) {
        obj = pobj;
        if (!rt_.kasan_enabled) return objects_[pobj].live;
        if ((p.addr | ~ADDR_MASK) != objects_[pobj].base) { report_free(p, "invalid-free"); return false; }
        if (!kasan_byte_accessible(p)) { report_free(p, "double-free"); return false; }
        return true;
    }
    // find the slab
    for (Cache& c : caches_)
        for (int si = 0; si < (int)c.slabs.size(); ++si) {
            Slab& s = c.slabs[si];
            std::uint64_t start = linear(s.pfn), end = start + (PAGE_SIZE << s.order);
            std::uint64_t a = p.addr | ~ADDR_MASK;
            if (a < start || a >= end) continue;
            std::uint64_t slot = (a - start) / c.slot_size;
            if (rt_.kasan_enabled) {
                if (a != start + slot * c.slot_size) { report_free(p, "invalid-free"); return false; }
                if (!kasan_byte_accessible(p)) { report_free(p, "double-free"); return false; }
            }
            if (slot >= s.slot_obj.size() || s.slot_obj[slot] < 0) {
                notes_.push_back(label_ + ": " + fn + " of a free object was not detected (the pointer passes " +
                                 "kasan_byte_accessible); the model does not free it twice");
                return false;
            }
            obj = s.slot_obj[slot];
            return true;
        }
    notes_.push_back(label_ + ": " + fn + " of an address that is no slab object");
    return false;
}

void Model::slab_free(int id) {
    Object& o = objects_[id];
    const Cache& c = caches_[o.cache];
    // what the free does to the object: the one transition (effects.hpp)
    const auto fx = kernel::slab_free_effect<kernel::Concrete>(env_, v_.kasan_slab_free(env_, c.typesafe_by_rcu),
                                                              c.ctor_or_rcu);
    o.live = false;
    o.rcu_gp_open = c.typesafe_by_rcu;
    if (!fx.released_now) {
        // slab_free_hook: call_rcu(slab_free_after_rcu_debug); the object stays
        // as it is (and its slot taken) until the grace period ends.
        rcu_deferred_.push_back(Ptr{o.base, o.tag, id});
        notes_.push_back(label_ + ": " + o.what + ": free deferred to after the RCU grace period (CONFIG_SLUB_RCU_DEBUG)");
        return;
    }
    // __kasan_slab_free with init on free.
    poison_slab_object(id, fx.poisoned_now, fx.data_zeroed && rt_.hw_tags_enabled);
    if (fx.data_zeroed) set_data(o.base, c.object_size, DATA_ZERO);
    slab_release_slot(id);
}

// poison_slab_object(): round_up(object_size) with KASAN_SLAB_FREE (when the
// era's plan poisons), and the free recorded in the stack ring.
void Model::poison_slab_object(int id, bool poison, bool init) {
    const Object& o = objects_[id];
    const Cache& c = caches_[o.cache];
    if (poison) kasan_poison(o.base, round_up(c.object_size, G_), shadow_poison(KASAN_SLAB_FREE_GENERIC), init);
    caches_[o.cache].slabs[o.slab].ring_record(std::uint32_t(o.slot), o.tag, true);
}

void Model::rcu_barrier() {
    for (Object& o : objects_) o.rcu_gp_open = false;  // the readers of the grace period are gone
    // thread_stack_free_rcu() for the stacks freed before it
    std::vector<DelayedStack> stacks;
    stacks.swap(rcu_stacks_);
    for (const DelayedStack& d : stacks) thread_stack_free_rcu(d);
    // slab_free_after_rcu_debug(): slab_free_hook again, now after the delay:
    // the pre-free checks (a second free made in the grace period is caught
    // here), then the object is poisoned and freed.
    std::vector<Ptr> deferred;
    deferred.swap(rcu_deferred_);
    for (const Ptr& p : deferred) {
        int obj;
        if (!slab_free_checks(p, obj, "slab_free_after_rcu_debug")) continue;
        // only an RCU cache's objects are deferred: its effect, after the grace period
        const auto fx = kernel::slab_free_effect<kernel::Concrete>(env_, v_.kasan_slab_free(env_, true), true);
        poison_slab_object(obj, fx.poisoned_after_gp, false);
        slab_release_slot(obj);
    }
}

void Model::slab_release_slot(int id) {
    Object& o = objects_[id];
    Cache& c = caches_[o.cache];
    Slab& s = c.slabs[o.slab];
    // Generic: the object goes to the quarantine (never reused in the model);
    // tag modes: back on the freelist, reused LIFO.
    if (cfg_.build.mode == Mode::generic && rt_.kasan_enabled) {
        s.slot_obj[o.slot] = -2;
    } else {
        s.slot_obj[o.slot] = -1;
        c.freelist.push_back({o.slab, o.slot});
    }
}

void Model::kfree(const Ptr& p) {
    if (p.null) return;
    // slab_free_hook(): kfence_free() first; KASAN never sees a KFENCE object
    if (in_kfence_pool(p.addr)) {
        if (is_kfence_address(p)) kfence_free(p);
        else kfree_kfence_page(p);
        return;
    }
    int obj;
    if (!slab_free_checks(p, obj, "kfree")) {
        if (obj >= 0 && objects_[obj].kind == ObjKind::kmalloc_large && objects_[obj].live && rt_.kasan_enabled) {
            // free_large_kmalloc(): the check result is ignored, the folio is freed.
            free_pages(obj);
        }
        return;
    }
    if (objects_[obj].kind == ObjKind::kmalloc_large) {
        free_pages(obj);
        return;
    }
    slab_free(obj);
}

void Model::kmem_cache_free(int cache, const Ptr& p) {
    (void)cache;
    kfree(p);
}

Ptr Model::kmem_cache_alloc(int cache, gfp_t gfp, int cpu) {
    const Cache& c = caches_.at(cache);
    return slab_alloc(cache, c.object_size, gfp, cpu, "kmem_cache_alloc(" + c.name + ")");
}

// __kasan_check_byte(): kasan_report(addr, 1, false) when the byte check fails.
bool Model::kasan_check_byte(const Ptr& p) {
    if (kasan_byte_accessible(p)) return true;
    Report r;
    r.mem_tag = mem_tag(p).value_or(0);
    r.bug_type = bug_type_for(p, p.addr, r.mem_tag);
    r.addr = p.value();
    r.size = 1;
    r.ptr_tag = p.tag;
    report(r);
    return false;
}

std::uint64_t Model::ksize(const Ptr& p) {
    // ksize(): 0 and a report if kasan_check_byte() fails; no unpoisoning.
    if (!kasan_check_byte(p)) return 0;
    Where w = translate(p.addr);
    int pobj = pages_[pages_[w.pfn].head_pfn].obj;
    if (pobj >= 0 && objects_[pobj].kind == ObjKind::kmalloc_large) return PAGE_SIZE << objects_[pobj].order;
    for (const Cache& c : caches_)
        for (const Slab& s : c.slabs)
            if (w.pfn >= s.pfn && w.pfn < s.pfn + (1u << s.order)) return c.slot_size;
    return 0;
}

Ptr Model::krealloc(const Ptr& p, std::uint64_t size, gfp_t gfp, int cpu) {
    if (p.null) return kmalloc(size, gfp, cpu);
    if (size == 0) {
        kfree(p);
        return Ptr{0x10, KASAN_TAG_KERNEL, -1, true};
    }
    // kasan_check_byte(p): "Check for double-free"; a failure reports and returns NULL.
    if (!kasan_check_byte(p)) return Ptr{0, KASAN_TAG_KERNEL, -1, true};
    int obj;
    Where w = translate(p.addr);
    int pobj = w.mapped ? pages_[pages_[w.pfn].head_pfn].obj : -1;
    bool large = pobj >= 0 && objects_[pobj].kind == ObjKind::kmalloc_large;
    std::uint64_t ks = 0;
    obj = -1;
    if (large) {
        obj = pobj;
        ks = PAGE_SIZE << objects_[pobj].order;
    } else {
        for (const Cache& c : caches_)
            for (const Slab& s : c.slabs) {
                std::uint64_t start = linear(s.pfn), a = p.addr | ~ADDR_MASK;
                if (a >= start && a < start + (PAGE_SIZE << s.order)) {
                    std::uint64_t slot = (a - start) / c.slot_size;
                    obj = s.slot_obj[slot];
                    ks = c.object_size;
                }
            }
    }
    if (obj < 0) throw InputError("", "krealloc of a pointer that is no live kmalloc object");
    Object& o = objects_[obj];
    if (size <= ks) {
        // In place (mm/slab_common.c __do_krealloc): the variant's rule zeroes
        // the spare part past the new size (v6.11+; nothing before), then
        // __kasan_krealloc unpoisons [0, round_up(size)) with the same tag and
        // poisons the rest of the object (or the rest of the large block).
        // No byte below the new size is written: a grow hands back what the
        // object held there, zero only if the earlier calls left it so.
        if (v_.krealloc_zeroes_spare(env_, gfp)) set_data(o.base + size, ks - size, DATA_ZERO);
        // krealloc's promise (its kernel-doc, requirements.hpp): __GFP_ZERO
        // honoured when every call, from the allocation on, asked for it
        o.resize_zero = o.resize_zero && kernel::resize_asked_zero<kernel::Concrete>(env_, gfp);
        Ptr q{o.base, p.tag, obj};
        // a slab object's redzone from the variant's rule (effects.hpp
        // krealloc_in_place_effect); a large one's from its own
        // (poison_kmalloc_large_redzone)
        const auto fx = kernel::krealloc_in_place_effect<kernel::Concrete>(
            env_, p.tag, large ? v_.kmalloc_large_redzone_start(env_, size) : v_.kmalloc_redzone_start(env_, size));
        if (fx.obj_written) {
            kasan_unpoison(q, size, false, obj);
            std::uint64_t rz = o.base + fx.redzone_from;
            std::uint64_t end = large ? o.base + ks : round_up(o.base + ks, G_);
            if (end > rz)
                kasan_poison(rz, end - rz, shadow_poison(large ? KASAN_PAGE_REDZONE_GENERIC : KASAN_SLAB_REDZONE_GENERIC),
                             false);
        }
        const std::uint64_t old_size = o.size;
        o.size = size;
        if (!large) check_slab_effect(obj, size, fx, old_size, 0);
        if (size > old_size && o.resize_zero) oracle_zeroed(obj, old_size, " grown in place by krealloc()");
        return q;
    }
    Ptr q = kmalloc(size, gfp, cpu);
    if (q.null) return q;
    // memcpy(new, reset_tag(old), old size)
    copy_resized(obj, q.obj, objects_[obj].size, kernel::resize_asked_zero<kernel::Concrete>(env_, gfp));
    kfree(p);
    return q;
}

}  // namespace tagproof::spec
