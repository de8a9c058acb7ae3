// variants/controls.hpp — patches a reviewer might be sent, a few lines
// each, written the way README's "Adding a variant for a patch" says. They
// are the review's negative controls (each must be found by `tagproof review
// --variant NAME` with default options) and one positive twin (must get no
// finding and list its intended change). None of them claims what it does
// unless its comment says so: the review holds them to their claims.
#pragma once
#include "sample.hpp"

namespace tagproof::kernel {

// "mm: page tables are zeroed by the walker anyway": GFP_PGTABLE_KERNEL loses
// __GFP_ZERO. Page-table code needs zeroed tables whatever the constant says
// (requirements.hpp): a zeroing finding at pgtable_alloc.
struct control_pgtable_no_zero final : rules_7_0<control_pgtable_no_zero> {
    static constexpr const char* name = "control-pgtable-no-zero";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose GFP_PGTABLE_KERNEL drops __GFP_ZERO";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Word GFP_PGTABLE_KERNEL(const KasanEnv<D>& e) { return e.gfp.GFP_KERNEL; }
};

// "fork: do not zero new thread stacks": THREADINFO_GFP and GFP_VMAP_STACK
// lose __GFP_ZERO. A new task would see an old task's frames.
struct control_stack_no_zero final : rules_7_0<control_stack_no_zero> {
    static constexpr const char* name = "control-stack-no-zero";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose THREADINFO_GFP and GFP_VMAP_STACK drop __GFP_ZERO";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Word THREADINFO_GFP(const KasanEnv<D>& e) { return e.gfp.GFP_KERNEL_ACCOUNT; }
    template <class D>
    static typename D::Word GFP_VMAP_STACK(const KasanEnv<D>& e) { return e.gfp.GFP_KERNEL; }
};

// "kasan: skip unpoisoning of compound pages" (a made-up optimisation):
// should_skip_kasan_unpoison() also fires for __GFP_COMP. Every high-order
// compound allocation is handed out through a match-all pointer, and no
// access to it is checked: a detection (coverage) finding.
struct control_untag_comp final : rules_7_0<control_untag_comp> {
    static constexpr const char* name = "control-untag-comp";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose should_skip_kasan_unpoison() also skips __GFP_COMP";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Bool should_skip_kasan_unpoison(const KasanEnv<D>& e, typename D::Word gfp) {
        return rules_7_0<control_untag_comp>::should_skip_kasan_unpoison(e, gfp) ||
               (e.kasan_hw_tags_enabled() && D::any(gfp, e.gfp.COMP));
    }
};

// Patch 3/3 of the Anjum series (page tables skip HW tagging), but the
// cover letter claims stacks only: the page-table untagging is not claimed.
struct control_unclaimed_untag final : rules_7_0<control_unclaimed_untag> {
    static constexpr const char* name = "control-unclaimed-untag";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 + page tables skip HW tagging; claims only thread stacks";
    static constexpr bool mutant = true;
    static Claims claims() {
        return {ChangeScope::hw_tags_active, {{Caller::thread_stack, "", false, "skip HW tagging for kernel stacks"}},
                "HW_TAGS: disable tagging for stacks"};
    }
    template <class D>
    static typename D::Word GFP_PGTABLE_KERNEL(const KasanEnv<D>& e) {
        return e.gfp.GFP_KERNEL | e.gfp.ZERO | e.gfp.SKIP_KASAN;
    }
};

// The twin: the same patch, claiming exactly what it does. No finding; the
// review lists the page tables' untagging as the intended change.
struct control_claimed_untag final : rules_7_0<control_claimed_untag> {
    static constexpr const char* name = "control-claimed-untag";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 + page tables skip HW tagging, as claimed (positive twin)";
    static constexpr bool mutant = true;
    static Claims claims() {
        return {ChangeScope::hw_tags_active,
                {{Caller::pgtable_kernel, "", false, "skip KASAN tagging for page-allocated page tables"},
                 {Caller::pgtable_user, "", false, "GFP_PGTABLE_USER is GFP_PGTABLE_KERNEL | __GFP_ACCOUNT"}},
                "HW_TAGS: disable tagging for page tables; no change for Generic and SW_TAGS"};
    }
    template <class D>
    static typename D::Word GFP_PGTABLE_KERNEL(const KasanEnv<D>& e) {
        return e.gfp.GFP_KERNEL | e.gfp.ZERO | e.gfp.SKIP_KASAN;
    }
};

