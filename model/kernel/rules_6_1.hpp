// rules_6_1.hpp — KASAN decisions as shipped in v6.1 (kernel-semantics §2(a)).
//
// The base of every era: each later era re-defines only what changed. Rules
// call each other through Self:: so that a derived era's rule is the one used.
#pragma once
#include <cstdint>
#include <vector>

#include "boot_params.hpp"
#include "gfp.hpp"
#include "plans.hpp"
#include "tag.hpp"
#include "features.hpp"

namespace tagproof::kernel {

template <class Self>
struct rules_6_1 {
    static constexpr GfpEra gfp_era = GfpEra::v6_1;
    static constexpr bool mutant = false;
    static constexpr const char* next_version = "";
    // Claims (claims.hpp) and recorded defects (recorded_defects.cpp) are not
    // rules: a variant states its own claims, and none are inherited from an era.
    static Features features() { return {}; }
    static std::vector<GfpExtraFlag> extra_gfp_flags() { return {}; }
    // include/linux/gfp_types.h (v5.18 .. v6.3): __GFP_BITS_SHIFT is
    // 27 + IS_ENABLED(CONFIG_LOCKDEP), whatever the build defines; a series
    // that adds a bit must grow it (and so move __GFP_NOLOCKDEP).
    static int GFP_BITS_SHIFT(const GfpBits& b) { return 27 + (b.build.lockdep ? 1 : 0); }
    static BootParamSyntax boot_syntax() {
        BootParamSyntax s;
        s.page_alloc_sample = false;  // v6.3+
        s.page_alloc_sample_order = false;
        s.write_only = false;         // 2025+
        s.fault_panic_on_write = false;
        s.vmalloc_needs_config = false;
        return s;
    }

    // ---- GFP constants of the callers ------------------------------------
    // include/linux/thread_info.h
    template <class D>
    static typename D::Word THREADINFO_GFP(const KasanEnv<D>& e) { return e.gfp.GFP_KERNEL_ACCOUNT | e.gfp.ZERO; }
    // kernel/fork.c (older kernels: THREADINFO_GFP & ~__GFP_ACCOUNT to __vmalloc_node_range)
    template <class D>
    static typename D::Word GFP_VMAP_STACK(const KasanEnv<D>& e) { return e.gfp.GFP_KERNEL | e.gfp.ZERO; }
    // include/asm-generic/pgalloc.h
    template <class D>
    static typename D::Word GFP_PGTABLE_KERNEL(const KasanEnv<D>& e) { return e.gfp.GFP_KERNEL | e.gfp.ZERO; }
    template <class D>
    static typename D::Word GFP_PGTABLE_USER(const KasanEnv<D>& e) {
        return Self::GFP_PGTABLE_KERNEL(e) | e.gfp.ACCOUNT;
    }
    // What each page-table allocator passes, beside the macros it names
    // (arch/arm64/mm/pgd.c's pgd_alloc() names GFP_PGTABLE_USER itself, so a
    // patch to one call changes that call alone): __pte_alloc_one_kernel()'s
    // page allocation (GFP_PGTABLE_KERNEL, with & ~__GFP_HIGHMEM from v6.5:
    // nothing on arm64) and pte_alloc_one()'s argument to __pte_alloc_one().
    template <class D>
    static typename D::Word pte_alloc_one_kernel_gfp(const KasanEnv<D>& e) { return Self::GFP_PGTABLE_KERNEL(e); }
    template <class D>
    static typename D::Word pte_alloc_one_gfp(const KasanEnv<D>& e) { return Self::GFP_PGTABLE_USER(e); }
    // arch/arm64/mm/fault.c vma_alloc_zeroed_movable_folio: ZEROTAGS for VM_MTE vmas.
    template <class D>
    static typename D::Word user_page_gfp(const KasanEnv<D>& e, typename D::Bool vm_mte) {
        return e.gfp.GFP_HIGHUSER_MOVABLE | e.gfp.ZERO | D::ite(vm_mte, e.gfp.ZEROTAGS, D::lit(0));
    }
    // net/core/sock.c skb_page_frag_refill (sk_allocation = GFP_KERNEL):
    // (gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_COMP | __GFP_NOWARN | __GFP_NORETRY, order 3.
    template <class D>
    static typename D::Word skb_frag_gfp(const KasanEnv<D>& e) {
        return (e.gfp.GFP_KERNEL & ~e.gfp.DIRECT_RECLAIM) | e.gfp.COMP | e.gfp.NOWARN | e.gfp.NORETRY;
    }
    // skb_page_frag_refill's order-0 fallback when the order-3 attempt fails:
    // alloc_page(gfp) with the socket's own sk_allocation (GFP_KERNEL), unmarked.
    template <class D>
    static typename D::Word skb_frag_fallback_gfp(const KasanEnv<D>& e) { return e.gfp.GFP_KERNEL; }
    // net/core/skbuff.c alloc_skb_with_frags(): a high-order frag is
    // alloc_pages((gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_COMP | __GFP_NOWARN, order);
    // an order-0 frag is alloc_page(gfp) with the caller's gfp as it is.
    template <class D>
    static typename D::Word alloc_skb_frags_gfp(const KasanEnv<D>& e, typename D::Word gfp) {
        return (gfp & ~e.gfp.DIRECT_RECLAIM) | e.gfp.COMP | e.gfp.NOWARN;
    }
    // The order alloc_skb_with_frags() tries after a high-order frag failed.
    // v6.1 .. v6.5: "Do not retry other high order allocations": order 0 for
    // this frag and every later one (max_page_order = 0).
    template <class D>
    static typename D::Word skb_frags_order_after_failure(const KasanEnv<D>& e, typename D::Word order) {
        return D::lit(0);
    }
    // alloc_skb_with_frags()'s -EMSGSIZE test, before the skb or any frag is
    // allocated. v6.1 .. v6.5: the pages the data needs, whatever their order,
    // at most MAX_SKB_FRAGS (17, CONFIG_MAX_SKB_FRAGS' default): npages =
    // (data_len + PAGE_SIZE - 1) >> PAGE_SHIFT; if (npages > MAX_SKB_FRAGS) return NULL.
    template <class D>
    static typename D::Bool skb_with_frags_fits(const KasanEnv<D>& e, typename D::Word data_len, typename D::Word order) {
        return !D::ult(D::lit(17), D::lshr(D::add(data_len, D::lit(4095)), 12));
    }
    // The free-time skip flags vmalloc adds for its backing pages.
    template <class D>
    static typename D::Word vmalloc_page_skip_flags(const KasanEnv<D>& e) {
        return e.gfp.SKIP_KASAN_UNPOISON | e.gfp.SKIP_ZERO;
    }

