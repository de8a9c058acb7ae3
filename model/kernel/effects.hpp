// effects.hpp — what post_alloc_hook's plan does to the block it hands out
// (and free_pages_prepare's to the block it takes back),
// in the kernel's order, written once over the value domain (DESIGN §3): the
// model (model/spec/page_alloc.cpp), the reference (ref_page_alloc.cpp) and
// the solver (obligations.cpp, trace_bmc.cpp) all take the block's page tag,
// memory tag, MTE tag and data from here, so none of them re-states the order.
//
// post_alloc_hook (mm/page_alloc.c), in order:
//   1. tag_clear_highpage(s)      MTE allocation tags := 0 (data too if tag_clear_data)
//   2. kasan_unpoison_pages()     a random tag T on the memory (HW: MTE tags; SW_TAGS:
//                                 the shadow) and page_kasan_tag_set(T) on every page
//   3. page_kasan_tag_reset()     page tags := KASAN_TAG_KERNEL, after 2 if both happen
//   4. kernel_init_pages()        data := 0
#pragma once
#include "env.hpp"
#include "plans.hpp"
#include "tag.hpp"

namespace tagproof::kernel {

// One block as the invariants read it.
template <class D>
struct BlockState {
    typename D::Word page_tag{};  // page->flags' KASAN tag, decoded
    typename D::Word mem_tag{};   // the KASAN tag of its granules (the MTE allocation tag under HW_TAGS)
    typename D::Word mte_tag{};   // the MTE allocation tag (a store of its own outside HW_TAGS)
    typename D::Bool data_zero{}; // every byte reads zero
};

// What a plan writes: each field is written (and then holds the value) or kept.
template <class D>
struct BlockEffect {
    typename D::Bool page_tag_written{}, mem_written{}, mte_written{}, data_zeroed{};
    typename D::Word page_tag{}, mem_tag{}, mte_tag{};
};

// `random_tag` is the tag kasan_unpoison_pages() draws (used only if it unpoisons).
template <class D>
BlockEffect<D> post_alloc_effect(const KasanEnv<D>& e, const PostAllocPlan<D>& p, typename D::Word random_tag) {
    BlockEffect<D> x;
    const auto match_all = D::lit(KASAN_TAG_KERNEL), zero_tag = D::lit(0xF0);
    // 1: tag_clear writes MTE tags: KASAN's own under HW_TAGS; outside it, an MTE CPU's
    auto cleared_hw = p.tag_clear && e.hw_tags;
    auto cleared_mte = p.tag_clear && (e.hw_tags || e.mte);
    // 2 then 3: the last write to the page tag wins
    x.page_tag_written = p.unpoison || p.reset_page_tag;
    x.page_tag = D::ite(p.reset_page_tag, match_all, random_tag);
    x.mem_written = p.unpoison || cleared_hw;
    x.mem_tag = D::ite(p.unpoison, random_tag, zero_tag);
    x.mte_written = D::ite(e.hw_tags, x.mem_written, cleared_mte);
    x.mte_tag = D::ite(e.hw_tags, x.mem_tag, zero_tag);
    // 1, 2 with init, 4
    x.data_zeroed = p.tag_clear_data || p.unpoison_init || p.kernel_init;
    return x;
}

// free_pages_prepare (mm/page_alloc.c): kasan_poison_pages() sets the block's
// KASAN tag to KASAN_TAG_INVALID (the shadow to KASAN_PAGE_FREE in Generic),
// zeroing the data with integrated init; kernel_init_pages() zeroes it
// otherwise. The page tag stays as it was (page_address() of a freed block
// keeps its old tag).
template <class D>
BlockEffect<D> free_pages_effect(const KasanEnv<D>& e, const FreePlan<D>& f) {
    BlockEffect<D> x;
    x.page_tag_written = D::boolean(false);
    x.page_tag = D::lit(KASAN_TAG_KERNEL);
    x.mem_written = f.poison;
    x.mem_tag = D::lit(KASAN_TAG_INVALID);
    x.mte_written = f.poison && e.hw_tags;  // KASAN writes MTE tags only under HW_TAGS
    x.mte_tag = D::lit(KASAN_TAG_INVALID);
    x.data_zeroed = f.poison_init || f.kernel_init;
    return x;
}

template <class D>
BlockState<D> apply_effect(const BlockEffect<D>& x, const BlockState<D>& old) {
    BlockState<D> s;
    s.page_tag = D::ite(x.page_tag_written, x.page_tag, old.page_tag);
    s.mem_tag = D::ite(x.mem_written, x.mem_tag, old.mem_tag);
    s.mte_tag = D::ite(x.mte_written, x.mte_tag, old.mte_tag);
    s.data_zero = x.data_zeroed || old.data_zero;
    return s;
}

}  // namespace tagproof::kernel
