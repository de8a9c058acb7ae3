// rules_6_4.hpp — v6.4: one __GFP_SKIP_KASAN, PG_skip_kasan_poison removed;
// free-time poisoning is skipped iff the head page's stored tag is match-all
// (Collingbourne, "kasan: remove PG_skip_kasan_poison flag"; kernel-semantics §2(c)).
#pragma once
#include "rules_6_3.hpp"

namespace tagproof::kernel {

template <class Self>
struct rules_6_4 : rules_6_3<Self> {
    static constexpr GfpEra gfp_era = GfpEra::v6_4;
    // v6.4 .. v6.8: the two KASAN skip flags became one, __GFP_BITS_SHIFT
    // 26 + IS_ENABLED(CONFIG_LOCKDEP).
    static int GFP_BITS_SHIFT(const GfpBits& b) { return 26 + (b.build.lockdep ? 1 : 0); }

    template <class D>
    static typename D::Bool skip_unpoison_flag(const KasanEnv<D>& e, typename D::Word gfp) {
        return D::any(gfp, e.gfp.SKIP_KASAN);
    }
    template <class D>
    static typename D::Word vmalloc_page_skip_flags(const KasanEnv<D>& e) {
        return e.gfp.SKIP_KASAN | e.gfp.SKIP_ZERO;
    }
    static constexpr bool has_pg_skip_kasan_poison = false;
    // 0a54864f8dfb removed FPI_SKIP_KASAN_POISON: boot memory skips poisoning
    // in the tag modes because its never-written page tag reads 0xff.
    template <class D>
    static typename D::Bool boot_release_fpi_skip_kasan_poison(const KasanEnv<D>& e) { return D::boolean(false); }
    // should_skip_kasan_poison(): Generic asks only about deferred init; tag
    // modes skip iff the stored page tag is KASAN_TAG_KERNEL. This is the only
    // state linking the alloc-time skip to the free-time skip.
    template <class D>
    static typename D::Bool should_skip_kasan_poison(const KasanEnv<D>& e, const FreeInput<D>& in) {
        return D::ite(e.generic, e.deferred_pages, in.page_tag == D::lit(KASAN_TAG_KERNEL));
    }
};

}  // namespace tagproof::kernel
