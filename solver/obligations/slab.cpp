// obligations/slab.cpp — kmalloc (zeroing, coverage, in-bounds access, out of bounds),
// krealloc in place, kmem_cache_free, the per-CPU cached stack.
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

// ---- slab: kmalloc --------------------------------------------------------------------------------
// One kmalloc(size, gfp) object of a kmalloc cache whose object_size holds it
// (size <= object_size <= 8192, a multiple of 8): the variant's decisions
// (slab_tag_per_alloc, slab_memset_init, kmalloc_redzone_start) and their
// effect on the object (effects.hpp slab_alloc_effect), against what the
// caller needs (requirements.hpp). kmalloc caches have no constructor, so the
// slot carries no fixed tag (KASAN_TAG_KERNEL).
struct KmallocAlloc {
    z3::expr gfp, size, object_size, T;
    kernel::SlabAllocEffect<S> fx;
    kernel::Requirement<S> need;
};

KmallocAlloc kmalloc_alloc(Builder& b, Query& q) {
    KmallocAlloc k{b.word("gfp"), b.word("size"), b.word("object_size"), b.tag("random_tag", q.assumptions), {}, {}};
    auto& c = b.c;
    q.assumptions.push_back(z3::ule(c.bv_val(1, 64), k.size) && z3::ule(k.size, k.object_size) &&
                            z3::ule(k.object_size, c.bv_val(8192, 64)) &&
                            (k.object_size & c.bv_val(7, 64)) == c.bv_val(0, 64));
    q.assumptions.push_back(z3::uge(k.T, b.v.random_tag_min(b.e)) && z3::ule(k.T, b.v.random_tag_max(b.e)));
    q.contracts = page_alloc_contracts(b.e, k.gfp, b.bits_mask);
    const z3::expr no_ctor = c.bool_val(false);
    const z3::expr init = kernel::slab_want_init_on_alloc<S>(b.e, k.gfp, no_ctor);
    k.fx = kernel::slab_alloc_effect<S>(b.e, b.v.slab_tag_per_alloc(b.e, no_ctor), k.T, S::lit(KASAN_TAG_KERNEL),
                                        b.v.slab_alloc_kasan_init(b.e, init),
                                        b.v.slab_memset_init(b.e, init), c.bool_val(true),
                                        b.v.kmalloc_redzone_start(b.e, k.size));
    k.need = need(b, kernel::Caller::kmalloc, k.gfp, c.bv_val(0, 64));
    q.entry = "kmalloc(size, gfp) from a kmalloc cache (__kasan_slab_alloc, __kasan_kmalloc, slab_post_alloc_hook)";
    q.prefer.push_back(k.gfp == b.e.gfp.GFP_KERNEL || k.gfp == (b.e.gfp.GFP_KERNEL | b.e.gfp.ZERO));
    q.prefer.push_back(k.object_size == c.bv_val(128, 64));
    q.witnesses = {{"gfp", k.gfp, Witness::gfp},
                   {"size", k.size},
                   {"object_size (the cache)", k.object_size},
                   {"pointer tag", k.fx.ptr_tag, Witness::hex},
                   {"object tag / shadow", k.fx.obj_tag, Witness::hex},
                   {"redzone from", k.fx.redzone_from},
                   {"zeroed", k.fx.data_zeroed, Witness::boolean}};
    return k;
}

// Replay: the object from a previous owner's dirty memory, then `tail`.
std::string kmalloc_scenario(const Builder& b, const z3::model& m, const KmallocAlloc& k, const std::string& name,
                             const std::string& tail) {
    std::string s = header(b, m, name, "one kmalloc object");
    s += "p = kmalloc(" + std::to_string(num(m, k.size)) + ", " + gfp_text(b, m, k.gfp) + ")\n";
    return s + tail;
}

// 5 zeroing: kzalloc() and init_on_alloc get zeroed objects (init_on_free's
// zeroing at the last free is not modelled in one step: excluded).
Query zeroing_kmalloc_query(Builder& b) {
    Query q(b.c);
    const KmallocAlloc k = kmalloc_alloc(b, q);
    q.violation = !b.e.init_on_free && k.need.zero_data && !k.fx.data_zeroed;
    q.scenario = [&b, k](const z3::model& m) {
        return kmalloc_scenario(b, m, k, "zeroing_kmalloc", "expect violation zeroing\n");
    };
    return q;
}

