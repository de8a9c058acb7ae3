// obligations/mempool.cpp — mempool elements handed out again from the reserve (slab, kmalloc
// and page pools).
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

// ---- mempools: a slab element taken back from the reserve ---------------------------------------
// A kmalloc pool's element (kmalloc(elem size) in a kmalloc cache of
// object_size) or a slab pool's (its cache's object_size), handed out again by
// mempool_alloc from the reserve: effects.hpp mempool_element_effect with the
// variant's mempool_hooks and kmalloc redzone rule.
struct MempoolElement {
    z3::expr kmalloc_pool, size, object_size, T;
    kernel::SlabAllocEffect<S> fx;
    z3::expr size_seen;  // the bytes the effect counts as the element's (Generic's partial granule)
};

MempoolElement mempool_element(Builder& b, Query& q) {
    MempoolElement el{b.c.bool_const("kmalloc_pool"), b.word("elem_size"), b.word("object_size"),
                      b.tag("element_tag", q.assumptions), {}, b.c.bool_val(false)};
    auto& c = b.c;
    q.entry = "mempool_alloc(pool) of a slab element from the reserve (kasan_unpoison_element)";
    // a slab pool's elements are its cache's objects
    q.assumptions.push_back(z3::implies(!el.kmalloc_pool, el.size == el.object_size));
    q.assumptions.push_back(z3::ule(c.bv_val(1, 64), el.size) && z3::ule(el.size, el.object_size) &&
                            z3::ule(el.object_size, c.bv_val(8192, 64)) &&
                            (el.object_size & c.bv_val(7, 64)) == c.bv_val(0, 64));
    q.assumptions.push_back(z3::uge(el.T, b.v.random_tag_min(b.e)) && z3::ule(el.T, b.v.random_tag_max(b.e)));
    const auto hooks = b.v.mempool_hooks(b.e);
    el.fx = kernel::mempool_element_effect<S>(b.e, hooks, el.T, el.kmalloc_pool, b.v.kmalloc_redzone_start(b.e, el.size));
    // __ksize() unpoisons whole granules of the slot: Generic's object_size, no partial one
    el.size_seen = z3::ite(hooks.unpoison_whole_slot, el.object_size, el.size);
    q.prefer.push_back(el.kmalloc_pool);
    q.prefer.push_back(el.object_size == c.bv_val(128, 64));
    q.witnesses = {{"kmalloc pool", el.kmalloc_pool, Witness::boolean},
                   {"element size", el.size},
                   {"object_size (the cache)", el.object_size},
                   {"element tag", el.fx.ptr_tag, Witness::hex},
                   {"redzone poisoned", el.fx.redzone_poisoned, Witness::boolean},
                   {"redzone from", el.fx.redzone_from}};
    return el;
}

// Replay: a pool of 4, one element held so the next goes through the reserve, then `tail`.
std::string mempool_scenario(const Builder& b, const z3::model& m, const MempoolElement& el, const std::string& name,
                             const std::string& tail) {
    std::string s = header(b, m, name, "an element of a mempool, taken from its reserve");
    s += std::string("pool = mempool_create(") + (truth(m, el.kmalloc_pool) ? "kmalloc" : "slab") + ", " +
         std::to_string(num(m, el.size)) + ", 4)\nx = mempool_alloc(pool)\ne = mempool_alloc(pool)\n";
    return s + tail;
}

// 3 no-false-positive: an access below the element's size never faults.
Query no_false_positive_mempool_query(Builder& b) {
    Query q(b.c);
    const MempoolElement el = mempool_element(b, q);
    const z3::expr off = b.word("offset");
    q.assumptions.push_back(z3::ult(off, el.size));
    q.violation = object_byte_access(b, q, el.fx, el.size_seen, off).faults;
    q.scenario = [&b, el, off](const z3::model& m) {
        return mempool_scenario(b, m, el, "no_false_positive_mempool",
                                "read(e + " + std::to_string(num(m, off)) + ", 1)\nexpect violation no-false-positive\n");
    };
    return q;
}

// 4 detection, out of bounds: KUnit's mempool_kmalloc_oob_right, for any size.
Query detection_oob_mempool_query(Builder& b) {
    Query q(b.c);
    const MempoolElement el = mempool_element(b, q);
    const z3::expr off = b.word("offset");
    q.violation = oob_missed(b, el.fx, el.size, el.size_seen, el.object_size, off, q);
    q.prefer.push_back(el.size == b.c.bv_val(107, 64));
    q.scenario = [&b, el, off](const z3::model& m) {
        return mempool_scenario(b, m, el, "detection_oob_mempool",
                                "read(e + " + std::to_string(num(m, off)) + ", 1)\nexpect violation detection\n");
    };
    return q;
}

// ---- mempools: a page element re-issued from the reserve ------------------------------------------
// mempool_create(pages, order, 1): the element is alloc_pages(order,
// GFP_KERNEL) and goes into the reserve at once (add_element:
// kasan_poison_element); mempool_alloc takes it back (kasan_unpoison_element).
// Each step's effect on the block is effects.hpp's; the per-CPU sampling
// counter at each is any reachable value (the allocations in between move it).
struct MempoolPage {
    z3::expr order, skip_create, skip_take, T_create, T_take;
    BlockState<S> issued;  // the element as mempool_alloc hands it out
    z3::expr ptr;          // page_address()'s tag
};

