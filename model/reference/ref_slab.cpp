// ref_slab.cpp — kmalloc caches with SLUB's slot layout and the KASAN slab
// hooks (__kasan_poison_slab, __kasan_slab_alloc, __kasan_kmalloc,
// __kasan_slab_pre_free, __kasan_slab_free), large kmalloc through
// page_alloc. The layout is the model's (model/spec/slab.cpp): size classes,
// at least 4 objects a slab, freed slots reused LIFO.
#include <cassert>

#include "error.hpp"
#include "layout.hpp"
#include "promises.hpp"
#include "ref_kernel.hpp"

namespace tagproof::reference {

using layout::get_order;
using layout::round_up;
using layout::slab_order;

std::int32_t RefKernel::create_cache(std::uint64_t object_size, std::uint64_t slot_size, bool is_kmalloc) {
    Cache c;
    c.object_size = object_size;
    c.slot_size = slot_size;
    c.slot_reciprocal = ((std::uint64_t(1) << 40) + slot_size - 1) / slot_size;
    c.order = slab_order(slot_size);
    c.is_kmalloc = is_kmalloc;
    c.freelist.reserve(64);
    caches_.push_back(std::move(c));
    return std::int32_t(caches_.size() - 1);
}

std::int32_t RefKernel::cache_for_size(std::uint64_t size) {
    const unsigned i = kmalloc_class_[(size + 7) / 8];  // layout::kmalloc_index() with the era's minalign
    const std::uint64_t cls = layout::kKmallocClasses[i];
    if (kmalloc_cache_[i] < 0) kmalloc_cache_[i] = create_cache(cls, cls, true);
    return kmalloc_cache_[i];
}

std::int32_t RefKernel::slab_at(std::uint64_t a) const {
    a |= ~ADDR_MASK;
    if (a < LINEAR_BASE || a - LINEAR_BASE >= npages_ * PAGE_SIZE) return -1;
    std::uint64_t pfn = (a - LINEAR_BASE) / PAGE_SIZE;
    return page_allocated(pfn) ? page_[pfn].slab : -1;
}

std::uint64_t RefKernel::slab_alloc(std::int32_t cid, std::uint64_t size, gfp_t gfp, int cpu) {
    std::int32_t si = -1;
    std::uint32_t slot = 0;
    {
        Cache& c = caches_[cid];
        if (!c.freelist.empty()) {
            si = c.freelist.back().first;
            slot = c.freelist.back().second;
            c.freelist.pop_back();
        } else if (!c.slabs.empty() && slabs_[c.slabs.back()].unused < slabs_[c.slabs.back()].nslots) {
            // with the freelist empty only the newest slab can have never-used slots
            si = c.slabs.back();
            slot = slabs_[si].unused;
            assert(!slots_[slabs_[si].first_slot + slot].live);
        }
    }
    if (si < 0) {
        // allocate_slab(): the caller's reclaim bits and __GFP_COMP; then
        // __kasan_poison_slab: page tags reset, the whole slab poisoned
        const unsigned order = caches_[cid].order;
        std::int64_t pfn = alloc_pages(order, (gfp & gfp_kernel_nowarn_) | gfp_comp_, cpu, PageOwner::slab_page);
        if (pfn < 0) return 0;
        const std::uint64_t n = std::uint64_t(1) << order;
        for (std::uint64_t i = 0; i < n; ++i) page_kasan_tag_reset(pfn + i);
        if (rt_.kasan_enabled) tag_range_linear(std::uint64_t(pfn), n * PAGE_SIZE, mte_nibble(KASAN_TAG_INVALID), false);
        Slab s;
        s.pfn = std::uint64_t(pfn);
        s.cache = cid;
        s.nslots = std::uint32_t(n * PAGE_SIZE / caches_[cid].slot_size);
        s.first_slot = std::uint32_t(slots_.size());
        slots_.resize(slots_.size() + s.nslots);
        slabs_.push_back(s);
        si = std::int32_t(slabs_.size() - 1);
        for (std::uint64_t i = 0; i < n; ++i) page_[pfn + i].slab = si;
        caches_[cid].slabs.push_back(si);
        slot = 0;
    }
    const Cache& c = caches_[cid];
    Slab& s = slabs_[si];
    if (slot >= s.unused) s.unused = slot + 1;
    const std::uint32_t idx = s.first_slot + slot;
    const std::uint64_t base = LINEAR_BASE + s.pfn * PAGE_SIZE + slot * c.slot_size;
    SlotState& st = slots_[idx];
    st.live = 1;
    const bool init = kernel::slab_want_init_on_alloc(env_, cfg_.boot, gfp, false);  // no constructor caches here
    Tag t = KASAN_TAG_KERNEL;
    if (rt_.kasan_enabled && slab_tag_per_alloc_) t = random_tag();
    if (rt_.kasan_enabled) {
        tag_range_virt(base, c.object_size, mte_nibble(t), slab_kasan_init_[init] && rt_.hw_tags_enabled);  // __kasan_slab_alloc
        if (c.is_kmalloc) {                                                                // __kasan_kmalloc
            std::uint64_t rz = base + redzone_start(size), rz_end = round_up(base + c.object_size, G);
            if (rz_end > rz) tag_range_virt(rz, rz_end - rz, mte_nibble(KASAN_TAG_INVALID), false);
        }
    }
    if (slab_memset_init_[init]) zero_range_virt(base, c.object_size, true);
    st.tag = t;
    // the stack ring's newest entry for this tag is now an allocation
    if ((t & 0xF0) == 0xF0) {
        st.ring_seen |= std::uint16_t(1u << (t & 0xF));
        st.ring_freed &= std::uint16_t(~(1u << (t & 0xF)));
    }
    return (base & ADDR_MASK) | (std::uint64_t(t) << 56);
}

std::uint64_t RefKernel::kmalloc(std::uint64_t size, gfp_t gfp, int cpu) {
    if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (size == 0) return 0;  // ZERO_SIZE_PTR, which the model and the vocabulary treat as NULL
    if (size > layout::KMALLOC_MAX_CACHE_SIZE) return kmalloc_large(size, gfp, cpu);
    return slab_alloc(cache_for_size(size), size, gfp, cpu);
}

std::uint64_t RefKernel::kmalloc_large(std::uint64_t size, gfp_t gfp, int cpu) {
    const unsigned order = get_order(size);
    std::int64_t pfn = alloc_pages(order, gfp | gfp_comp_, cpu, PageOwner::kmalloc_large);
    if (pfn < 0) return 0;
    std::uint64_t p = page_address(std::uint64_t(pfn));
    if (rt_.kasan_enabled) {
        std::uint64_t base = p | ~ADDR_MASK;
        std::uint64_t rz = base + v_.kmalloc_large_redzone_start(env_, size), end = base + (PAGE_SIZE << order);
        if (end > rz) tag_range_virt(rz, end - rz, mte_nibble(KASAN_TAG_INVALID), false);
    }
    return p;
}

void RefKernel::kfree(std::uint64_t ptr) {
    if (ptr == 0) return;
    const std::uint64_t a = ptr | ~ADDR_MASK;
    // not in the linear map (a vm area, or unmapped): the kernel WARNs; nothing is freed
    if (a < LINEAR_BASE || a - LINEAR_BASE >= npages_ * PAGE_SIZE) return;
    const std::uint64_t pfn = (a - LINEAR_BASE) / PAGE_SIZE;
    // kasan_byte_accessible() on the linear map: match-all, or the first granule's tag
    auto accessible = [&] {
        const Tag pt = Tag(ptr >> 56);
        return pt == KASAN_TAG_KERNEL || mte_nibble(pt) == tags_.get((a - LINEAR_BASE) / G);
    };
    if (!page_allocated(pfn)) return;  // no slab object: the kernel WARNs
    const PageRec& pr = page_[pfn];
    if (pr.owner == PageOwner::kmalloc_large) {
        // free_large_kmalloc(): the checks report, the folio is freed regardless
        const std::uint64_t head = pr.head;
        if (rt_.kasan_enabled) {
            if (a != LINEAR_BASE + head * PAGE_SIZE) report_free(ptr, "invalid-free");
            else if (!accessible()) report_free(ptr, "double-free");
        }
        free_pages(head);
        return;
    }
    const std::int32_t si = pr.slab;
    if (si < 0) return;  // no slab object: the kernel WARNs
    const Slab& s = slabs_[si];
    const Cache& c = caches_[s.cache];
    const std::uint64_t start = LINEAR_BASE + s.pfn * PAGE_SIZE;
    const std::uint64_t slot = c.slot_of(a - start);
    assert(slot == (a - start) / c.slot_size);
    if (rt_.kasan_enabled) {
        if (a != start + slot * c.slot_size) return report_free(ptr, "invalid-free");
        if (!accessible()) return report_free(ptr, "double-free");
    }
    if (slot >= s.nslots || !slots_[s.first_slot + slot].live) return;  // an undetected double free: not repeated
    // __kasan_slab_free: poison round_up(object_size), integrated init on free
    const std::uint32_t idx = s.first_slot + std::uint32_t(slot);
    const bool init = cfg_.boot.init_on_free;
    const std::uint64_t base = start + slot * c.slot_size;
    if (rt_.kasan_enabled)
        tag_range_virt(base, round_up(c.object_size, G), mte_nibble(KASAN_TAG_INVALID), init && rt_.hw_tags_enabled);
    if (init) zero_range_virt(base, c.object_size, true);
    SlotState& st = slots_[idx];
    const Tag t = st.tag;
    if ((t & 0xF0) == 0xF0) {
        st.ring_seen |= std::uint16_t(1u << (t & 0xF));
        st.ring_freed |= std::uint16_t(1u << (t & 0xF));
    }
    st.live = 0;
    caches_[s.cache].freelist.push_back({si, std::uint32_t(slot)});
}

}  // namespace tagproof::reference
