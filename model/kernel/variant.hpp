// variant.hpp — a variant behind a run-time interface, for the concrete domain.
//
// The rules are templates (rules_*.hpp, variants/*.hpp); VariantOf<V>
// instantiates every rule of V with the Concrete domain so the model, the
// reference implementation and the fuzzers can pick a variant by name. The
// solver instantiates the same templates with its own domain.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "boot_params.hpp"
#include "claims.hpp"
#include "config.hpp"
#include "domain.hpp"
#include "gfp.hpp"
#include "features.hpp"
#include "plans.hpp"
#include "runtime.hpp"
#include "tag.hpp"

namespace tagproof::kernel {

using CEnv = KasanEnv<Concrete>;

struct RecordedDefect {
    std::string property;  // the invariant
    std::string why;       // the kernel code and version that has it
};
// The record of a built-in variant, by name (none for any other name).
std::vector<RecordedDefect> recorded_defects_of(const std::string& variant);
class Variant;
// What the engines may see on this variant without it being news: its own
// record and its baselines' (the review tells the two apart by replay).
std::vector<std::string> expected_defects(const Variant& v);

class Variant {
public:
    virtual ~Variant() = default;
    virtual std::string name() const = 0;
    virtual std::string baseline() const = 0;  // the variant a review compares against ("" for none)
    virtual std::string summary() const = 0;
    virtual GfpEra gfp_era() const = 0;
    virtual std::vector<GfpExtraFlag> extra_gfp_flags() const = 0;
    virtual int GFP_BITS_SHIFT(const GfpBits&) const = 0;  // include/linux/gfp_types.h
    virtual BootParamSyntax boot_syntax() const = 0;

    virtual gfp_t THREADINFO_GFP(const CEnv&) const = 0;
    virtual gfp_t GFP_VMAP_STACK(const CEnv&) const = 0;
    virtual gfp_t GFP_PGTABLE_KERNEL(const CEnv&) const = 0;
    virtual gfp_t GFP_PGTABLE_USER(const CEnv&) const = 0;
    virtual gfp_t pte_alloc_one_kernel_gfp(const CEnv&) const = 0;
    virtual gfp_t pte_alloc_one_gfp(const CEnv&) const = 0;
    virtual gfp_t user_page_gfp(const CEnv&, bool vm_mte) const = 0;
    virtual gfp_t skb_frag_gfp(const CEnv&) const = 0;
    virtual gfp_t skb_frag_fallback_gfp(const CEnv&) const = 0;
    virtual gfp_t alloc_skb_frags_gfp(const CEnv&, gfp_t gfp) const = 0;
    virtual unsigned skb_frags_order_after_failure(const CEnv&, unsigned order) const = 0;
    virtual bool skb_with_frags_fits(const CEnv&, std::uint64_t data_len, unsigned order) const = 0;