    // ---- mm/page_alloc.c ----------------------------------------------------
    // include/linux/mm.h want_init_on_alloc()
    template <class D>
    static typename D::Bool want_init_on_alloc(const KasanEnv<D>& e, typename D::Word gfp) {
        return e.init_on_alloc || D::any(gfp, e.gfp.ZERO);
    }
    // should_skip_init(): __GFP_SKIP_ZERO only means something with HW tags on.
    template <class D>
    static typename D::Bool should_skip_init(const KasanEnv<D>& e, typename D::Word gfp) {
        return e.kasan_hw_tags_enabled() && D::any(gfp, e.gfp.SKIP_ZERO);
    }
    // should_skip_kasan_unpoison(): software modes never skip; HW skips when
    // disabled or when asked to.
    template <class D>
    static typename D::Bool skip_unpoison_flag(const KasanEnv<D>& e, typename D::Word gfp) {
        return D::any(gfp, e.gfp.SKIP_KASAN_UNPOISON);
    }
    template <class D>
    static typename D::Bool should_skip_kasan_unpoison(const KasanEnv<D>& e, typename D::Word gfp) {
        return !e.software_kasan() && (!e.kasan_hw_tags_enabled() || Self::skip_unpoison_flag(e, gfp));
    }
    // No sampling before v6.3: every allocation that reaches unpoisoning is
    // tagged (v6.3's rule of which allocations the sampler counts is here only
    // so that every era has it; nothing before v6.3 asks it).
    template <class D>
    static typename D::Bool sample_eligible(const KasanEnv<D>& e, typename D::Word order, typename D::Word gfp) {
        return D::boolean(false);
    }
    // v6.3's counter test and reset value (rules_6_3.hpp), likewise only so
    // that every era has them
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
        return {D::boolean(true), skip};
    }
    // kasan_unpoison_pages(): the wrapper does nothing unless kasan_enabled();
    // __kasan_unpoison_pages asks the sampler first (v6.3+; always yes before).
    template <class D>
    static SampleDecision<D> kasan_unpoison_pages(const KasanEnv<D>& e, typename D::Word order,
                                                  typename D::Word gfp, typename D::Word skip) {
        SampleDecision<D> s = Self::kasan_sample_page_alloc(e, order, gfp, skip);
        return {e.kasan_enabled && s.tag, D::ite(e.kasan_enabled, s.skip_next, skip)};
    }
    // post_alloc_hook (mm/page_alloc.c), one body for every era; what changed
    // between eras is a hook each:
    //   zero_tags_step        how __GFP_ZEROTAGS is honoured (6.1..6.4: tag_clear_highpage
    //                         when initialising; 7.0: tag_clear_highpages() needs MTE;
    //                         2026: not gated on init)
    //   reset_tags_initially  sample-v3 as posted started from !zero_tags
    //   has_pg_skip_kasan_poison  the page flag exists (v6.0 .. v6.3)
    // Before v6.3 kasan_unpoison_pages() was void and never declined; the
    // sampling rule below then always says "tag", and this body reduces to the
    // v6.1 one (the integrated-init note and the page-tag reset on the skip
    // path follow from "unpoisoning was attempted" exactly as before).
    static constexpr bool has_pg_skip_kasan_poison = true;
    // post_alloc_hook's `zero_tags`: v6.1 .. v7.0 `init && (gfp_flags & __GFP_ZEROTAGS)`;
    // the 2026 mm tree drops the `init &&`.
    template <class D>
    static typename D::Bool zero_tags(const KasanEnv<D>& e, typename D::Word gfp, typename D::Bool init) {
        return init && D::any(gfp, e.gfp.ZEROTAGS);
    }
    // Whether tag_clear_highpage(s)() zeroes the tags (and returns true): always
    // before v7.0; v7.0's tag_clear_highpages() only with MTE.
    template <class D>
    static typename D::Bool tag_clear_highpages_clears(const KasanEnv<D>& e) { return D::boolean(true); }
    // The tags (and the data too while initialising) are zeroed together, and
    // the page is then not cleared again.
    template <class D>
    static void zero_tags_step(const KasanEnv<D>& e, typename D::Word gfp, typename D::Bool& init,
                               PostAllocPlan<D>& p) {
        p.tag_clear = Self::zero_tags(e, gfp, init) && Self::tag_clear_highpages_clears(e);
        p.tag_clear_data = p.tag_clear && init;
        init = init && !p.tag_clear;
    }
    template <class D>
    static typename D::Bool reset_tags_initially(const KasanEnv<D>& e, typename D::Bool zero_tags) { return D::boolean(true); }
    template <class D>
    static PostAllocPlan<D> post_alloc_hook(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word order,
                                            typename D::Word skip) {
        using Bool = typename D::Bool;
        PostAllocPlan<D> p;
        Bool init = !e.init_on_free && Self::want_init_on_alloc(e, gfp) && !Self::should_skip_init(e, gfp);
        Bool zero_tags = init && D::any(gfp, e.gfp.ZEROTAGS);
        Self::zero_tags_step(e, gfp, init, p);
        Bool called = !Self::should_skip_kasan_unpoison(e, gfp);
        SampleDecision<D> u = Self::kasan_unpoison_pages(e, order, gfp, skip);
        p.unpoison = called && u.tag;
        p.sampled_out = called && !u.tag;
        p.unpoison_init = p.unpoison && init && e.kasan_has_integrated_init();
        p.sample_skip_next = D::ite(called, u.skip_next, skip);
        // "Take note that memory was initialized by KASAN"
        p.kernel_init = init && !(p.unpoison && e.kasan_has_integrated_init());
        // "ensure page_address() dereferencing does not fault"
        p.reset_page_tag = Self::template reset_tags_initially<D>(e, zero_tags) && !p.unpoison;
        // sampled out -> skip poisoning too; __GFP_SKIP_KASAN_POISON -> the page flag
        p.set_skip_poison_flag = D::boolean(Self::has_pg_skip_kasan_poison) &&
                                 ((p.sampled_out && e.hw_tags) ||
                                  (e.kasan_hw_tags_enabled() && D::any(gfp, e.gfp.SKIP_KASAN_POISON)));
        return p;
    }
    // Whether free_pages_prepare() calls should_skip_kasan_poison() before it
    // clears the head page's flags (page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP).
    // v6.1 as shipped: commit 487a32ec24be moved the check after the clearing,
    // so PG_skip_kasan_poison is never seen (kernel-semantics §2(a)). tagproof
    // lift reads the order from a tree's free_pages_prepare.
    template <class D>
    static typename D::Bool free_reads_skip_flag(const KasanEnv<D>& e) {
        return D::boolean(false);
    }
    // PG_skip_kasan_poison as should_skip_kasan_poison() finds it
    template <class D>
    static typename D::Bool page_skip_flag_seen(const KasanEnv<D>& e, const FreeInput<D>& in) {
        return Self::free_reads_skip_flag(e) && in.pg_skip_kasan_poison;
    }
    template <class D>
    static typename D::Bool should_skip_kasan_poison(const KasanEnv<D>& e, const FreeInput<D>& in) {
        return e.deferred_pages || (!e.generic && in.fpi_skip_kasan_poison) || Self::page_skip_flag_seen(e, in);
    }
    // free_pages_prepare's KASAN part, as every era writes it (tagproof lift
    // reads the three from a tree):
    //     bool init = want_init_on_free();
    //     ...
    //     if (!skip_kasan_poison) {
    //             kasan_poison_pages(page, order, init);          free_poison_init(init)
    //             if (kasan_has_integrated_init())
    //                     init = false;                           free_init_after_poison(init)
    //     }
    //     if (init)                                               free_kernel_init(init)
    //             kernel_init_pages(page, 1 << order);
    template <class D>
    static typename D::Bool free_poison_init(const KasanEnv<D>& e, typename D::Bool init) {
        return init;
    }
    // __kasan_poison_pages (mm/kasan/common.c): the init its
    //     kasan_poison(page_address(page), PAGE_SIZE << order, KASAN_PAGE_FREE, init);
    // is given, of the init kasan_poison_pages() was given (every era: that
    // init), read from a tree by tree/lift_free_parts.cpp. Applied where
    // free_pages_prepare() poisons; the mempool's page poisoning passes
    // false, which the model keeps (the element's data is not zeroed).
    template <class D>
    static typename D::Bool kasan_poison_pages_init(const KasanEnv<D>& e, typename D::Bool init) {
        return init;
    }
    template <class D>
    static typename D::Bool free_init_after_poison(const KasanEnv<D>& e, typename D::Bool init) {
        return init && !e.kasan_has_integrated_init();
    }
    template <class D>
    static typename D::Bool free_kernel_init(const KasanEnv<D>& e, typename D::Bool init) {
        return init;
    }
    template <class D>
    static FreePlan<D> free_pages_prepare(const KasanEnv<D>& e, const FreeInput<D>& in) {
        FreePlan<D> f;
        const typename D::Bool init = e.init_on_free;  // want_init_on_free()
        f.skip_poison = Self::should_skip_kasan_poison(e, in);
        // kasan_poison_pages(): nothing unless kasan_enabled(); its init is
        // honoured where KASAN initialises memory itself (HW_TAGS)
        f.poison = !f.skip_poison && e.kasan_enabled;
        f.poison_init =
                f.poison && Self::kasan_poison_pages_init(e, Self::free_poison_init(e, init)) && e.kasan_has_integrated_init();
        f.kernel_init = Self::free_kernel_init(e, D::ite(f.skip_poison, init, Self::free_init_after_poison(e, init)));
        return f;
    }

