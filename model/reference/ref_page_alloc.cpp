// ref_page_alloc.cpp — the page allocator and the variant's post_alloc_hook /
// free_pages_prepare plans applied to packed state.
//
// Blocks are handed out first fit at their natural alignment, the model's
// policy (model/spec/page_alloc.cpp), so the two agree pfn for pfn; the scan
// reads the allocation bitmap a word (64 pages) at a time from the lowest word
// with a free page.
#include <bit>

#include "error.hpp"
#include "effects.hpp"
#include "ref_kernel.hpp"

namespace tagproof::reference {

std::int64_t RefKernel::find_free_block(unsigned order) const {
    const std::uint64_t n = std::uint64_t(1) << order;
    const std::size_t words = alloc_.size();
    if (n <= 64) {
        // the aligned offsets of a word where n free pages start: bit p of
        // `run` says pages [p, p + n) are free once the free bits are ANDed
        // with themselves shifted by 1, 2, 4, ... n / 2 (the bits past the
        // last page read as allocated, so no run crosses the end of RAM)
        static constexpr std::uint64_t kAligned[] = {~0ull, 0x5555555555555555ull, 0x1111111111111111ull,
                                                     0x0101010101010101ull, 0x0001000100010001ull,
                                                     0x0000000100000001ull, 1ull};
        for (std::size_t w = free_hint_; w < words; ++w) {
            std::uint64_t run = ~alloc_[w];
            for (std::uint64_t s = 1; s < n && run; s <<= 1) run &= run >> s;
            run &= kAligned[order];
            if (run) {
                const std::uint64_t pfn = w * 64 + unsigned(std::countr_zero(run));
                return pfn + n <= npages_ ? std::int64_t(pfn) : -1;
            }
        }
        return -1;
    }
    const std::size_t nw = n / 64;  // a block covers whole words, aligned
    for (std::size_t w = free_hint_ / nw * nw; w + nw <= words; w += nw) {
        bool ok = true;
        for (std::size_t k = 0; k < nw && ok; ++k) ok = alloc_[w + k] == 0;
        if (ok && w * 64 + n <= npages_) return std::int64_t(w * 64);
    }
    return -1;
}

void RefKernel::take_block(std::uint64_t pfn, unsigned order, PageOwner owner) {
    const std::uint64_t n = std::uint64_t(1) << order;
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint64_t p = pfn + i;
        alloc_[p / 64] |= std::uint64_t(1) << (p % 64);
        PageRec& r = page_[p];
        r.head = std::uint32_t(pfn);
        r.order = std::uint8_t(order);
        r.owner = owner;
    }
    while (free_hint_ < alloc_.size() && alloc_[free_hint_] == ~std::uint64_t(0)) ++free_hint_;
    flags_[pfn].set(PG_head);
    ++cost_.page_allocs;
    cost_.pages_allocated += n;
}

// post_alloc_hook(): the variant's plan, applied in the kernel's order.
void RefKernel::post_alloc_hook(std::uint64_t pfn, unsigned order, gfp_t gfp, int cpu) {
    const std::uint64_t n = std::uint64_t(1) << order;
    Cpu& c = cpus_[cfg_.mutation == RefMutation::shared_sample_counter ? 0 : cpu];
    auto plan = v_.post_alloc_hook(env_, gfp, order, c.sample_skip);
    c.sample_skip = std::int64_t(plan.sample_skip_next);
    // the page tag's last write comes from the one transition (model/kernel/effects.hpp)
    const Tag drawn = plan.unpoison ? random_tag() : KASAN_TAG_KERNEL;
    const auto fx = kernel::post_alloc_effect<kernel::Concrete>(env_, plan, drawn);
    if (plan.tag_clear) {
        // tag_clear_highpage(s): DC GZVA (tags and data) or DC GVA (tags) over each page
        tags_.set_range(pfn * kGranulesPerPage, n * kGranulesPerPage, 0);
        if (plan.tag_clear_data) zero_granules(pfn * kGranulesPerPage, n * kGranulesPerPage, true);
        std::uint64_t blocks = n * PAGE_SIZE / (std::uint64_t(4) << (cfg_.dczid & 0xF));
        (plan.tag_clear_data ? cost_.dc_gzva : cost_.dc_gva) += blocks;
        cost_.pages_tag_cleared += n;
    }
    if (plan.unpoison) {
        // kasan_unpoison_pages(): one random tag for the block, on memory and every page
        tag_range_linear(pfn, n * PAGE_SIZE, mte_nibble(drawn), plan.unpoison_init);
        ++cost_.unpoisoned_allocs;
    }
    if (plan.sampled_out) ++cost_.sampled_out;
    if (fx.page_tag_written)
        for (std::uint64_t i = 0; i < n; ++i) page_kasan_tag_set(pfn + i, Tag(fx.page_tag));
    if (plan.kernel_init) {
        zero_granules(pfn * kGranulesPerPage, n * kGranulesPerPage, true);
        charge_clear_pages(n);
    }
    if (plan.set_skip_poison_flag) flags_[pfn].set(PG_skip_kasan_poison);
}

