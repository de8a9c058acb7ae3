// variants/mutants.hpp — deliberately broken variants: negative controls.
//
// Every invariant of DESIGN §4 must report a counterexample on at least one
// of these; tests/ checks that it does. Each mutant changes one rule of a
// real variant and says which invariant should catch it.
#pragma once
#include "anjum.hpp"
#include "sample.hpp"

namespace tagproof::kernel {

// 4 detection: pages are never poisoned at free -> page use-after-free unseen.
struct mutant_no_free_poison final : rules_7_0<mutant_no_free_poison> {
    static constexpr const char* name = "mutant-no-free-poison";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0, free_pages_prepare never poisons (breaks detection)";
    static constexpr bool mutant = true;
    template <class D>
    static FreePlan<D> free_pages_prepare(const KasanEnv<D>& e, const FreeInput<D>& in) {
        FreePlan<D> f = rules_7_0<mutant_no_free_poison>::free_pages_prepare(e, in);
        f.kernel_init = f.kernel_init || f.poison_init;
        f.poison = D::boolean(false);
        f.poison_init = D::boolean(false);
        return f;
    }
};

// 1 match-all-never-faults: TCMA1 not set, 0xFF pointers are checked.
struct mutant_no_tcma final : rules_7_0<mutant_no_tcma> {
    static constexpr const char* name = "mutant-no-tcma";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 without TCR_EL1.TCMA1: match-all pointers are checked";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Bool ptr_tag_match_all(const KasanEnv<D>& e, typename D::Word ptr_tag) {
        return D::boolean(false);
    }
};

// 2 mismatch-faults: memory tag 0xFE treated as matching (an old
// kasan_byte_accessible shape turned inside out).
struct mutant_invalid_matches final : rules_7_0<mutant_invalid_matches> {
    static constexpr const char* name = "mutant-invalid-matches";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose tag check lets memory tag 0xFE match any pointer";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Bool tag_mismatch(const KasanEnv<D>& e, typename D::Word ptr_tag, typename D::Word mem_tag) {
        return rules_7_0<mutant_invalid_matches>::tag_mismatch(e, ptr_tag, mem_tag) &&
               (mem_tag & D::lit(0xF)) != D::lit(KASAN_TAG_INVALID & 0xF);
    }
};

// 2 mismatch-faults, only with kasan.write_only=on: the store-only check
// inverted, so writes go unchecked too (SCTLR_EL1.TCSO read as "no checks").
// The default boot is sync without write_only: an engine that looks only
// there cannot see it (the trace BMC ranges over kasan.mode and write_only).
struct mutant_write_only_unchecked final : rules_7_0<mutant_write_only_unchecked> {
    static constexpr const char* name = "mutant-write-only-unchecked";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose kasan.write_only=on leaves writes unchecked too";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Bool granule_check_faults(const KasanEnv<D>& e, const TagCheckInput<D>& in) {
        TagCheckInput<D> none = in;
        none.tcf_on = in.tcf_on && !in.write_only;
        return rules_7_0<mutant_write_only_unchecked>::granule_check_faults(e, none);
    }
};

// 7 tag-range: random tags may be 0xFE or 0xFF (GCR_EL1 exclude mask empty).
struct mutant_match_all_tag final : rules_7_0<mutant_match_all_tag> {
    static constexpr const char* name = "mutant-match-all-tag";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 with an empty IRG exclude mask: random tags up to 0xFF";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Word random_tag_max(const KasanEnv<D>& e) { return D::lit(KASAN_TAG_KERNEL); }
};

// 3 no-false-positive / 6 page-tag-consistency: the skip path forgets
// page_kasan_tag_reset(), so page_address() carries a stale tag.
struct mutant_skip_no_reset final : rules_7_0<mutant_skip_no_reset> {
    static constexpr const char* name = "mutant-skip-no-reset";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 whose skip path keeps the old page tag";
    static constexpr bool mutant = true;
    template <class D>
    static PostAllocPlan<D> post_alloc_hook(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word order,
                                            typename D::Word skip) {
        PostAllocPlan<D> p = rules_7_0<mutant_skip_no_reset>::post_alloc_hook(e, gfp, order, skip);
        p.reset_page_tag = D::boolean(false);
        return p;
    }
};

// 5 zeroing: when unpoisoning is skipped, __GFP_ZERO is forgotten.
struct mutant_skip_drops_zero final : rules_7_0<mutant_skip_drops_zero> {
    static constexpr const char* name = "mutant-skip-drops-zero";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "linux-7.0 that does not clear pages whose unpoisoning was skipped";
    static constexpr bool mutant = true;
    template <class D>
    static PostAllocPlan<D> post_alloc_hook(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word order,
                                            typename D::Word skip) {
        PostAllocPlan<D> p = rules_7_0<mutant_skip_drops_zero>::post_alloc_hook(e, gfp, order, skip);
        p.kernel_init = p.kernel_init && p.unpoison;
        return p;
    }
};

// 8 sampling-accounting: the counter is reset to N instead of N-1, so one
// in N+1 eligible allocations is tagged.
struct mutant_sample_off_by_one final : rules_6_4<mutant_sample_off_by_one> {
    static constexpr const char* name = "mutant-sample-off-by-one";
    static constexpr const char* baseline = "linux-6.4";
    static constexpr const char* summary = "linux-6.4 whose sampling counter is reset to N (tags 1 in N+1)";
    static constexpr bool mutant = true;
    template <class D>
    static SampleDecision<D> kasan_sample_page_alloc(const KasanEnv<D>& e, typename D::Word order,
                                                     typename D::Word gfp, typename D::Word skip) {
        SampleDecision<D> s = rules_6_4<mutant_sample_off_by_one>::kasan_sample_page_alloc(e, order, gfp, skip);
        auto off = !e.hw_tags || e.sample == D::lit(1) || D::ult(order, e.sample_order);
        auto wrapped = D::slt(D::sub(skip, D::lit(1)), D::lit(0));
        s.skip_next = D::ite(!off && wrapped, e.sample, s.skip_next);
        return s;
    }
};

// 9 mode-isolation: the vmalloc skip also fires for zeroed allocations in
// software modes, so Generic / SW_TAGS vzalloc and stacks lose their shadow.
struct mutant_skip_in_software final : anjum_v4_rules<mutant_skip_in_software> {
    static constexpr const char* name = "mutant-skip-in-software";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary = "anjum-v4 whose vmalloc skip also fires in software KASAN modes";
    static constexpr bool mutant = true;
    template <class D>
    static typename D::Bool vmalloc_skip(const KasanEnv<D>& e, typename D::Word gfp) {
        return anjum_v4_rules<mutant_skip_in_software>::vmalloc_skip(e, gfp) ||
               (e.software_kasan() && D::any(gfp, e.gfp.ZERO));
    }
};

// 10 gfp-encoding: sample-v2's new bit without growing __GFP_BITS_SHIFT.
struct mutant_gfp_bit_outside_mask final : sample_v2_rules<mutant_gfp_bit_outside_mask> {
    static constexpr const char* name = "mutant-gfp-bit-outside-mask";
    static constexpr const char* baseline = "linux-6.3";
    static constexpr const char* summary = "sample-v2 whose __GFP_KASAN_SAMPLE lies outside __GFP_BITS_MASK";
    static constexpr bool mutant = true;
    static int GFP_BITS_SHIFT(const GfpBits& b) { return rules_6_3<mutant_gfp_bit_outside_mask>::GFP_BITS_SHIFT(b); }
};

}  // namespace tagproof::kernel