// 4 detection, coverage: the object's pointer carries a random tag wherever
// the caller may not get match-all (coverage.hpp).
Query coverage_kmalloc_query(Builder& b) {
    Query q(b.c);
    const KmallocAlloc k = kmalloc_alloc(b, q);
    q.violation = coverage_lost(b, kernel::Caller::kmalloc, k.gfp, b.c.bv_val(0, 64), k.fx.ptr_tag);
    q.scenario = [&b, k](const z3::model& m) {
        return kmalloc_scenario(b, m, k, "coverage_kmalloc", "expect violation detection\n");
    };
    return q;
}

// 3 no-false-positive: a one-byte access at any offset below size through
// kmalloc's pointer never faults: the granule's tag or shadow after the
// allocation (effects.hpp slab_granule_after) against the check of the mode.
Query no_false_positive_kmalloc_query(Builder& b) {
    Query q(b.c);
    const KmallocAlloc k = kmalloc_alloc(b, q);
    const z3::expr off = b.word("offset");
    q.assumptions.push_back(z3::ult(off, k.size));
    q.violation = object_byte_access(b, q, k.fx, k.size, off).faults;
    q.scenario = [&b, k, off](const z3::model& m) {
        return kmalloc_scenario(b, m, k, "no_false_positive_kmalloc",
                                "read(p + " + std::to_string(num(m, off)) + ", 1)\nexpect violation no-false-positive\n");
    };
    return q;
}

// 3 no-false-positive, krealloc in place: a kmalloc object (its tag T)
// resized within its object_size keeps its pointer, and an access below the
// new size through it never faults (effects.hpp krealloc_in_place_effect:
// the same redzone rule as kmalloc).
Query no_false_positive_krealloc_query(Builder& b) {
    Query q(b.c);
    const KmallocAlloc k = kmalloc_alloc(b, q);  // the object as kmalloc gave it
    const z3::expr new_size = b.word("new_size"), off = b.word("offset");
    q.entry = "krealloc(p, new_size, gfp) in place (__do_krealloc, __kasan_krealloc)";
    q.assumptions.push_back(z3::ule(b.c.bv_val(1, 64), new_size) && z3::ule(new_size, k.object_size));
    q.assumptions.push_back(z3::ult(off, new_size));
    const auto fx = kernel::krealloc_in_place_effect<S>(b.e, k.fx.ptr_tag, b.v.kmalloc_redzone_start(b.e, new_size));
    q.witnesses.push_back({"new size", new_size});
    q.violation = object_byte_access(b, q, fx, new_size, off).faults;
    // kmalloc(object_size): a cache at least that large, so the model's krealloc stays in place
    q.prefer.push_back(k.size == k.object_size);
    q.scenario = [&b, k, new_size, off](const z3::model& m) {
        std::string s = header(b, m, "no_false_positive_krealloc", "a kmalloc object resized in place");
        s += "p = kmalloc(" + std::to_string(num(m, k.object_size)) + ", " + gfp_text(b, m, k.gfp) + ")\n";
        s += "p = krealloc(p, " + std::to_string(num(m, new_size)) + ")\nread(p + " + std::to_string(num(m, off)) + ", 1)\n";
        return s + "expect violation no-false-positive\n";
    };
    return q;
}

