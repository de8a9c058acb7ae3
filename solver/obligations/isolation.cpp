// obligations/isolation.cpp — mode-isolation: what each entry point does that anyone could
// observe, against the baseline, per build and runtime state; the internals
// of __vmalloc_node_range; gfp-encoding.
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

// ---- 9 mode-isolation: equivalence against the baseline, entry by entry ----------------------------
// What an allocation does that anyone could observe — not how: the block
// after post_alloc_hook from the one transition (effects.hpp), from the same
// old state and the same random tag for both sides: data zeroed (by STZG,
// clearing, or tag_clear_highpage alike), given a fresh tag, its MTE tags
// (only where the CPU has MTE), what page_address() carries, the skip-poison
// page flag, the per-CPU sampling counter.
struct Effects {
    z3::expr zeroed, retagged, mte_tag, page_tag, skip_flag, counter;
};
Effects effects(const SEnv& e, const PostAllocPlan<S>& p, const BlockState<S>& old, const z3::expr& random_tag) {
    const BlockState<S> now = kernel::apply_effect<S>(kernel::post_alloc_effect<S>(e, p, random_tag), old);
    // page_kasan_tag() reads 0xFF whenever KASAN is off or not tag-based; the
    // counter is only ever read with HW tags active.
    z3::expr tags_visible = e.kasan_enabled && e.tag_based();
    return {now.data_zero, p.unpoison, S::ite(e.mte, now.mte_tag, S::lit(0)),
            S::ite(tags_visible, now.page_tag, S::lit(KASAN_TAG_KERNEL)), p.set_skip_poison_flag,
            S::ite(e.kasan_hw_tags_enabled(), p.sample_skip_next, S::lit(0))};
}
// `then`, when given, is what happens to the block after post_alloc_hook
// before anyone can observe it (a user page's mapping), on each side.
using Then = std::function<BlockState<S>(bool baseline_side, const PostAllocPlan<S>&, const BlockState<S>&)>;
void plan_fields(Query& q, const std::string& what, const SEnv& ea, const PostAllocPlan<S>& a, const SEnv& eb,
                 const PostAllocPlan<S>& b, const Then& then = nullptr) {
    // one old block and one drawn tag for both sides
    z3::context& c = a.unpoison.ctx();
    BlockState<S> old;
    old.page_tag = c.bv_const((what + ".old_page_tag").c_str(), 64);
    old.mem_tag = old.mte_tag = c.bv_const((what + ".old_mte_tag").c_str(), 64);
    q.assumptions.push_back(z3::ule(old.mte_tag, c.bv_val(0xFF, 64)));  // a tag is a byte
    old.data_zero = c.bool_val(false);
    const z3::expr T = c.bv_const((what + ".random_tag").c_str(), 64);
    q.assumptions.push_back(z3::uge(T, c.bv_val(0x01, 64)) && z3::ule(T, c.bv_val(0xFE, 64)));  // a tag KASAN draws
    Effects x = effects(ea, a, old, T), y = effects(eb, b, old, T);
    if (then) {
        x.mte_tag = S::ite(ea.mte, then(false, a, kernel::apply_effect<S>(kernel::post_alloc_effect<S>(ea, a, T), old)).mte_tag, S::lit(0));
        y.mte_tag = S::ite(eb.mte, then(true, b, kernel::apply_effect<S>(kernel::post_alloc_effect<S>(eb, b, T), old)).mte_tag, S::lit(0));
    }
    auto f = [&](const char* n, const z3::expr& u, const z3::expr& v) { q.fields.push_back({what + "." + n, {u, v}}); };
    f("data zeroed", x.zeroed, y.zeroed);
    f("given a random tag", x.retagged, y.retagged);
    f(then ? "MTE tag once mapped (mte_sync_tags)" : "MTE tag after", x.mte_tag, y.mte_tag);
    f("page_address() tag", x.page_tag, y.page_tag);
    f("PG_skip_kasan_poison set", x.skip_flag, y.skip_flag);
    f("sampling counter after", x.counter, y.counter);
}