    virtual bool want_init_on_alloc(const CEnv&, gfp_t) const = 0;
    virtual PostAllocPlan<Concrete> post_alloc_hook(const CEnv&, gfp_t gfp, unsigned order,
                                                    std::int64_t sample_skip) const = 0;
    // kasan_unpoison_pages()'s decision alone (mempool pages re-tagging).
    virtual SampleDecision<Concrete> kasan_unpoison_pages(const CEnv&, unsigned order, std::int64_t skip) const = 0;
    virtual FreePlan<Concrete> free_pages_prepare(const CEnv&, const FreeInput<Concrete>&) const = 0;
    virtual VmallocFixFlags<Concrete> vmalloc_fix_flags(const CEnv&, gfp_t gfp) const = 0;
    virtual VmallocPlan<Concrete> vmalloc_node_range(const CEnv&, gfp_t gfp, bool prot_kernel) const = 0;
    virtual VmallocUnpoison<Concrete> kasan_unpoison_vmalloc(const CEnv&, const VmallocPlan<Concrete>&) const = 0;
    virtual bool cached_stack_unpoison(const CEnv&) const = 0;
    virtual bool stack_cache_serves(const CEnv&, bool other_node_asked) const = 0;
    virtual unsigned vmalloc_huge_order(const CEnv&, std::uint64_t size) const = 0;
    virtual VmallocPlan<Concrete> vmap_unpoison_plan(const CEnv&) const = 0;
    virtual bool stack_cache_takes(const CEnv&, bool remote_pages) const = 0;
    virtual bool slab_tag_per_alloc(const CEnv&, bool ctor_or_rcu) const = 0;
    virtual bool slab_memset_init(const CEnv&, bool init) const = 0;
    virtual bool slab_alloc_kasan_init(const CEnv&, bool init) const = 0;
    virtual std::uint64_t kmalloc_redzone_start(const CEnv&, std::uint64_t size) const = 0;
    virtual std::uint64_t kmalloc_large_redzone_start(const CEnv&, std::uint64_t size) const = 0;
    virtual bool krealloc_zeroes_spare(const CEnv&, gfp_t) const = 0;
    virtual bool vrealloc_shrink_zeroes(const CEnv&, gfp_t) const = 0;
    virtual SlabFreePlan<Concrete> kasan_slab_free(const CEnv&, bool typesafe_by_rcu) const = 0;
    virtual MempoolHooks<Concrete> mempool_hooks(const CEnv&) const = 0;
    virtual VreallocHooks<Concrete> vrealloc_hooks(const CEnv&) const = 0;
    virtual bool mte_sync_tags_clears(const CEnv&, bool pg_mte_tagged) const = 0;
    virtual bool kfence_enabled(const CEnv&) const = 0;
    virtual bool boot_release_fpi_skip_kasan_poison(const CEnv&) const = 0;
    // page->flags' KASAN tag bits: what page_kasan_tag_set() stores, what page_kasan_tag() reads back.
    virtual std::uint64_t page_kasan_tag_field(const CEnv&, Tag tag) const = 0;
    virtual Tag page_kasan_tag(const CEnv&, std::uint64_t field) const = 0;
    virtual std::uint64_t kmalloc_minalign(const CEnv&) const = 0;
    virtual Tag random_tag_min(const CEnv&) const = 0;
    virtual Tag random_tag_max(const CEnv&) const = 0;
    virtual bool ptr_tag_match_all(const CEnv&, Tag ptr) const = 0;
    virtual bool tag_mismatch(const CEnv&, Tag ptr, Tag mem) const = 0;
    virtual bool granule_check_faults(const CEnv&, const TagCheckInput<Concrete>&) const = 0;
    virtual bool is_mutant() const { return false; }
    // The invariants this very variant is recorded to violate (recorded_defects.cpp):
    // never inherited, so a new variant starts with a clean slate.
    std::vector<std::string> known_defects() const;
    std::vector<RecordedDefect> recorded_defects() const { return recorded_defects_of(name()); }
    virtual Features features() const = 0;
    // What the patch claims to change (claims.hpp): where behaviour may differ
    // from the baseline, and which allocations it leaves untagged.
    virtual Claims claims() const = 0;
    // The allocations its claims leave untagged, alone: what the model's
    // oracle reads at every allocation (variant_calls.hpp records this
    // narrower question, so a run does not depend on the claim's words).
    virtual std::vector<UntagClaim> untag_claims() const { return claims().untags; }
    bool claims_hw_only_change() const { return claims().changes == ChangeScope::hw_tags_active; }
    // The next revision of the same series ("" if none): `prove` says what it changes.
    virtual std::string next_version() const = 0;

    // The GFP layout this variant's era has in a build. Built once per build
    // and kept: a Model is made for every scenario run and every walk, and the
    // layout depends on the build alone (era, extra flags and shift rule are the
    // variant's own, fixed when it is made).
    const GfpLayout& gfp_layout(const BuildConfig& b) const { return gfp_build(b)->layout; }
    std::shared_ptr<const GfpLayout> gfp_layout_ptr(const BuildConfig& b) const;
    // The masks the decisions read (env.hpp), from that layout.
    const GfpMasks<Concrete>& gfp_masks(const BuildConfig& b) const { return gfp_build(b)->masks; }
    // The decision inputs for a build, machine and boot.
    CEnv make_env(const BuildConfig& b, const Machine& m, const BootParams& p, const RuntimeState& r) const;
    // A variant file's rule overrides, which make_env hands to the rules.
    virtual const RuleOverrides* overrides() const { return nullptr; }

private:
    struct GfpBuild {
        GfpLayout layout;
        GfpMasks<Concrete> masks;
    };
    // the entry lives as long as the variant: references into it stay valid
    std::shared_ptr<const GfpBuild> gfp_build(const BuildConfig& b) const;
    mutable std::mutex gfp_mu_;  // review runs engines on threads
    mutable std::map<std::uint32_t, std::shared_ptr<const GfpBuild>> gfp_builds_;
};

template <class V>
class VariantOf : public Variant {
    using C = Concrete;

public:
    std::string name() const override { return V::name; }
    std::string baseline() const override { return V::baseline; }
    std::string summary() const override { return V::summary; }
    GfpEra gfp_era() const override { return V::gfp_era; }
    std::vector<GfpExtraFlag> extra_gfp_flags() const override { return V::extra_gfp_flags(); }
    int GFP_BITS_SHIFT(const GfpBits& b) const override { return V::GFP_BITS_SHIFT(b); }
    BootParamSyntax boot_syntax() const override { return V::boot_syntax(); }