// 5 zeroing, krealloc in place: krealloc()'s kernel-doc honours __GFP_ZERO
// when every call, from the allocation on, asks for it. A kmalloc object
// (zeroed at allocation: slab_alloc_effect) whose owner wrote its `size`
// bytes is shrunk in place to s1 < size, then grown in place to s1 < s2 <=
// object_size: the byte at s1 held the owner's data, and is zero afterwards
// only if a call zeroed it -- the shrink's spare part (the variant's
// krealloc_zeroes_spare) or the grow's effect below its new size (effects.hpp
// krealloc_in_place_effect, which zeroes none).
Query zeroing_krealloc_query(Builder& b) {
    Query q(b.c);
    const KmallocAlloc k = kmalloc_alloc(b, q);
    q.entry = "krealloc(p, s1, gfp1) then krealloc(p, s2, gfp2), both in place (__do_krealloc)";
    auto& c = b.c;
    const z3::expr g1 = b.word("gfp_shrink"), g2 = b.word("gfp_grow"), s1 = b.word("shrink_to"), s2 = b.word("grow_to");
    q.assumptions.push_back(z3::ule(c.bv_val(1, 64), s1) && z3::ult(s1, k.size) && z3::ult(s1, s2) &&
                            z3::ule(s2, k.object_size));
    q.assumptions.push_back(kernel::resize_asked_zero<S>(b.e, k.gfp) && kernel::resize_asked_zero<S>(b.e, g1) &&
                            kernel::resize_asked_zero<S>(b.e, g2));
    const auto grow = kernel::krealloc_in_place_effect<S>(b.e, k.fx.ptr_tag, b.v.kmalloc_redzone_start(b.e, s2));
    const z3::expr spare = b.v.krealloc_zeroes_spare(b.e, g1);
    q.violation = !(spare || grow.data_zeroed);
    q.prefer.push_back(k.size == k.object_size);  // the model's krealloc then stays in place
    q.prefer.push_back(g1 == (b.e.gfp.GFP_KERNEL | b.e.gfp.ZERO) && g2 == g1);
    q.witnesses.push_back({"shrink to", s1});
    q.witnesses.push_back({"gfp of the shrink", g1, Witness::gfp});
    q.witnesses.push_back({"grow to", s2});
    q.witnesses.push_back({"gfp of the grow", g2, Witness::gfp});
    q.witnesses.push_back({"spare part zeroed by the shrink", spare, Witness::boolean});
    q.scenario = [&b, k, g1, g2, s1, s2](const z3::model& m) {
        const std::string size = std::to_string(num(m, k.size));
        return kmalloc_scenario(b, m, k, "zeroing_krealloc",
                                "write(p, " + size + ")\np = krealloc(p, " + std::to_string(num(m, s1)) + ", " +
                                    gfp_text(b, m, g1) + ")\np = krealloc(p, " + std::to_string(num(m, s2)) + ", " +
                                    gfp_text(b, m, g2) + ")\nexpect violation zeroing\n");
    };
    return q;
}

Query detection_oob_kmalloc_query(Builder& b) {
    Query q(b.c);
    const KmallocAlloc k = kmalloc_alloc(b, q);
    const z3::expr off = b.word("offset");
    q.violation = oob_missed(b, k.fx, k.size, k.size, k.object_size, off, q);
    q.prefer.push_back(k.size == b.c.bv_val(107, 64));  // KUnit's kmalloc_oob_right: 128 - G - 5
    q.scenario = [&b, k, off](const z3::model& m) {
        return kmalloc_scenario(b, m, k, "detection_oob_kmalloc",
                                "read(p + " + std::to_string(num(m, off)) + ", 1)\nexpect violation detection\n");
    };
    return q;
}
// ---- slab: kmem_cache_free ------------------------------------------------------------------------
// One object of a cache (with or without a constructor, SLAB_TYPESAFE_BY_RCU
// or not) freed after the pre-free checks passed: the variant's plan
// (kasan_slab_free) and what it does to the object (effects.hpp), against
// what the cache's callers need (requirements.hpp).
struct SlabFree {
    z3::expr rcu, ctor;
    kernel::SlabFreeEffect<S> fx;
    kernel::Requirement<S> need;
};

SlabFree slab_free(Builder& b, Query& q) {
    SlabFree f{b.c.bool_const("SLAB_TYPESAFE_BY_RCU"), b.c.bool_const("constructor"), {}, {}};
    const auto plan = b.v.kasan_slab_free(b.e, f.rcu);
    f.fx = kernel::slab_free_effect<S>(b.e, plan, f.rcu || f.ctor);
    kernel::CallerInput<S> in;
    in.gfp = b.e.gfp.GFP_KERNEL;
    in.order = b.c.bv_val(0, 64);
    in.vm_mte = in.prot_kernel = b.c.bool_val(false);
    in.ctor_or_rcu = f.rcu || f.ctor;
    in.typesafe_by_rcu = f.rcu;
    f.need = kernel::required<S>(kernel::Caller::kmem_cache, b.e, in);
    q.entry = "kmem_cache_free(cache, object) (slab_free_hook, __kasan_slab_free)";
    q.prefer = {!f.ctor};
    q.witnesses = {{"SLAB_TYPESAFE_BY_RCU", f.rcu, Witness::boolean},
                   {"constructor", f.ctor, Witness::boolean},
                   {"poisoned at the free", f.fx.poisoned_now, Witness::boolean},
                   {"poisoned after the grace period", f.fx.poisoned_after_gp, Witness::boolean},
                   {"readers may use it in the grace period", f.need.readable_in_grace_period, Witness::boolean},
                   {"use-after-free must be caught", f.need.uaf_caught, Witness::boolean}};
    return f;
}