    // ---- mm/vmalloc.c GFP_VMALLOC_SUPPORTED / vmalloc_fix_flags ---------------
    // __vmalloc() and vmalloc_huge_node() clear the flags outside
    // GFP_VMALLOC_SUPPORTED with a WARN ("Unexpected gfp ... Fix your code!");
    // __vmalloc_node_range() callers (fork's stacks) are not filtered. Before
    // Moola's "mm/vmalloc: warn on invalid vmalloc gfp flags" (2025) there is
    // no filter: every flag passes.
    template <class D>
    static typename D::Word GFP_VMALLOC_SUPPORTED(const KasanEnv<D>& e) { return ~D::lit(0); }
    template <class D>
    static VmallocFixFlags<D> vmalloc_fix_flags(const KasanEnv<D>& e, typename D::Word gfp) {
        auto supported = Self::GFP_VMALLOC_SUPPORTED(e);
        return {gfp & supported, D::any(gfp, ~supported)};
    }

    // ---- mm/vmalloc.c __vmalloc_node_range ------------------------------------
    // With HW tags active a PAGE_KERNEL area is mapped Normal-Tagged and its
    // pages are allocated untagged and unzeroed (kasan_unpoison_vmalloc tags and
    // zeroes them). The three conditions a PAGE_KERNEL area is decided on, as
    // the kernel writes them (the Anjum series changes each):
    //   vmalloc_tagged_prot(gfp)     `if (kasan_hw_tags_enabled())`: tagged prot, and
    //                                the pages get vmalloc_page_skip_flags
    //   vmalloc_prot_normal(gfp, gfp_mask)     `kasan_flags |= KASAN_VMALLOC_PROT_NORMAL` done
    //   vmalloc_calls_unpoison(gfp, gfp_mask)  kasan_unpoison_vmalloc() called
    //   vmalloc_init(gfp, gfp_mask)            `kasan_flags |= KASAN_VMALLOC_INIT` done
    //   vmalloc_vm_alloc(gfp, gfp_mask)        `kasan_flags |= KASAN_VMALLOC_VM_ALLOC` done
    //                                (without it HW_TAGS' __kasan_unpoison_vmalloc
    //                                returns before tagging or zeroing anything)
    // (gfp is the caller's mask; gfp_mask the function's variable at that
    // point: the caller's, with the pages' skip flags added if the area got
    // the tagged prot. A condition written on gfp_mask there sees them.)
    //   vmalloc_skip(gfp)            the series' `skip_kasan` (none before it)
    //   vmalloc_meta_gfp(gfp)        v4: the vm_struct metadata without the flag
    template <class D>
    static typename D::Bool vmalloc_skip(const KasanEnv<D>& e, typename D::Word gfp) { return D::boolean(false); }
    template <class D>
    static typename D::Bool vmalloc_tagged_prot(const KasanEnv<D>& e, typename D::Word gfp) {
        return e.kasan_hw_tags_enabled() && !Self::vmalloc_skip(e, gfp);
    }
    template <class D>
    static typename D::Bool vmalloc_prot_normal(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word gfp_mask) {
        return D::boolean(true);
    }
    template <class D>
    static typename D::Bool vmalloc_calls_unpoison(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word gfp_mask) {
        return D::boolean(true);
    }
    // KASAN_VMALLOC_INIT complements post_alloc_hook()'s __GFP_SKIP_ZERO test,
    // so that the memory is zeroed under the same conditions (v5.17 on, every era).
    template <class D>
    static typename D::Bool vmalloc_init(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word gfp_mask) {
        return !e.init_on_free && Self::want_init_on_alloc(e, gfp_mask) && D::any(gfp_mask, e.gfp.SKIP_ZERO);
    }
    // every VM_ALLOC area, unconditionally (v5.17 on, every era)
    template <class D>
    static typename D::Bool vmalloc_vm_alloc(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word gfp_mask) {
        return D::boolean(true);
    }
    template <class D>
    static typename D::Word vmalloc_meta_gfp(const KasanEnv<D>& e, typename D::Word gfp) { return gfp; }
    template <class D>
    static VmallocPlan<D> vmalloc_node_range(const KasanEnv<D>& e, typename D::Word gfp,
                                             typename D::Bool prot_kernel) {
        VmallocPlan<D> v;
        v.meta_gfp = Self::vmalloc_meta_gfp(e, gfp);
        v.tagged_mapping = prot_kernel && Self::vmalloc_tagged_prot(e, gfp);
        v.page_gfp = gfp | D::ite(v.tagged_mapping, Self::vmalloc_page_skip_flags(e), D::lit(0));
        v.flag_prot_normal = prot_kernel && Self::vmalloc_prot_normal(e, gfp, v.page_gfp);
        v.flag_vm_alloc = Self::vmalloc_vm_alloc(e, gfp, v.page_gfp);
        v.flag_init = Self::vmalloc_init(e, gfp, v.page_gfp);
        v.call_unpoison = Self::vmalloc_calls_unpoison(e, gfp, v.page_gfp);
        return v;
    }
    // kasan_unpoison_vmalloc(): a no-op unless kasan_enabled(), and only built
    // with CONFIG_KASAN_VMALLOC. HW (hw_tags.c): kasan.vmalloc=off clears pages
    // if INIT; else tags only VM_ALLOC + PROT_NORMAL areas. Software
    // (shadow.c): Generic always; SW_TAGS only PROT_NORMAL.
    //
    // HW_TAGS' __kasan_unpoison_vmalloc (mm/kasan/hw_tags.c), v6.1 and v6.12,
    // in three rules that tree/lift_vmalloc_unpoison.cpp reads from a tree, each
    // of the KASAN_VMALLOC_* flags __vmalloc_node_range() passed as a bool:
    //   unpoison_vmalloc_off_init(init)   with kasan.vmalloc=off, whether
    //       init_vmalloc_pages() clears the pages (`if (flags & KASAN_VMALLOC_INIT)`)
    //   unpoison_vmalloc_tags(vm_alloc, prot_normal)   no early return before
    //       the tagging (`if (!(flags & KASAN_VMALLOC_VM_ALLOC)) return` and
    //       the same for PROT_NORMAL: "Don't tag executable memory")
    //   unpoison_vmalloc_init(init)   the init of its kasan_unpoison(start,
    //       size, ...) and of the in-page redzone's kasan_poison()
    template <class D>
    static typename D::Bool unpoison_vmalloc_off_init(const KasanEnv<D>& e, typename D::Bool init) {
        return init;
    }
    template <class D>
    static typename D::Bool unpoison_vmalloc_tags(const KasanEnv<D>& e, typename D::Bool vm_alloc,
                                                  typename D::Bool prot_normal) {
        return vm_alloc && prot_normal;
    }
    template <class D>
    static typename D::Bool unpoison_vmalloc_init(const KasanEnv<D>& e, typename D::Bool init) {
        return init;
    }
    template <class D>
    static VmallocUnpoison<D> kasan_unpoison_vmalloc(const KasanEnv<D>& e, const VmallocPlan<D>& v) {
        VmallocUnpoison<D> r;
        auto on = e.kasan_enabled && e.config_kasan_vmalloc && v.call_unpoison;
        auto hw_retag =
                on && e.hw_tags && e.vmalloc_on && Self::unpoison_vmalloc_tags(e, v.flag_vm_alloc, v.flag_prot_normal);
        auto sw_retag = on && (e.generic || (e.sw_tags && v.flag_prot_normal));
        r.retag = hw_retag || sw_retag;
        r.retag_init = hw_retag && Self::unpoison_vmalloc_init(e, v.flag_init);
        r.random_tag = r.retag && e.tag_based();
        r.clear_pages = on && e.hw_tags && !e.vmalloc_on && Self::unpoison_vmalloc_off_init(e, v.flag_init);
        return r;
    }