// What a vmalloc does that anyone could observe: the mapping, the tagging of
// the area, the zeroing, and the backing pages' own allocation. (The
// metadata's gfp reaches only allocators that mask it with GFP_RECLAIM_MASK.)
void vmalloc_fields(Builder& b, Query& q, const std::string& what, const z3::expr& gfp_a, const z3::expr& gfp_b,
                    const z3::expr& prot, const z3::expr& skip) {
    const SymVariant& B = *b.base;
    auto va = b.v.vmalloc_node_range(b.e, gfp_a, prot), vb = B.vmalloc_node_range(*b.be, gfp_b, prot);
    auto ua = b.v.kasan_unpoison_vmalloc(b.e, va), ub = B.kasan_unpoison_vmalloc(*b.be, vb);
    auto f = [&](const char* n, const z3::expr& x, const z3::expr& y) { q.fields.push_back({what + "." + n, {x, y}}); };
    const auto pa = b.v.post_alloc_hook(b.e, va.page_gfp, b.c.bv_val(0, 64), skip);
    const auto pb = B.post_alloc_hook(*b.be, vb.page_gfp, b.c.bv_val(0, 64), skip);
    // The area as its caller gets it, from the one transition (effects.hpp):
    // one previous owner's block and the same drawn tags for both sides.
    BlockState<S> old;
    old.page_tag = b.c.bv_const((what + ".area_old_page_tag").c_str(), 64);
    old.mem_tag = old.mte_tag = b.c.bv_const((what + ".area_old_mte_tag").c_str(), 64);
    old.data_zero = b.c.bool_val(false);
    const z3::expr tp = b.c.bv_const((what + ".page_random_tag").c_str(), 64);
    const z3::expr ta = b.c.bv_const((what + ".area_random_tag").c_str(), 64);
    for (const z3::expr& t : {tp, ta}) q.assumptions.push_back(z3::uge(t, b.c.bv_val(0x01, 64)) && z3::ule(t, b.c.bv_val(0xFE, 64)));
    const auto xa = kernel::vmalloc_area_effect<S>(
        b.e, va, ua, kernel::apply_effect<S>(kernel::post_alloc_effect<S>(b.e, pa, tp), old), ta);
    const auto xb = kernel::vmalloc_area_effect<S>(
        *b.be, vb, ub, kernel::apply_effect<S>(kernel::post_alloc_effect<S>(*b.be, pb, tp), old), ta);
    f("tagged_mapping", xa.tagged_mapping, xb.tagged_mapping);
    f("kasan_unpoison_vmalloc.retag", ua.retag, ub.retag);
    f("area pointer tag", xa.ptr_tag, xb.ptr_tag);
    f("area memory tag", xa.mem_tag, xb.mem_tag);
    f("area zeroed", xa.data_zeroed, xb.data_zeroed);
    plan_fields(q, what + ".backing_page", b.e, pa, *b.be, pb);
    BuildConfig hw, other;
    other.mode = Mode::generic;
    const char* reclaim = "__GFP_RECLAIM|__GFP_HIGH|__GFP_IO|__GFP_FS|__GFP_NOWARN|__GFP_RETRY_MAYFAIL|__GFP_NOFAIL|"
                          "__GFP_NORETRY|__GFP_MEMALLOC|__GFP_NOMEMALLOC|__GFP_NOLOCKDEP";
    auto mask = [&](const kernel::Variant& v) {
        return z3::ite(b.in.rt.hw_tags, b.c.bv_val(v.gfp_layout(hw).parse(reclaim, "GFP_RECLAIM_MASK"), 64),
                       b.c.bv_val(v.gfp_layout(other).parse(reclaim, "GFP_RECLAIM_MASK"), 64));
    };
    f("metadata_gfp & GFP_RECLAIM_MASK", va.meta_gfp & mask(b.v.concrete()), vb.meta_gfp & mask(B.concrete()));
}

z3::expr any_differs(z3::context& c, const Query& q) {
    z3::expr d = c.bool_val(false);
    for (const auto& [n, ab] : q.fields) d = d || (ab.first != ab.second);
    return d;
}

// The build and runtime states compared: where the variant claims no change
// (each state its own obligation, so a verdict names it), or where it does.
const char* region_name(Region r) {
    switch (r) {
        case Region::none: return "no-kasan";
        case Region::generic: return "generic";
        case Region::sw_tags: return "sw_tags";
        case Region::hw_inactive: return "hw_tags-inactive";
        case Region::hw_active: return "hw_tags-active";
    }
    return "?";
}
z3::expr region(Builder& b, Region r) {
    switch (r) {
        case Region::none: return b.in.none;
        case Region::generic: return b.in.rt.generic;
        case Region::sw_tags: return b.in.rt.sw_tags;
        case Region::hw_inactive: return b.in.rt.hw_tags && !b.e.kasan_enabled;
        case Region::hw_active: return b.e.kasan_hw_tags_enabled();
    }
    return b.c.bool_val(false);
}


