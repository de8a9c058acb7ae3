// plans.hpp — what a decision tells the model to do. Every field is a value
// in D, so the same plan is a concrete action or a formula.
#pragma once
#include "env.hpp"

namespace tagproof::kernel {

// post_alloc_hook (mm/page_alloc.c) for one 2^order block.
template <class D>
struct PostAllocPlan {
    using Bool = typename D::Bool;
    using Word = typename D::Word;
    Bool tag_clear{};            // tag_clear_highpage(s): MTE tags of the block := 0
    Bool tag_clear_data{};       // ... and the data zeroed by the same loop
    Bool unpoison{};             // kasan_unpoison_pages() returned true: fresh random tag on
                                 // memory (HW) or shadow (SW), page tags := that tag
    Bool unpoison_init{};        // ... with init: data zeroed by STZG / DC GZVA (HW only)
    Bool sampled_out{};          // kasan_unpoison_pages() declined because of sampling
    Word sample_skip_next{};     // per-CPU kasan_page_alloc_skip afterwards
    Bool reset_page_tag{};       // page_kasan_tag_reset() on every subpage
    Bool kernel_init{};          // kernel_init_pages / clear_highpages_kasan_tagged: data := 0
    Bool set_skip_poison_flag{};  // SetPageSkipKASanPoison (v6.0 .. v6.3)
};

// kmem_cache_free() of one object: mm/slub.c slab_free_hook and the KASAN
// hooks it calls (the invalid-free and double-free checks come first, as
// __kasan_slab_pre_free makes them; an RCU object is never poisoned, so the
// era before that hook, which skipped the double-free check for it, decides
// the same).
template <class D>
struct SlabFreePlan {
    using Bool = typename D::Bool;
    Bool poison{};        // kasan_poison(object, KASAN_SLAB_FREE) now
    Bool defer_to_rcu{};  // CONFIG_SLUB_RCU_DEBUG: call_rcu(slab_free_after_rcu_debug), which
                          // frees the object after the grace period
    Bool poison_after_gp{};  // and whether that free (slab_free_hook with after_rcu_delay) poisons it
};

// mm/mempool.c kasan_poison_element / kasan_unpoison_element and the KASAN
// mempool hooks they call, per era.
template <class D>
struct MempoolHooks {
    using Bool = typename D::Bool;
    Bool check_page_frees{};     // a page element's invalid / double free is checked and reported
    Bool skip_untagged_pages{};  // a page whose tag is KASAN_TAG_KERNEL (sampled out) is not poisoned
    Bool keep_bad_element{};     // a reported bad free still adds the element to the reserve
    Bool unpoison_whole_slot{};  // a slab element is unpoisoned over __ksize(), no redzone
};

// mm/vmalloc.c vrealloc() in place: the KASAN calls it makes on the part that
// shrinks or grows (the area's pages stay), per version.
template <class D>
struct VreallocHooks {
    using Bool = typename D::Bool;
    Bool granule_aligned{};  // kasan_vrealloc(): the shrunk tail from round_up(new), the grown part from
                             // round_down(old); before, p + new / p + old as they are (unaligned: WARN, nothing)
    Bool grow_vm_alloc{};    // the grow passes KASAN_VMALLOC_VM_ALLOC (HW_TAGS tags only VM_ALLOC areas)
    Bool grow_keep_tag{};    // ... and KASAN_VMALLOC_KEEP_TAG: the pointer's own tag, not a new one
};

// free_pages_prepare / __free_pages_prepare for one 2^order block.
template <class D>
struct FreePlan {
    using Bool = typename D::Bool;
    Bool skip_poison{};   // should_skip_kasan_poison() as the era evaluates it
    Bool poison{};        // kasan_poison_pages(): memory tags := KASAN_TAG_INVALID / shadow := PAGE_FREE
    Bool poison_init{};   // ... zeroing data on the way (integrated init)
    Bool kernel_init{};   // data := 0 by clearing through a match-all pointer
};

// Inputs of free_pages_prepare that come from page state.
template <class D>
struct FreeInput {
    using Bool = typename D::Bool;
    using Word = typename D::Word;
    Word page_tag{};        // page_kasan_tag(head): stored tag, 0xFF when KASAN is off
    Bool pg_skip_kasan_poison{};  // PG_skip_kasan_poison on the head (v6.0 .. v6.3)
    Bool fpi_skip_kasan_poison{};  // FPI_SKIP_KASAN_POISON: boot/hotplug release (<= v6.3)
};

// vmalloc_fix_flags(): what __vmalloc() passes on, and whether it warned.
template <class D>
struct VmallocFixFlags {
    typename D::Word gfp{};   // flags & GFP_VMALLOC_SUPPORTED
    typename D::Bool warned{};  // some flag was outside it: WARN, and it is gone
};

// The KASAN part of __vmalloc_node_range for a VM_ALLOC area.
template <class D>
struct VmallocPlan {
    using Bool = typename D::Bool;
    using Word = typename D::Word;
    Word page_gfp{};        // gfp for the backing pages (__vmalloc_area_node)
    Word meta_gfp{};        // gfp for the vm_struct / vmap_area metadata
    Bool tagged_mapping{};  // arch_vmap_pgprot_tagged(): Normal-Tagged PTEs
    Bool call_unpoison{};   // kasan_unpoison_vmalloc() is called at all
    Bool flag_init{}, flag_vm_alloc{}, flag_prot_normal{};  // KASAN_VMALLOC_* flags passed
};

// __kasan_unpoison_vmalloc (HW: hw_tags.c; SW/Generic: shadow.c) behind its wrapper.
template <class D>
struct VmallocUnpoison {
    using Bool = typename D::Bool;
    Bool retag{};       // random tag on [start, round_up(size, G)), redzone to the page end,
                        // page tags of the backing pages := tag (HW); shadow (SW/Generic)
    Bool retag_init{};  // ... zeroing data (HW integrated init)
    Bool random_tag{};  // the tag is random (tag modes) rather than 0/none (Generic)
    Bool clear_pages{};  // kasan.vmalloc=off with INIT: clear_highpage_kasan_tagged each page
};

// One granule of one access, as the tag check sees it.
template <class D>
struct TagCheckInput {
    using Bool = typename D::Bool;
    using Word = typename D::Word;
    Bool tcf_on{};          // SCTLR_EL1.TCF != NONE on this CPU (HW)
    Bool write_only{};      // kasan.write_only in effect (HW)
    Bool is_write{};
    Bool tagged_mapping{};  // Normal-Tagged PTE (HW); always true in SW_TAGS
    Word ptr_tag{}, mem_tag{};
};

// kasan_sample_page_alloc (mm/kasan/kasan.h).
template <class D>
struct SampleDecision {
    typename D::Bool tag{};        // this allocation gets tagged
    typename D::Word skip_next{};  // kasan_page_alloc_skip afterwards
};

}  // namespace tagproof::kernel
