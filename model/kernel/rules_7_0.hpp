// rules_7_0.hpp — mainline v7.0-rc1, the base the Anjum series applies on
// (kernel-semantics §2(d) "intermediate mainline state"): the enum GFP layout,
// GFP_VMAP_STACK in kernel/fork.c, and ZEROTAGS through tag_clear_highpages(),
// which returns false without MTE so the caller still clears the pages.
#pragma once
#include "rules_6_4.hpp"

namespace tagproof::kernel {

template <class Self>
struct rules_7_0 : rules_6_4<Self> {
    static constexpr GfpEra gfp_era = GfpEra::current;
    static BootParamSyntax boot_syntax() { return BootParamSyntax{}; }  // write_only, panic_on_write
    static Features features() { return {true, true}; }
    // Recorded defects of this era (recorded_defects.cpp): vrealloc()'s
    // in-place shrink under HW_TAGS (detection) and the huge zero folio's
    // tags with init_on_free=1 (zeroing).

    // mm/vmalloc.c at v7.0-rc1 (the context lines of seed 000's 1/3).
    template <class D>
    static typename D::Word GFP_VMALLOC_SUPPORTED(const KasanEnv<D>& e) {
        return e.gfp.GFP_KERNEL | e.gfp.GFP_ATOMIC | e.gfp.GFP_NOWAIT | e.gfp.NOFAIL | e.gfp.ZERO | e.gfp.NORETRY |
               e.gfp.RETRY_MAYFAIL | e.gfp.GFP_NOFS | e.gfp.GFP_NOIO | e.gfp.GFP_KERNEL_ACCOUNT | e.gfp.GFP_USER |
               e.gfp.NOLOCKDEP;
    }

    // v6.6 (09c2c90705bb "net: allow alloc_skb_with_frags() to allocate bigger
    // packets"): a failed high-order frag retries one order lower, and the
    // order found is kept for the next frags.
    template <class D>
    static typename D::Word skb_frags_order_after_failure(const KasanEnv<D>& e, typename D::Word order) {
        return D::sub(order, D::lit(1));
    }

    template <class D>
    static void zero_tags_step(const KasanEnv<D>& e, typename D::Word gfp, typename D::Bool& init,
                               PostAllocPlan<D>& p) {
        // zero_tags = init && ZEROTAGS; init = !tag_clear_highpages(page, n)
        auto zero_tags = init && D::any(gfp, e.gfp.ZEROTAGS);
        p.tag_clear = zero_tags && e.mte;
        p.tag_clear_data = p.tag_clear;
        init = init && !p.tag_clear;
    }
};

}  // namespace tagproof::kernel
