// ref_memory.cpp — construction, address translation, and the tag / data
// primitives, each charging the cost model as the kernel's call would.
#include <algorithm>

#include "error.hpp"
#include "layout.hpp"
#include "mte_cost.hpp"
#include "ref_kernel.hpp"
#include "runtime.hpp"

namespace tagproof::reference {

RefKernel::RefKernel(const kernel::Variant& v, const RefConfig& cfg, TagSource& tags)
    : v_(v), cfg_(cfg), tagsrc_(tags), rt_(derive_runtime(cfg.build, cfg.machine, cfg.boot)),
      env_(v.make_env(cfg.build, cfg.machine, cfg.boot, rt_)), gfp_(v.gfp_layout_ptr(cfg.build)), npages_(cfg.pages),
      tags_(cfg.pages * kGranulesPerPage, mte_nibble(cfg.initial_mem_tag)) {
    if (cfg_.build.mode != Mode::hw_tags)
        throw InputError("", std::string("the reference implementation models HW_TAGS builds only, not ") +
                                 mode_name(cfg_.build.mode));
    if (cfg_.pages < 4) throw InputError("", "the reference needs at least 4 pages of RAM");
    if (cfg_.pages > (std::uint64_t(1) << 30)) throw InputError("", "more than 2^30 pages of RAM");
    if (cfg_.machine.cpus < 1 || cfg_.machine.cpus > 64) throw InputError("", "cpus must be 1..64");
    gfp_comp_ = gfp_mask("__GFP_COMP");
    gfp_kernel_nowarn_ = gfp_mask("GFP_KERNEL") | gfp_mask("__GFP_NOWARN");
    skip_flag_ = gfp_->defines("__GFP_SKIP_KASAN_POISON") ? gfp_mask("__GFP_SKIP_KASAN_POISON")
                                                          : gfp_mask("__GFP_SKIP_KASAN");
    alloc_.assign((npages_ + 63) / 64, 0);
    alloc_[0] |= 1;  // pfn 0: firmware / kernel image, never handed out
    // the bits past the last page read as allocated, so a word scan stops there
    for (std::uint64_t p = npages_; p < alloc_.size() * 64; ++p) alloc_[p / 64] |= std::uint64_t(1) << (p % 64);
    flags_.assign(npages_, PageFlags{});
    page_.assign(npages_, PageRec{});
    std::size_t ng = npages_ * kGranulesPerPage;
    zero_.assign((ng + 63) / 64, cfg_.boot.init_on_free ? ~std::uint64_t(0) : 0);
    cpus_.resize(cfg_.machine.cpus);
    kmalloc_cache_.fill(-1);
    random_tag_min_ = v_.random_tag_min(env_);  // the era's range, fixed for the run
    random_tag_max_ = v_.random_tag_max(env_);
    slab_tag_per_alloc_ = v_.slab_tag_per_alloc(env_, false);  // no constructor caches here
    slab_memset_init_[0] = v_.slab_memset_init(env_, false);
    slab_memset_init_[1] = v_.slab_memset_init(env_, true);
    slab_kasan_init_[0] = v_.slab_alloc_kasan_init(env_, false);
    slab_kasan_init_[1] = v_.slab_alloc_kasan_init(env_, true);
    static_assert(sizeof(kmalloc_class_) == layout::KMALLOC_MAX_CACHE_SIZE / 8 + 1);
    const std::uint64_t minalign = v_.kmalloc_minalign(env_);  // the era's rule
    // layout::kmalloc_index(k * 8, minalign) for every k, in one walk: the
    // class only grows with the size (a search from class 0 per size was a
    // quarter of a fuzz target's run under coverage instrumentation, every
    // compare traced; perf, twenty-seventh session)
    unsigned cls = 0;
    for (std::size_t k = 1; k < kmalloc_class_.size(); ++k) {
        while (layout::kKmallocClasses[cls] < k * 8 || layout::kKmallocClasses[cls] % minalign != 0) ++cls;
        kmalloc_class_[k] = std::uint8_t(cls);
    }
    // kasan.page_alloc.sample=N starts every CPU's counter at 0, as the model does by default
    if (cfg_.build.kfence) throw InputError("", "the reference implementation does not model KFENCE");
    release_boot_memory();
}

// memblock_free_pages() -> __free_pages_core() for all of RAM, as the model's
// boot.cpp: the era's free_pages_prepare() on pages whose flags were never
// written, FPI flags from the era; the upper half under deferred
// struct-page init with deferred_pages_enabled() still true. Every page of a
// range decides alike (same flags, same page tag), so one plan a range.
void RefKernel::release_boot_memory() {
    const std::uint64_t deferred_from = cfg_.build.deferred_struct_page_init ? npages_ / 2 : npages_;
    for (const auto& [from, to] : {std::pair<std::uint64_t, std::uint64_t>{0, deferred_from}, {deferred_from, npages_}}) {
        if (from >= to) continue;
        kernel::CEnv e = env_;
        e.deferred_pages = from == deferred_from;
        kernel::FreeInput<kernel::Concrete> in;
        in.page_tag = page_kasan_tag(from);
        in.pg_skip_kasan_poison = false;
        in.fpi_skip_kasan_poison = v_.boot_release_fpi_skip_kasan_poison(e);
        const auto plan = v_.free_pages_prepare(e, in);
        const std::size_t g = from * kGranulesPerPage, n = (to - from) * kGranulesPerPage;
        if (plan.poison) tags_.set_range(g, n, mte_nibble(KASAN_TAG_INVALID));
        if (plan.poison_init || plan.kernel_init) zero_granules(g, n, true);
    }
}

gfp_t RefKernel::gfp_mask(const char* name) const { return gfp_->defines(name) ? gfp_->mask(name) : 0; }

std::int32_t RefKernel::area_at(std::uint64_t a) const {
    // live_areas_ is sorted by start: the last area starting at or below a
    auto it = std::upper_bound(live_areas_.begin(), live_areas_.end(), a,
                               [this](std::uint64_t x, std::int32_t i) { return x < areas_[i].start; });
    if (it == live_areas_.begin()) return -1;
    const Area& ar = areas_[*(it - 1)];
    return a < ar.start + ar.pfns.size() * PAGE_SIZE ? *(it - 1) : -1;
}

RefKernel::Where RefKernel::translate(std::uint64_t addr) const {
    addr |= ~ADDR_MASK;
    if (addr >= LINEAR_BASE && addr - LINEAR_BASE < npages_ * PAGE_SIZE) {
        std::uint64_t off = addr - LINEAR_BASE;
        return {true, off / G, true, -1};
    }
    std::int32_t a = area_at(addr);
    if (a >= 0) {
        const Area& ar = areas_[a];
        std::uint64_t idx = (addr - ar.start) / PAGE_SIZE;
        return {true, ar.pfns[idx] * kGranulesPerPage + (addr % PAGE_SIZE) / G, ar.tagged_mapping, a};
    }
    return {false, 0, false, -1};
}

bool RefKernel::mem_tag_at(std::uint64_t addr, Tag& out) const {
    Where w = translate(addr);
    if (!w.mapped) return false;
    out = mte_tag_from_nibble(tags_.get(w.granule));
    return true;
}

void RefKernel::charge_clear_pages(std::uint64_t n) {
    cost_.pages_zeroed += n;
    cost_.dc_zva += n * (PAGE_SIZE / (std::uint64_t(4) << (cfg_.dczid & 0xF)));
}

void RefKernel::zero_granules(std::size_t g, std::size_t n, bool value) {
    if (value && n && cfg_.mutation == RefMutation::zero_misses_last_granule) --n;
    if (n == 0) return;
    // a masked first and last word, whole words between
    auto put = [&](std::size_t w, std::uint64_t m) { zero_[w] = value ? zero_[w] | m : zero_[w] & ~m; };
    const std::size_t first = g / 64, last = (g + n - 1) / 64;
    const std::uint64_t head = ~std::uint64_t(0) << (g % 64);
    const std::uint64_t tail = ~std::uint64_t(0) >> (63 - (g + n - 1) % 64);
    if (first == last) return put(first, head & tail);
    put(first, head);
    for (std::size_t w = first + 1; w < last; ++w) zero_[w] = value ? ~std::uint64_t(0) : 0;
    put(last, tail);
}

// Tags of a block in the linear map: one call, one contiguous granule run.
void RefKernel::tag_range_linear(std::uint64_t pfn, std::uint64_t bytes, std::uint8_t nibble, bool init) {
    std::size_t g = pfn * kGranulesPerPage, n = (bytes + G - 1) / G;
    tags_.set_range(g, cfg_.mutation == RefMutation::short_tag_range ? n - 1 : n, nibble);
    if (init) zero_granules(g, n, true);
    charge_tag_call(LINEAR_BASE + pfn * PAGE_SIZE, bytes, init);
}

// Tags of [addr, round_up(addr + len)) through a mapping other than the
// linear map (tag_range_virt does that one inline), page by page: a vm
// area's pages need not be contiguous; one call for the cost model.
void RefKernel::tag_range_pages(std::uint64_t addr, std::uint64_t len, std::uint8_t nibble, bool init) {
    addr |= ~ADDR_MASK;
    std::uint64_t end = addr + (len + G - 1) / G * G;
    for (std::uint64_t a = addr; a < end;) {
        std::uint64_t page_end = (a / PAGE_SIZE + 1) * PAGE_SIZE;
        std::uint64_t stop = std::min(end, page_end);
        Where w = translate(a);
        if (w.mapped) {
            std::size_t n = (stop - a + G - 1) / G;
            tags_.set_range(w.granule, n, nibble);
            if (init) zero_granules(w.granule, n, true);
        }
        if (page_end == 0) break;
        a = stop;
    }
    charge_tag_call(addr, len, init);
}

// The data of the granules [addr rounded down, addr + len) is zero / not.
void RefKernel::zero_range_virt(std::uint64_t addr, std::uint64_t len, bool value) {
    if (len == 0) return;
    addr |= ~ADDR_MASK;
    std::uint64_t a = addr - addr % G, end = addr + len;
    while (a < end) {
        std::uint64_t page_end = (a / PAGE_SIZE + 1) * PAGE_SIZE;
        std::uint64_t stop = page_end == 0 || end < page_end ? end : page_end;
        Where w = translate(a);
        if (w.mapped) zero_granules(w.granule, (stop - a + G - 1) / G, value);
        if (page_end == 0) break;
        a = stop;
    }
}

std::uint64_t RefKernel::redzone_start(std::uint64_t size) {
    // a slab object's redzone (the table holds the sizes of kmalloc caches; a
    // larger one is asked, not kept)
    if (size > layout::KMALLOC_MAX_CACHE_SIZE) return v_.kmalloc_redzone_start(env_, size);
    if (redzone_start_.empty()) redzone_start_.assign(layout::KMALLOC_MAX_CACHE_SIZE + 1, kNotAsked);
    std::uint32_t& r = redzone_start_[size];
    if (r == kNotAsked) {
        const std::uint64_t a = v_.kmalloc_redzone_start(env_, size);
        if (a >= kNotAsked) return a;  // not kept: never under a slot's size
        r = std::uint32_t(a);
    }
    return r;
}

}  // namespace tagproof::reference
