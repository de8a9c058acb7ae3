// rules_6_4.hpp — v6.4: one __GFP_SKIP_KASAN, PG_skip_kasan_poison removed;
// free-time poisoning is skipped iff the head page's stored tag is match-all
// (Collingbourne, "kasan: remove PG_skip_kasan_poison flag"; kernel-semantics §2(c)).
#pragma once
#include "rules_6_3.hpp"

namespace tagproof::kernel {

template <class Self>
struct rules_6_4 : rules_6_3<Self> {
    static constexpr GfpEra gfp_era = GfpEra::v6_4;

    template <class D>
    static typename D::Bool skip_unpoison_flag(const KasanEnv<D>& e, typename D::Word gfp) {
        return D::any(gfp, e.gfp.SKIP_KASAN);
    }
    template <class D>
    static typename D::Word vmalloc_page_skip_flags(const KasanEnv<D>& e) {
        return e.gfp.SKIP_KASAN | e.gfp.SKIP_ZERO;
    }
    // ZEROTAGS handling of this era: tag_clear_highpage() zeroes data and tags.
    template <class D>
    static void zero_tags_step(const KasanEnv<D>& e, typename D::Word gfp, typename D::Bool& init,
                               PostAllocPlan<D>& p) {
        auto zero_tags = init && D::any(gfp, e.gfp.ZEROTAGS);
        p.tag_clear = zero_tags;
        p.tag_clear_data = zero_tags;
        init = init && !zero_tags;
    }
    template <class D>
    static PostAllocPlan<D> post_alloc_hook(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word order,
                                            typename D::Word skip) {
        using Bool = typename D::Bool;
        PostAllocPlan<D> p;
        Bool init = !e.init_on_free && Self::want_init_on_alloc(e, gfp) && !Self::should_skip_init(e, gfp);
        Self::zero_tags_step(e, gfp, init, p);
        Bool called = !Self::should_skip_kasan_unpoison(e, gfp);
        SampleDecision<D> u = Self::kasan_unpoison_pages(e, order, gfp, skip);
        p.unpoison = called && u.tag;
        p.sampled_out = called && !u.tag;
        p.unpoison_init = p.unpoison && init && e.kasan_has_integrated_init();
        p.sample_skip_next = D::ite(called, u.skip_next, skip);
        p.kernel_init = init && !(p.unpoison && e.kasan_has_integrated_init());
        p.reset_page_tag = !p.unpoison;  // skipped, sampled out or KASAN off: page tag 0xFF
        p.set_skip_poison_flag = D::boolean(false);
        return p;
    }
    // should_skip_kasan_poison(): Generic asks only about deferred init; tag
    // modes skip iff the stored page tag is KASAN_TAG_KERNEL. This is the only
    // state linking the alloc-time skip to the free-time skip.
    template <class D>
    static typename D::Bool should_skip_kasan_poison(const KasanEnv<D>& e, const FreeInput<D>& in) {
        return D::ite(e.generic, e.deferred_pages, in.page_tag == D::lit(KASAN_TAG_KERNEL));
    }
};

}  // namespace tagproof::kernel