    gfp_t THREADINFO_GFP(const CEnv& e) const override { return V::template THREADINFO_GFP<C>(e); }
    gfp_t GFP_VMAP_STACK(const CEnv& e) const override { return V::template GFP_VMAP_STACK<C>(e); }
    gfp_t GFP_PGTABLE_KERNEL(const CEnv& e) const override { return V::template GFP_PGTABLE_KERNEL<C>(e); }
    gfp_t GFP_PGTABLE_USER(const CEnv& e) const override { return V::template GFP_PGTABLE_USER<C>(e); }
    gfp_t pte_alloc_one_kernel_gfp(const CEnv& e) const override { return V::template pte_alloc_one_kernel_gfp<C>(e); }
    gfp_t pte_alloc_one_gfp(const CEnv& e) const override { return V::template pte_alloc_one_gfp<C>(e); }
    gfp_t user_page_gfp(const CEnv& e, bool vm_mte) const override { return V::template user_page_gfp<C>(e, vm_mte); }
    gfp_t skb_frag_gfp(const CEnv& e) const override { return V::template skb_frag_gfp<C>(e); }
    gfp_t skb_frag_fallback_gfp(const CEnv& e) const override { return V::template skb_frag_fallback_gfp<C>(e); }
    gfp_t alloc_skb_frags_gfp(const CEnv& e, gfp_t g) const override { return V::template alloc_skb_frags_gfp<C>(e, g); }
    unsigned skb_frags_order_after_failure(const CEnv& e, unsigned order) const override {
        return unsigned(V::template skb_frags_order_after_failure<C>(e, order));
    }
    bool skb_with_frags_fits(const CEnv& e, std::uint64_t data_len, unsigned order) const override {
        return V::template skb_with_frags_fits<C>(e, data_len, order);
    }

