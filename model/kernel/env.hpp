// env.hpp — the inputs every decision reads: build configuration, runtime
// state and the GFP masks of the variant's era, in the value domain D.
#pragma once
#include "domain.hpp"

namespace tagproof::kernel {

// GFP masks a decision may test. A mask the era or build does not define is 0,
// as in gfp_types.h (e.g. SKIP_KASAN outside CONFIG_KASAN_HW_TAGS, or in v6.1).
template <class D>
struct GfpMasks {
    using Word = typename D::Word;
    Word ZERO{}, ZEROTAGS{}, COMP{}, ACCOUNT{}, MOVABLE{}, HIGHMEM{};
    Word SKIP_ZERO{};
    Word SKIP_KASAN_UNPOISON{}, SKIP_KASAN_POISON{};  // v6.0 .. v6.3
    Word SKIP_KASAN{};                                 // v6.4+
    Word KASAN_SAMPLE{};                               // sample-v2 only
    Word GFP_KERNEL{}, GFP_KERNEL_ACCOUNT{}, GFP_HIGHUSER_MOVABLE{}, GFP_ATOMIC{}, GFP_NOWAIT{};
    Word NOWARN{}, NORETRY{}, DIRECT_RECLAIM{};
    Word NOFAIL{}, RETRY_MAYFAIL{}, NOLOCKDEP{}, GFP_NOFS{}, GFP_NOIO{}, GFP_USER{};
};

// Fills every mask from a look-up by kernel name (one list for every domain).
template <class D, class MaskOf>
void fill_gfp_masks(GfpMasks<D>& g, MaskOf mask_of) {
    g.ZERO = mask_of("__GFP_ZERO");
    g.ZEROTAGS = mask_of("__GFP_ZEROTAGS");
    g.COMP = mask_of("__GFP_COMP");
    g.ACCOUNT = mask_of("__GFP_ACCOUNT");
    g.MOVABLE = mask_of("__GFP_MOVABLE");
    g.HIGHMEM = mask_of("__GFP_HIGHMEM");
    g.SKIP_ZERO = mask_of("__GFP_SKIP_ZERO");
    g.SKIP_KASAN_UNPOISON = mask_of("__GFP_SKIP_KASAN_UNPOISON");
    g.SKIP_KASAN_POISON = mask_of("__GFP_SKIP_KASAN_POISON");
    g.SKIP_KASAN = mask_of("__GFP_SKIP_KASAN");
    g.KASAN_SAMPLE = mask_of("__GFP_KASAN_SAMPLE");
    g.GFP_KERNEL = mask_of("GFP_KERNEL");
    g.GFP_KERNEL_ACCOUNT = mask_of("GFP_KERNEL_ACCOUNT");
    g.GFP_HIGHUSER_MOVABLE = mask_of("GFP_HIGHUSER_MOVABLE");
    g.GFP_ATOMIC = mask_of("GFP_ATOMIC");
    g.GFP_NOWAIT = mask_of("GFP_NOWAIT");
    g.NOWARN = mask_of("__GFP_NOWARN");
    g.NORETRY = mask_of("__GFP_NORETRY");
    g.DIRECT_RECLAIM = mask_of("__GFP_DIRECT_RECLAIM");
    g.NOFAIL = mask_of("__GFP_NOFAIL");
    g.RETRY_MAYFAIL = mask_of("__GFP_RETRY_MAYFAIL");
    g.NOLOCKDEP = mask_of("__GFP_NOLOCKDEP");
    g.GFP_NOFS = mask_of("GFP_NOFS");
    g.GFP_NOIO = mask_of("GFP_NOIO");
    g.GFP_USER = mask_of("GFP_USER");
}

struct RuleOverrides;  // a variant file's rule overrides (file/rule_expr.hpp)

template <class D>
struct KasanEnv {
    using Bool = typename D::Bool;
    using Word = typename D::Word;
    // The rule overrides of a variant file (nullptr for a built-in variant):
    // read by file/file_rules.hpp, the only rules that look.
    const RuleOverrides* overrides = nullptr;

    // Build configuration (at most one of the three modes is true).
    Bool generic{}, sw_tags{}, hw_tags{};
    Bool config_kasan_vmalloc{};  // CONFIG_KASAN_VMALLOC
    // Machine and runtime state.
    Bool mte{};            // system_supports_mte()
    Bool kasan_enabled{};  // kasan_enabled()
    Bool vmalloc_on{};     // kasan_vmalloc_enabled()
    Bool init_on_alloc{}, init_on_free{};
    Bool deferred_pages{};  // deferred_pages_enabled(): false after boot
    Bool slub_rcu_debug{};  // CONFIG_SLUB_RCU_DEBUG (v6.12+; Kconfig default y for Generic and SW_TAGS)
    Bool kfence{};          // CONFIG_KFENCE
    Word sample{}, sample_order{};  // kasan.page_alloc.sample[.order]

    GfpMasks<D> gfp;

    // include/linux/kasan-enabled.h
    Bool kasan_hw_tags_enabled() const { return hw_tags && kasan_enabled; }
    // include/linux/kasan.h: init is integrated into tagging only with HW_TAGS.
    Bool kasan_has_integrated_init() const { return kasan_hw_tags_enabled(); }
    Bool software_kasan() const { return generic || sw_tags; }
    Bool tag_based() const { return sw_tags || hw_tags; }
    // KASAN_GRANULE_SIZE: 8 bytes a shadow byte in Generic, 16 a tag otherwise
    Word granule() const { return D::ite(generic, D::lit(8), D::lit(16)); }
    Word granule_down(Word v) const { return v & D::sub(D::lit(0), granule()); }
    Word granule_up(Word v) const { return granule_down(D::add(v, D::sub(granule(), D::lit(1)))); }
};

}  // namespace tagproof::kernel
