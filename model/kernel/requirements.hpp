// requirements.hpp — what each kernel caller needs from its allocation:
// spec data, not a rule of any variant.
//
// A variant changes what the kernel *does* (its GFP constants, its
// decisions); it never changes what is *required*. The page-table code
// relies on zeroed tables whatever GFP_PGTABLE_KERNEL a patch defines; a
// kzalloc() caller relies on zeroed data because it passed __GFP_ZERO itself.
// So the inputs below are the caller's identity, the GFP mask the caller
// passes *itself* (for callers that choose one: alloc_pages, kmalloc,
// vmalloc, ...), the build, the boot parameters and the runtime state —
// never a variant's rule. The oracle (model/spec), the solver's obligations
// and, through the oracle, RapidCheck, the explorer and the fuzzers read this
// one table. docs/requirements.md says the same in words, caller by caller.
//
// Written over the value domain (domain.hpp) like the decisions, so that the
// solver instantiates the same table symbolically.
#pragma once
#include <string>
#include <vector>

#include "env.hpp"

namespace tagproof::kernel {

// The callers the model knows, named after the kernel function that makes the
// allocation.
enum class Caller {
    alloc_pages,      // a page_alloc user passing its own gfp (alloc_pages(order, gfp))
    pgtable_kernel,   // pagetable_alloc(GFP_PGTABLE_KERNEL): pte_alloc_one_kernel, pmd/pud_alloc_one
    pgtable_user,     // pagetable_alloc(GFP_PGTABLE_USER): pte_alloc_one for user page tables
    pgd_slab,         // arm64 pgd_alloc(): kmem_cache_alloc(pgd_cache) when PGD_SIZE < PAGE_SIZE
    thread_stack,     // kernel/fork.c alloc_thread_stack_node(): pages, vmap stack or the per-CPU cache
    kmalloc,          // kmalloc / kzalloc / krealloc with the caller's gfp
    kmem_cache,       // kmem_cache_alloc(cache, gfp)
    kmalloc_large,    // kmalloc above KMALLOC_MAX_CACHE_SIZE: pages, tagged by kasan_kmalloc_large
    vmalloc,          // vmalloc / vzalloc / __vmalloc with the caller's gfp and prot
    vmalloc_page,     // __vmalloc_area_node()'s own order-0 backing pages
    slab_page,        // allocate_slab()'s pages (the objects carry the requirement)
    user_page,        // arch/arm64/mm/fault.c vma_alloc_zeroed_movable_folio()
    huge_zero_folio,  // mm/huge_memory.c get_huge_zero_folio()
    skb_frag,         // net/core/sock.c skb_page_frag_refill(), net/core/skbuff.c alloc_skb_with_frags()
    mempool_page,     // mempool_alloc_pages() with the pool's gfp
    kfence,           // mm/kfence/core.c kfence_alloc(), a sampled kmalloc from slab_alloc_node()
    vmap,             // mm/vmalloc.c vmap() / vm_map_ram() of pages the caller owns
};
const char* caller_name(Caller c);  // "pgtable_kernel": the name claims and reports use
const char* caller_title(Caller c); // "page tables (pagetable_alloc, GFP_PGTABLE_KERNEL)"
// Throws InputError naming the callers when `name` is none of them.
Caller parse_caller(const std::string& name, const std::string& where);
const std::vector<Caller>& all_callers();

template <class D>
struct Requirement {
    typename D::Bool zero_data;     // every byte reads as zero when the caller gets it
    typename D::Bool zero_tags;     // MTE tags are zero (user space maps it with PROT_MTE as is)
    typename D::Bool match_all_ok;  // the returned pointer may carry the match-all tag 0xFF
    // After the caller frees it: may readers still use it until a grace period
    // has passed (SLAB_TYPESAFE_BY_RCU), and must a use-after-free be caught
    // once none may (where KASAN promises it; always for everything else).
    typename D::Bool readable_in_grace_period;
    typename D::Bool uaf_caught;
    // the returned pointer must carry the match-all tag: executable memory,
    // whose addresses become the PC, which the kernel does not tolerate tagged
    typename D::Bool match_all_required;
};

// What a caller passes itself. For callers whose GFP mask is a kernel
// constant (page tables, stacks, user pages, skb frags) `gfp` is not read:
// that constant is the code under review.
template <class D>
struct CallerInput {
    typename D::Word gfp{};          // the caller's own gfp
    typename D::Word order{};        // page order (page-backed callers)
    typename D::Bool vm_mte{};       // user_page: the vma has VM_MTE
    typename D::Bool prot_kernel{};  // vmalloc: prot == PAGE_KERNEL
    typename D::Bool ctor_or_rcu{};  // kmem_cache: a constructor or SLAB_TYPESAFE_BY_RCU
    typename D::Bool typesafe_by_rcu{};  // kmem_cache: SLAB_TYPESAFE_BY_RCU
};

namespace req_detail {
// include/linux/mm.h want_init_on_alloc(), as the caller reads it: init_on_alloc
// or __GFP_ZERO in its own mask.
template <class D>
typename D::Bool asked_zero(const KasanEnv<D>& e, typename D::Word gfp) {
    return e.init_on_alloc || D::any(gfp, e.gfp.ZERO);
}
// Pages freed with init_on_free=1 were zeroed at free: no previous owner's
// data may be read through a new page allocation.
template <class D>
typename D::Bool page_zero(const KasanEnv<D>& e, typename D::Word gfp) {
    // __GFP_SKIP_ZERO (vmalloc's own pages with HW tags on) hands the zeroing to
    // the caller, who then requires it for the whole area.
    auto skip_zero = e.kasan_hw_tags_enabled() && D::any(gfp, e.gfp.SKIP_ZERO);
    return (asked_zero(e, gfp) && !skip_zero) || e.init_on_free;
}
// The kernel's documented coverage reductions for page_alloc memory: the
// caller's own skip flag (HW_TAGS only: software modes never skip), and
// kasan.page_alloc.sample=N for orders >= kasan.page_alloc.sample.order.
template <class D>
typename D::Bool page_untag_allowed(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word order) {
    auto skip = D::any(gfp, e.gfp.SKIP_KASAN | e.gfp.SKIP_KASAN_UNPOISON);
    auto sampled = D::ult(D::lit(1), e.sample) && !D::ult(order, e.sample_order);
    return e.kasan_hw_tags_enabled() && (skip || sampled);
}
}  // namespace req_detail

// krealloc()'s and vrealloc()'s kernel-doc (mm/slab_common.c, mm/vmalloc.c):
// __GFP_ZERO is honoured for the bytes a resize in place grows an object by
// when every call, from the allocation on, asked for it: __GFP_ZERO in its
// mask or init_on_alloc=1 (which asks it of every allocation). init_on_free
// zeroes at free, and a resize in place frees nothing.
template <class D>
typename D::Bool resize_asked_zero(const KasanEnv<D>& e, typename D::Word gfp) {
    return req_detail::asked_zero(e, gfp);
}

// The table. Each row cites where the kernel states the need.
template <class D>
Requirement<D> required(Caller c, const KasanEnv<D>& e, const CallerInput<D>& in) {
    using namespace req_detail;
    const auto T = D::boolean(true), F = D::boolean(false);
    // With KASAN off, in Generic mode or without a build mode there are no
    // pointer tags to lose.
    const auto no_tags = !(e.kasan_enabled && e.tag_based());
    Requirement<D> r{F, F, no_tags, F, T, F};
    switch (c) {
        case Caller::alloc_pages:
        case Caller::kmalloc_large:
        case Caller::mempool_page:
            r.zero_data = page_zero(e, in.gfp);
            r.match_all_ok = no_tags || page_untag_allowed(e, in.gfp, in.order);
            break;
        case Caller::skb_frag:
            // in.gfp is the caller's own: sk->sk_allocation (GFP_KERNEL) for
            // skb_page_frag_refill, the gfp argument of alloc_skb_with_frags
            // (a caller may ask for __GFP_ZERO); never the flags the kernel
            // passes on to the allocator.
            r.zero_data = page_zero(e, in.gfp);
            r.match_all_ok = no_tags || page_untag_allowed(e, e.gfp.GFP_KERNEL, D::lit(3));
            break;
        case Caller::pgtable_kernel:
        case Caller::pgtable_user:
            // Page-table walkers read every entry of a new table: it must be
            // zero (include/asm-generic/pgalloc.h passes __GFP_ZERO for exactly
            // this). Tagged like any page_alloc memory unless sampled out.
            r.zero_data = T;
            r.match_all_ok = no_tags || page_untag_allowed(e, e.gfp.GFP_KERNEL, D::lit(0));
            break;
        case Caller::pgd_slab:
            r.zero_data = T;  // a pgd is a page table too
            r.match_all_ok = no_tags;
            break;
        case Caller::thread_stack:
            // A new task's stack must not show a previous task's frames
            // (THREADINFO_GFP / GFP_VMAP_STACK carry __GFP_ZERO; the per-CPU
            // cache path clears the stack by hand). tsk->stack is stored with
            // kasan_reset_tag(): its pointer is match-all in every era.
            r.zero_data = T;
            r.match_all_ok = T;
            // A dead task's stack goes to this CPU's cache, or waits out an
            // RCU grace period still mapped, unpoisoned (free_thread_stack,
            // thread_stack_delayed_free): a use through its old pointer is
            // not one KASAN promises to catch (nor can in the tag modes: the
            // pointer is match-all).
            r.uaf_caught = F;
            break;
        case Caller::kmalloc:
        case Caller::kmem_cache:
            // mm/slab.h slab_want_init_on_alloc(); init_on_free zeroes objects
            // of caches without a constructor at free.
            r.zero_data = D::ite(e.init_on_alloc, D::any(in.gfp, e.gfp.ZERO) || !in.ctor_or_rcu,
                                 D::any(in.gfp, e.gfp.ZERO)) ||
                          (e.init_on_free && !in.ctor_or_rcu);
            r.match_all_ok = no_tags;
            // include/linux/slab.h SLAB_TYPESAFE_BY_RCU: a freed object stays a
            // valid object of its type for readers under rcu_read_lock() until a
            // grace period passes. KASAN catches a later use only with
            // CONFIG_SLUB_RCU_DEBUG (mm/Kconfig.debug: "catch use-after-free
            // bugs on SLAB_TYPESAFE_BY_RCU slabs"); without it they are never
            // poisoned by design.
            r.readable_in_grace_period = in.typesafe_by_rcu;
            r.uaf_caught = !in.typesafe_by_rcu || e.slub_rcu_debug;
            break;
        case Caller::vmalloc:
            // vzalloc passes __GFP_ZERO. Tagged in the tag-based modes when
            // vmalloc is instrumented (kasan.vmalloc / CONFIG_KASAN_VMALLOC)
            // and the mapping is PAGE_KERNEL (hw_tags.c returns early without
            // KASAN_VMALLOC_PROT_NORMAL, and so does shadow.c for SW_TAGS); a caller's __GFP_SKIP_KASAN is not a
            // request vmalloc honours in any released kernel.
            r.zero_data = asked_zero(e, in.gfp) || e.init_on_free;
            r.match_all_ok = no_tags || !e.vmalloc_on || !in.prot_kernel;
            // An executable mapping (prot other than PAGE_KERNEL: module text,
            // BPF JIT images) is never tagged: "Don't tag executable memory.
            // The kernel doesn't tolerate having the PC register tagged."
            // (mm/kasan/hw_tags.c and shadow.c __kasan_unpoison_vmalloc, since
            // v5.16's "kasan, vmalloc: only tag normal vmalloc allocations").
            r.match_all_required = !no_tags && !in.prot_kernel;
            break;
        case Caller::vmalloc_page:
        case Caller::slab_page:
            // The area or the slab's objects carry the caller's requirement;
            // these pages are re-tagged through them.
            r.zero_data = e.init_on_free;
            r.match_all_ok = T;
            break;
        case Caller::vmap:
            // A second mapping of the caller's own pages: nothing new to zero.
            // HW_TAGS tags only VM_ALLOC areas (hw_tags.c returns early
            // without KASAN_VMALLOC_VM_ALLOC, and the PTEs are untagged): a
            // vmap alias is match-all by design; SW_TAGS tags PROT_NORMAL ones.
            r.zero_data = F;
            r.match_all_ok = no_tags || e.hw_tags || !e.vmalloc_on;
            // Freeing the pages under a live alias leaves a dangling mapping
            // whose shadow KASAN never learns about: not a use it catches.
            r.uaf_caught = F;
            break;
        case Caller::kfence:
            // A kmalloc the sampling timer gave to KFENCE: zeroed as any
            // kmalloc (kfence_guarded_alloc honours slab_want_init_on_alloc).
            // KASAN's hooks skip it by design and its pointer carries 0xff:
            // KFENCE's guard pages and canaries are its detector, not KASAN.
            r.zero_data = e.init_on_alloc || D::any(in.gfp, e.gfp.ZERO) || e.init_on_free;
            r.match_all_ok = T;
            break;
        case Caller::user_page:
            // do_anonymous_page() maps the page into user space: zeroed, and
            // with VM_MTE its tags zeroed too (__GFP_ZEROTAGS, or mte_sync_tags
            // at set_pte_at). User pages are not KASAN's: GFP_HIGHUSER_MOVABLE
            // carries the skip flags since v6.0 (70c248aca9e7). User MTE needs
            // CONFIG_ARM64_MTE and the CPU, not KASAN: any KASAN mode.
            r.zero_data = T;
            r.zero_tags = in.vm_mte && e.mte;
            r.match_all_ok = T;
            break;
        case Caller::huge_zero_folio:
            // Mapped read-only into any vma, PROT_MTE ones included, without
            // mte_sync_tags: data and tags zero.
            r.zero_data = T;
            r.zero_tags = e.mte;
            r.match_all_ok = T;
            break;
    }
    return r;
}

}  // namespace tagproof::kernel
