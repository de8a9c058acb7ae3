// rule_list.hpp — the rules a variant file may override (scenario/variant-files.md),
// as one X-macro list: file_rules.hpp defines each over the value domain,
// variant_file.cpp makes the reader's table from it, and rule_codes.hpp numbers
// them so that an expression's call of a rule is resolved once, when it is read.
#pragma once

// Every rule a variant file may override: X0(name, result) for a rule of the
// environment alone, X1(name, result, param, its type), X2(...). A result or
// parameter is a Word (a GFP mask, an order), a Long (a C long: compared
// signed, as the sampling counter is) or a Bool (a condition).
#define TAGPROOF_FILE_RULES(X0, X1, X2)                   \
    X0(THREADINFO_GFP, Word)                              \
    X0(GFP_VMAP_STACK, Word)                              \
    X0(GFP_PGTABLE_KERNEL, Word)                          \
    X0(GFP_PGTABLE_USER, Word)                            \
    X0(pte_alloc_one_kernel_gfp, Word)                    \
    X0(pte_alloc_one_gfp, Word)                           \
    X0(GFP_VMALLOC_SUPPORTED, Word)                       \
    X0(skb_frag_gfp, Word)                                \
    X0(skb_frag_fallback_gfp, Word)                       \
    X0(vmalloc_page_skip_flags, Word)                     \
    X0(cached_stack_unpoison, Bool)                       \
    X0(kfence_enabled, Bool)                              \
    X0(free_reads_skip_flag, Bool)                        \
    X0(mempool_check_page_frees, Bool)                    \
    X0(mempool_skip_untagged_pages, Bool)                 \
    X0(mempool_keep_bad_element, Bool)                    \
    X0(mempool_unpoison_whole_slot, Bool)                 \
    X0(vrealloc_granule_aligned, Bool)                    \
    X0(vrealloc_grow_vm_alloc, Bool)                      \
    X0(vrealloc_grow_keep_tag, Bool)                      \
    X1(user_page_gfp, Word, vm_mte, Bool)                 \
    X1(slab_tag_per_alloc, Bool, ctor_or_rcu, Bool)       \
    X1(slab_free_poisons, Bool, still_accessible, Bool)   \
    X1(slab_alloc_kasan_init, Bool, init, Bool)           \
    X2(slab_free_still_accessible, Bool, typesafe_by_rcu, Bool, after_rcu_delay, Bool) \
    X1(slab_memset_init, Bool, init, Bool)                \
    X1(kmalloc_redzone_start, Word, size, Word)           \
    X1(kmalloc_large_redzone_start, Word, size, Word)     \
    X1(krealloc_zeroes_spare, Bool, gfp, Word)            \
    X1(vrealloc_shrink_zeroes, Bool, gfp, Word)           \
    X1(alloc_skb_frags_gfp, Word, gfp, Word)              \
    X1(skb_frags_order_after_failure, Word, order, Word)  \
    X2(skb_with_frags_fits, Bool, data_len, Word, order, Word) \
    X1(vmalloc_meta_gfp, Word, gfp, Word)                 \
    X1(vmalloc_skip, Bool, gfp, Word)                     \
    X1(vmalloc_tagged_prot, Bool, gfp, Word)              \
    X2(vmalloc_prot_normal, Bool, gfp, Word, gfp_mask, Word)    \
    X2(vmalloc_calls_unpoison, Bool, gfp, Word, gfp_mask, Word) \
    X2(vmalloc_init, Bool, gfp, Word, gfp_mask, Word)           \
    X2(vmalloc_vm_alloc, Bool, gfp, Word, gfp_mask, Word)       \
    X1(unpoison_vmalloc_off_init, Bool, init, Bool)       \
    X2(unpoison_vmalloc_tags, Bool, vm_alloc, Bool, prot_normal, Bool) \
    X1(unpoison_vmalloc_init, Bool, init, Bool)           \
    X1(reset_tags_initially, Bool, zero_tags, Bool)       \
    X2(zero_tags, Bool, gfp, Word, init, Bool)            \
    X2(sample_eligible, Bool, order, Word, gfp, Word)     \
    X1(free_poison_init, Bool, init, Bool)                \
    X1(kasan_poison_pages_init, Bool, init, Bool)         \
    X1(free_init_after_poison, Bool, init, Bool)          \
    X1(free_kernel_init, Bool, init, Bool)                \
    X1(sample_wrapped, Bool, left, Long)                  \
    X0(sample_reset, Word)                                \
    X1(want_init_on_alloc, Bool, gfp, Word)               \
    X1(should_skip_init, Bool, gfp, Word)                 \
    X1(should_skip_kasan_unpoison, Bool, gfp, Word)

