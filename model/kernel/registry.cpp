// registry.cpp — the built-in variants, and the concrete decision inputs.
#include "error.hpp"
#include "variant.hpp"
#include "variants/anjum.hpp"
#include "variants/linux.hpp"
#include "variants/mutants.hpp"
#include "variants/sample.hpp"

namespace tagproof::kernel {

const std::vector<const Variant*>& all_variants() {
    static const VariantOf<linux_6_1> v61;
    static const VariantOf<linux_6_3> v63;
    static const VariantOf<linux_6_4> v64;
    static const VariantOf<linux_7_0> v70;
    static const VariantOf<mm_2026> mm;
    static const VariantOf<anjum_v2> a2;
    static const VariantOf<anjum_v3> a3;
    static const VariantOf<anjum_v4> a4;
    static const VariantOf<sample_v2> s2;
    static const VariantOf<sample_v3> s3;
    static const std::vector<const Variant*> all = {&v61, &v63, &v64, &v70, &mm, &a2, &a3, &a4, &s2, &s3};
    return all;
}

const std::vector<const Variant*>& all_mutants() {
    static const VariantOf<mutant_no_tcma> m1;
    static const VariantOf<mutant_invalid_matches> m2;
    static const VariantOf<mutant_skip_no_reset> m3;
    static const VariantOf<mutant_no_free_poison> m4;
    static const VariantOf<mutant_skip_drops_zero> m5;
    static const VariantOf<mutant_match_all_tag> m7;
    static const VariantOf<mutant_sample_off_by_one> m8;
    static const VariantOf<mutant_skip_in_software> m9;
    static const VariantOf<mutant_gfp_bit_outside_mask> m10;
    static const std::vector<const Variant*> all = {&m1, &m2, &m3, &m4, &m5, &m7, &m8, &m9, &m10};
    return all;
}

const Variant& find_variant(const std::string& name, const std::string& where) {
    for (const Variant* v : all_variants())
        if (v->name() == name) return *v;
    for (const Variant* v : all_mutants())
        if (v->name() == name) return *v;
    std::string known;
    for (const Variant* v : all_variants()) known += (known.empty() ? "" : ", ") + v->name();
    throw InputError(where, "unknown variant '" + name + "'; built-in variants: " + known +
                                " (mutants for negative controls: `tagproof variants --mutants`)");
}

CEnv Variant::make_env(const BuildConfig& b, const Machine& m, const BootParams& p, const RuntimeState& r) const {
    CEnv e;
    RuntimeInputs<Concrete> in;
    in.generic = b.mode == Mode::generic;
    in.sw_tags = b.mode == Mode::sw_tags;
    in.hw_tags = b.mode == Mode::hw_tags;
    in.config_kasan_vmalloc = b.kasan_vmalloc;
    in.mte = m.mte;
    in.kasan_off = p.kasan == KasanArg::off;
    in.vmalloc_param = p.vmalloc;
    derive_runtime_predicates<Concrete>(in, e);
    (void)r;
    e.init_on_alloc = p.init_on_alloc;
    e.init_on_free = p.init_on_free;
    e.deferred_pages = false;
    e.sample = p.page_alloc_sample;
    e.sample_order = p.page_alloc_sample_order;
    GfpLayout L = gfp_layout(b);
    auto m_ = [&](const char* n) { return L.defines(n) ? L.mask(n) : gfp_t(0); };
    auto& g = e.gfp;
    g.ZERO = m_("__GFP_ZERO");
    g.ZEROTAGS = m_("__GFP_ZEROTAGS");
    g.COMP = m_("__GFP_COMP");
    g.ACCOUNT = m_("__GFP_ACCOUNT");
    g.MOVABLE = m_("__GFP_MOVABLE");
    g.HIGHMEM = m_("__GFP_HIGHMEM");
    g.SKIP_ZERO = m_("__GFP_SKIP_ZERO");
    g.SKIP_KASAN_UNPOISON = m_("__GFP_SKIP_KASAN_UNPOISON");
    g.SKIP_KASAN_POISON = m_("__GFP_SKIP_KASAN_POISON");
    g.SKIP_KASAN = m_("__GFP_SKIP_KASAN");
    g.KASAN_SAMPLE = m_("__GFP_KASAN_SAMPLE");
    g.GFP_KERNEL = m_("GFP_KERNEL");
    g.GFP_KERNEL_ACCOUNT = m_("GFP_KERNEL_ACCOUNT");
    g.GFP_HIGHUSER_MOVABLE = m_("GFP_HIGHUSER_MOVABLE");
    g.GFP_ATOMIC = m_("GFP_ATOMIC");
    g.GFP_NOWAIT = m_("GFP_NOWAIT");
    g.NOWARN = m_("__GFP_NOWARN");
    g.NORETRY = m_("__GFP_NORETRY");
    g.DIRECT_RECLAIM = m_("__GFP_DIRECT_RECLAIM");
    return e;
}

}  // namespace tagproof::kernel