// "fork: HW tags zero the stack anyway": GFP_VMAP_STACK keeps __GFP_ZERO
// only while HW tags are active. With kasan=off, on a CPU without MTE, or in
// a software KASAN build, a new task's stack is not zeroed.
struct control_stack_zero_needs_tags final : rules_7_0<control_stack_zero_needs_tags> {
    static constexpr const char* name = "control-stack-zero-needs-tags";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose GFP_VMAP_STACK has __GFP_ZERO only with HW tags active";
    static constexpr bool mutant = true;
    static Claims claims() { return {ChangeScope::hw_tags_active, {}, "only HW_TAGS behaviour changes"}; }
    template <class D>
    static typename D::Word GFP_VMAP_STACK(const KasanEnv<D>& e) {
        return e.gfp.GFP_KERNEL | D::ite(e.kasan_hw_tags_enabled(), e.gfp.ZERO, D::lit(0));
    }
};

// "mm/vmalloc: trim GFP_VMALLOC_SUPPORTED" dropping __GFP_ZERO: a
// __vmalloc(size, GFP_KERNEL | __GFP_ZERO) caller (BPF) has its flag stripped
// with a WARN and gets memory that is not zeroed.
struct control_vmalloc_drops_zero final : rules_7_0<control_vmalloc_drops_zero> {
    static constexpr const char* name = "control-vmalloc-drops-zero";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose GFP_VMALLOC_SUPPORTED lacks __GFP_ZERO";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Word GFP_VMALLOC_SUPPORTED(const KasanEnv<D>& e) {
        return rules_7_0<control_vmalloc_drops_zero>::GFP_VMALLOC_SUPPORTED(e) & ~e.gfp.ZERO;
    }
};

// slab_free_hook without the CONFIG_SLUB_RCU_DEBUG deferral: an RCU object
// is never poisoned although the option promises to catch its use after the
// grace period (KUnit kmem_cache_rcu_uaf fails).
struct control_rcu_debug_not_deferred final : rules_7_0<control_rcu_debug_not_deferred> {
    static constexpr const char* name = "control-rcu-debug-not-deferred";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose kmem_cache_free ignores CONFIG_SLUB_RCU_DEBUG";
    static constexpr bool mutant = true;
    template <class D>
    static SlabFreePlan<D> kasan_slab_free(const KasanEnv<D>& e, typename D::Bool typesafe_by_rcu) {
        return rules_6_1<control_rcu_debug_not_deferred>::kasan_slab_free(e, typesafe_by_rcu);  // v6.11's
    }
};

// "kasan: poison every freed slab object": SLAB_TYPESAFE_BY_RCU objects too,
// at once: an RCU reader's legal access in the grace period then faults.
struct control_rcu_poisoned_at_free final : rules_7_0<control_rcu_poisoned_at_free> {
    static constexpr const char* name = "control-rcu-poisoned-at-free";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 that poisons SLAB_TYPESAFE_BY_RCU objects at kmem_cache_free";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Bool slab_free_poisons(const KasanEnv<D>& e, typename D::Bool still_accessible) {
        return e.kasan_enabled;
    }
    template <class D>
    static SlabFreePlan<D> kasan_slab_free(const KasanEnv<D>& e, typename D::Bool typesafe_by_rcu) {
        return rules_6_1<control_rcu_poisoned_at_free>::kasan_slab_free(e, typesafe_by_rcu);  // never deferred
    }
};

// "mempool: unpoison the whole element, it is cheaper": kasan_unpoison_element()
// back to kasan_unpoison_range(element, __ksize(element)) on linux-7.0; the
// hooks keep their v6.8 checks. An overflow inside the slot goes unnoticed.
struct control_mempool_whole_slot final : rules_7_0<control_mempool_whole_slot> {
    static constexpr const char* name = "control-mempool-whole-slot";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose mempool elements are unpoisoned over __ksize()";
    static constexpr bool mutant = true;
    static Claims claims() { return {ChangeScope::hw_tags_active, {}, "a mempool speed-up"}; }
    template <class D>
    static typename D::Bool mempool_unpoison_whole_slot(const KasanEnv<D>& e) { return D::boolean(true); }
};

