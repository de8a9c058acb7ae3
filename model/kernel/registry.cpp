// registry.cpp — the built-in variants, and the concrete decision inputs.
#include "error.hpp"
#include "variant.hpp"
#include "variant_list.hpp"
#include "file/variant_file.hpp"

namespace tagproof::kernel {

const std::vector<const Variant*>& all_variants() {
#define TAGPROOF_INSTANCE(T) static const VariantOf<T> T##_instance;
    TAGPROOF_BUILTIN_VARIANTS(TAGPROOF_INSTANCE)
#define TAGPROOF_POINTER(T) &T##_instance,
    static const std::vector<const Variant*> all = {TAGPROOF_BUILTIN_VARIANTS(TAGPROOF_POINTER)};
    return all;
}

const std::vector<const Variant*>& all_mutants() {
    TAGPROOF_MUTANTS(TAGPROOF_INSTANCE)
    static const std::vector<const Variant*> all = {TAGPROOF_MUTANTS(TAGPROOF_POINTER)};
    return all;
#undef TAGPROOF_INSTANCE
#undef TAGPROOF_POINTER
}

const Variant& find_variant(const std::string& name, const std::string& where) {
    for (const Variant* v : all_variants())
        if (v->name() == name) return *v;
    for (const Variant* v : all_mutants())
        if (v->name() == name) return *v;
    if (const Variant* v = find_file_variant(name)) return *v;
    std::string known;
    for (const Variant* v : all_variants()) known += (known.empty() ? "" : ", ") + v->name();
    throw InputError(where, "unknown variant '" + name + "'; built-in variants: " + known +
                                " (mutants for negative controls: `tagproof variants --mutants`)");
}

CEnv Variant::make_env(const BuildConfig& b, const Machine& m, const BootParams& p, const RuntimeState& r) const {
    CEnv e;
    derive_runtime_predicates<Concrete>(runtime_inputs(b, m, p), e);
    (void)r;
    e.init_on_alloc = p.init_on_alloc;
    e.init_on_free = p.init_on_free;
    e.deferred_pages = false;
    // mm/Kconfig.debug SLUB_RCU_DEBUG: "default KASAN_GENERIC || KASAN_SW_TAGS"
    e.slub_rcu_debug = features().slub_rcu_debug &&
                       b.slub_rcu_debug.value_or(b.mode == Mode::generic || b.mode == Mode::sw_tags);
    e.kfence = b.kfence;
    e.overrides = overrides();
    e.sample = p.page_alloc_sample;
    e.sample_order = p.page_alloc_sample_order;
    e.gfp = gfp_masks(b);
    return e;
}

namespace {
// Every BuildConfig field, so that two builds share a layout only when equal.
std::uint32_t build_key(const BuildConfig& b) {
    std::uint32_t k = std::uint32_t(b.mode);
    k = k * 8 + std::uint32_t(b.check_style);
    k = k * 2 + b.kasan_vmalloc;
    k = k * 2 + b.vmap_stack;
    k = k * 2 + b.lockdep;
    k = k * 3 + (b.slub_rcu_debug ? 1 + *b.slub_rcu_debug : 0);
    k = k * 2 + b.kfence;
    k = k * 2 + b.deferred_struct_page_init;
    return k;
}
}  // namespace

std::shared_ptr<const Variant::GfpBuild> Variant::gfp_build(const BuildConfig& b) const {
    const std::uint32_t key = build_key(b);
    std::lock_guard<std::mutex> lock(gfp_mu_);
    auto it = gfp_builds_.find(key);
    if (it == gfp_builds_.end()) {
        GfpLayout L(gfp_era(), b, extra_gfp_flags(), [this](const GfpBits& g) { return GFP_BITS_SHIFT(g); });
        GfpMasks<Concrete> m;
        fill_gfp_masks<Concrete>(m, [&](const char* n) { return L.defines(n) ? L.mask(n) : gfp_t(0); });
        it = gfp_builds_.emplace(key, std::make_shared<const GfpBuild>(GfpBuild{std::move(L), m})).first;
    }
    return it->second;
}

std::shared_ptr<const GfpLayout> Variant::gfp_layout_ptr(const BuildConfig& b) const {
    std::shared_ptr<const GfpBuild> g = gfp_build(b);
    return std::shared_ptr<const GfpLayout>(g, &g->layout);
}

}  // namespace tagproof::kernel

namespace tagproof::kernel {
std::vector<std::string> Variant::known_defects() const {
    std::vector<std::string> out;
    for (const auto& d : recorded_defects()) out.push_back(d.property);
    return out;
}
}  // namespace tagproof::kernel