const char* entry_name(Entry en) {
    switch (en) {
        case Entry::alloc_pages: return "alloc_pages";
        case Entry::free_pages: return "free_pages";
        case Entry::vmalloc: return "vmalloc";
        case Entry::vmap_stack: return "vmap_stack";
        case Entry::cached_stack: return "cached_stack";
        case Entry::pgtable_kernel: return "pgtable_kernel";
        case Entry::pgtable_user: return "pgtable_user";
        case Entry::thread_info: return "thread_info_pages";
        case Entry::user_page: return "user_page";
        case Entry::skb: return "skb_frag";
        case Entry::skb_fallback: return "skb_frag_fallback";
        case Entry::skb_frags: return "skb_with_frags";
        case Entry::kfence: return "kfence_alloc";
        case Entry::gfp_layout: return "gfp_layout";
        case Entry::slab: return "kmem_cache_alloc";
        case Entry::mempool: return "mempool";
    }
    return "?";
}

// The GFP layout a build compiles (gfp_types.h for its KASAN mode and
// CONFIG_LOCKDEP), as the solver's inputs select it.
z3::expr lockdep_input(const Builder& b) { return b.c.bool_const("CONFIG_LOCKDEP"); }
BuildConfig layout_build(Mode mode, bool lockdep) {
    BuildConfig bc;
    bc.mode = mode;
    bc.lockdep = lockdep;
    return bc;
}
template <class Value>
z3::expr by_build(Builder& b, const Value& value) {
    const z3::expr lockdep = lockdep_input(b);
    auto pick = [&](Mode m) {
        return z3::ite(lockdep, b.c.bv_val(value(layout_build(m, true)), 64), b.c.bv_val(value(layout_build(m, false)), 64));
    };
    return z3::ite(b.in.rt.hw_tags, pick(Mode::hw_tags),
                   z3::ite(b.in.rt.sw_tags, pick(Mode::sw_tags), z3::ite(b.in.rt.generic, pick(Mode::generic), pick(Mode::none))));
}
// A flag either side's era names, its mask in the build (0 where an era
// has no such flag: a flag a series adds is new wherever it has a bit).
void gfp_layout_fields(Builder& b, Query& q) {
    const kernel::Variant &V = b.v.concrete(), &B = b.base->concrete();
    q.fields.push_back({"__GFP_BITS_SHIFT", {by_build(b, [&](const BuildConfig& bc) { return std::uint64_t(V.gfp_layout(bc).bits_shift()); }),
                                              by_build(b, [&](const BuildConfig& bc) { return std::uint64_t(B.gfp_layout(bc).bits_shift()); })}});
    std::set<std::string> names;
    for (const kernel::Variant* x : {&V, &B})
        for (Mode m : {Mode::none, Mode::generic, Mode::sw_tags, Mode::hw_tags}) {
            const GfpLayout L = x->gfp_layout(layout_build(m, true));
            for (const auto& f : L.single_flags()) names.insert(f.name);
        }
    auto mask = [](const kernel::Variant& x, const std::string& n) {
        return [&x, n](const BuildConfig& bc) {
            const GfpLayout L = x.gfp_layout(bc);
            return L.defines(n) ? L.mask(n) : gfp_t(0);
        };
    };
    for (const auto& n : names) q.fields.push_back({n, {by_build(b, mask(V, n)), by_build(b, mask(B, n))}});
}
// Replayed as the corpus sees it: what the build's header says, observed
// under the variant and its baseline.
std::string gfp_layout_scenario(const Builder& b, const z3::model& m, const std::string& name) {
    const bool lockdep = truth(m, lockdep_input(b));
    std::string s = header(b, m, name, "gfp_types.h of the build under the variant and its baseline",
                           std::string("lockdep=") + (lockdep ? "y" : "n"));
    s += "baseline " + b.base->concrete().name() + "\n";
    ConcreteConfig cc = read_config(m, b.in);
    const BuildConfig bc = layout_build(cc.mode, lockdep);
    const GfpLayout L = b.base->concrete().gfp_layout(bc);
    s += "observe __GFP_BITS_SHIFT == " + std::to_string(L.bits_shift()) + "\n";
    const GfpLayout LV = b.v.concrete().gfp_layout(bc);
    for (const auto& f : L.single_flags())
        if (f.mask && LV.defines(f.name)) s += "observe gfp(" + f.name + ") == " + hex(f.mask) + "\n";
    return s + "expect violation mode-isolation\n";
}