// Replay: one object allocated and freed, (a grace period,) then a read
// through the freed pointer.
std::string slab_free_scenario(const Builder& b, const z3::model& m, const SlabFree& f, const std::string& inv,
                               bool after_gp) {
    const bool rcu = truth(m, f.rcu), ctor = truth(m, f.ctor);
    std::string s = header(b, m, inv + "_kmem_cache_free",
                           std::string("kmem_cache_free, then a read") + (after_gp ? " after the grace period" : ""));
    s += std::string("c = kmem_cache_create(64") + (rcu ? ", rcu" : ctor ? ", ctor" : "") + ")\n";
    s += "o = kmem_cache_alloc(c)\nkmem_cache_free(c, o)\n";
    if (after_gp) s += "rcu_barrier()\n";
    return s + "read(o, 1)\nexpect violation " + inv + "\n";
}

// 4 detection: once no reader may use a freed object any more (at once, or
// after the grace period of a SLAB_TYPESAFE_BY_RCU cache), it is poisoned
// wherever KASAN promises to catch its use (CONFIG_SLUB_RCU_DEBUG for RCU caches).
Query detection_slab_free_query(Builder& b) {
    Query q(b.c);
    const SlabFree f = slab_free(b, q);
    q.violation = b.e.kasan_enabled && f.need.uaf_caught && !(f.fx.poisoned_now || f.fx.poisoned_after_gp);
    q.scenario = [&b, f](const z3::model& m) { return slab_free_scenario(b, m, f, "detection", true); };
    return q;
}

// 3 no-false-positive: an RCU reader's access in the grace period is legal,
// so a SLAB_TYPESAFE_BY_RCU object is not poisoned at the free.
Query no_false_positive_slab_free_query(Builder& b) {
    Query q(b.c);
    const SlabFree f = slab_free(b, q);
    q.violation = f.need.readable_in_grace_period && f.fx.poisoned_now;
    q.scenario = [&b, f](const z3::model& m) { return slab_free_scenario(b, m, f, "no-false-positive", false); };
    return q;
}

// ---- thread stacks: a stack from the per-CPU cache ------------------------------------------------
// 3 no-false-positive: the new task's accesses to its stack (through
// tsk->stack, stored with kasan_reset_tag()) never fault, whatever the
// previous task's instrumentation left in the shadow; the stack after the
// reuse from the one transition (effects.hpp cached_stack_effect). Generic's
// shadow check is checks/generic_check.hpp's, the tag modes' the variant's.
Query no_false_positive_cached_stack_query(Builder& b) {
    Query q(b.c);
    q.entry = "alloc_thread_stack_node() from this CPU's cached_stacks[] (CONFIG_VMAP_STACK)";
    const z3::expr leftover = b.tag("leftover_shadow", q.assumptions);
    const z3::expr T = b.tag("stack_area_tag", q.assumptions);
    q.assumptions.push_back(z3::uge(T, b.v.random_tag_min(b.e)) && z3::ule(T, b.v.random_tag_max(b.e)));
    const auto fx = kernel::cached_stack_effect<S>(b.e, b.v.cached_stack_unpoison(b.e), T, leftover);
    const z3::expr ptr = b.c.bv_val(KASAN_TAG_KERNEL, 64);
    // an 8-byte read at a granule's start
    q.violation = read_faults(b, ptr, fx.mem_tag, b.c.bv_val(7, 64), b.c.bool_val(true));
    q.prefer.push_back(leftover == b.c.bv_val(0xF2, 64));  // KASAN_STACK_LEFT, what the model's leftover is
    q.witnesses = {{"left in the shadow", leftover, Witness::hex},
                   {"kasan_unpoison_range on reuse", fx.unpoisoned, Witness::boolean},
                   {"shadow / tag after", fx.mem_tag, Witness::hex}};
    q.scenario = [&b](const z3::model& m) {
        std::string s = header(b, m, "no_false_positive_cached_stack",
                               "a task's stack left poisoned by its instrumentation, reused from the cache",
                               "cpus=1 vmap_stack=y");
        s += "s = stack_alloc()\nstack_poison_leftover(s, 64, 32)\nstack_free(s)\ns2 = stack_alloc()\nread(s2 + 64, 8)\n";
        return s + "expect violation no-false-positive\n";
    };
    return q;
}

}  // namespace tagproof::solver::ob
