// obligations/parts.hpp — what the rooms of solver/obligations/ share: the
// helpers that read a model or build a common sub-query, and one builder per
// obligation, which obligations.cpp (the registry) lists. Internal to the
// solver; callers use all_obligations() (obligation.hpp).
#pragma once
#include <cstdint>
#include <string>

#include "requirements.hpp"
#include "effects.hpp"
#include "../obligation.hpp"

namespace tagproof::solver::ob {

using kernel::BlockState;
using kernel::FreeInput;
using kernel::PostAllocPlan;
using kernel::TagCheckInput;
using S = Symbolic;

// ---- reading a model (common.cpp) ----
std::uint64_t num(const z3::model& m, const z3::expr& e);
bool truth(const z3::model& m, const z3::expr& e);
std::string hex(std::uint64_t v);
std::string header(const Builder& b, const z3::model& m, const std::string& name, const std::string& doc,
                   const std::string& extra_config = "");
std::string gfp_text(const Builder& b, const z3::model& m, const z3::expr& gfp);

// ---- sub-queries several obligations share (common.cpp) ----
TagCheckInput<S> plain_access(Builder& b, const z3::expr& ptr, const z3::expr& mem);
z3::expr read_faults(Builder& b, const z3::expr& ptr, const z3::expr& mem, const z3::expr& off,
                     const z3::expr& tagged_mapping);
// A page allocation from a symbolic old state: the stored page tag and memory
// tag of whoever had the page before (arbitrary), a reachable sampling counter.
struct PageAlloc {
    z3::expr gfp, order, skip, T, P_old, M_old;
    PostAllocPlan<S> plan;
    z3::expr page_tag, mem, ptr;  // after the allocation; ptr = page_address()'s tag
    z3::expr zeroed;              // the data reads zero (tag_clear_data, integrated init, or kernel_init)
    z3::expr mte;  // the MTE allocation tag after it (mem in HW_TAGS; user space's store otherwise)
};
PageAlloc page_alloc(Builder& b, Query& q, const z3::expr& gfp);
std::string page_alloc_scenario(const Builder& b, const z3::model& m, const PageAlloc& a, const std::string& name,
                                const std::string& invariant, bool secret);
// (prot_kernel: a vmalloc caller's mapping is PAGE_KERNEL; false for executable memory)
kernel::Requirement<S> need(const Builder& b, kernel::Caller c, const z3::expr& gfp, const z3::expr& order,
                            bool prot_kernel = true);
z3::expr coverage_lost(const Builder& b, kernel::Caller c, const z3::expr& gfp, const z3::expr& order,
                       const z3::expr& ptr);
BlockState<S> mapped_user_page(const SymVariant& v, const SEnv& e, const PostAllocPlan<S>& plan,
                               const BlockState<S>& allocated, const z3::expr& vm_mte);
struct ByteAccess {
    z3::expr mem, faults;
};
ByteAccess object_byte_access(Builder& b, Query& q, const kernel::SlabAllocEffect<S>& fx, const z3::expr& size,
                              const z3::expr& off);
z3::expr oob_missed(Builder& b, const kernel::SlabAllocEffect<S>& fx, const z3::expr& size, const z3::expr& fx_size,
                    const z3::expr& object_size, const z3::expr& off, Query& q);
z3::expr supported_flags(Builder& b, bool with_new_callers);

// ---- the obligations, one builder each, by room ----
// access.cpp: the tag check, page allocation and free
Query access_query(Builder& b, bool match_all);
Query alloc_pages_query(Builder& b, bool consistency);
Query free_pages_query(Builder& b, bool consistency);
// pages.cpp: zeroing and coverage of page allocations and their callers' sites
// The kernel callers whose GFP constant is the code under review: what they
// pass (the variant's constant) against what they need (the table).
enum class Site { pgtable_kernel, pgtable_user, thread_info, skb, skb_frags };
const char* site_name(Site s);
Query zeroing_query(Builder& b);
Query huge_zero_query(Builder& b);
Query user_page_mte_query(Builder& b);
Query zeroing_site_query(Builder& b, Site s);
Query coverage_site_query(Builder& b, Site s);
Query coverage_alloc_pages_query(Builder& b);
Query zeroing_skb_with_frags_query(Builder& b);
// vmalloc.cpp: __vmalloc, vmap, vrealloc
Query zeroing_vmalloc_query(Builder& b);
Query zeroing_vmap_stack_query(Builder& b);
Query coverage_vmalloc_query(Builder& b);
Query no_false_positive_vmalloc_query(Builder& b);
Query no_false_positive_vmalloc_exec_query(Builder& b);
Query no_false_positive_vmap_query(Builder& b);
Query zeroing_vrealloc_huge_query(Builder& b);
Query zeroing_vrealloc_shrink_query(Builder& b);
Query no_false_positive_vrealloc_query(Builder& b);
Query detection_vrealloc_query(Builder& b);
// slab.cpp: kmalloc, krealloc, kmem_cache_free, the cached stack
Query zeroing_kmalloc_query(Builder& b);
Query coverage_kmalloc_query(Builder& b);
Query no_false_positive_kmalloc_query(Builder& b);
Query no_false_positive_krealloc_query(Builder& b);
Query zeroing_krealloc_query(Builder& b);
Query detection_oob_kmalloc_query(Builder& b);
Query detection_slab_free_query(Builder& b);
Query no_false_positive_slab_free_query(Builder& b);
Query no_false_positive_cached_stack_query(Builder& b);
// mempool.cpp
Query no_false_positive_mempool_query(Builder& b);
Query detection_oob_mempool_query(Builder& b);
Query no_false_positive_mempool_page_query(Builder& b);
Query page_tag_mempool_page_query(Builder& b);
// sampling.cpp: the tag range and the sampling counter
Query tag_range_query(Builder& b);
Query sampling_bmc_query(Builder& b);
Query sampling_induction_query(Builder& b);
// isolation.cpp: equivalence against the baseline, the GFP encoding
// The build and runtime states compared: where the variant claims no change
// (each state its own obligation, so a verdict names it), or where it does.
enum class Region { none, generic, sw_tags, hw_inactive, hw_active };
const char* region_name(Region r);
enum class Entry { alloc_pages, free_pages, vmalloc, vmap_stack, cached_stack, pgtable_kernel, pgtable_user, thread_info, user_page, skb,
                   skb_fallback, skb_frags, kfence, gfp_layout, slab, mempool };
const char* entry_name(Entry en);
Query isolation_query(Builder& b, Entry en, Region rg);
Query vmalloc_internals_query(Builder& b, int field);
Query gfp_encoding_query(Builder& b);

}  // namespace tagproof::solver::ob