std::string isolation_scenario(const Builder& b, const z3::model& m, Entry en, const z3::expr& gfp, bool hw_active) {
    std::string name = std::string(hw_active ? "changes_" : "mode_isolation_") + entry_name(en);
    if (en == Entry::gfp_layout) return gfp_layout_scenario(b, m, name);
    std::string s = header(b, m, name, "the entry point under the variant and its baseline, same tag choices",
                           // seven pages hold no order-3 block: skb_page_frag_refill falls back to order 0
                           std::string(en == Entry::skb_fallback ? "pages=7 " : en == Entry::skb_frags ? "pages=1024 " : "") +
                               "cpus=1 vmap_stack=" +
                               std::string(en == Entry::thread_info ? "n" : "y"));
    s += "baseline " + b.base->concrete().name() + "\n";
    // a previous owner, so that stale page tags and memory tags exist
    if (en != Entry::free_pages) s += "old = alloc_pages(0, GFP_KERNEL)\nfree_pages(old)\n";
    switch (en) {
        case Entry::alloc_pages: s += "pg = alloc_pages(0, " + gfp_text(b, m, gfp) + ")\n"; break;
        case Entry::free_pages: s += "pg = alloc_pages(0, GFP_KERNEL)\np = page_address(pg)\nfree_pages(pg)\nread(p, 1)\n"; break;
        case Entry::vmalloc: s += "v = vmalloc(100, " + gfp_text(b, m, gfp) + ")\npa = vmalloc_to_page_address(v)\nread(v + 100, 1)\n"; break;
        case Entry::vmap_stack: s += "s = stack_alloc()\npa = vmalloc_to_page_address(s)\nwrite(s, 8)\n"; break;
        case Entry::cached_stack:
            s += "s = stack_alloc()\nstack_poison_leftover(s, 64, 32)\nstack_free(s)\ns2 = stack_alloc()\nread(s2 + 64, 8)\n";
            break;
        case Entry::pgtable_kernel: s += "pt = pgtable_alloc(kernel)\nread(pt, 8)\n"; break;
        case Entry::pgtable_user: s += "pt = pgtable_alloc(user)\nread(pt, 8)\n"; break;
        case Entry::thread_info: s += "s = stack_alloc()\nread(s, 8)\n"; break;
        case Entry::user_page:
            // a previous PROT_MTE user left its tags (the page is freed untagged
            // in PG_mte_tagged's sense); the new one is mapped PROT_MTE
            // the vma of the counterexample (isolation_query's `vm_mte`)
            if (truth(m, b.c.bool_const("vm_mte"))) s += "um = user_fault(mte)\nuser_set_tag(um, 0, 5)\nmunmap(um)\nu = user_fault(mte)\n";
            else s += "u = user_fault()\n";
            s += "pu = page_address(u)\nread(pu, 8)\n";
            break;
        case Entry::skb:
        case Entry::skb_fallback: s += "sk = skb_alloc()\n"; break;
        case Entry::kfence: s += "k = kfence_kmalloc(32)\nread(k, 1)\n"; break;
        case Entry::gfp_layout: break;  // gfp_layout_scenario
        case Entry::slab:
            // the slot's second owner: its tag against the first's, what a free left
            s += std::string("c = kmem_cache_create(64") + (truth(m, b.c.bool_const("ctor_or_rcu")) ? ", rcu" : "") +
                 ")\nx = kmem_cache_alloc(c)\nkmem_cache_free(c, x)\nread(x, 1)\nrcu_barrier()\nread(x, 1)\n"
                 "y = kmem_cache_alloc(c)\nobserve tag(y) == tag(x)\nread(y, 1)\n";
            break;
        case Entry::mempool:
            // each hook once: the slot past the size, a bad free kept or not, a page element's double free
            s += "pool = mempool_create(kmalloc, 100, 4)\nx = mempool_alloc(pool)\ne = mempool_alloc(pool)\n"
                 "read(e + 112, 1)\nmempool_free(pool, e)\nmempool_free(pool, e)\na = mempool_alloc(pool)\n"
                 "b = mempool_alloc(pool)\nobserve tag(a) == tag(b)\nmp = mempool_create(pages, 0, 1)\n"
                 "p = mempool_alloc(mp)\nmempool_free(mp, p)\nmempool_free(mp, p)\n";
            break;
        case Entry::skb_frags: {
            s += "sk = alloc_skb_with_frags(32768, 3)\nf0 = skb_frag_page(sk, 0)\n";
            // the -EMSGSIZE test at the counterexample's length and order
            const std::uint64_t len = m.eval(b.c.bv_const("data_len", 64), true).get_numeral_uint64();
            const std::uint64_t order = m.eval(b.c.bv_const("order", 64), true).get_numeral_uint64();
            s += "sk2 = alloc_skb_with_frags(" + std::to_string(len) + ", " + std::to_string(order) +
                 ")\nobserve null(sk2) == 0\nkfree_skb(sk2)\n";
            break;
        }
    }
    return s + "expect violation mode-isolation\n";
}