    // ---- kernel/fork.c ----------------------------------------------------------
    // A stack taken from the per-CPU cache gets kasan_unpoison_range(vm->addr, THREAD_SIZE).
    template <class D>
    static typename D::Bool cached_stack_unpoison(const KasanEnv<D>& e) { return D::boolean(true); }
    // alloc_thread_stack_node_from_cache() and try_release_thread_stack_to_cache()
    // (free_thread_stack, and again in the RCU callback thread_stack_free_rcu):
    // before v6.19 the per-CPU cache ignores NUMA both ways.
    template <class D>
    static typename D::Bool stack_cache_serves(const KasanEnv<D>& e, typename D::Bool other_node_asked) {
        return D::boolean(true);
    }
    template <class D>
    static typename D::Bool stack_cache_takes(const KasanEnv<D>& e, typename D::Bool remote_pages) {
        return D::boolean(true);
    }

    // ---- random tags and the tag check ----------------------------------------
    // kasan_random_tag(): HW: IRG with GCR_EL1 excluding nibbles 0xE and 0xF ->
    // 0xF0..0xFD; SW_TAGS: per-CPU LCG modulo KASAN_TAG_MAX + 1 -> 0x00..0xFD.
    template <class D>
    static typename D::Word random_tag_min(const KasanEnv<D>& e) {
        return D::ite(e.hw_tags, D::lit(KASAN_TAG_MIN_HW), D::lit(KASAN_TAG_MIN_SW));
    }
    template <class D>
    static typename D::Word random_tag_max(const KasanEnv<D>& e) { return D::lit(KASAN_TAG_MAX); }
    // TCR_EL1.TCMA1 (HW) / the compiler's match-all (SW_TAGS): a pointer with
    // top byte 0xFF is never checked.
    template <class D>
    static typename D::Bool ptr_tag_match_all(const KasanEnv<D>& e, typename D::Word ptr_tag) {
        return ptr_tag == D::lit(KASAN_TAG_KERNEL);
    }
    // HW compares pointer bits 59..56 with the granule's 4-bit allocation tag;
    // SW_TAGS compares the whole top byte with the shadow byte. No memory tag is
    // match-all (KUnit match_all_mem_tag).
    template <class D>
    static typename D::Bool tag_mismatch(const KasanEnv<D>& e, typename D::Word ptr_tag, typename D::Word mem_tag) {
        return D::ite(e.hw_tags, (ptr_tag & D::lit(0xF)) != (mem_tag & D::lit(0xF)), ptr_tag != mem_tag);
    }

