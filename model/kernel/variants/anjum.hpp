// variants/anjum.hpp — "KASAN: HW_TAGS: Disable tagging for stack and
// page-tables" (Muhammad Usama Anjum), on v7.0-rc1. Seeds 000 (v2) and 001 (v4).
//
//   1/3 vmalloc: add __GFP_SKIP_KASAN support        -> vmalloc_node_range()
//   2/3 kasan: skip HW tagging for all kernel stacks -> THREADINFO_GFP, GFP_VMAP_STACK,
//                                                        cached_stack_unpoison()
//   3/3 mm: skip KASAN tagging for page-allocated page tables -> GFP_PGTABLE_KERNEL
#pragma once
#include "linux.hpp"

namespace tagproof::kernel {

// v2, exactly as seed 000.
template <class Self>
struct anjum_v2_rules : rules_7_0<Self> {
    // The cover letter: "coverage is unchanged" outside HW_TAGS; stacks and
    // page-allocated page tables are no longer tagged; vmalloc honours
    // __GFP_SKIP_KASAN.
    static Claims claims() {
        return {ChangeScope::hw_tags_active,
                {{Caller::thread_stack, "", false, "2/3 skip HW tagging for all kernel stacks"},
                 {Caller::pgtable_kernel, "", false, "3/3 skip KASAN tagging for page-allocated page tables"},
                 {Caller::pgtable_user, "", false, "3/3 (GFP_PGTABLE_USER is GFP_PGTABLE_KERNEL | __GFP_ACCOUNT)"},
                 {Caller::vmalloc, "__GFP_SKIP_KASAN", false, "1/3 vmalloc: add __GFP_SKIP_KASAN support"}},
                "HW_TAGS: disable tagging for stack and page-tables; no change for Generic and SW_TAGS"};
    }
    // 2/3: THREADINFO_GFP and GFP_VMAP_STACK gain __GFP_SKIP_KASAN.
    template <class D>
    static typename D::Word THREADINFO_GFP(const KasanEnv<D>& e) {
        return e.gfp.GFP_KERNEL_ACCOUNT | e.gfp.ZERO | e.gfp.SKIP_KASAN;
    }
    template <class D>
    static typename D::Word GFP_VMAP_STACK(const KasanEnv<D>& e) {
        return e.gfp.GFP_KERNEL | e.gfp.ZERO | e.gfp.SKIP_KASAN;
    }
    // 2/3: "When reusing cached vmap stacks, skip kasan_unpoison_range() if HW tags are enabled."
    template <class D>
    static typename D::Bool cached_stack_unpoison(const KasanEnv<D>& e) { return !e.kasan_hw_tags_enabled(); }
    // 3/3: GFP_PGTABLE_KERNEL (and so GFP_PGTABLE_USER) gain __GFP_SKIP_KASAN.
    template <class D>
    static typename D::Word GFP_PGTABLE_KERNEL(const KasanEnv<D>& e) {
        return e.gfp.GFP_KERNEL | e.gfp.ZERO | e.gfp.SKIP_KASAN;
    }
    // 1/3 (v2): skip_kasan = gfp & __GFP_SKIP_KASAN; then no tagged prot, no
    // SKIP_KASAN|SKIP_ZERO for the pages, and no KASAN_VMALLOC_PROT_NORMAL, so
    // kasan_unpoison_vmalloc() returns early. Metadata gets the caller's gfp.
    template <class D>
    static typename D::Bool vmalloc_skip(const KasanEnv<D>& e, typename D::Word gfp) {
        return D::any(gfp, e.gfp.SKIP_KASAN);
    }
    template <class D>
    static typename D::Bool vmalloc_prot_normal(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word gfp_mask) {
        return !Self::vmalloc_skip(e, gfp);  // if (!skip_kasan) kasan_flags |= KASAN_VMALLOC_PROT_NORMAL;
    }
    // 1/3 (v1 -> v2): "Add __GFP_SKIP_KASAN to GFP_VMALLOC_SUPPORTED list of flags",
    // so a __vmalloc() caller's flag is not stripped (kept by v3 and v4).
    template <class D>
    static typename D::Word GFP_VMALLOC_SUPPORTED(const KasanEnv<D>& e) {
        return rules_7_0<Self>::GFP_VMALLOC_SUPPORTED(e) | e.gfp.SKIP_KASAN;
    }
};

// v3 (seed 001's changelog): "Directly skip kasan_unpoison_vmalloc() for
// GFP_SKIP_KASAN in patch 1" — PROT_NORMAL is noted as before, the call is skipped.
template <class Self>
struct anjum_v3_rules : anjum_v2_rules<Self> {
    template <class D>
    static typename D::Bool vmalloc_prot_normal(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word gfp_mask) {
        return D::boolean(true);
    }
    template <class D>
    static typename D::Bool vmalloc_calls_unpoison(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word gfp_mask) {
        return !Self::vmalloc_skip(e, gfp);
    }
};

// v4 (seed 001): the skip is honoured only when HW tags are active, and the
// vm area metadata is allocated without the flag.
template <class Self>
struct anjum_v4_rules : anjum_v3_rules<Self> {
    template <class D>
    static typename D::Bool vmalloc_skip(const KasanEnv<D>& e, typename D::Word gfp) {
        return e.kasan_hw_tags_enabled() && D::any(gfp, e.gfp.SKIP_KASAN);
    }
    template <class D>
    static typename D::Word vmalloc_meta_gfp(const KasanEnv<D>& e, typename D::Word gfp) {
        return gfp & ~e.gfp.SKIP_KASAN;
    }
};

struct anjum_v2 final : anjum_v2_rules<anjum_v2> {
    static constexpr const char* name = "anjum-v2";
    static constexpr const char* next_version = "anjum-v3";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary =
        "linux-7.0 + seed 000: stacks and page-allocated page tables skip HW tagging (v2)";
};
struct anjum_v3 final : anjum_v3_rules<anjum_v3> {
    static constexpr const char* name = "anjum-v3";
    static constexpr const char* next_version = "anjum-v4";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary =
        "linux-7.0 + v3: vmalloc skips kasan_unpoison_vmalloc() directly on __GFP_SKIP_KASAN";
};
struct anjum_v4 final : anjum_v4_rules<anjum_v4> {
    static constexpr const char* name = "anjum-v4";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary =
        "linux-7.0 + v4 (seed 001): skip honoured only with HW tags active; metadata without the flag";
};

// The 2026 mm tree: linux-7.0 + the Anjum series (v4) + Hildenbrand's
// "fix initialization of tags of the huge zero folio with init_on_free":
// ZEROTAGS no longer gated on init; tag_clear_highpages(page, n, clear_pages).
template <class Self>
struct mm_2026_rules : anjum_v4_rules<Self> {
    // The ZEROTAGS fix changes every MTE system, not only HW_TAGS KASAN.
    static Claims claims() {
        Claims c = anjum_v4_rules<Self>::claims();
        c.changes = ChangeScope::any;
        c.text = "the Anjum series, and huge zero folio tags zeroed even with init_on_free (every MTE system)";
        return c;
    }
    // post_alloc_hook: `zero_tags = gfp_flags & __GFP_ZEROTAGS`, no longer gated
    // on init; tag_clear_highpages(page, n, init) zeroes the data only if init.
    template <class D>
    static typename D::Bool zero_tags(const KasanEnv<D>& e, typename D::Word gfp, typename D::Bool init) {
        return D::any(gfp, e.gfp.ZEROTAGS);
    }
    // "mm/kfence: disable KFENCE upon KASAN HW tags enablement" (Potapenko,
    // mm-hotfixes 2026-02-24, Cc stable): kfence_alloc_pool_and_metadata()
    // frees the pool when kasan_hw_tags_enabled(); the late pool had faulted.
    template <class D>
    static typename D::Bool kfence_enabled(const KasanEnv<D>& e) {
        return e.kfence && !e.kasan_hw_tags_enabled();
    }
};
struct mm_2026 final : mm_2026_rules<mm_2026> {
    static constexpr const char* name = "mm-2026";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary =
        "2026 mm tree: linux-7.0 + anjum-v4 + ZEROTAGS fix (tags zeroed even with init_on_free)";
};

}  // namespace tagproof::kernel