Query isolation_query(Builder& b, Entry en, Region rg) {
    bool hw_active = rg == Region::hw_active;
    Query q(b.c);
    q.entry = entry_name(en);
    q.method = std::string("equivalence with the baseline over all inputs in the state ") + region_name(rg) +
               (rg == Region::hw_inactive ? " (HW_TAGS compiled in; kasan=off or no MTE)" : "");
    const SymVariant& B = *b.base;
    z3::expr skip = b.word("kasan_page_alloc_skip");
    q.assumptions.push_back(z3::sge(skip, b.c.bv_val(0, 64)) && z3::slt(skip, b.e.sample));
    z3::expr gfp = b.word("gfp"), order = b.word("order");
    q.minimise_bits.push_back(gfp);
    q.assumptions.push_back(z3::ule(order, b.c.bv_val(10, 64)));
    switch (en) {
        case Entry::alloc_pages:
            q.contracts = page_alloc_contracts(b.e, gfp, b.bits_mask);
            plan_fields(q, "alloc_pages", b.e, b.v.post_alloc_hook(b.e, gfp, order, skip), *b.be,
                        B.post_alloc_hook(*b.be, gfp, order, skip));
            q.witnesses.push_back({"gfp", gfp, Witness::gfp});
            break;
        case Entry::free_pages: {
            FreeInput<S> in;
            in.page_tag = b.tag("page_tag", q.assumptions);
            in.pg_skip_kasan_poison = b.c.bool_const("PG_skip_kasan_poison");
            in.fpi_skip_kasan_poison = S::boolean(false);
            auto fa = b.v.free_pages_prepare(b.e, in), fb = B.free_pages_prepare(*b.be, in);
            q.fields = {{"free.poison", {fa.poison, fb.poison}}, {"free.poison_init", {fa.poison_init, fb.poison_init}},
                        {"free.kernel_init", {fa.kernel_init, fb.kernel_init}}};
            break;
        }
        case Entry::vmalloc: {
            // __vmalloc(size, gfp): vmalloc_fix_flags() first, as the scenario's vmalloc(SIZE, GFP)
            const auto fa = b.v.vmalloc_fix_flags(b.e, gfp), fb = B.vmalloc_fix_flags(*b.be, gfp);
            q.contracts = vmalloc_contracts(b.e, gfp, b.bits_mask, supported_flags(b, hw_active));
            q.fields.push_back({"__vmalloc: flags stripped with a WARN (vmalloc_fix_flags)", {fa.warned, fb.warned}});
            vmalloc_fields(b, q, "vmalloc", fa.gfp, fb.gfp, b.c.bool_const("prot_is_PAGE_KERNEL"), skip);
            q.witnesses.push_back({"gfp", gfp, Witness::gfp});
            break;
        }
        case Entry::vmap_stack:
            vmalloc_fields(b, q, "vmap_stack", b.v.GFP_VMAP_STACK(b.e), B.GFP_VMAP_STACK(*b.be), b.c.bool_val(true), skip);
            q.witnesses.push_back({"GFP_VMAP_STACK", b.v.GFP_VMAP_STACK(b.e), Witness::gfp});
            break;
        case Entry::cached_stack:
            q.fields = {{"kasan_unpoison_range on reuse",
                         {b.v.cached_stack_unpoison(b.e) && b.e.kasan_enabled, B.cached_stack_unpoison(*b.be) && b.be->kasan_enabled}}};
            break;
        case Entry::pgtable_kernel:
        case Entry::pgtable_user: {
            bool user = en == Entry::pgtable_user;
            z3::expr ga = user ? b.v.pte_alloc_one_gfp(b.e) : b.v.pte_alloc_one_kernel_gfp(b.e);
            z3::expr gb = user ? B.pte_alloc_one_gfp(*b.be) : B.pte_alloc_one_kernel_gfp(*b.be);
            plan_fields(q, "page table page", b.e, b.v.post_alloc_hook(b.e, ga, b.c.bv_val(0, 64), skip), *b.be,
                        B.post_alloc_hook(*b.be, gb, b.c.bv_val(0, 64), skip));
            q.witnesses.push_back({"GFP_PGTABLE", ga, Witness::gfp});
            break;
        }
        case Entry::thread_info:
            plan_fields(q, "stack pages", b.e, b.v.post_alloc_hook(b.e, b.v.THREADINFO_GFP(b.e), b.c.bv_val(2, 64), skip),
                        *b.be, B.post_alloc_hook(*b.be, B.THREADINFO_GFP(*b.be), b.c.bv_val(2, 64), skip));
            q.witnesses.push_back({"THREADINFO_GFP", b.v.THREADINFO_GFP(b.e), Witness::gfp});
            break;
        case Entry::user_page: {
            z3::expr mte = b.c.bool_const("vm_mte");
            q.assumptions.push_back(z3::implies(mte, b.e.mte));
            // what user space and the kernel observe is the page once mapped:
            // its MTE tags after mte_sync_tags(), not after the allocation alone
            const Then mapped = [&b, &B, mte](bool base_side, const PostAllocPlan<S>& p, const BlockState<S>& s) {
                return base_side ? mapped_user_page(B, *b.be, p, s, mte) : mapped_user_page(b.v, b.e, p, s, mte);
            };
            plan_fields(q, "user page", b.e, b.v.post_alloc_hook(b.e, b.v.user_page_gfp(b.e, mte), b.c.bv_val(0, 64), skip),
                        *b.be, B.post_alloc_hook(*b.be, B.user_page_gfp(*b.be, mte), b.c.bv_val(0, 64), skip), mapped);
            break;
        }
        case Entry::skb:
            plan_fields(q, "skb frag page", b.e, b.v.post_alloc_hook(b.e, b.v.skb_frag_gfp(b.e), b.c.bv_val(3, 64), skip),
                        *b.be, B.post_alloc_hook(*b.be, B.skb_frag_gfp(*b.be), b.c.bv_val(3, 64), skip));
            break;
        case Entry::kfence:
            // mm/kfence/core.c: whether kfence_alloc() takes a sampled kmalloc at all
            q.fields = {{"KFENCE pool kept (kfence_alloc serves)", {b.v.kfence_enabled(b.e), B.kfence_enabled(*b.be)}}};
            break;
        case Entry::skb_fallback:
            plan_fields(q, "skb frag page (order-0 fallback)", b.e,
                        b.v.post_alloc_hook(b.e, b.v.skb_frag_fallback_gfp(b.e), b.c.bv_val(0, 64), skip), *b.be,
                        B.post_alloc_hook(*b.be, B.skb_frag_fallback_gfp(*b.be), b.c.bv_val(0, 64), skip));
            break;
        case Entry::slab: {
            // a cache's object: its tag (fresh, or the slot's), what KASAN
            // writes and zeroes (slab_alloc_effect, effects.hpp), what a free
            // does (kasan_slab_free), and the mempool hooks of its elements
            const z3::expr rcu = b.c.bool_const("ctor_or_rcu"), init = b.c.bool_const("slab_want_init");
            const z3::expr T = b.tag("random_tag", q.assumptions), slot = b.tag("slot_tag", q.assumptions);
            const z3::expr size = b.word("size");
            q.assumptions.push_back(z3::ule(b.c.bv_val(1, 64), size) && z3::ule(size, b.c.bv_val(8192, 64)));
            auto side = [&](const SymVariant& V, const SEnv& e) {
                return kernel::slab_alloc_effect<S>(e, V.slab_tag_per_alloc(e, rcu), T, slot, V.slab_alloc_kasan_init(e, init),
                                                    V.slab_memset_init(e, init), b.c.bool_val(true),
                                                    V.kmalloc_redzone_start(e, size));
            };
            const auto xa = side(b.v, b.e), xb = side(B, *b.be);
            const auto fa = b.v.kasan_slab_free(b.e, rcu), fb = B.kasan_slab_free(*b.be, rcu);
            q.fields = {{"object pointer tag", {xa.ptr_tag, xb.ptr_tag}},
                        {"object tag written", {xa.obj_written, xb.obj_written}},
                        {"object tag", {S::ite(xa.obj_written, xa.obj_tag, S::lit(0)), S::ite(xb.obj_written, xb.obj_tag, S::lit(0))}},
                        {"kmalloc redzone poisoned", {xa.redzone_poisoned, xb.redzone_poisoned}},
                        {"kmalloc redzone from", {S::ite(xa.redzone_poisoned, xa.redzone_from, S::lit(0)),
                                                  S::ite(xb.redzone_poisoned, xb.redzone_from, S::lit(0))}},
                        {"object zeroed", {xa.data_zeroed, xb.data_zeroed}},
                        {"kasan_slab_free poisons", {fa.poison, fb.poison}},
                        // deferred or not, a free KASAN does not poison is not observed
                        {"kasan_slab_free deferred to RCU",
                         {b.e.kasan_enabled && fa.defer_to_rcu, b.be->kasan_enabled && fb.defer_to_rcu}}};
            q.witnesses.push_back({"SLAB_TYPESAFE_BY_RCU or a constructor", rcu, Witness::boolean});
            break;
        }
        case Entry::mempool: {
            // mm/mempool.c's KASAN hooks (kasan_poison_element / kasan_unpoison_element),
            // which act only with KASAN on
            const auto ma = b.v.mempool_hooks(b.e), mb = B.mempool_hooks(*b.be);
            auto hook = [&](const z3::expr& mine, const z3::expr& theirs) {
                return std::make_pair(b.e.kasan_enabled && mine, b.be->kasan_enabled && theirs);
            };
            q.fields = {{"mempool: page frees checked", hook(ma.check_page_frees, mb.check_page_frees)},
                        {"mempool: untagged pages skipped", hook(ma.skip_untagged_pages, mb.skip_untagged_pages)},
                        {"mempool: bad element kept", hook(ma.keep_bad_element, mb.keep_bad_element)},
                        {"mempool: whole slot unpoisoned", hook(ma.unpoison_whole_slot, mb.unpoison_whole_slot)}};
            break;
        }
        case Entry::gfp_layout:
            gfp_layout_fields(b, q);
            q.witnesses.push_back({"CONFIG_LOCKDEP", lockdep_input(b), Witness::boolean});
            break;
        case Entry::skb_frags: {
            plan_fields(q, "skb frag (order 3)", b.e,
                        b.v.post_alloc_hook(b.e, b.v.alloc_skb_frags_gfp(b.e, b.e.gfp.GFP_KERNEL), b.c.bv_val(3, 64), skip),
                        *b.be,
                        B.post_alloc_hook(*b.be, B.alloc_skb_frags_gfp(*b.be, b.be->gfp.GFP_KERNEL), b.c.bv_val(3, 64), skip));
            // its -EMSGSIZE test, before anything is allocated: a length the two
            // refuse differently is a NULL skb on one side (up to 1 MiB, which
            // the replay's memory holds)
            const z3::expr len = b.word("data_len");
            q.assumptions.push_back(z3::ule(b.c.bv_val(1, 64), len) && z3::ule(len, b.c.bv_val(1 << 20, 64)));
            // ... and that the frag loop itself holds in MAX_SKB_FRAGS (17): P pages take
            // P >> order frags of the order and one per bit of the rest, so the two
            // sides differ in what the caller sees (an skb or NULL), not only in
            // pages allocated and freed again
            {
                const z3::expr pages = z3::lshr(len + b.c.bv_val(4095, 64), 12);
                const z3::expr low = pages & (z3::shl(b.c.bv_val(1, 64), order) - b.c.bv_val(1, 64));
                z3::expr frags = z3::lshr(pages, order);
                for (unsigned k = 0; k < 10; ++k) frags = frags + z3::zext(low.extract(k, k), 63);
                q.assumptions.push_back(z3::ule(frags, b.c.bv_val(17, 64)));
            }
            q.fields.push_back({"alloc_skb_with_frags refuses the length (-EMSGSIZE)",
                                {!b.v.skb_with_frags_fits(b.e, len, order), !B.skb_with_frags_fits(*b.be, len, order)}});
            q.witnesses.push_back({"data_len", len, Witness::number});
            break;
        }
    }
    q.violation = region(b, rg) && any_differs(b.c, q);
    q.scenario = [&b, en, gfp, hw_active](const z3::model& m) { return isolation_scenario(b, m, en, gfp, hw_active); };
    return q;
}