    // The tag check of one granule (tag modes; Generic's byte-precise shadow
    // check is in checks/generic_check.hpp). HW: TCMA1 match-all, TCF off after a
    // sync fault, untagged mappings and loads under write_only are unchecked.
    // SW_TAGS: the compiler's check, 0xFF pointers skipped.
    template <class D>
    static typename D::Bool granule_check_faults(const KasanEnv<D>& e, const TagCheckInput<D>& in) {
        auto hw = e.kasan_hw_tags_enabled() && in.tcf_on && in.tagged_mapping && !(in.write_only && !in.is_write);
        auto sw = e.sw_tags && e.kasan_enabled;
        return (hw || sw) && !Self::ptr_tag_match_all(e, in.ptr_tag) && Self::tag_mismatch(e, in.ptr_tag, in.mem_tag);
    }

    // ---- mm/kasan/common.c ____kasan_slab_free, mm/slub.c: kmem_cache_free --------
    // v6.1 .. v6.11: a SLAB_TYPESAFE_BY_RCU object is left alone at free ("RCU
    // slabs could be legally used after free within the RCU period"): not
    // poisoned, back on the freelist at once; only the slab page's release
    // (after a grace period) poisons it. Other objects are poisoned.
    // Whether the object is poisoned is rule slab_free_poisons(still_accessible),
    // still_accessible being SLAB_TYPESAFE_BY_RCU at the free (v6.12's
    // slab_free_hook: `(s->flags & SLAB_TYPESAFE_BY_RCU) && !after_rcu_delay`,
    // after_rcu_delay false at a kmem_cache_free()): the test before
    // kasan_poison(..., KASAN_SLAB_FREE, init) in ____kasan_slab_free (v6.1's,
    // on the cache's flags) or poison_slab_object (v6.8 on; on its
    // still_accessible argument from v6.12), read from a tree by
    // tree/lift_slab_parts.cpp. kasan_enabled(): include/linux/kasan.h's
    // kasan_slab_free() calls __kasan_slab_free() only then.
    template <class D>
    static typename D::Bool slab_free_poisons(const KasanEnv<D>& e, typename D::Bool still_accessible) {
        return e.kasan_enabled && !still_accessible;
    }
    // Whether the object is still accessible at the free is rule
    // slab_free_still_accessible(typesafe_by_rcu, after_rcu_delay): v6.12's
    // slab_free_hook (mm/slub.c) `(s->flags & SLAB_TYPESAFE_BY_RCU) &&
    // !after_rcu_delay`, read from a tree by tree/lift_slab_parts.cpp;
    // after_rcu_delay is false at a kmem_cache_free() and true when
    // slab_free_after_rcu_debug() frees the object after the grace period.
    // Before v6.12 there is no deferral (after_rcu_delay never true) and the
    // KASAN hook tests the cache's flags itself: the same answers.
    template <class D>
    static typename D::Bool slab_free_still_accessible(const KasanEnv<D>& e, typename D::Bool typesafe_by_rcu,
                                                       typename D::Bool after_rcu_delay) {
        return typesafe_by_rcu && !after_rcu_delay;
    }
    template <class D>
    static SlabFreePlan<D> kasan_slab_free(const KasanEnv<D>& e, typename D::Bool typesafe_by_rcu) {
        SlabFreePlan<D> p;
        p.poison = Self::slab_free_poisons(e, Self::slab_free_still_accessible(e, typesafe_by_rcu, D::boolean(false)));
        p.defer_to_rcu = D::boolean(false);
        p.poison_after_gp = Self::slab_free_poisons(e, Self::slab_free_still_accessible(e, typesafe_by_rcu, D::boolean(true)));
        return p;
    }

