// variants/sample.hpp — Konovalov's page_alloc sampling series before merge.
#pragma once
#include "linux.hpp"

namespace tagproof::kernel {

// sample-v3 (seed 002) as posted: post_alloc_hook starts with
// reset_tags = !zero_tags, so a ZEROTAGS page keeps whatever page tag it had
// (tag_clear_highpage no longer resets it since 70c248aca9e7). Fixed before
// merge by "kasan: reset page tags properly with sampling" (linux-6.3).
template <class Self>
struct sample_v3_rules : rules_6_3<Self> {
    // Sampling as the kernel's documented coverage reduction (requirements.hpp
    // allows it for orders >= kasan.page_alloc.sample.order): nothing more.
    static Claims claims() {
        return {ChangeScope::hw_tags_active, {}, "kasan.page_alloc.sample: HW_TAGS only, coverage unchanged elsewhere"};
    }
    // The fix "reset page tags properly with sampling" starts from true.
    template <class D>
    static typename D::Bool reset_tags_initially(const KasanEnv<D>& e, typename D::Bool zero_tags) { return !zero_tags; }
};

// sample-v2 (seed 003): sampling applies only to allocations that carry the
// new __GFP_KASAN_SAMPLE flag (skb page allocations are marked), whatever
// their order; there is no kasan.page_alloc.sample.order. The flag is a
// HW_TAGS-only bit placed after the KASAN bits; the posted patch 1/2 was not
// in the corpus, so its bit value is our assumption (see docs/variants.md).
template <class Self>
struct sample_v2_rules : sample_v3_rules<Self> {
    static std::vector<GfpExtraFlag> extra_gfp_flags() { return {{"__GFP_KASAN_SAMPLE", true}}; }
    // patch 1/2 grows __GFP_BITS_SHIFT by the new bit (our reading; see docs/variants.md)
    static int GFP_BITS_SHIFT(const GfpBits& b) { return sample_v3_rules<Self>::GFP_BITS_SHIFT(b) + 1; }
    static BootParamSyntax boot_syntax() {
        BootParamSyntax s = sample_v3_rules<Self>::boot_syntax();
        s.page_alloc_sample_order = false;
        return s;
    }
    template <class D>
    static typename D::Bool sample_eligible(const KasanEnv<D>& e, typename D::Word order, typename D::Word gfp) {
        return D::any(gfp, e.gfp.KASAN_SAMPLE);
    }
    // Marked allocations are sampled whatever their order.
    static Claims claims() {
        Claims c = sample_v3_rules<Self>::claims();
        c.untags = {{Caller::alloc_pages, "__GFP_KASAN_SAMPLE", true, "sampling for marked allocations only"},
                    {Caller::skb_frag, "", true, "skb page allocations are marked __GFP_KASAN_SAMPLE"}};
        return c;
    }
    // Seed 003 marks both call sites: skb_page_frag_refill's order-3 attempt
    // and alloc_skb_with_frags' high-order frags (its order-0 frags and the
    // refill's order-0 fallback stay unmarked, so they are always tagged).
    template <class D>
    static typename D::Word skb_frag_gfp(const KasanEnv<D>& e) {
        return rules_6_1<Self>::skb_frag_gfp(e) | e.gfp.KASAN_SAMPLE;
    }
    template <class D>
    static typename D::Word alloc_skb_frags_gfp(const KasanEnv<D>& e, typename D::Word gfp) {
        return rules_6_1<Self>::alloc_skb_frags_gfp(e, gfp) | e.gfp.KASAN_SAMPLE;
    }
};

// The series on the tree it was posted on (Nov/Dec 2022, v6.1 with
// 487a32ec24be): free_pages_prepare() reads PG_skip_kasan_poison after the
// page flags are cleared, so the flag post_alloc_hook sets for a sampled-out
// page is never seen and the page is poisoned at free anyway: the tagging
// work sampling saved at allocation is spent again at free, and the page's
// memory tags are set although it was never unpoisoned. The revert that
// fixed the ordering (v6.3) is what sample-v2/v3 above are built on.
template <class Rules>
struct as_posted_on_6_1 : Rules {
    // v6.1's gfp.h: __GFP_ATOMIC still has its bit (2973d8229b78 "mm:
    // discard __GFP_ATOMIC" came in v6.3); the GFP_BITS_SHIFT rule is the
    // series' own (27 + LOCKDEP in both eras).
    static constexpr GfpEra gfp_era = GfpEra::v6_1;
    template <class D>
    static typename D::Bool free_reads_skip_flag(const KasanEnv<D>& e) {
        return D::boolean(false);  // v6.1 (487a32ec24be): after the page flags are cleared
    }
};

struct sample_v3 final : sample_v3_rules<sample_v3> {
    static constexpr const char* name = "sample-v3";
    static constexpr const char* baseline = "linux-6.3";
    static constexpr const char* summary =
        "seed 002 as posted: sampling by order, before the page-tag reset fix (reset_tags = !zero_tags)";
};
struct sample_v2 final : sample_v2_rules<sample_v2> {
    static constexpr const char* name = "sample-v2";
    static constexpr const char* next_version = "sample-v3";
    static constexpr const char* baseline = "linux-6.3";
    static constexpr const char* summary =
        "seed 003: sampling only for allocations marked __GFP_KASAN_SAMPLE (skb pages)";
};

struct sample_v3_as_posted final : as_posted_on_6_1<sample_v3_rules<sample_v3_as_posted>> {
    static constexpr const char* name = "sample-v3-as-posted";
    static constexpr const char* baseline = "linux-6.1";
    static constexpr const char* summary =
        "seed 002 on its v6.1 base: sampled-out pages flagged PG_skip_kasan_poison, the flag never seen at free";
};
struct sample_v2_as_posted final : as_posted_on_6_1<sample_v2_rules<sample_v2_as_posted>> {
    static constexpr const char* name = "sample-v2-as-posted";
    static constexpr const char* next_version = "sample-v3-as-posted";
    static constexpr const char* baseline = "linux-6.1";
    static constexpr const char* summary = "seed 003 on its v6.1 base: marked skb pages sampled, poisoned at free anyway";
};

}  // namespace tagproof::kernel
