// modelled.cpp — see modelled.hpp. The `model` column names the hand rule
// (model/kernel/rules_*.hpp) or the variant-file rule (file_rules.hpp) that
// stands for the function; kernel-semantics.md has each function's logic per era.
#include "modelled.hpp"

namespace tagproof::tree {

const std::vector<Modelled>& modelled_functions() {
    static const std::vector<Modelled> v = {
        // mm/page_alloc.c
        {"post_alloc_hook", "mm/page_alloc.c", "alloc plan, read from the tree into a rule body (tree/lift_body.cpp)"},
        {"free_pages_prepare", "mm/page_alloc.c",
         "free plan: init_on_free by hand; the order of its should_skip_kasan_poison() call read from the tree "
         "(rule free_reads_skip_flag)"},
        {"should_skip_kasan_poison", "mm/page_alloc.c", "free plan, read from the tree into a rule body"},
        {"should_skip_kasan_unpoison", "mm/page_alloc.c", "rule should_skip_kasan_unpoison, read from the tree"},
        {"should_skip_init", "mm/page_alloc.c", "rule should_skip_init, read from the tree"},
        {"want_init_on_alloc", "include/linux/mm.h", "rule want_init_on_alloc, read from the tree"},
        {"kernel_init_pages", "mm/page_alloc.c", "primitive: zeroes the pages through a match-all pointer"},
        {"__free_pages_ok", "mm/page_alloc.c", "free plan"},
        // include/linux/gfp_types.h, gfp.h
        {"GFP_KERNEL", "include/linux/gfp_types.h", "GFP layout of the era"},
        {"GFP_HIGHUSER_MOVABLE", "include/linux/gfp_types.h", "GFP layout of the era"},
        {"__GFP_BITS_SHIFT", "include/linux/gfp_types.h", "GFP_BITS_SHIFT rule"},
        {"__GFP_SKIP_KASAN", "include/linux/gfp_types.h", "GFP layout of the era"},
        {"__GFP_SKIP_KASAN_POISON", "include/linux/gfp.h", "GFP layout of the era"},
        {"__GFP_SKIP_KASAN_UNPOISON", "include/linux/gfp.h", "GFP layout of the era"},
        {"__GFP_SKIP_ZERO", "include/linux/gfp_types.h", "GFP layout of the era"},
        {"__GFP_ZEROTAGS", "include/linux/gfp_types.h", "GFP layout of the era"},
        {"__GFP_ZERO", "include/linux/gfp_types.h", "GFP layout of the era"},
        {"THREADINFO_GFP", "include/linux/thread_info.h", "rule THREADINFO_GFP"},
        {"GFP_PGTABLE_KERNEL", "include/asm-generic/pgalloc.h", "rule GFP_PGTABLE_KERNEL, read with __pte_alloc_one_kernel"},
        {"GFP_PGTABLE_USER", "include/asm-generic/pgalloc.h", "rule GFP_PGTABLE_USER, read with pte_alloc_one"},
        // mm/vmalloc.c
        {"__vmalloc_node_range", "mm/vmalloc.c",
         "rules vmalloc_meta_gfp, vmalloc_tagged_prot, vmalloc_page_skip_flags, vmalloc_prot_normal, vmalloc_init, "
         "vmalloc_vm_alloc, vmalloc_calls_unpoison, read from the tree in part (tree/lift_parts.cpp)"},
        {"__vmalloc_area_node", "mm/vmalloc.c", "vmalloc plan: the pages allocated with the gfp_mask __vmalloc_node_range passes"},
        {"vmalloc_fix_flags", "mm/vmalloc.c", "rule GFP_VMALLOC_SUPPORTED"},
        {"GFP_VMALLOC_SUPPORTED", "mm/vmalloc.c", "rule GFP_VMALLOC_SUPPORTED"},
        {"__get_vm_area_node", "mm/vmalloc.c", "rule vmalloc_meta_gfp"},
        {"vrealloc", "mm/vmalloc.c",
         "feature vrealloc, what its shrink in place zeroes (rule vrealloc_shrink_zeroes) and, where it makes them "
         "itself (v6.15 .. v6.18), its KASAN calls in place: read from the tree in part (tree/lift_kasan_parts.cpp)"},
        {"vrealloc_node_align", "mm/vmalloc.c", "vrealloc (its name from v6.17)"},
        {"__kasan_vrealloc", "mm/kasan/common.c",
         "rules vrealloc_granule_aligned, vrealloc_grow_vm_alloc, vrealloc_grow_keep_tag, read from the tree in part"},
        {"vfree", "mm/vmalloc.c", "vmalloc free plan"},
        {"vmap", "mm/vmalloc.c", "vmap effect"},
        // kernel/fork.c
        {"alloc_thread_stack_node", "kernel/fork.c",
         "rules GFP_VMAP_STACK, cached_stack_unpoison, read from the tree in part (tree/lift_parts.cpp)"},
        {"free_thread_stack", "kernel/fork.c", "stack cache"},
        {"GFP_VMAP_STACK", "kernel/fork.c", "rule GFP_VMAP_STACK"},
        // mm/kasan/*.c, mm/kasan/kasan.h, include/linux/kasan.h
        {"kasan_sample_page_alloc", "mm/kasan/kasan.h",
         "rules sample_eligible, sample_wrapped, sample_reset, read from the tree in part"},
        {"__kasan_unpoison_pages", "mm/kasan/common.c", "primitive kasan_unpoison_pages"},
        {"__kasan_poison_pages", "mm/kasan/common.c",
         "rule kasan_poison_pages_init (the init of its kasan_poison()), read from the tree in part"},
        {"__kasan_slab_alloc", "mm/kasan/common.c",
         "slab_alloc_effect, rule slab_tag_per_alloc; rule slab_alloc_kasan_init read from the tree in part (to v6.7)"},
        {"unpoison_slab_object", "mm/kasan/common.c", "rule slab_alloc_kasan_init, read from the tree in part"},
        {"__kasan_kmalloc", "mm/kasan/common.c", "slab_alloc_effect, rule kmalloc_redzone_start"},
        {"poison_kmalloc_redzone", "mm/kasan/common.c", "rule kmalloc_redzone_start, read from the tree in part"},
        // a kmalloc above KMALLOC_MAX_CACHE_SIZE: pages, its redzone from the rule to the block's end
        {"__kasan_kmalloc_large", "mm/kasan/common.c",
         "rule kmalloc_large_redzone_start, read from the tree in part (before v6.10)"},
        {"poison_kmalloc_large_redzone", "mm/kasan/common.c", "rule kmalloc_large_redzone_start, read from the tree in part"},
        {"____kasan_kmalloc", "mm/kasan/common.c", "rule kmalloc_redzone_start, read from the tree in part (before v6.2)"},
        {"__kasan_krealloc", "mm/kasan/common.c", "krealloc_in_place_effect"},
        {"__kasan_slab_free", "mm/kasan/common.c", "slab free plan"},
        {"slab_free_hook", "mm/slub.c",
         "rule slab_free_still_accessible, read from the tree in part (v6.12 on); the CONFIG_SLUB_RCU_DEBUG deferral "
         "by hand"},
        {"poison_slab_object", "mm/kasan/common.c", "rule slab_free_poisons, read from the tree in part"},
        {"____kasan_slab_free", "mm/kasan/common.c", "rule slab_free_poisons, read from the tree in part (v6.1's name)"},
        {"assign_tag", "mm/kasan/common.c", "rule slab_tag_per_alloc, read from the tree in part"},
        {"__kasan_mempool_poison_pages", "mm/kasan/common.c",
         "rules mempool_check_page_frees, mempool_skip_untagged_pages, read from the tree in part"},
        {"add_element", "mm/mempool.c", "rule mempool_keep_bad_element, read from the tree in part"},
        {"kasan_unpoison_element", "mm/mempool.c", "rule mempool_unpoison_whole_slot, read from the tree in part"},
        {"kasan_poison_element", "mm/mempool.c", "mempool hooks (the page and slab poisoning it calls)"},
        {"__kasan_mempool_unpoison_pages", "mm/kasan/common.c", "mempool hooks"},
        {"__kasan_mempool_poison_object", "mm/kasan/common.c", "mempool hooks"},
        {"__kasan_mempool_unpoison_object", "mm/kasan/common.c", "mempool_element_effect"},
        {"__kasan_unpoison_vmalloc", "mm/kasan/hw_tags.c",
         "vmalloc_area_effect; rules unpoison_vmalloc_off_init, unpoison_vmalloc_tags, unpoison_vmalloc_init, read "
         "from the tree in part"},
        // the helpers __kasan_unpoison_vmalloc calls: what they do to the area is the model's
        {"init_vmalloc_pages", "mm/kasan/hw_tags.c",
         "vmalloc_area_effect: each page of the area cleared (clear_highpage_kasan_tagged)"},
        {"unpoison_vmalloc_pages", "mm/kasan/hw_tags.c", "vmalloc_area_effect: each backing page's tag := the area's"},
        {"__kasan_poison_vmalloc", "mm/kasan/hw_tags.c", "vmalloc free effect"},
        {"kasan_init_hw_tags", "mm/kasan/hw_tags.c", "boot parameters of the era"},
        {"early_kasan_flag_page_alloc_sample", "mm/kasan/hw_tags.c", "boot parameter kasan.page_alloc.sample"},
        {"early_kasan_flag_page_alloc_sample_order", "mm/kasan/hw_tags.c", "boot parameter kasan.page_alloc.sample.order"},
        {"kasan_random_tag", "mm/kasan/kasan.h", "tag range"},
        {"slab_post_alloc_hook", "mm/slub.c", "rule slab_memset_init, read from the tree in part"},
        {"slab_post_alloc_hook", "mm/slab.h", "rule slab_memset_init, read from the tree in part (to v6.7)"},
        {"__do_krealloc", "mm/slab_common.c",
         "krealloc in place: the spare part's zeroing read from the tree (rule krealloc_zeroes_spare)"},
        {"kfence_init", "mm/kfence/core.c", "rule kfence_enabled"},
        {"kasan_has_integrated_init", "include/linux/kasan.h", "slab_memset_init, the init plan"},
        // the wrappers the page allocator calls: nothing unless kasan_enabled() (rules_6_1.hpp)
        {"kasan_unpoison_pages", "include/linux/kasan.h", "primitive kasan_unpoison_pages (its kasan_enabled() test)"},
        {"kasan_poison_pages", "include/linux/kasan.h", "the free plan's poison (its kasan_enabled() test)"},
        {"kasan_hw_tags_enabled", "include/linux/kasan-enabled.h", "runtime predicate"},
        // page tables, user pages, skb
        {"__pte_alloc_one", "include/asm-generic/pgalloc.h", "rule pte_alloc_one_gfp (the gfp it is given, by hand)"},
        {"pte_alloc_one", "include/asm-generic/pgalloc.h", "rule pte_alloc_one_gfp, read from the tree in part"},
        {"pte_alloc_one_kernel", "include/asm-generic/pgalloc.h", "rule pte_alloc_one_kernel_gfp"},
        {"__pte_alloc_one_kernel", "include/asm-generic/pgalloc.h", "rule pte_alloc_one_kernel_gfp, read from the tree in part"},
        {"vma_alloc_zeroed_movable_folio", "arch/arm64/mm/fault.c", "rule user_page_gfp, read from the tree in part"},
        {"alloc_zeroed_user_highpage_movable", "arch/arm64/mm/fault.c",
         "rule user_page_gfp, read from the tree in part (vma_alloc_zeroed_movable_folio before v6.3)"},
        {"alloc_skb_with_frags", "net/core/skbuff.c", "rule alloc_skb_frags_gfp, read from the tree in part"},
        {"skb_page_frag_refill", "net/core/sock.c", "rules skb_frag_gfp, skb_frag_fallback_gfp, read from the tree in part"},
        {"mte_sync_tags", "arch/arm64/kernel/mte.c", "mte_sync_tags_effect"},
        {"get_huge_zero_folio", "mm/huge_memory.c",
         "the huge zero folio event; whether it asks __GFP_ZEROTAGS read from the tree (feature huge_zero_folio_zerotags)"},
        {"get_huge_zero_page", "mm/huge_memory.c",
         "the huge zero folio event (get_huge_zero_folio in newer trees); feature huge_zero_folio_zerotags, read from the tree"},
    };
    return v;
}

std::string without_noprof(const std::string& name) {
    std::string n = name;
    static const std::string np = "_noprof";
    if (n.size() > np.size() && n.compare(n.size() - np.size(), np.size(), np) == 0) n.resize(n.size() - np.size());
    return n;
}

const Modelled* find_modelled(const std::string& name) {
    const std::string n = without_noprof(name);
    for (const auto& m : modelled_functions())
        if (n == m.name) return &m;
    return nullptr;
}

const std::vector<EntryPoint>& entry_points() {
    // The parameter lists are include/linux/gfp.h, slab.h, vmalloc.h, mempool.h, skbuff.h (linux-source-6.12).
    static const std::vector<EntryPoint> v = {
        {"alloc_pages", "alloc_pages", 0},         {"alloc_pages_node", "alloc_pages", 1},
        {"__alloc_pages", "alloc_pages", 0},       {"__get_free_pages", "alloc_pages", 0},
        {"get_zeroed_page", "alloc_pages", 0},     {"folio_alloc", "alloc_pages", 0},
        {"free_pages", "free_pages", -1},          {"__free_pages", "free_pages", -1},
        {"kmalloc", "kmalloc", 1},                 {"kzalloc", "kzalloc", 1},
        {"kmalloc_array", "kmalloc", 2},           {"kcalloc", "kzalloc", 2},
        {"krealloc", "krealloc", 2},               {"kfree", "kfree", -1},
        {"kmem_cache_alloc", "kmem_cache_alloc", 1}, {"kmem_cache_zalloc", "kmem_cache_alloc", 1},
        {"kmem_cache_free", "kmem_cache_free", -1},
        {"vmalloc", "vmalloc", -1},                {"vzalloc", "vzalloc", -1},
        {"__vmalloc", "vmalloc", 1},               {"__vmalloc_node", "vmalloc", 2},
        {"__vmalloc_node_range", "vmalloc", 4},    {"vmalloc_huge", "vmalloc_huge", 1},
        {"vrealloc", "vrealloc", 2},               {"vfree", "vfree", -1},
        {"kvmalloc", "kmalloc", 1},                {"kvzalloc", "kzalloc", 1},
        {"kvfree", "kfree", -1},                   {"vmap", "vmap", -1},
        {"vunmap", "vunmap", -1},                  {"mempool_alloc", "mempool_alloc", 1},
        {"mempool_free", "mempool_free", -1},      {"alloc_skb_with_frags", "alloc_skb_with_frags", 4},
    };
    return v;
}

const EntryPoint* find_entry_point(const std::string& callee) {
    const std::string n = without_noprof(callee);
    for (const auto& e : entry_points())
        if (n == e.name) return &e;
    return nullptr;
}

}  // namespace tagproof::tree
