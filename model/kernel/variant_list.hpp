// variant_list.hpp — every built-in variant and mutant type, once. The
// concrete registry (registry.cpp) and the solver's (solver/sym_registry.cpp)
// both expand these lists, so a new variant is added in one place.
#pragma once
#include "variants/anjum.hpp"
#include "variants/controls.hpp"
#include "variants/linux.hpp"
#include "variants/mutants.hpp"
#include "variants/sample.hpp"

// In the order `tagproof variants` lists them.
#define TAGPROOF_BUILTIN_VARIANTS(X) \
    X(linux_6_1) X(linux_6_3) X(linux_6_4) X(linux_7_0) X(mm_2026) X(anjum_v2) X(anjum_v3) X(anjum_v4) \
    X(sample_v2) X(sample_v3) X(sample_v2_as_posted) X(sample_v3_as_posted) X(vrealloc_v6_15)

#define TAGPROOF_MUTANTS(X)                                                                                  \
    X(mutant_no_tcma) X(mutant_invalid_matches) X(mutant_skip_no_reset) X(mutant_no_free_poison)            \
    X(mutant_skip_drops_zero) X(mutant_match_all_tag) X(mutant_sample_off_by_one) X(mutant_skip_in_software) \
    X(mutant_gfp_bit_outside_mask) X(control_pgtable_no_zero) X(control_stack_no_zero) X(control_untag_comp)      \
    X(control_unclaimed_untag) X(control_claimed_untag) X(control_copy_of_sample_v3)     \
    X(control_stack_zero_needs_tags) X(control_vmalloc_drops_zero) X(control_rcu_debug_not_deferred) \
    X(control_rcu_poisoned_at_free) X(control_mempool_whole_slot) X(control_sync_tags_hw_only) \
    X(control_page_tag_plain) X(control_vmap_tags_pages) \
    X(control_reset_after_unpoison) X(mutant_write_only_unchecked)