    bool want_init_on_alloc(const CEnv& e, gfp_t g) const override { return V::template want_init_on_alloc<C>(e, g); }
    PostAllocPlan<C> post_alloc_hook(const CEnv& e, gfp_t gfp, unsigned order, std::int64_t skip) const override {
        return V::template post_alloc_hook<C>(e, gfp, order, std::uint64_t(skip));
    }
    SampleDecision<C> kasan_unpoison_pages(const CEnv& e, unsigned order, std::int64_t skip) const override {
        return V::template kasan_unpoison_pages<C>(e, order, 0, std::uint64_t(skip));
    }
    FreePlan<C> free_pages_prepare(const CEnv& e, const FreeInput<C>& in) const override {
        return V::template free_pages_prepare<C>(e, in);
    }
    VmallocFixFlags<C> vmalloc_fix_flags(const CEnv& e, gfp_t gfp) const override {
        return V::template vmalloc_fix_flags<C>(e, gfp);
    }
    VmallocPlan<C> vmalloc_node_range(const CEnv& e, gfp_t gfp, bool prot_kernel) const override {
        return V::template vmalloc_node_range<C>(e, gfp, prot_kernel);
    }
    VmallocUnpoison<C> kasan_unpoison_vmalloc(const CEnv& e, const VmallocPlan<C>& v) const override {
        return V::template kasan_unpoison_vmalloc<C>(e, v);
    }
    bool cached_stack_unpoison(const CEnv& e) const override { return V::template cached_stack_unpoison<C>(e); }
    VmallocPlan<C> vmap_unpoison_plan(const CEnv& e) const override { return V::template vmap_unpoison_plan<C>(e); }
    unsigned vmalloc_huge_order(const CEnv& e, std::uint64_t size) const override {
        return unsigned(V::template vmalloc_huge_order<C>(e, size));
    }
    bool stack_cache_serves(const CEnv& e, bool other) const override {
        return V::template stack_cache_serves<C>(e, other);
    }
    bool stack_cache_takes(const CEnv& e, bool remote) const override { return V::template stack_cache_takes<C>(e, remote); }
    bool slab_tag_per_alloc(const CEnv& e, bool ctor_or_rcu) const override {
        return V::template slab_tag_per_alloc<C>(e, ctor_or_rcu);
    }
    bool slab_memset_init(const CEnv& e, bool init) const override { return V::template slab_memset_init<C>(e, init); }
    bool slab_alloc_kasan_init(const CEnv& e, bool init) const override {
        return V::template slab_alloc_kasan_init<C>(e, init);
    }
    bool krealloc_zeroes_spare(const CEnv& e, gfp_t g) const override {
        return V::template krealloc_zeroes_spare<C>(e, g);
    }
    bool vrealloc_shrink_zeroes(const CEnv& e, gfp_t g) const override {
        return V::template vrealloc_shrink_zeroes<C>(e, g);
    }
    std::uint64_t kmalloc_redzone_start(const CEnv& e, std::uint64_t size) const override {
        return V::template kmalloc_redzone_start<C>(e, size);
    }
    std::uint64_t kmalloc_large_redzone_start(const CEnv& e, std::uint64_t size) const override {
        return V::template kmalloc_large_redzone_start<C>(e, size);
    }
    SlabFreePlan<C> kasan_slab_free(const CEnv& e, bool rcu) const override {
        return V::template kasan_slab_free<C>(e, rcu);
    }
    MempoolHooks<C> mempool_hooks(const CEnv& e) const override { return V::template mempool_hooks<C>(e); }
    VreallocHooks<C> vrealloc_hooks(const CEnv& e) const override { return V::template vrealloc_hooks<C>(e); }
    std::uint64_t page_kasan_tag_field(const CEnv& e, Tag t) const override {
        return V::template page_kasan_tag_field<C>(e, t);
    }
    Tag page_kasan_tag(const CEnv& e, std::uint64_t f) const override { return Tag(V::template page_kasan_tag<C>(e, f)); }
    bool kfence_enabled(const CEnv& e) const override { return V::template kfence_enabled<C>(e); }
    bool boot_release_fpi_skip_kasan_poison(const CEnv& e) const override {
        return V::template boot_release_fpi_skip_kasan_poison<C>(e);
    }
    bool mte_sync_tags_clears(const CEnv& e, bool tagged) const override {
        return V::template mte_sync_tags_clears<C>(e, tagged);
    }
    std::uint64_t kmalloc_minalign(const CEnv& e) const override { return V::template kmalloc_minalign<C>(e); }
    Tag random_tag_min(const CEnv& e) const override { return Tag(V::template random_tag_min<C>(e)); }
    Tag random_tag_max(const CEnv& e) const override { return Tag(V::template random_tag_max<C>(e)); }
    bool ptr_tag_match_all(const CEnv& e, Tag p) const override { return V::template ptr_tag_match_all<C>(e, p); }
    bool tag_mismatch(const CEnv& e, Tag p, Tag m) const override { return V::template tag_mismatch<C>(e, p, m); }
    bool granule_check_faults(const CEnv& e, const TagCheckInput<C>& in) const override {
        return V::template granule_check_faults<C>(e, in);
    }
    bool is_mutant() const override { return V::mutant; }
    Features features() const override { return V::features(); }
    // A variant that states no claims claims no change at all.
    Claims claims() const override {
        if constexpr (requires { V::claims(); })
            return V::claims();
        else
            return {};
    }
    std::string next_version() const override { return V::next_version; }
};

// Every built-in variant, in the order `tagproof variants` lists them.
const std::vector<const Variant*>& all_variants();
// Deliberately broken variants: the negative controls every property must fail on.
const std::vector<const Variant*>& all_mutants();
// Throws InputError naming the known variants.
const Variant& find_variant(const std::string& name, const std::string& where = "");

}  // namespace tagproof::kernel
