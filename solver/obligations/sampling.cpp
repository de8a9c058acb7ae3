// obligations/sampling.cpp — tag-range (kasan_random_tag) and sampling-accounting (the per-CPU
// page_alloc sampling counter, bounded and by induction).
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

// ---- 7 tag-range ----------------------------------------------------------------------------------
Query tag_range_query(Builder& b) {
    Query q(b.c);
    q.entry = "kasan_random_tag()";
    z3::expr t = b.tag("random_tag", q.assumptions);
    z3::expr lo = z3::ite(b.e.hw_tags, b.c.bv_val(KASAN_TAG_MIN_HW, 64), b.c.bv_val(KASAN_TAG_MIN_SW, 64));
    q.violation = b.e.tag_based() && b.e.kasan_enabled && z3::uge(t, b.v.random_tag_min(b.e)) &&
                  z3::ule(t, b.v.random_tag_max(b.e)) && !(z3::uge(t, lo) && z3::ule(t, b.c.bv_val(KASAN_TAG_MAX, 64)));
    q.witnesses = {{"tag", t, Witness::hex}};
    q.scenario = [&b](const z3::model& m) {
        return header(b, m, "tag_range_kmalloc", "random tags of a few allocations") +
               "p = kmalloc(64)\nexpect violation tag-range\n";
    };
    return q;
}

// ---- 8 sampling-accounting ------------------------------------------------------------------------
struct Eligible {
    z3::expr order, gfp;
};
Eligible eligible_alloc(Builder& b, Query& q) {
    bool flag_based = b.v.concrete().gfp_layout(BuildConfig{}).defines("__GFP_KASAN_SAMPLE");
    z3::expr order = b.word("order");
    q.assumptions.push_back(z3::ule(order, b.c.bv_val(10, 64)));
    q.prefer.push_back(z3::ule(b.e.sample, b.c.bv_val(4, 64)));
    q.prefer.push_back(z3::ule(b.e.sample_order, b.c.bv_val(3, 64)));
    if (flag_based) return {order, b.v.skb_frag_gfp(b.e)};
    q.assumptions.push_back(z3::uge(order, b.e.sample_order));
    return {order, b.e.gfp.GFP_KERNEL};
}

std::string sampling_scenario(const Builder& b, const z3::model& m, const z3::expr& order, std::uint64_t n) {
    bool flag_based = b.v.concrete().gfp_layout(BuildConfig{}).defines("__GFP_KASAN_SAMPLE");
    std::uint64_t o = std::min<std::uint64_t>(num(m, order), 3);
    std::uint64_t N = num(m, b.in.sample);
    std::string s = header(b, m, "sampling_accounting", "consecutive eligible allocations on one CPU",
                           "cpus=1 pages=" + std::to_string((n + 2) * (8ull << o)));
    for (std::uint64_t i = 0; i < n; ++i)
        s += flag_based ? "a" + std::to_string(i) + " = skb_alloc()\n"
                        : "a" + std::to_string(i) + " = alloc_pages(" + std::to_string(o) + ", GFP_KERNEL)\n";
    (void)N;
    return s + "expect violation sampling-accounting\n";
}

Query sampling_bmc_query(Builder& b) {
    Query q(b.c);
    q.entry = "k consecutive eligible page allocations on one CPU, the counter starting at 0";
    q.method = "bounded model checking, depth " + std::to_string(b.depth);
    if (!b.v.concrete().boot_syntax().page_alloc_sample) {
        q.applicable = false;
        q.why_not = "no page_alloc sampling in this era";
        return q;
    }
    Eligible el = eligible_alloc(b, q);
    z3::expr skip = b.c.bv_val(0, 64), bad = b.c.bool_val(false);
    std::vector<z3::expr> bad_at;  // the decision of allocation i is wrong
    for (unsigned i = 0; i < b.depth; ++i) {
        auto d = b.v.kasan_sample_page_alloc(b.e, el.order, el.gfp, skip);
        // i mod N == 0 for the constant i: N is one of i's divisors (N = 0, if
        // the domain allowed it, gives i mod 0 = i in SMT-LIB, as here). A
        // 64-bit divider per step made this the slowest query of a variant.
        z3::expr expect = b.c.bool_val(i == 0);
        for (unsigned d = 1; d <= i; ++d)
            if (i % d == 0) expect = expect || b.e.sample == b.c.bv_val(d, 64);
        bad = bad || (d.tag != expect);
        bad_at.push_back(b.e.kasan_hw_tags_enabled() && d.tag != expect);
        skip = d.skip_next;
    }
    q.violation = b.e.kasan_hw_tags_enabled() && bad;
    q.violation_at = bad_at;  // a counterexample is the fewest allocations that show it (prove.cpp)
    q.witnesses = {{"kasan.page_alloc.sample", b.in.sample}, {"order", el.order}};
    q.scenario = [&b, el, bad_at](const z3::model& m) {
        return sampling_scenario(b, m, el.order, steps_shown(m, bad_at));  // up to the first wrong decision
    };
    return q;
}

Query sampling_induction_query(Builder& b) {
    Query q(b.c);
    q.entry = "one eligible allocation from any reachable counter value";
    q.method = "induction: 0 <= skip < N is preserved, tagging exactly when skip == 0 (base: skip starts at 0)";
    if (!b.v.concrete().boot_syntax().page_alloc_sample) {
        q.applicable = false;
        q.why_not = "no page_alloc sampling in this era";
        return q;
    }
    Eligible el = eligible_alloc(b, q);
    z3::expr skip = b.word("kasan_page_alloc_skip");
    auto zero = b.c.bv_val(0, 64), one = b.c.bv_val(1, 64);
    q.assumptions.push_back(z3::sge(skip, zero) && z3::slt(skip, b.e.sample));
    auto d = b.v.kasan_sample_page_alloc(b.e, el.order, el.gfp, skip);
    z3::expr next_ok = z3::sge(d.skip_next, zero) && z3::slt(d.skip_next, b.e.sample) &&
                       d.skip_next == z3::ite(skip == zero, b.e.sample - one, skip - one);
    q.violation = b.e.kasan_hw_tags_enabled() && (!next_ok || d.tag != (skip == zero));
    q.witnesses = {{"kasan.page_alloc.sample", b.in.sample}, {"counter before", skip}, {"counter after", d.skip_next},
                   {"tagged", d.tag, Witness::boolean}};
    q.scenario = [&b, el, skip](const z3::model& m) {
        return sampling_scenario(b, m, el.order, std::min<std::uint64_t>(num(m, b.in.sample) + 2, 12));
    };
    return q;
}

}  // namespace tagproof::solver::ob
