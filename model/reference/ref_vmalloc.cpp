// ref_vmalloc.cpp — __vmalloc_node_range's KASAN part (the variant's plan),
// vfree, thread stacks with fork.c's per-CPU cache, and page tables. Vm areas
// get addresses from a bump allocator with a guard page, as in the model;
// their records (and the capacity of their page lists) are recycled.
#include <algorithm>

#include "error.hpp"
#include "layout.hpp"
#include "ref_kernel.hpp"

namespace tagproof::reference {

using layout::round_up;
namespace {
// arm64 THREAD_SIZE with HW_TAGS: 16 KiB (KASAN_THREAD_SHIFT is 0 for HW tags)
const unsigned kThreadSizeOrder = layout::thread_size_order(Mode::hw_tags);
const std::uint64_t kThreadSize = PAGE_SIZE << kThreadSizeOrder;
}  // namespace

void RefKernel::area_release(std::int32_t a) {
    areas_[a].live = false;
    auto it = std::find(live_areas_.begin(), live_areas_.end(), a);
    if (it != live_areas_.end()) live_areas_.erase(it);
    free_areas_.push_back(a);
}

std::uint64_t RefKernel::vmalloc(std::uint64_t size, gfp_t gfp, bool prot_kernel, int cpu, bool stack) {
    if (size == 0) throw InputError("", "vmalloc(0) returns NULL; give a size");
    if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    auto plan = v_.vmalloc_node_range(env_, gfp, prot_kernel);
    const std::uint64_t npages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
    const std::uint64_t start = next_vaddr_;
    next_vaddr_ += (npages + 1) * PAGE_SIZE;  // + guard page
    std::int32_t ai;
    if (!free_areas_.empty()) {
        ai = free_areas_.back();
        free_areas_.pop_back();
    } else {
        areas_.emplace_back();
        ai = std::int32_t(areas_.size() - 1);
    }
    // __vmalloc_area_node: order-0 pages with the plan's gfp
    areas_[ai].pfns.clear();
    for (std::uint64_t i = 0; i < npages; ++i) {
        std::int64_t pfn = alloc_pages(0, plan.page_gfp, cpu, stack ? PageOwner::stack : PageOwner::vmalloc_page);
        if (pfn < 0) {
            for (std::uint64_t q : areas_[ai].pfns) free_pages(q);
            free_areas_.push_back(ai);
            return 0;
        }
        areas_[ai].pfns.push_back(std::uint64_t(pfn));
    }
    Area& ar = areas_[ai];
    ar.start = start;
    ar.size = size;
    ar.tagged_mapping = plan.tagged_mapping;
    ar.live = true;
    live_areas_.push_back(ai);  // the newest start is the highest

    auto un = v_.kasan_unpoison_vmalloc(env_, plan);
    Tag t = KASAN_TAG_KERNEL;
    if (un.clear_pages) {
        zero_range_virt(start, npages * PAGE_SIZE, true);
        charge_clear_pages(npages);
    }
    if (un.retag) {
        if (un.random_tag) t = random_tag();
        const std::uint64_t rz = round_up(start + size, G), rz_end = start + npages * PAGE_SIZE;
        tag_range_virt(start, rz - start, mte_nibble(t), un.retag_init);
        if (rz_end > rz) tag_range_virt(rz, rz_end - rz, mte_nibble(KASAN_TAG_INVALID), un.retag_init);
        for (std::uint64_t pfn : ar.pfns) page_kasan_tag_set(pfn, t);
    }
    ar.tag = t;  // area->addr keeps the tagged address
    return (start & ADDR_MASK) | (std::uint64_t(t) << 56);
}

void RefKernel::vfree(std::uint64_t ptr) {
    if (ptr == 0) return;
    const std::uint64_t a = ptr | ~ADDR_MASK;
    std::int32_t ai = area_at(a);
    if (ai < 0 || areas_[ai].start != a) return;  // "Trying to vfree() nonexistent vm area": a WARN
    // remove_vm_area: kasan_poison_vmalloc is a no-op with HW tags; the pages
    // go back one by one and free_pages_prepare decides on poisoning
    area_release(ai);
    for (std::uint64_t pfn : areas_[ai].pfns) free_pages(pfn);
}

std::uint64_t RefKernel::stack_alloc(int cpu) {
    if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (!cfg_.build.vmap_stack) {
        std::int64_t pfn = alloc_pages(kThreadSizeOrder, v_.THREADINFO_GFP(env_), cpu, PageOwner::stack);
        if (pfn < 0) return 0;
        return LINEAR_BASE + std::uint64_t(pfn) * PAGE_SIZE;  // kasan_reset_tag(page_address(page))
    }
    // alloc_thread_stack_node_from_cache(): this CPU's cached_stacks[]
    for (std::int32_t& slot : cpus_[cpu].cached_stacks) {
        if (slot < 0) continue;
        const Area& ar = areas_[slot];
        slot = -1;
        if (v_.cached_stack_unpoison(env_) && rt_.kasan_enabled)
            tag_range_virt(ar.start, kThreadSize, mte_nibble(ar.tag), false);  // kasan_unpoison_range(vm->addr)
        zero_range_virt(ar.start, kThreadSize, true);                         // memset(stack, 0, THREAD_SIZE)
        charge_clear_pages(kThreadSize / PAGE_SIZE);
        return ar.start;
    }
    std::uint64_t p = vmalloc(kThreadSize, v_.GFP_VMAP_STACK(env_), true, cpu, true);
    if (p) areas_[area_at(p | ~ADDR_MASK)].node = cpu % cfg_.machine.nodes;
    return p ? p | ~ADDR_MASK : 0;  // tsk->stack = kasan_reset_tag(stack)
}

// free_thread_stack(): the cache, else call_rcu(thread_stack_free_rcu);
// page-based stacks are always RCU-freed (as the model's fork.cpp).
void RefKernel::stack_free(std::uint64_t ptr, int cpu) {
    if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    const std::uint64_t a = ptr | ~ADDR_MASK;
    if (!cfg_.build.vmap_stack) {
        if (a < LINEAR_BASE || a - LINEAR_BASE >= npages_ * PAGE_SIZE)
            throw InputError("", "stack_free of a pointer that is no thread stack");
        rcu_stacks_.push_back({-1, page_[(a - LINEAR_BASE) / PAGE_SIZE].head, cpu});
        return;
    }
    std::int32_t ai = area_at(a);
    if (ai < 0) throw InputError("", "stack_free of a pointer that is no vmap stack");
    if (!try_release_thread_stack_to_cache(ai, cpu)) rcu_stacks_.push_back({ai, 0, cpu});
}

bool RefKernel::try_release_thread_stack_to_cache(std::int32_t ai, int cpu) {
    if (!v_.stack_cache_takes(env_, areas_[ai].node != cpu % cfg_.machine.nodes)) return false;
    for (std::int32_t& slot : cpus_[cpu].cached_stacks)
        if (slot < 0) {
            slot = ai;
            return true;
        }
    return false;
}

void RefKernel::rcu_barrier() {
    // nothing here queues another callback: walk the list, then empty it
    // keeping its capacity (the workloads allocate nothing after warm-up)
    for (const DelayedStack& d : rcu_stacks_) {
        if (d.area < 0) free_pages(d.pfn);
        else if (!try_release_thread_stack_to_cache(d.area, d.cpu)) vfree(areas_[d.area].start);
    }
    rcu_stacks_.clear();
}

std::uint64_t RefKernel::pgtable_alloc(bool user, bool slab_backed, int cpu) {
    if (slab_backed) {
        // arm64 pgd_alloc with PGD_SIZE < PAGE_SIZE: kmem_cache_alloc(pgd_cache, GFP_PGTABLE_USER)
        if (pgd_cache_ < 0) pgd_cache_ = create_cache(512, 512, false);
        if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
        return slab_alloc(pgd_cache_, 512, v_.GFP_PGTABLE_USER(env_), cpu);
    }
    gfp_t g = user ? v_.pte_alloc_one_gfp(env_) : v_.pte_alloc_one_kernel_gfp(env_);  // as model/spec/fork.cpp
    std::int64_t pfn = alloc_pages(0, g, cpu, PageOwner::pgtable);
    return pfn < 0 ? 0 : page_address(std::uint64_t(pfn));
}

void RefKernel::pgtable_free(std::uint64_t ptr) {
    const std::uint64_t a = ptr | ~ADDR_MASK;
    if (a >= LINEAR_BASE && a - LINEAR_BASE < npages_ * PAGE_SIZE) {
        std::uint64_t pfn = (a - LINEAR_BASE) / PAGE_SIZE;
        if (owner_is(pfn, PageOwner::pgtable)) return free_pages(page_[pfn].head);
    }
    kfree(ptr);
}

}  // namespace tagproof::reference