std::int64_t RefKernel::alloc_pages(unsigned order, gfp_t gfp, int cpu, PageOwner owner) {
    if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (order > 10) throw InputError("", "order " + std::to_string(order) + " is above MAX_PAGE_ORDER (10)");
    gfp &= gfp_->bits_mask();  // gfp_allowed_mask
    std::int64_t pfn = find_free_block(order);
    if (pfn < 0) return -1;
    take_block(std::uint64_t(pfn), order, owner);
    post_alloc_hook(std::uint64_t(pfn), order, gfp, cpu);
    return pfn;
}

std::int64_t RefKernel::alloc_pages_at(std::uint64_t pfn, unsigned order, gfp_t gfp, int cpu) {
    if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (order > 10) throw InputError("", "order " + std::to_string(order) + " is above MAX_PAGE_ORDER (10)");
    const std::uint64_t n = std::uint64_t(1) << order;
    if (pfn % n || pfn + n > npages_) throw InputError("", "pfn " + std::to_string(pfn) + " is no order-" +
                                                              std::to_string(order) + " block of this memory");
    for (std::uint64_t i = 0; i < n; ++i)
        if (page_allocated(pfn + i)) return -1;
    take_block(pfn, order, PageOwner::pages);
    post_alloc_hook(pfn, order, gfp & gfp_->bits_mask(), cpu);  // gfp_allowed_mask
    return std::int64_t(pfn);
}

void RefKernel::free_pages(std::uint64_t pfn) {
    if (pfn >= npages_ || !page_allocated(pfn) || page_[pfn].head != pfn || pfn == 0) {
        RefReport r;
        r.kasan = false;
        r.bug_type = "bad-page-state";
        r.addr = LINEAR_BASE + pfn * PAGE_SIZE;
        reports_.push_back(r);
        return;
    }
    const unsigned order = page_[pfn].order;
    const std::uint64_t n = std::uint64_t(1) << order;
    kernel::FreeInput<kernel::Concrete> in;
    in.page_tag = page_kasan_tag(pfn);
    in.pg_skip_kasan_poison = flags_[pfn].test(PG_skip_kasan_poison);
    in.fpi_skip_kasan_poison = false;
    auto plan = v_.free_pages_prepare(env_, in);
    if (plan.poison) tag_range_linear(pfn, n * PAGE_SIZE, mte_nibble(KASAN_TAG_INVALID), plan.poison_init);
    if (plan.kernel_init) {
        zero_granules(pfn * kGranulesPerPage, n * kGranulesPerPage, true);
        charge_clear_pages(n);
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint64_t p = pfn + i;
        alloc_[p / 64] &= ~(std::uint64_t(1) << (p % 64));
        flags_[p].clear(PG_skip_kasan_poison);  // page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP
        flags_[p].clear(PG_head);
    }
    if (pfn / 64 < free_hint_) free_hint_ = pfn / 64;
    ++cost_.page_frees;
}

std::uint64_t RefKernel::page_address(std::uint64_t pfn) const {
    Tag t = page_kasan_tag(pfn);
    return ((LINEAR_BASE + pfn * PAGE_SIZE) & ADDR_MASK) | (std::uint64_t(t) << 56);
}

// skb_page_frag_refill(): order 3, else alloc_page() with the socket's gfp.
std::int64_t RefKernel::skb_alloc(int cpu) {
    std::int64_t pfn = alloc_pages(3, v_.skb_frag_gfp(env_), cpu, PageOwner::pages);
    return pfn >= 0 ? pfn : alloc_pages(0, v_.skb_frag_fallback_gfp(env_), cpu, PageOwner::pages);
}

}  // namespace tagproof::reference
