// skb.cpp — the network stack's page allocations (seed 003's call sites):
// net/core/sock.c skb_page_frag_refill() and net/core/skbuff.c
// alloc_skb_with_frags(). What each era and variant passes (the gfp, the
// order after a failure) is a rule (rules_6_1.hpp, rules_7_0.hpp,
// variants/sample.hpp); the loops are the kernel's.
#include "error.hpp"
#include "model.hpp"

namespace tagproof::spec {

namespace {
constexpr unsigned SKB_FRAG_PAGE_ORDER = 3;  // get_order(32768)
constexpr std::size_t MAX_SKB_FRAGS = 17;    // CONFIG_MAX_SKB_FRAGS default
}  // namespace

int Model::skb_alloc(int cpu) {
    // The order-3 attempt (marked __GFP_KASAN_SAMPLE by seed 003), then
    // alloc_page(gfp) when it fails: the fallback is never marked.
    // The socket's sk->sk_allocation (GFP_KERNEL) is what the caller passed:
    // its needs; the rule's flags are what the kernel does with it.
    const gfp_t sk_allocation = env_.gfp.GFP_KERNEL;
    int id = alloc_pages(SKB_FRAG_PAGE_ORDER, v_.skb_frag_gfp(env_), cpu, ObjKind::pages, "skb frag page (order 3)",
                         kernel::Caller::skb_frag, sk_allocation);
    if (id >= 0) return id;
    return alloc_pages(0, v_.skb_frag_fallback_gfp(env_), cpu, ObjKind::pages, "skb frag page (order-0 fallback)",
                       kernel::Caller::skb_frag, sk_allocation);
}

int Model::alloc_skb_with_frags(std::uint64_t data_len, unsigned max_page_order, gfp_t gfp, int cpu) {
    if (max_page_order > 10) throw InputError("", "alloc_skb_with_frags: max_page_order above MAX_PAGE_ORDER (10)");
    Skb s;
    s.id = int(skbs_.size());
    unsigned order = max_page_order;
    auto fail = [&](const std::string& why) {
        for (int f : s.frags) free_pages(f);
        notes_.push_back(label_ + ": alloc_skb_with_frags: " + why + " (-ENOBUFS)");
        return -1;
    };
    // the -EMSGSIZE test comes first: nothing is allocated, nothing counted by the sampler
    if (!v_.skb_with_frags_fits(env_, data_len, max_page_order)) {
        notes_.push_back(label_ + ": alloc_skb_with_frags: " + std::to_string(data_len) + " bytes at order " +
                         std::to_string(max_page_order) + " need more than MAX_SKB_FRAGS frags (-EMSGSIZE)");
        return -1;
    }
    while (data_len) {
        if (s.frags.size() == MAX_SKB_FRAGS) return fail("MAX_SKB_FRAGS frags used");
        // The largest order the rest of the data fills: PAGE_ALIGN(data_len) >= PAGE_SIZE << order
        // (v6.1's npages >= 1 << order says the same).
        while (order && ((data_len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1)) < (PAGE_SIZE << order)) --order;
        int id;
        if (order) {
            id = alloc_pages(order, v_.alloc_skb_frags_gfp(env_, gfp), cpu, ObjKind::pages,
                             "skb frag (order " + std::to_string(order) + ")", kernel::Caller::skb_frag, gfp);
            if (id < 0) {
                order = v_.skb_frags_order_after_failure(env_, order);
                continue;
            }
        } else {
            id = alloc_pages(0, gfp, cpu, ObjKind::pages, "skb frag (order 0)", kernel::Caller::skb_frag, gfp);
            if (id < 0) return fail("no order-0 page");
        }
        s.frags.push_back(id);
        data_len -= std::min<std::uint64_t>(data_len, PAGE_SIZE << order);
    }
    skbs_.push_back(s);
    return s.id;
}

void Model::kfree_skb(int id) {
    // A second kfree_skb puts the frags again: the page allocator's "Bad page
    // state", as free_pages reports it.
    Skb& s = skbs_.at(id);
    s.live = false;
    for (int f : s.frags) free_pages(f);
}

}  // namespace tagproof::spec