// Internal values of __vmalloc_node_range that differ between two versions
// even when no outcome does (why two revisions are equivalent, or not).
Query vmalloc_internals_query(Builder& b, int field) {
    Query q(b.c);
    q.entry = "__vmalloc_node_range(gfp, prot): the values it passes on";
    q.method = "comparison of intermediate values over all inputs";
    const SymVariant& B = *b.base;
    z3::expr gfp = b.word("gfp"), prot = b.c.bool_const("prot_is_PAGE_KERNEL");
    auto va = b.v.vmalloc_node_range(b.e, gfp, prot), vb = B.vmalloc_node_range(*b.be, gfp, prot);
    std::vector<std::pair<std::string, std::pair<z3::expr, z3::expr>>> all = {
        {"kasan_unpoison_vmalloc() called", {va.call_unpoison, vb.call_unpoison}},
        {"KASAN_VMALLOC_PROT_NORMAL passed", {va.flag_prot_normal, vb.flag_prot_normal}},
        {"gfp of the vm_struct metadata", {va.meta_gfp, vb.meta_gfp}},
        {"gfp of the backing pages", {va.page_gfp, vb.page_gfp}}};
    q.fields = {all.at(field)};
    q.prefer.push_back(gfp == (b.e.gfp.GFP_KERNEL | b.e.gfp.SKIP_KASAN));
    q.prefer.push_back(prot);
    q.contracts = vmalloc_contracts(b.e, gfp, b.bits_mask, supported_flags(b, false));
    q.violation = any_differs(b.c, q);
    q.minimise_bits.push_back(gfp);
    q.witnesses = {{"gfp", gfp, Witness::gfp}, {"prot == PAGE_KERNEL", prot, Witness::boolean}};
    return q;
}