MempoolPage mempool_page(Builder& b, Query& q) {
    auto& c = b.c;
    MempoolPage mp{b.word("order"), b.word("kasan_page_alloc_skip_at_create"), b.word("kasan_page_alloc_skip_at_alloc"),
                   b.tag("random_tag_at_create", q.assumptions), b.tag("random_tag_at_alloc", q.assumptions), {},
                   c.bool_val(false)};
    q.entry = "mempool_alloc(pool) of a page element from the reserve (kasan_unpoison_element)";
    q.assumptions.push_back(z3::ule(mp.order, c.bv_val(10, 64)));
    for (const z3::expr& k : {mp.skip_create, mp.skip_take})
        q.assumptions.push_back(z3::sge(k, c.bv_val(0, 64)) && z3::slt(k, b.e.sample));
    for (const z3::expr& t : {mp.T_create, mp.T_take})
        q.assumptions.push_back(z3::uge(t, b.v.random_tag_min(b.e)) && z3::ule(t, b.v.random_tag_max(b.e)));
    BlockState<S> fresh;  // a page no one has tagged yet
    fresh.page_tag = fresh.mem_tag = fresh.mte_tag = c.bv_val(KASAN_TAG_KERNEL, 64);
    fresh.data_zero = c.bool_val(false);
    const auto plan = b.v.post_alloc_hook(b.e, b.e.gfp.GFP_KERNEL, mp.order, mp.skip_create);
    const BlockState<S> made = kernel::apply_effect<S>(kernel::post_alloc_effect<S>(b.e, plan, mp.T_create), fresh);
    const BlockState<S> kept =
        kernel::apply_effect<S>(kernel::mempool_page_poison_effect<S>(b.e, b.v.mempool_hooks(b.e), made), made);
    const auto d = b.v.kasan_unpoison_pages(b.e, mp.order, mp.skip_take);
    mp.issued = kernel::apply_effect<S>(kernel::mempool_page_unpoison_effect<S>(b.e, d, mp.T_take), kept);
    mp.ptr = z3::ite(b.e.kasan_enabled && b.e.tag_based(), mp.issued.page_tag, c.bv_val(KASAN_TAG_KERNEL, 64));
    // the shortest replay: no allocation between boot, create and take
    q.prefer.push_back(b.e.sample == c.bv_val(2, 64));
    q.prefer.push_back(mp.skip_create == c.bv_val(0, 64));
    q.prefer.push_back(mp.skip_take == plan.sample_skip_next);
    q.prefer.push_back(mp.order == b.e.sample_order);
    q.witnesses = {{"order", mp.order},
                   {"counter at mempool_create", mp.skip_create},
                   {"counter at mempool_alloc", mp.skip_take},
                   {"tagged at mempool_create", plan.unpoison, Witness::boolean},
                   {"retagged at mempool_alloc", d.tag, Witness::boolean},
                   {"page_address() tag", mp.ptr, Witness::hex},
                   {"memory tag", mp.issued.mem_tag, Witness::hex}};
    return mp;
}

// Replay from boot (every CPU's counter 0): eligible allocations of the
// sampling order move the counter to each value the counterexample has.
std::string mempool_page_scenario(const Builder& b, const z3::model& m, const MempoolPage& mp, const std::string& name,
                                  const std::string& invariant) {
    const ConcreteConfig cc = read_config(m, b.in);
    const std::uint64_t n = cc.sample, order = num(m, mp.order), so = cc.sample_order;
    const bool counts = cc.mode == Mode::hw_tags && !cc.kasan_off && n > 1;
    auto steps = [n](std::uint64_t from, std::uint64_t to) { return (from + n - to) % n; };
    const std::uint64_t at_create = num(m, mp.skip_create), at_take = num(m, mp.skip_take);
    const std::uint64_t eligible = order >= so;
    // the counter after mempool_create's own allocation
    const std::uint64_t after_create = !eligible ? at_create : at_create == 0 ? n - 1 : at_create - 1;
    const std::uint64_t k1 = counts ? steps(0, at_create) : 0, k2 = counts ? steps(after_create, at_take) : 0;
    std::string s = header(b, m, name, "a page mempool's element, poisoned into the reserve and handed out again",
                           "cpus=1 pages=" + std::to_string(std::max<std::uint64_t>(64, ((k1 + k2) << so) + (4ull << order) + 8)));
    auto burn = [&](std::uint64_t k, const char* tag) {
        for (std::uint64_t i = 0; i < k; ++i) s += std::string(tag) + std::to_string(i) + " = alloc_pages(" + std::to_string(so) + ", GFP_KERNEL)\n";
    };
    burn(k1, "before");
    s += "mp = mempool_create(pages, " + std::to_string(order) + ", 1)\n";
    burn(k2, "between");
    s += "p0 = mempool_alloc(mp)\nread(p0, 8)\nexpect violation " + invariant + "\n";
    return s;
}

// 3 no-false-positive: the element's first access through page_address().
Query no_false_positive_mempool_page_query(Builder& b) {
    Query q(b.c);
    const MempoolPage mp = mempool_page(b, q);
    q.violation = b.v.granule_check_faults(b.e, plain_access(b, mp.ptr, mp.issued.mem_tag));
    q.scenario = [&b, mp](const z3::model& m) {
        return mempool_page_scenario(b, m, mp, "no_false_positive_mempool_page", "no-false-positive");
    };
    return q;
}

// 6 page-tag-consistency: page_address() carries the tag the memory has.
Query page_tag_mempool_page_query(Builder& b) {
    Query q(b.c);
    const MempoolPage mp = mempool_page(b, q);
    q.violation = b.e.tag_based() && b.e.kasan_enabled && mp.issued.page_tag != b.c.bv_val(KASAN_TAG_KERNEL, 64) &&
                  oracle_mismatch(b.e, mp.issued.page_tag, mp.issued.mem_tag);
    q.scenario = [&b, mp](const z3::model& m) {
        return mempool_page_scenario(b, m, mp, "page_tag_mempool_page", "page-tag-consistency");
    };
    return q;
}

}  // namespace tagproof::solver::ob