    // ---- mm/mempool.c + mm/kasan/common.c: mempool elements, v6.1 .. v6.7 --------
    // kasan_poison_element(): page pools kasan_poison_pages() unconditionally,
    // unchecked; slab and kmalloc pools kasan_slab_free_mempool(), which reports
    // an invalid or double free but returns nothing, so add_element() keeps
    // the element anyway. kasan_unpoison_element(): kasan_unpoison_range(e,
    // __ksize(e)) with the element's tag, the whole slot and no redzone; pages
    // get kasan_unpoison_pages() (a new tag).
    // Each hook is a rule of its own (a variant file or a lifted tree sets one,
    // tree/lift_kasan_parts.cpp); mempool_hooks gathers them through Self::.
    template <class D>
    static typename D::Bool mempool_check_page_frees(const KasanEnv<D>& e) { return D::boolean(false); }
    template <class D>
    static typename D::Bool mempool_skip_untagged_pages(const KasanEnv<D>& e) { return D::boolean(false); }
    template <class D>
    static typename D::Bool mempool_keep_bad_element(const KasanEnv<D>& e) { return D::boolean(true); }
    template <class D>
    static typename D::Bool mempool_unpoison_whole_slot(const KasanEnv<D>& e) { return D::boolean(true); }
    template <class D>
    static MempoolHooks<D> mempool_hooks(const KasanEnv<D>& e) {
        return {Self::mempool_check_page_frees(e), Self::mempool_skip_untagged_pages(e),
                Self::mempool_keep_bad_element(e), Self::mempool_unpoison_whole_slot(e)};
    }