// ---- 10 gfp-encoding ------------------------------------------------------------------------------
Query gfp_encoding_query(Builder& b) {
    Query q(b.c);
    q.entry = "include/linux/gfp_types.h of the variant's era, every build";
    z3::expr bad = b.c.bool_val(false);
    z3::expr hw = b.c.bool_const("CONFIG_KASAN_HW_TAGS"), lockdep = lockdep_input(b);
    for (bool h : {false, true})
        for (bool l : {false, true}) {
            BuildConfig bc;
            bc.mode = h ? Mode::hw_tags : Mode::generic;
            bc.lockdep = l;
            GfpLayout L = b.v.concrete().gfp_layout(bc);
            gfp_t seen = 0;
            bool broken = false;
            for (const auto& f : L.single_flags()) {
                broken |= (f.mask & ~L.bits_mask()) != 0 || (f.mask & seen) != 0;
                seen |= f.mask;
            }
            bad = bad || ((h ? hw : !hw) && (l ? lockdep : !lockdep) && b.c.bool_val(broken));
        }
    q.violation = bad;
    q.witnesses = {{"CONFIG_KASAN_HW_TAGS", hw, Witness::boolean}, {"CONFIG_LOCKDEP", lockdep, Witness::boolean}};
    q.scenario = [&b, hw, lockdep](const z3::model& m) {
        std::string s = "# written by tagproof prove: a counterexample replayed in the model\nname gfp_encoding\n";
        s += "variant " + b.v.concrete().name() + "\nmodes " + (truth(m, hw) ? "hw_tags" : "generic") + "\n";
        s += std::string("config lockdep=") + (truth(m, lockdep) ? "y" : "n") + "\n";
        return s + "pg = alloc_pages(0, GFP_KERNEL)\nexpect violation gfp-encoding\n";
    };
    return q;
}

}  // namespace tagproof::solver::ob
