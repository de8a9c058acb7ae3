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
    static Features features() { return {true, true, true}; }
    // v6.10+ enum layout: #define __GFP_BITS_SHIFT ___GFP_LAST_BIT, the number
    // of flags the build defines (KASAN's only with HW_TAGS, NOLOCKDEP only
    // with LOCKDEP).
    static int GFP_BITS_SHIFT(const GfpBits& b) { return b.last_bit; }
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

    // v6.11 __do_krealloc in place: if (want_init_on_alloc(flags))
    // memset(kasan_reset_tag(p) + new_size, 0, ks - new_size), the spare part
    // past the new size, so that a later grow in place reads zero (read in
    // 6.12.118's mm/slab_common.c).
    template <class D>
    static typename D::Bool krealloc_zeroes_spare(const KasanEnv<D>& e, typename D::Word gfp) {
        return Self::want_init_on_alloc(e, gfp);
    }

    // mm/vmalloc.c vrealloc() in place, v6.19+ (as in v7.0-rc1): kasan_vrealloc()
    // (9b47d4eea3f7) poisons round_up(new) .. round_up(old) on a shrink (a no-op
    // under HW_TAGS) and unpoisons round_down(old) .. new on a grow with
    // PROT_NORMAL | VM_ALLOC | KEEP_TAG (007f5da43b3d).
    template <class D>
    static typename D::Bool vrealloc_granule_aligned(const KasanEnv<D>& e) { return D::boolean(true); }
    template <class D>
    static typename D::Bool vrealloc_grow_vm_alloc(const KasanEnv<D>& e) { return D::boolean(true); }
    template <class D>
    static typename D::Bool vrealloc_grow_keep_tag(const KasanEnv<D>& e) { return D::boolean(true); }

    // v6.8 (Konovalov, "kasan: save mempool stack traces" and the mempool API
    // rework): kasan_mempool_poison_{object,pages}() check and return false on
    // an invalid or double free, and add_element() then drops (leaks) the
    // element; a page with the match-all tag is left alone (it was never
    // tagged); kasan_mempool_unpoison_object() unpoisons the element's size
    // and re-poisons the kmalloc redzone.
    template <class D>
    static typename D::Bool mempool_check_page_frees(const KasanEnv<D>& e) { return D::boolean(true); }
    template <class D>
    static typename D::Bool mempool_skip_untagged_pages(const KasanEnv<D>& e) { return D::boolean(true); }
    template <class D>
    static typename D::Bool mempool_keep_bad_element(const KasanEnv<D>& e) { return D::boolean(false); }
    template <class D>
    static typename D::Bool mempool_unpoison_whole_slot(const KasanEnv<D>& e) { return D::boolean(false); }

    // v6.12 (Jann Horn, "slub: Introduce CONFIG_SLUB_RCU_DEBUG"): with the
    // option an RCU object's free is deferred by call_rcu; after the grace
    // period slab_free_after_rcu_debug() poisons it and frees it for real.
    template <class D>
    static SlabFreePlan<D> kasan_slab_free(const KasanEnv<D>& e, typename D::Bool typesafe_by_rcu) {
        SlabFreePlan<D> p = rules_6_4<Self>::kasan_slab_free(e, typesafe_by_rcu);
        // slab_free_hook's #ifdef CONFIG_SLUB_RCU_DEBUG `if (still_accessible)` (by hand)
        p.defer_to_rcu = Self::slab_free_still_accessible(e, typesafe_by_rcu, D::boolean(false)) && e.slub_rcu_debug;
        return p;
    }

    // v6.5 (Catalin Marinas, "mm, dma, arm64: Reduce ARCH_KMALLOC_MINALIGN to 8",
    // with c15cdea51741): __kmalloc_minalign() = max(8, arch_slab_minalign()),
    // and arm64's arch_slab_minalign() is the MTE granule (16) when HW tags are
    // enabled at boot; SW_TAGS has ARCH_SLAB_MINALIGN = 16 (the swiotlb bounce
    // buffer arm64 always allocates lets DMA alignment drop to 8).
    // v6.16 ("mm: page-flags-layout.h: change the KASAN_TAG_WIDTH for
    // HW_TAGS"): 4 bits under HW_TAGS, still XOR 0xff; a stored nibble n reads
    // 0xf0 | (~n & 0xf), so MTE tags round-trip and a zero field is 0xff.
    template <class D>
    static typename D::Word page_kasan_tag_mask(const KasanEnv<D>& e) {
        return D::ite(e.hw_tags, D::lit(0xF), D::lit(0xFF));
    }
    // v6.16 (06fc959fcff7): arm64's arch_vmap_pte_supported_shift() gives
    // CONT_PTE_SHIFT (64 KiB, order 4) for sizes from CONT_PTE_SIZE.
    template <class D>
    static typename D::Word vmalloc_pte_order(const KasanEnv<D>& e, typename D::Word size) {
        return D::ite(D::ult(size, D::lit(64u << 10)), D::lit(0), D::lit(4));
    }
    // "fork: stop ignoring NUMA while handling cached thread stacks" (v6.19):
    // a request for another node skips the cache, and a stack with a page off
    // this CPU's node (which has memory) is not cached: it is RCU-freed.
    template <class D>
    static typename D::Bool stack_cache_serves(const KasanEnv<D>& e, typename D::Bool other_node_asked) {
        return !other_node_asked;
    }
    template <class D>
    static typename D::Bool stack_cache_takes(const KasanEnv<D>& e, typename D::Bool remote_pages) {
        return !remote_pages;
    }
    template <class D>
    static typename D::Word kmalloc_minalign(const KasanEnv<D>& e) {
        return D::ite(e.kasan_hw_tags_enabled() || e.sw_tags, D::lit(16), D::lit(8));
    }

    // v6.6 (09c2c90705bb "net: allow alloc_skb_with_frags() to allocate bigger
    // packets"): a failed high-order frag retries one order lower, and the
    // order found is kept for the next frags.
    template <class D>
    static typename D::Word skb_frags_order_after_failure(const KasanEnv<D>& e, typename D::Word order) {
        return D::sub(order, D::lit(1));
    }
    // ... and its -EMSGSIZE test counts frags of the order asked for:
    // if (unlikely(data_len > MAX_SKB_FRAGS * (PAGE_SIZE << order))) return NULL.
    template <class D>
    static typename D::Bool skb_with_frags_fits(const KasanEnv<D>& e, typename D::Word data_len, typename D::Word order) {
        return !D::ult(D::mul(D::lit(17), D::shl(D::lit(4096), order)), data_len);
    }

    // tag_clear_highpages() returns false without MTE: the caller clears the pages.
    template <class D>
    static typename D::Bool tag_clear_highpages_clears(const KasanEnv<D>& e) { return e.mte; }
};

}  // namespace tagproof::kernel