    // ---- include/linux/mm.h page_kasan_tag() / page_kasan_tag_set(): page->flags ----
    // The tag lives in KASAN_TAG_WIDTH (8) bits of page->flags, stored XOR 0xff
    // since cf10bd4c4aff ("kasan: fix per-page tags for non-page_alloc pages",
    // v5.12, in every modelled era): memmap starts zeroed, so a field never
    // written -- a KFENCE pool page, boot memory before its first allocation
    // (__init_single_page's reset runs before KASAN is enabled) -- reads 0xff,
    // match-all. `field` is the stored bits; only the tag-based modes have it.
    template <class D>
    static typename D::Word page_kasan_tag_field(const KasanEnv<D>& e, typename D::Word tag) {
        return ~tag & Self::page_kasan_tag_mask(e);  // tag ^ 0xff, masked to KASAN_TAG_WIDTH
    }
    template <class D>
    static typename D::Word page_kasan_tag(const KasanEnv<D>& e, typename D::Word field) {
        return ~(field & Self::page_kasan_tag_mask(e)) & D::lit(0xFF);
    }
    // KASAN_TAG_MASK: (1 << KASAN_TAG_WIDTH) - 1, 8 bits in every mode here.
    template <class D>
    static typename D::Word page_kasan_tag_mask(const KasanEnv<D>& e) { return D::lit(0xFF); }

    // ---- mm/vmalloc.c vmap() / vm_map_ram(): what they ask of kasan_unpoison_vmalloc ----
    // KASAN_VMALLOC_PROT_NORMAL only: not VM_ALLOC (the pages are someone
    // else's), not INIT; the PTEs are PAGE_KERNEL, not tagged.
    template <class D>
    static VmallocPlan<D> vmap_unpoison_plan(const KasanEnv<D>& e) {
        VmallocPlan<D> p;
        p.page_gfp = D::lit(0);
        p.meta_gfp = D::lit(0);
        p.tagged_mapping = D::boolean(false);
        p.call_unpoison = D::boolean(true);
        p.flag_init = D::boolean(false);
        p.flag_vm_alloc = D::boolean(false);
        p.flag_prot_normal = D::boolean(true);
        return p;
    }

    // ---- mm/vmalloc.c vm_shift(): the page order of a VM_ALLOW_HUGE_VMAP area (arm64) ----
    // arch_vmap_pmd_supported(): a PMD (2 MiB, order 9) when the size reaches it;
    // else arch_vmap_pte_supported_shift(), none on arm64 before v6.16.
    template <class D>
    static typename D::Word vmalloc_huge_order(const KasanEnv<D>& e, typename D::Word size) {
        return D::ite(D::ult(size, D::lit(2u << 20)), Self::vmalloc_pte_order(e, size), D::lit(9));
    }
    template <class D>
    static typename D::Word vmalloc_pte_order(const KasanEnv<D>& e, typename D::Word size) { return D::lit(0); }

    // ---- mm/mm_init.c memblock_free_pages() -> mm/page_alloc.c __free_pages_core() ----
    // Boot memory (and deferred_init_memmap()'s ranges) is released with
    // FPI_TO_TAIL | FPI_SKIP_KASAN_POISON in v5.13 .. v6.3 ("mm, kasan: don't
    // poison boot memory with tag-based modes"); free_pages_prepare() then
    // skips poisoning in the tag modes. Generic skips only while
    // deferred_pages_enabled(), so its boot memory is poisoned KASAN_PAGE_FREE.
    template <class D>
    static typename D::Bool boot_release_fpi_skip_kasan_poison(const KasanEnv<D>& e) { return D::boolean(true); }

    // ---- mm/kfence/core.c: does the sampling timer hand allocations to KFENCE? ----
    // KFENCE and KASAN coexist (v5.12 "kfence, kasan: make KFENCE compatible
    // with KASAN"): KASAN's hooks skip KFENCE addresses, whose pointers carry
    // 0xff and whose guard pages do the detecting.
    template <class D>
    static typename D::Bool kfence_enabled(const KasanEnv<D>& e) { return e.kfence; }

    // ---- arch/arm64/kernel/mte.c mte_sync_tags(), from set_pte_at() of a tagged user pte ----
    // A page not yet PG_mte_tagged (try_page_mte_tagging) gets its tags
    // cleared by mte_clear_page_tags() and the flag set. It needs only the CPU
    // (system_supports_mte()), not KASAN: every KASAN mode, and none, does it.
    template <class D>
    static typename D::Bool mte_sync_tags_clears(const KasanEnv<D>& e, typename D::Bool pg_mte_tagged) {
        return e.mte && !pg_mte_tagged;
    }

