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
    // Known defects of this era on the scenario corpus:
    //  detection: vrealloc() shrinking in place leaves the tail with the
    //    allocation's tag under HW_TAGS (__kasan_poison_vmalloc is a no-op);
    //  zeroing: with init_on_free=1, zero_tags = init && ZEROTAGS is false, the huge
    //    zero folio keeps stale tags (fixed in the 2026 mm tree, Hildenbrand).
    static std::vector<std::string> known_defects() { return {"detection", "zeroing"}; }

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
