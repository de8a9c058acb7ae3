// rules_6_3.hpp — v6.3: page_alloc sampling as merged (kernel-semantics §2(b),
// §3.2), with "kasan: reset page tags properly with sampling", and the revert
// that computes should_skip_kasan_poison before the page flags are cleared.
#pragma once
#include "rules_6_1.hpp"

namespace tagproof::kernel {

template <class Self>
struct rules_6_3 : rules_6_1<Self> {
    static constexpr GfpEra gfp_era = GfpEra::v6_3;
    static BootParamSyntax boot_syntax() {
        BootParamSyntax s = rules_6_1<Self>::boot_syntax();
        s.page_alloc_sample = true;
        s.page_alloc_sample_order = true;
        return s;
    }

    // mm/kasan/kasan.h kasan_sample_page_alloc(): per CPU, of the allocations
    // with order >= sample.order the 1st, (N+1)th, ... are tagged. HW_TAGS only.
    template <class D>
    static typename D::Bool sample_eligible(const KasanEnv<D>& e, typename D::Word order, typename D::Word gfp) {
        return !D::ult(order, e.sample_order);
    }
    // The counter's test, on what this_cpu_dec_return() returned (a long:
    // `if (this_cpu_dec_return(kasan_page_alloc_skip) < 0)`), and the value
    // this_cpu_write() then resets it to.
    template <class D>
    static typename D::Bool sample_wrapped(const KasanEnv<D>& e, typename D::Long left) {
        return D::slt(left, D::lit(0));
    }
    template <class D>
    static typename D::Word sample_reset(const KasanEnv<D>& e) {
        return D::sub(e.sample, D::lit(1));
    }
    template <class D>
    static SampleDecision<D> kasan_sample_page_alloc(const KasanEnv<D>& e, typename D::Word order,
                                                     typename D::Word gfp, typename D::Word skip) {
        auto off = !e.hw_tags || e.sample == D::lit(1) || !Self::sample_eligible(e, order, gfp);
        auto v = D::sub(skip, D::lit(1));  // this_cpu_dec_return
        auto wrapped = Self::sample_wrapped(e, v);
        SampleDecision<D> s;
        s.tag = off || wrapped;
        s.skip_next = D::ite(off, skip, D::ite(wrapped, Self::sample_reset(e), v));
        return s;
    }

    // The revert (Cc stable 6.1): skip_kasan_poison computed first, so the flag is seen.
    template <class D>
    static typename D::Bool free_reads_skip_flag(const KasanEnv<D>& e) {
        return D::boolean(true);
    }
};

}  // namespace tagproof::kernel