    // ---- mm/vmalloc.c vrealloc(): v6.12+ (features().vrealloc); never called before ----
    // Each hook a rule of its own, as the mempool's; vrealloc_hooks gathers them.
    template <class D>
    static typename D::Bool vrealloc_granule_aligned(const KasanEnv<D>& e) { return D::boolean(false); }
    template <class D>
    static typename D::Bool vrealloc_grow_vm_alloc(const KasanEnv<D>& e) { return D::boolean(false); }
    template <class D>
    static typename D::Bool vrealloc_grow_keep_tag(const KasanEnv<D>& e) { return D::boolean(false); }
    // vrealloc()'s shrink in place zeroes the bytes given up, "potentially for
    // future realloc": if (want_init_on_free() || want_init_on_alloc(flags))
    // memset((void *)p + size, 0, old_size - size) (read in 6.12.118's
    // mm/vmalloc.c vrealloc_noprof). A later grow in place zeroes nothing
    // ("unused memory will have already been zeroed"), so with __GFP_ZERO on
    // every call the bytes it grows by are these.
    template <class D>
    static typename D::Bool vrealloc_shrink_zeroes(const KasanEnv<D>& e, typename D::Word gfp) {
        return e.init_on_free || Self::want_init_on_alloc(e, gfp);
    }
    template <class D>
    static VreallocHooks<D> vrealloc_hooks(const KasanEnv<D>& e) {
        return {Self::vrealloc_granule_aligned(e), Self::vrealloc_grow_vm_alloc(e), Self::vrealloc_grow_keep_tag(e)};
    }

    // ---- include/linux/slab.h, mm/slab_common.c: the kmalloc minimum alignment ----
    // arm64 before v6.5: no ARCH_KMALLOC_MINALIGN, so it is ARCH_DMA_MINALIGN
    // (128): kmalloc-128 is the smallest cache and there is no kmalloc-96/192.
    template <class D>
    static typename D::Word kmalloc_minalign(const KasanEnv<D>& e) { return D::lit(128); }

    // ---- mm/kasan/common.c slab ---------------------------------------------------
    // assign_tag(): caches without a constructor and not SLAB_TYPESAFE_BY_RCU get a
    // fresh random tag at every allocation; the others keep the tag chosen when
    // the slab was created. Generic: no tags.
    template <class D>
    static typename D::Bool slab_tag_per_alloc(const KasanEnv<D>& e, typename D::Bool ctor_or_rcu) {
        return e.tag_based() && !ctor_or_rcu;
    }

    // __kasan_slab_alloc (mm/kasan/common.c; its unpoison_slab_object() from
    // v6.8): kasan_unpoison(object, cache->object_size, init), the init the
    // hook was given: with HW_TAGS on the same write zeroes the object. Read
    // from a tree by tree/lift_slab_parts.cpp.
    template <class D>
    static typename D::Bool slab_alloc_kasan_init(const KasanEnv<D>& e, typename D::Bool init) {
        return init;
    }

    // slab_post_alloc_hook (mm/slab.h; mm/slub.c since v6.8): kasan_slab_alloc(s, p,
    // flags, init) zeroes the object itself when KASAN's init is integrated
    // (HW_TAGS on: kasan_has_integrated_init()); the memset of object_size
    // covers every other case.
    template <class D>
    static typename D::Bool slab_memset_init(const KasanEnv<D>& e, typename D::Bool init) {
        return init && !e.kasan_has_integrated_init();
    }

    // __kasan_kmalloc's poison_kmalloc_redzone (mm/kasan/common.c): the redzone
    // of a kmalloc object starts at round_up(size, KASAN_GRANULE_SIZE) (Generic
    // marks the partial granule before it with kasan_poison_last_granule).
    template <class D>
    static typename D::Word kmalloc_redzone_start(const KasanEnv<D>& e, typename D::Word size) {
        return e.granule_up(size);
    }
    // A kmalloc above KMALLOC_MAX_CACHE_SIZE (pages from the page allocator):
    // __kasan_kmalloc_large, v6.10's poison_kmalloc_large_redzone, poisons
    // from round_up(ptr + size, KASAN_GRANULE_SIZE) to the block's end (and
    // so do krealloc() of such an object and a large mempool element).
    template <class D>
    static typename D::Word kmalloc_large_redzone_start(const KasanEnv<D>& e, typename D::Word size) {
        return e.granule_up(size);
    }

    // krealloc() in place (mm/slab_common.c __do_krealloc, "If the object
    // still fits, repoison it precisely"): at v6.1.0 nothing is zeroed, so
    // with __GFP_ZERO on every call a shrink keeps the old bytes past the new
    // size and a later grow hands them back. v6.11 ("mm: krealloc: consider
    // spare memory for __GFP_ZERO", rules_7_0.hpp) zeroes the spare part;
    // 6.1.y has it backported (Debian's 6.1.192 does).
    template <class D>
    static typename D::Bool krealloc_zeroes_spare(const KasanEnv<D>& e, typename D::Word gfp) {
        return D::boolean(false);
    }
};

}  // namespace tagproof::kernel
