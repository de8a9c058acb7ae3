// fork.cpp — thread stacks (kernel/fork.c), page tables
// (include/asm-generic/pgalloc.h, arch/arm64/mm/pgd.c), user pages
// (arch/arm64/mm/fault.c vma_alloc_zeroed_movable_folio, the huge zero folio):
// callers whose GFP constants the variants define. skb pages: skb.cpp.
#include "error.hpp"
#include "layout.hpp"
#include "model.hpp"

namespace tagproof::spec {

using layout::thread_size_order;

Ptr Model::stack_alloc(int cpu, std::optional<int> node) {
    if (cpu < 0 || cpu >= (int)cpus_.size()) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (node && (*node < 0 || *node >= cfg_.machine.nodes))
        throw InputError("", "stack_alloc: node " + std::to_string(*node) + " does not exist (config nodes=" +
                                 std::to_string(cfg_.machine.nodes) + ")");
    unsigned order = thread_size_order(cfg_.build.mode);
    std::uint64_t thread_size = PAGE_SIZE << order;
    if (!cfg_.build.vmap_stack) {
        int id = alloc_pages(order, v_.THREADINFO_GFP(env_), cpu, ObjKind::stack,
                             "thread stack (alloc_pages, THREADINFO_GFP = " + gfp_->print(v_.THREADINFO_GFP(env_)) + ")");
        if (id < 0) return Ptr{0, KASAN_TAG_KERNEL, -1, true};
        return reset_tag(page_address(id));  // tsk->stack = kasan_reset_tag(page_address(page))
    }
    // alloc_thread_stack_node_from_cache(): this CPU's cached_stacks[], unless
    // the era refuses a request for another node
    const bool other_node = node && *node != cpu_node(cpu);
    const bool from_cache = v_.stack_cache_serves(env_, other_node);
    if (!from_cache) notes_.push_back(label_ + ": stack for node " + std::to_string(node.value_or(-1)) +
                                      " asked on a CPU of node " + std::to_string(cpu_node(cpu)) + ": the cache is skipped");
    for (int& slot : cpus_[cpu].cached_stacks) {
        if (slot < 0 || !from_cache) continue;
        int ai = slot;
        slot = -1;
        VmArea& a = areas_[ai];
        // the one transition (effects.hpp): the leftover tag is read only when nothing unpoisons
        const Tag leftover = mem_tag(Ptr{a.start, KASAN_TAG_KERNEL, a.obj}).value_or(KASAN_TAG_KERNEL);
        const auto fx = kernel::cached_stack_effect<kernel::Concrete>(env_, v_.cached_stack_unpoison(env_), a.tag, leftover);
        // kasan_unpoison_range(vm->addr, THREAD_SIZE): the area's own tag
        if (fx.unpoisoned) kasan_unpoison(Ptr{a.start, a.tag, a.obj}, thread_size, false, a.obj);
        if (fx.data_zeroed) set_data(a.start, thread_size, DATA_ZERO);  // clear the stack
        int id = new_object(ObjKind::stack, "thread stack (from the per-CPU cache)");
        Object& o = objects_[id];
        o.base = a.start;
        o.size = thread_size;
        o.tag = KASAN_TAG_KERNEL;
        o.area = ai;
        o.cpu = cpu;
        o.caller = kernel::Caller::thread_stack;
        objects_[a.obj].live = false;
        a.obj = id;
        return hand_out(id);
    }
    Ptr p = vmalloc(thread_size, v_.GFP_VMAP_STACK(env_), true, cpu, ObjKind::stack);
    if (p.null) return p;
    areas_[objects_[p.obj].area].is_stack = true;
    areas_[objects_[p.obj].area].node = node.value_or(cpu_node(cpu));  // __vmalloc_node_range(..., node)
    return reset_tag(p);  // tsk->stack = kasan_reset_tag(stack)
}

// try_release_thread_stack_to_cache(): an empty slot of this CPU's cache,
// if the era takes a stack whose pages are on another node.
bool Model::try_release_thread_stack_to_cache(int ai, int cpu) {
    if (!v_.stack_cache_takes(env_, areas_[ai].node != cpu_node(cpu))) return false;
    for (int& slot : cpus_.at(cpu).cached_stacks)
        if (slot < 0) {
            slot = ai;
            return true;
        }
    return false;
}

// thread_stack_free_rcu(), after the grace period: the cache once more, else
// vfree() (a page-based stack: __free_pages()).
void Model::thread_stack_free_rcu(const DelayedStack& d) {
    if (d.area < 0) {
        free_pages(d.obj);
        return;
    }
    if (try_release_thread_stack_to_cache(d.area, d.cpu)) return;
    const VmArea& a = areas_[d.area];
    vfree(Ptr{a.start, a.tag, a.obj});
}

// free_thread_stack(): the cache, else thread_stack_delayed_free(): call_rcu,
// and the memory stays as it is until the grace period ends (rcu_barrier()).
// Without CONFIG_VMAP_STACK the pages are RCU-freed too.
void Model::stack_free(const Ptr& p, int cpu) {
    if (cpu < 0 || cpu >= (int)cpus_.size()) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (!cfg_.build.vmap_stack) {
        int id = page_object(p);
        if (id < 0 || objects_[id].kind != ObjKind::stack || !objects_[id].live)
            throw InputError("", "stack_free of a pointer that is no live thread stack");
        for (const auto& d : rcu_stacks_)
            if (d.obj == id) throw InputError("", "stack_free of a stack already freed");
        rcu_stacks_.push_back({-1, id, cpu});
        return;
    }
    int ai = area_of(p.addr);
    if (ai < 0) throw InputError("", "stack_free of a pointer that is no vmap stack");
    if (!objects_[areas_[ai].obj].live) throw InputError("", "stack_free of a stack already freed");
    objects_[areas_[ai].obj].live = false;  // the task is gone; the memory stays mapped
    if (try_release_thread_stack_to_cache(ai, cpu)) return;
    notes_.push_back(label_ + ": thread_stack_delayed_free(): freed after the RCU grace period");
    rcu_stacks_.push_back({ai, -1, cpu});
}

// A dying task's frame left KASAN_STACK redzones poisoned in the shadow (Generic /
// SW_TAGS instrumentation); HW_TAGS has no stack instrumentation.
void Model::stack_poison_leftover(const Ptr& stack, std::uint64_t off, std::uint64_t len) {
    if (cfg_.build.mode != Mode::generic && cfg_.build.mode != Mode::sw_tags) return;
    if (!rt_.kasan_enabled) return;
    std::uint64_t a = (stack.addr + off) / G_ * G_;
    set_tags(a, (len + G_ - 1) / G_ * G_, cfg_.build.mode == Mode::generic ? 0xF2 : KASAN_TAG_INVALID, TAG_BY_POISON);
}

Ptr Model::pgtable_alloc(bool user, bool slab_backed, int cpu) {
    if (slab_backed) {
        // arm64 pgd_alloc with PGD_SIZE < PAGE_SIZE: kmem_cache_alloc(pgd_cache, GFP_PGTABLE_USER)
        if (pgd_cache_ < 0) pgd_cache_ = kmem_cache_create("pgd_cache", 512);
        return slab_alloc(pgd_cache_, 512, v_.GFP_PGTABLE_USER(env_), cpu,
                          "pgd (pgd_cache, GFP_PGTABLE_USER = " + gfp_->print(v_.GFP_PGTABLE_USER(env_)) + ")");
    }
    // pte_alloc_one() / pte_alloc_one_kernel(): the gfp each passes, which the
    // tree reading takes from the call (the macro it names is the default).
    gfp_t g = user ? v_.pte_alloc_one_gfp(env_) : v_.pte_alloc_one_kernel_gfp(env_);
    int id = alloc_pages(0, g, cpu, ObjKind::pgtable,
                         std::string("page table (") + (user ? "pte_alloc_one_gfp" : "pte_alloc_one_kernel_gfp") + " = " +
                             gfp_->print(g) + ")",
                         user ? kernel::Caller::pgtable_user : kernel::Caller::pgtable_kernel);
    if (id < 0) return Ptr{0, KASAN_TAG_KERNEL, -1, true};
    return page_address(id);  // ptdesc_address(); walkers use __va(phys), i.e. reset_tag
}

void Model::pgtable_free(const Ptr& p) {
    int id = page_object(p);
    if (id >= 0 && objects_[id].kind == ObjKind::pgtable) {
        free_pages(id);
        return;
    }
    kfree(p);
}

int Model::user_fault(bool vm_mte, int cpu) {
    int id = alloc_pages(0, v_.user_page_gfp(env_, vm_mte), cpu, ObjKind::user_page,
                         std::string("user page (vma_alloc_zeroed_movable_folio") + (vm_mte ? ", VM_MTE)" : ")"));
    if (id < 0) return id;
    objects_[id].vm_mte = vm_mte;
    std::uint64_t pfn = objects_[id].pfn;
    // set_pte_at() of the pte -> mte_sync_tags() for a VM_MTE vma (the
    // variant's rule; its effect from effects.hpp, checked after the write).
    const auto fx = kernel::mte_sync_tags_effect<kernel::Concrete>(
        env_, vm_mte, v_.mte_sync_tags_clears(env_, pages_[pfn].pg_mte_tagged));
    if (fx.mte_written) {
        set_mte_page_tags_pfn(pfn, 1, Tag(fx.mte_tag), TAG_BY_TAG_CLEAR);
        pages_[pfn].pg_mte_tagged = true;
    }
    check_block_effect(pfn, fx);
    oracle_zero_tags(id);
    return id;
}

int Model::huge_zero_folio(unsigned order, int cpu) {
    if (!v_.features().huge_zero_folio_zerotags)
        throw InputError("", "in " + v_.name() + " the huge zero folio is not allocated with __GFP_ZEROTAGS (2025+)");
    // get_huge_zero_folio(): (GFP_TRANSHUGE | __GFP_ZERO | __GFP_ZEROTAGS) & ~__GFP_MOVABLE.
    // It is mapped into MTE vmas without mte_sync_tags clearing its tags, so
    // the allocation itself must leave tags zero.
    gfp_t g = (gfp_->mask("GFP_TRANSHUGE") | gfp_->mask("__GFP_ZERO") | gfp_->mask("__GFP_ZEROTAGS")) &
              ~gfp_->mask("__GFP_MOVABLE");
    int id = alloc_pages(order, g, cpu, ObjKind::user_page, "huge zero folio (order " + std::to_string(order) + ")",
                         kernel::Caller::huge_zero_folio);
    if (id < 0) return id;
    oracle_zero_tags(id);
    return id;
}

void Model::user_set_tag(int id, std::uint64_t off, std::uint8_t nibble) {
    const Object& o = objects_.at(id);
    if (!cfg_.machine.mte) {
        notes_.push_back(label_ + ": user tag write ignored: the CPU has no MTE");
        return;
    }
    if (off >= (PAGE_SIZE << o.order)) throw InputError("", "user_set_tag: offset past the page");
    if (cfg_.build.mode == Mode::hw_tags)
        set_tags(o.base + off / 16 * 16, 16, mte_tag_from_nibble(nibble), TAG_BY_USER);
    else
        mte_tag_.set(o.pfn * (PAGE_SIZE / 16) + off / 16, mte_tag_from_nibble(nibble));  // STG from EL0
}

void Model::munmap(int id) { free_pages(id); }

}  // namespace tagproof::spec
