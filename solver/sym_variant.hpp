// sym_variant.hpp — every variant's rules, instantiated with the Z3 domain,
// behind a run-time interface (the symbolic twin of kernel/variant.hpp).
#pragma once
#include <string>
#include <vector>

#include "gfp.hpp"
#include "plans.hpp"
#include "variant.hpp"
#include "z3_domain.hpp"

namespace tagproof::solver {

using SEnv = kernel::KasanEnv<Symbolic>;
using SWord = Symbolic::Word;
using SBool = Symbolic::Bool;

class SymVariant {
public:
    virtual ~SymVariant() = default;
    virtual const kernel::Variant& concrete() const = 0;  // names, GFP layout, boot syntax
    virtual SWord THREADINFO_GFP(const SEnv&) const = 0;
    virtual SWord GFP_VMAP_STACK(const SEnv&) const = 0;
    virtual SWord GFP_PGTABLE_KERNEL(const SEnv&) const = 0;
    virtual SWord GFP_PGTABLE_USER(const SEnv&) const = 0;
    virtual SWord pte_alloc_one_kernel_gfp(const SEnv&) const = 0;
    virtual SWord pte_alloc_one_gfp(const SEnv&) const = 0;
    virtual SWord user_page_gfp(const SEnv&, const SBool& vm_mte) const = 0;
    virtual SBool mte_sync_tags_clears(const SEnv&, const SBool& pg_mte_tagged) const = 0;
    virtual SWord skb_frag_gfp(const SEnv&) const = 0;
    virtual SWord skb_frag_fallback_gfp(const SEnv&) const = 0;
    virtual SWord alloc_skb_frags_gfp(const SEnv&, const SWord& gfp) const = 0;
    virtual SBool skb_with_frags_fits(const SEnv&, const SWord& data_len, const SWord& order) const = 0;
    virtual SBool want_init_on_alloc(const SEnv&, const SWord& gfp) const = 0;
    virtual kernel::PostAllocPlan<Symbolic> post_alloc_hook(const SEnv&, const SWord& gfp, const SWord& order,
                                                            const SWord& skip) const = 0;
    virtual kernel::SampleDecision<Symbolic> kasan_sample_page_alloc(const SEnv&, const SWord& order,
                                                                     const SWord& gfp, const SWord& skip) const = 0;
    // kasan_unpoison_pages()'s decision alone (a page mempool's element re-issued)
    virtual kernel::SampleDecision<Symbolic> kasan_unpoison_pages(const SEnv&, const SWord& order,
                                                                  const SWord& skip) const = 0;
    virtual kernel::FreePlan<Symbolic> free_pages_prepare(const SEnv&, const kernel::FreeInput<Symbolic>&) const = 0;
    virtual kernel::VmallocFixFlags<Symbolic> vmalloc_fix_flags(const SEnv&, const SWord& gfp) const = 0;
    // mm/vmalloc.c vm_shift() for VM_ALLOW_HUGE_VMAP: the page order of the area's blocks
    virtual SWord vmalloc_huge_order(const SEnv&, const SWord& size) const = 0;
    virtual kernel::VmallocPlan<Symbolic> vmalloc_node_range(const SEnv&, const SWord& gfp,
                                                             const SBool& prot_kernel) const = 0;
    virtual kernel::VmallocUnpoison<Symbolic> kasan_unpoison_vmalloc(const SEnv&,
                                                                     const kernel::VmallocPlan<Symbolic>&) const = 0;
    virtual SBool cached_stack_unpoison(const SEnv&) const = 0;
    virtual SBool kfence_enabled(const SEnv&) const = 0;
    virtual kernel::SlabFreePlan<Symbolic> kasan_slab_free(const SEnv&, const SBool& typesafe_by_rcu) const = 0;
    virtual SBool slab_tag_per_alloc(const SEnv&, const SBool& ctor_or_rcu) const = 0;
    virtual SBool slab_memset_init(const SEnv&, const SBool& init) const = 0;
    virtual SBool slab_alloc_kasan_init(const SEnv&, const SBool& init) const = 0;
    virtual SWord kmalloc_redzone_start(const SEnv&, const SWord& size) const = 0;
    virtual SBool krealloc_zeroes_spare(const SEnv&, const SWord& gfp) const = 0;
    virtual SBool vrealloc_shrink_zeroes(const SEnv&, const SWord& gfp) const = 0;
    virtual kernel::VmallocPlan<Symbolic> vmap_unpoison_plan(const SEnv&) const = 0;
    virtual kernel::MempoolHooks<Symbolic> mempool_hooks(const SEnv&) const = 0;
    virtual kernel::VreallocHooks<Symbolic> vrealloc_hooks(const SEnv&) const = 0;
    virtual SWord random_tag_min(const SEnv&) const = 0;
    virtual SWord random_tag_max(const SEnv&) const = 0;
    virtual SBool granule_check_faults(const SEnv&, const kernel::TagCheckInput<Symbolic>&) const = 0;
};

template <class V>
class SymVariantOf final : public SymVariant {
    using S = Symbolic;

public:
    explicit SymVariantOf(const kernel::Variant& c) : c_(c) {}
    const kernel::Variant& concrete() const override { return c_; }
    SWord THREADINFO_GFP(const SEnv& e) const override { return V::template THREADINFO_GFP<S>(e); }
    SWord GFP_VMAP_STACK(const SEnv& e) const override { return V::template GFP_VMAP_STACK<S>(e); }
    SWord GFP_PGTABLE_KERNEL(const SEnv& e) const override { return V::template GFP_PGTABLE_KERNEL<S>(e); }
    SWord GFP_PGTABLE_USER(const SEnv& e) const override { return V::template GFP_PGTABLE_USER<S>(e); }
    SWord pte_alloc_one_kernel_gfp(const SEnv& e) const override { return V::template pte_alloc_one_kernel_gfp<S>(e); }
    SWord pte_alloc_one_gfp(const SEnv& e) const override { return V::template pte_alloc_one_gfp<S>(e); }
    SWord user_page_gfp(const SEnv& e, const SBool& m) const override { return V::template user_page_gfp<S>(e, m); }
    SBool mte_sync_tags_clears(const SEnv& e, const SBool& t) const override {
        return V::template mte_sync_tags_clears<S>(e, t);
    }
    SWord skb_frag_gfp(const SEnv& e) const override { return V::template skb_frag_gfp<S>(e); }
    SWord skb_frag_fallback_gfp(const SEnv& e) const override { return V::template skb_frag_fallback_gfp<S>(e); }
    SBool skb_with_frags_fits(const SEnv& e, const SWord& d, const SWord& o) const override {
        return V::template skb_with_frags_fits<S>(e, d, o);
    }
    SWord alloc_skb_frags_gfp(const SEnv& e, const SWord& g) const override {
        return V::template alloc_skb_frags_gfp<S>(e, g);
    }
    SBool want_init_on_alloc(const SEnv& e, const SWord& g) const override {
        return V::template want_init_on_alloc<S>(e, g);
    }
    kernel::PostAllocPlan<S> post_alloc_hook(const SEnv& e, const SWord& gfp, const SWord& order,
                                             const SWord& skip) const override {
        return V::template post_alloc_hook<S>(e, gfp, order, skip);
    }
    kernel::SampleDecision<S> kasan_sample_page_alloc(const SEnv& e, const SWord& order, const SWord& gfp,
                                                      const SWord& skip) const override {
        return V::template kasan_sample_page_alloc<S>(e, order, gfp, skip);
    }
    kernel::SampleDecision<S> kasan_unpoison_pages(const SEnv& e, const SWord& order, const SWord& skip) const override {
        return V::template kasan_unpoison_pages<S>(e, order, S::lit(0), skip);  // mempool_alloc_pages: no gfp of its own
    }
    kernel::FreePlan<S> free_pages_prepare(const SEnv& e, const kernel::FreeInput<S>& in) const override {
        return V::template free_pages_prepare<S>(e, in);
    }
    kernel::VmallocFixFlags<S> vmalloc_fix_flags(const SEnv& e, const SWord& gfp) const override {
        return V::template vmalloc_fix_flags<S>(e, gfp);
    }
    SWord vmalloc_huge_order(const SEnv& e, const SWord& size) const override {
        return V::template vmalloc_huge_order<S>(e, size);
    }
    kernel::VmallocPlan<S> vmalloc_node_range(const SEnv& e, const SWord& gfp, const SBool& prot) const override {
        return V::template vmalloc_node_range<S>(e, gfp, prot);
    }
    kernel::VmallocUnpoison<S> kasan_unpoison_vmalloc(const SEnv& e, const kernel::VmallocPlan<S>& v) const override {
        return V::template kasan_unpoison_vmalloc<S>(e, v);
    }
    kernel::SlabFreePlan<S> kasan_slab_free(const SEnv& e, const SBool& rcu) const override {
        return V::template kasan_slab_free<S>(e, rcu);
    }
    SBool slab_tag_per_alloc(const SEnv& e, const SBool& c) const override { return V::template slab_tag_per_alloc<S>(e, c); }
    SBool slab_memset_init(const SEnv& e, const SBool& i) const override { return V::template slab_memset_init<S>(e, i); }
    SBool slab_alloc_kasan_init(const SEnv& e, const SBool& i) const override {
        return V::template slab_alloc_kasan_init<S>(e, i);
    }
    SBool krealloc_zeroes_spare(const SEnv& e, const SWord& g) const override {
        return V::template krealloc_zeroes_spare<S>(e, g);
    }
    SBool vrealloc_shrink_zeroes(const SEnv& e, const SWord& g) const override {
        return V::template vrealloc_shrink_zeroes<S>(e, g);
    }
    SWord kmalloc_redzone_start(const SEnv& e, const SWord& n) const override {
        return V::template kmalloc_redzone_start<S>(e, n);
    }
    SBool kfence_enabled(const SEnv& e) const override { return V::template kfence_enabled<S>(e); }
    SBool cached_stack_unpoison(const SEnv& e) const override { return V::template cached_stack_unpoison<S>(e); }
    kernel::VmallocPlan<S> vmap_unpoison_plan(const SEnv& e) const override {
        return V::template vmap_unpoison_plan<S>(e);
    }
    kernel::MempoolHooks<S> mempool_hooks(const SEnv& e) const override { return V::template mempool_hooks<S>(e); }
    kernel::VreallocHooks<S> vrealloc_hooks(const SEnv& e) const override { return V::template vrealloc_hooks<S>(e); }
    SWord random_tag_min(const SEnv& e) const override { return V::template random_tag_min<S>(e); }
    SWord random_tag_max(const SEnv& e) const override { return V::template random_tag_max<S>(e); }
    SBool granule_check_faults(const SEnv& e, const kernel::TagCheckInput<S>& in) const override {
        return V::template granule_check_faults<S>(e, in);
    }

private:
    const kernel::Variant& c_;
};

// The symbolic twin of kernel::find_variant (built-ins and mutants).
const SymVariant& find_sym_variant(const std::string& name, const std::string& where = "");

}  // namespace tagproof::solver