// "arm64: mte: sync tags only when KASAN uses them": mte_sync_tags() gated on
// kasan_hw_tags_enabled(), on linux-7.0. User MTE needs no KASAN, so on a
// Generic, SW_TAGS or KASAN-less kernel a PROT_MTE page keeps its previous
// user's tags when post_alloc_hook did not clear them (init_on_free=1).
struct control_sync_tags_hw_only final : rules_7_0<control_sync_tags_hw_only> {
    static constexpr const char* name = "control-sync-tags-hw-only";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose mte_sync_tags() runs only with HW_TAGS KASAN on";
    static constexpr bool mutant = true;
    static Claims claims() { return {ChangeScope::hw_tags_active, {}, "skip a tag clear KASAN does not need"}; }
    template <class D>
    static typename D::Bool mte_sync_tags_clears(const KasanEnv<D>& e, typename D::Bool pg_mte_tagged) {
        return e.kasan_hw_tags_enabled() && rules_7_0<control_sync_tags_hw_only>::mte_sync_tags_clears(e, pg_mte_tagged);
    }
};

// "mm: store the page's KASAN tag as it is": page_kasan_tag_set() without the
// XOR of cf10bd4c4aff, on linux-7.0 (the v5.0 .. v5.11 encoding). A field no
// hook ever wrote -- a KFENCE pool page -- then reads 0x00, not match-all:
// page_address() of a KFENCE object carries tag 0x00.
struct control_page_tag_plain final : rules_7_0<control_page_tag_plain> {
    static constexpr const char* name = "control-page-tag-plain";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 storing page_kasan_tag() without the XOR 0xff";
    static constexpr bool mutant = true;
    static Claims claims() { return {ChangeScope::none, {}, "a page-flags clean-up: no behaviour change"}; }
    template <class D>
    static typename D::Word page_kasan_tag_field(const KasanEnv<D>& e, typename D::Word tag) {
        return tag & D::lit(0xFF);  // eight bits, as v5.0 .. v5.11 kept them
    }
    template <class D>
    static typename D::Word page_kasan_tag(const KasanEnv<D>& e, typename D::Word field) {
        return field & D::lit(0xFF);
    }
};

// "mm/vmalloc: let KASAN tag vmap() aliases too": vmap() passes
// KASAN_VMALLOC_VM_ALLOC, on linux-7.0. Under HW_TAGS the unpoison then
// retags the *pages* (tags are physical, and page_kasan_tag_set runs), so the
// pages' owner, whose pointer carries the old tag, faults on its own memory.
struct control_vmap_tags_pages final : rules_7_0<control_vmap_tags_pages> {
    static constexpr const char* name = "control-vmap-tags-pages";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose vmap() asks KASAN to tag the alias as a VM_ALLOC area";
    static constexpr bool mutant = true;
    static Claims claims() { return {ChangeScope::hw_tags_active, {}, "tag vmap aliases under HW_TAGS"}; }
    template <class D>
    static VmallocPlan<D> vmap_unpoison_plan(const KasanEnv<D>& e) {
        VmallocPlan<D> p = rules_7_0<control_vmap_tags_pages>::vmap_unpoison_plan(e);
        p.flag_vm_alloc = D::boolean(true);
        return p;
    }
};

// A new variant that copies sample-v3 and changes nothing: it starts with a
// clean slate (sample-v3's records are sample-v3's), and every finding reads
// "also in sample-v3"; exit 0.
struct control_copy_of_sample_v3 final : sample_v3_rules<control_copy_of_sample_v3> {
    static constexpr const char* name = "control-copy-of-sample-v3";
    static constexpr const char* baseline = "sample-v3";
    static constexpr const char* summary = "sample-v3 copied unchanged: its defects are its baseline's";
    static constexpr bool mutant = true;
    static Claims claims() { return {}; }
};

// "mm: page_alloc: always reset the page tag in post_alloc_hook" (made up):
// the reset loses its `if (!unpoisoned)` guard and follows
// kasan_unpoison_pages(), so page_address() hands out the match-all tag over
// memory tagged T. The claim (HW_TAGS only) is wrong too: SW_TAGS stores page
// tags as well. The issue-15 case: the solver's page tag once assumed no reset
// follows unpoisoning and proved mode-isolation here; effects.hpp is now the
// one transition model and solver take.
struct control_reset_after_unpoison final : rules_7_0<control_reset_after_unpoison> {
    static constexpr const char* name = "control-reset-after-unpoison";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose post_alloc_hook resets the page tag after unpoisoning too";
    static constexpr bool mutant = true;
    static Claims claims() { return {ChangeScope::hw_tags_active, {}, "a page-tag clean-up for HW_TAGS"}; }
    template <class D>
    static PostAllocPlan<D> post_alloc_hook(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word order,
                                            typename D::Word skip) {
        PostAllocPlan<D> p = rules_7_0<control_reset_after_unpoison>::post_alloc_hook(e, gfp, order, skip);
        p.reset_page_tag = p.reset_page_tag || p.unpoison;
        return p;
    }
};

}  // namespace tagproof::kernel
