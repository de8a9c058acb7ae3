// obligations/pages.cpp — zeroing and coverage of page allocations: alloc_pages, the huge zero
// folio, PROT_MTE user pages, the callers whose GFP constant is under review
// (page tables, thread_info, skb frags), alloc_skb_with_frags.
#include <cstdio>
#include <functional>
#include <set>

#include "checks/generic_check.hpp"
#include "coverage.hpp"
#include "effects.hpp"
#include "promises.hpp"
#include "error.hpp"
#include "layout.hpp"

#include "parts.hpp"
#include "../trace_bmc.hpp"

namespace tagproof::solver::ob {

// ---- 5 zeroing ------------------------------------------------------------------------------------
Query zeroing_query(Builder& b) {
    Query q(b.c);
    q.entry = "alloc_pages(order, gfp) with __GFP_ZERO or init_on_alloc";
    z3::expr gfp = b.word("gfp");
    PageAlloc a = page_alloc(b, q, gfp);
    q.contracts = page_alloc_contracts(b.e, gfp, b.bits_mask);
    z3::expr promised = need(b, kernel::Caller::alloc_pages, gfp, a.order).zero_data;
    const z3::expr zeroed = a.zeroed;
    q.witnesses.push_back({"zeroed", zeroed, Witness::boolean});
    // with init_on_free the memory was zeroed when freed
    q.violation = !b.e.init_on_free && promised && !zeroed;
    q.scenario = [&b, a](const z3::model& m) { return page_alloc_scenario(b, m, a, "zeroing_alloc_pages", "zeroing", true); };
    return q;
}

Query huge_zero_query(Builder& b) {
    Query q(b.c);
    q.entry = "get_huge_zero_folio(): (GFP_TRANSHUGE | __GFP_ZERO | __GFP_ZEROTAGS) & ~__GFP_MOVABLE";
    if (!b.v.concrete().features().huge_zero_folio_zerotags) {
        q.applicable = false;
        q.why_not = "the huge zero folio is not allocated with __GFP_ZEROTAGS in this era";
        return q;
    }
    BuildConfig hw;
    GfpLayout L = b.v.concrete().gfp_layout(hw);
    gfp_t g = (L.mask("GFP_TRANSHUGE") | L.mask("__GFP_ZERO") | L.mask("__GFP_ZEROTAGS")) & ~L.mask("__GFP_MOVABLE");
    PageAlloc a = page_alloc(b, q, b.c.bv_val(g, 64));
    // the user maps it with PROT_MTE and no mte_sync_tags: its tags must be zero
    // (any KASAN mode: user MTE needs only the CPU)
    q.violation = b.e.mte && (a.mte & b.c.bv_val(0xF, 64)) != b.c.bv_val(0, 64);
    q.scenario = [&b, a](const z3::model& m) {
        std::uint64_t order = std::min<std::uint64_t>(num(m, a.order), 4);
        std::string s = header(b, m, "zeroing_huge_zero_folio", "the huge zero folio after a freed owner", "pages=64");
        s += "old = alloc_pages(" + std::to_string(order) + ", GFP_KERNEL)\nfree_pages(old)\n";
        s += "hz = huge_zero_folio(" + std::to_string(order) + ")\nexpect violation zeroing\n";
        return s;
    };
    return q;
}

// A PROT_MTE user page, any KASAN mode: do_anonymous_page()'s allocation
// (user_page_gfp with VM_MTE), then the mapping.
Query user_page_mte_query(Builder& b) {
    Query q(b.c);
    q.entry = "do_anonymous_page() on a VM_MTE vma: vma_alloc_zeroed_movable_folio(), then mte_sync_tags()";
    PageAlloc a = page_alloc(b, q, b.v.user_page_gfp(b.e, b.c.bool_val(true)));
    q.assumptions.push_back(a.order == b.c.bv_val(0, 64));
    const BlockState<S> after = mapped_user_page(b.v, b.e, a.plan, {a.page_tag, a.mem, a.mte, a.zeroed}, b.c.bool_val(true));
    q.witnesses.push_back({"MTE tag after mte_sync_tags", after.mte_tag, Witness::hex});
    q.violation = b.e.mte && (after.mte_tag & b.c.bv_val(0xF, 64)) != b.c.bv_val(0, 64);
    q.scenario = [&b](const z3::model& m) {
        std::string s = header(b, m, "zeroing_user_page_mte", "a PROT_MTE user page after a tagged previous user",
                               "pages=64");
        s += "old = user_fault(mte)\nuser_set_tag(old, 0, 5)\nmunmap(old)\n";
        s += "u = user_fault(mte)\nexpect violation zeroing\n";
        return s;
    };
    return q;
}

struct SiteCall {
    kernel::Caller caller;
    z3::expr gfp;
    unsigned order;
    const char* event;   // the scenario line
    const char* gfp_name;
};
SiteCall site_call(Builder& b, Site s) {
    BuildConfig hw;
    switch (s) {
        case Site::pgtable_kernel:
            return {kernel::Caller::pgtable_kernel, b.v.pte_alloc_one_kernel_gfp(b.e), 0, "pt = pgtable_alloc(kernel)",
                    "pte_alloc_one_kernel_gfp"};
        case Site::pgtable_user:
            return {kernel::Caller::pgtable_user, b.v.pte_alloc_one_gfp(b.e), 0, "pt = pgtable_alloc(user)",
                    "pte_alloc_one_gfp"};
        case Site::thread_info:
            return {kernel::Caller::thread_stack, b.v.THREADINFO_GFP(b.e), layout::thread_size_order(Mode::hw_tags),
                    "s = stack_alloc()", "THREADINFO_GFP"};
        case Site::skb:
            return {kernel::Caller::skb_frag, b.v.skb_frag_gfp(b.e), 3, "sk = skb_alloc()", "skb_page_frag_refill's gfp"};
        case Site::skb_frags:  // sock_alloc_send_pskb's GFP_KERNEL, one order-3 frag
            return {kernel::Caller::skb_frag, b.v.alloc_skb_frags_gfp(b.e, b.e.gfp.GFP_KERNEL), 3,
                    "sk = alloc_skb_with_frags(32768, 3)\nf0 = skb_frag_page(sk, 0)", "alloc_skb_with_frags' frag gfp"};
    }
    return {kernel::Caller::alloc_pages, b.e.gfp.GFP_KERNEL, 0, "", ""};
}
const char* site_name(Site s) {
    switch (s) {
        case Site::pgtable_kernel: return "pgtable_kernel";
        case Site::pgtable_user: return "pgtable_user";
        case Site::thread_info: return "thread_info_pages";
        case Site::skb: return "skb_frag";
        case Site::skb_frags: return "skb_with_frags";
    }
    return "?";
}

std::string site_scenario(const Builder& b, const z3::model& m, Site s, const SiteCall& sc, const std::string& inv) {
    std::string name = inv + "_" + site_name(s);
    std::string extra = std::string("cpus=1") + (s == Site::thread_info ? " vmap_stack=n" : "");
    std::string said = sc.event;  // a doc line: the event's statements on one line
    for (char& ch : said)
        if (ch == '\n') ch = ';';
    std::string t = header(b, m, name, std::string("a previous owner's data, then ") + said, extra);
    t += "old = alloc_pages(" + std::to_string(sc.order) + ", GFP_KERNEL)\npo = page_address(old)\nwrite(po, 64)\n"
         "free_pages(old)\n";
    t += std::string(sc.event) + "\nexpect violation " + inv + "\n";
    return t;
}

// The caller's page allocation with the variant's constant, at its order.
PageAlloc site_alloc(Builder& b, Query& q, const SiteCall& sc) {
    q.entry = std::string(kernel::caller_title(sc.caller));
    if (sc.caller == kernel::Caller::thread_stack)  // the page path; zeroing/vmap_stack has the other
        q.entry = "thread stack pages (alloc_thread_stack_node without CONFIG_VMAP_STACK: THREADINFO_GFP)";
    PageAlloc a = page_alloc(b, q, sc.gfp);
    q.assumptions.push_back(a.order == b.c.bv_val(sc.order, 64));
    q.witnesses.push_back({sc.gfp_name, sc.gfp, Witness::gfp});
    return a;
}

// 5 zeroing at a kernel caller: what it needs zeroed (page tables, stacks)
// is zeroed, whatever its GFP constant asks for.
Query zeroing_site_query(Builder& b, Site s) {
    Query q(b.c);
    const SiteCall sc = site_call(b, s);
    const PageAlloc a = site_alloc(b, q, sc);
    const z3::expr zeroed = a.zeroed;
    q.violation = !b.e.init_on_free && need(b, sc.caller, sc.gfp, a.order).zero_data && !zeroed;
    q.scenario = [&b, s, sc](const z3::model& m) { return site_scenario(b, m, s, sc, "zeroing"); };
    return q;
}

// 4 detection, coverage: the pointer page_address() hands out carries a
// random tag unless the caller may have match-all (the table) or the
// variant's claims name it.
Query coverage_site_query(Builder& b, Site s) {
    Query q(b.c);
    const SiteCall sc = site_call(b, s);
    const PageAlloc a = site_alloc(b, q, sc);
    q.witnesses.push_back({"pointer tag", a.ptr, Witness::hex});
    q.violation = coverage_lost(b, sc.caller, sc.gfp, a.order, a.ptr);
    q.scenario = [&b, s, sc](const z3::model& m) { return site_scenario(b, m, s, sc, "detection"); };
    return q;
}

Query coverage_alloc_pages_query(Builder& b) {
    Query q(b.c);
    q.entry = "alloc_pages(order, gfp): page_address()'s tag";
    z3::expr gfp = b.word("gfp");
    PageAlloc a = page_alloc(b, q, gfp);
    q.contracts = page_alloc_contracts(b.e, gfp, b.bits_mask);
    q.violation = coverage_lost(b, kernel::Caller::alloc_pages, gfp, a.order, a.ptr);
    q.scenario = [&b, a](const z3::model& m) {
        return page_alloc_scenario(b, m, a, "detection_coverage_alloc_pages", "detection", false);
    };
    return q;
}

// 5 zeroing, alloc_skb_with_frags(len, order, gfp): a high-order frag is
// alloc_pages(alloc_skb_frags_gfp(gfp), order) (the variant's rule); the
// caller's own gfp says what it needs (__GFP_ZERO, init_on_alloc), never the
// flags the rule passes on.
Query zeroing_skb_with_frags_query(Builder& b) {
    Query q(b.c);
    q.entry = "alloc_skb_with_frags(len, order, gfp): a high-order frag's pages (net/core/skbuff.c)";
    const z3::expr gfp = b.word("gfp");
    PageAlloc a = page_alloc(b, q, b.v.alloc_skb_frags_gfp(b.e, gfp));
    q.assumptions.push_back(z3::ule(b.c.bv_val(1, 64), a.order) && z3::ule(a.order, b.c.bv_val(3, 64)));
    for (auto& w : q.witnesses)
        if (w.name == "gfp") w.name = "frag pages' gfp";
    q.witnesses.insert(q.witnesses.begin(), {"caller's gfp", gfp, Witness::gfp});
    q.contracts = page_alloc_contracts(b.e, gfp, b.bits_mask);
    q.minimise_bits = {gfp};
    q.prefer.insert(q.prefer.begin(), gfp == (b.e.gfp.GFP_KERNEL | b.e.gfp.ZERO));
    q.violation = !b.e.init_on_free && need(b, kernel::Caller::skb_frag, gfp, a.order).zero_data && !a.zeroed;
    q.scenario = [&b, a, gfp](const z3::model& m) {
        const std::uint64_t order = num(m, a.order);
        std::string s = header(b, m, "zeroing_skb_with_frags", "a freed owner's pages, then alloc_skb_with_frags",
                               "pages=16 cpus=1");
        s += "old = alloc_pages(" + std::to_string(order) + ", GFP_KERNEL)\npo = page_address(old)\nwrite(po, 64)\n";
        s += "free_pages(old)\nsk = alloc_skb_with_frags(" + std::to_string(4096u << order) + ", " +
             std::to_string(order) + ", " + gfp_text(b, m, gfp) + ")\nexpect violation zeroing\n";
        return s;
    };
    return q;
}

}  // namespace tagproof::solver::ob
