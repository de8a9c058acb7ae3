// obligations/common.cpp — the helpers the obligations share: reading a model back into a scenario, the
// tag check of one access, a page allocation over a previous owner, the
// caller's needs, a slab byte's granule, the flags __vmalloc callers pass.
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

std::uint64_t num(const z3::model& m, const z3::expr& e) { return m.eval(e, true).get_numeral_uint64(); }
bool truth(const z3::model& m, const z3::expr& e) { return m.eval(e, true).is_true(); }
std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

// The scenario header every counterexample starts with.
std::string header(const Builder& b, const z3::model& m, const std::string& name, const std::string& doc,
                   const std::string& extra_config) {
    ConcreteConfig cc = read_config(m, b.in);
    std::string s = "# written by tagproof prove: a counterexample replayed in the model\n";
    s += "name " + name + "\n";
    s += "doc " + doc + "\n";
    s += "variant " + b.v.concrete().name() + "\n";
    s += std::string("modes ") + mode_name(cc.mode) + "\n";
    s += cc.config_line() + (extra_config.empty() ? "" : " " + extra_config) + "\n";
    if (!cc.boot_line().empty()) s += "boot " + cc.boot_line() + "\n";
    return s;
}

// The kernel's spelling, or the number when a baseline does not know a flag
// the variant adds (sample-v2's __GFP_KASAN_SAMPLE).
std::string gfp_text(const Builder& b, const z3::model& m, const z3::expr& gfp) {
    ConcreteConfig cc = read_config(m, b.in);
    BuildConfig bc;
    bc.mode = cc.mode;
    std::string text = b.v.concrete().gfp_layout(bc).print(num(m, gfp));
    if (b.base) {
        try {
            b.base->concrete().gfp_layout(bc).parse(text, "baseline");
        } catch (const InputError&) {
            return hex(num(m, gfp));
        }
    }
    return text;
}


TagCheckInput<S> plain_access(Builder& b, const z3::expr& ptr, const z3::expr& mem) {
    TagCheckInput<S> in;
    in.tcf_on = S::boolean(true);
    in.write_only = S::boolean(false);
    in.is_write = S::boolean(false);
    in.tagged_mapping = S::boolean(true);
    in.ptr_tag = ptr;
    in.mem_tag = mem;
    return in;
}

// Whether a read whose last byte is at `off` faults on the granule holding
// `mem` (its tag; Generic: its shadow byte) through a pointer tagged `ptr`:
// Generic's shadow check with KASAN on, the variant's tag check otherwise
// (checked where the mapping is tagged).
z3::expr read_faults(Builder& b, const z3::expr& ptr, const z3::expr& mem, const z3::expr& off,
                     const z3::expr& tagged_mapping) {
    const z3::expr shadow = kernel::checks::generic_granule_poisons<S>(mem, off & b.c.bv_val(7, 64), S::boolean(false));
    TagCheckInput<S> in = plain_access(b, ptr, mem);
    in.tagged_mapping = tagged_mapping;
    return z3::ite(b.e.generic, b.e.kasan_enabled && shadow, b.v.granule_check_faults(b.e, in));
}


PageAlloc page_alloc(Builder& b, Query& q, const z3::expr& gfp) {
    PageAlloc a{gfp, b.word("order"), b.word("kasan_page_alloc_skip"), b.tag("random_tag", q.assumptions),
                b.tag("old_page_tag", q.assumptions), b.tag("old_mem_tag", q.assumptions), {}, b.c.bool_val(false),
                b.c.bool_val(false), b.c.bool_val(false), b.c.bool_val(false), b.c.bool_val(false)};
    auto& c = b.c;
    q.assumptions.push_back(z3::ule(a.order, c.bv_val(10, 64)));  // MAX_PAGE_ORDER
    // the counter is always in [0, N-1] (sampling-accounting/induction proves it)
    q.assumptions.push_back(z3::sge(a.skip, c.bv_val(0, 64)) && z3::slt(a.skip, b.e.sample));
    q.assumptions.push_back(z3::uge(a.T, b.v.random_tag_min(b.e)) && z3::ule(a.T, b.v.random_tag_max(b.e)));
    // a stale page tag is one KASAN stored: match-all or a tag it handed out
    q.assumptions.push_back(a.P_old == c.bv_val(0xFF, 64) ||
                            (z3::uge(a.P_old, b.v.random_tag_min(b.e)) && z3::ule(a.P_old, b.v.random_tag_max(b.e))));
    a.plan = b.v.post_alloc_hook(b.e, gfp, a.order, a.skip);
    // the block after post_alloc_hook, from the one transition (effects.hpp)
    BlockState<S> old;
    old.page_tag = a.P_old;
    old.mem_tag = a.M_old;
    old.mte_tag = a.M_old;
    old.data_zero = c.bool_val(false);
    const BlockState<S> now = kernel::apply_effect<S>(kernel::post_alloc_effect<S>(b.e, a.plan, a.T), old);
    a.page_tag = now.page_tag;
    a.mem = now.mem_tag;
    a.mte = now.mte_tag;
    a.zeroed = now.data_zero;
    a.ptr = z3::ite(b.e.kasan_enabled && b.e.tag_based(), a.page_tag, c.bv_val(0xFF, 64));
    q.prefer.push_back(a.order == c.bv_val(0, 64));
    q.prefer.push_back(gfp == b.e.gfp.GFP_KERNEL);
    q.prefer.push_back(a.P_old == c.bv_val(0xFF, 64));
    q.prefer.push_back(!b.e.init_on_alloc);
    q.minimise_bits.push_back(gfp);
    q.witnesses.push_back({"gfp", gfp, Witness::gfp});
    q.witnesses.push_back({"order", a.order});
    q.witnesses.push_back({"random tag", a.T, Witness::hex});
    q.witnesses.push_back({"old page tag", a.P_old, Witness::hex});
    q.witnesses.push_back({"old memory tag", a.M_old, Witness::hex});
    q.witnesses.push_back({"unpoisoned", a.plan.unpoison, Witness::boolean});
    q.witnesses.push_back({"page tag reset", a.plan.reset_page_tag, Witness::boolean});
    q.witnesses.push_back({"tags cleared (ZEROTAGS)", a.plan.tag_clear, Witness::boolean});
    q.witnesses.push_back({"page_address() tag", a.ptr, Witness::hex});
    q.witnesses.push_back({"memory tag after", a.mem, Witness::hex});
    return a;
}

// Replay: the old owner (when the old page tag matters), the allocation, an access.
std::string page_alloc_scenario(const Builder& b, const z3::model& m, const PageAlloc& a, const std::string& name,
                                const std::string& invariant, bool secret) {
    std::uint64_t order = num(m, a.order);
    std::string s = header(b, m, name, "alloc_pages then an access through page_address()",
                           "pages=" + std::to_string(std::max<std::uint64_t>(64, (4ull << order) + 8)));
    s += "old = alloc_pages(" + std::to_string(order) + ", GFP_KERNEL)\n";
    if (secret) s += "po = page_address(old)\nwrite(po, 64)\n";
    s += "free_pages(old)\n";
    s += "pg = alloc_pages(" + std::to_string(order) + ", " + gfp_text(b, m, a.gfp) + ")\n";
    s += "p = page_address(pg)\n";
    s += "read(p, " + std::string(secret ? "64" : "1") + ")\n";
    s += "expect violation " + invariant + "\n";
    return s;
}



// The caller's needs, symbolically: the table the oracle reads (requirements.hpp).
kernel::Requirement<S> need(const Builder& b, kernel::Caller c, const z3::expr& gfp, const z3::expr& order,
                            bool prot_kernel) {
    kernel::CallerInput<S> in;
    in.gfp = gfp;
    in.order = order;
    in.vm_mte = b.c.bool_val(false);
    in.prot_kernel = b.c.bool_val(prot_kernel);
    in.ctor_or_rcu = b.c.bool_val(false);
    in.typesafe_by_rcu = b.c.bool_val(false);
    return kernel::required<S>(c, b.e, in);
}

// 4 detection, coverage: the caller got a match-all pointer where neither
// its requirements nor the variant's claims allow one (coverage.hpp, which
// the model's oracle reads too).
z3::expr coverage_lost(const Builder& b, kernel::Caller c, const z3::expr& gfp, const z3::expr& order,
                       const z3::expr& ptr) {
    return kernel::coverage_loss<S>(b.e, b.v.concrete().claims(), c, need(b, c, gfp, order), gfp, ptr,
                                    b.c.bool_val(false), b.c.bool_val(false))
        .match_all_pointer;
}


// A user page once mapped: post_alloc_hook's block `allocated`, then
// set_pte_at()'s mte_sync_tags() for a VM_MTE vma (effects.hpp). Freeing
// cleared PG_mte_tagged, so after the allocation it is set only if
// post_alloc_hook cleared the tags (tag_clear_highpage(s)).
BlockState<S> mapped_user_page(const SymVariant& v, const SEnv& e, const PostAllocPlan<S>& plan,
                               const BlockState<S>& allocated, const z3::expr& vm_mte) {
    const z3::expr clears = v.mte_sync_tags_clears(e, kernel::pg_mte_tagged_after_alloc<S>(e, plan));
    return kernel::apply_effect<S>(kernel::mte_sync_tags_effect<S>(e, vm_mte, clears), allocated);
}


// A one-byte read at `off` of a slab object after `fx` (of `size` bytes):
// its granule's tag or Generic shadow (effects.hpp slab_granule_after) and
// whether the mode's check faults on it (Generic's shadow check, the
// variant's tag check).
// The offset and the granule's value are the query's witnesses.
ByteAccess object_byte_access(Builder& b, Query& q, const kernel::SlabAllocEffect<S>& fx, const z3::expr& size,
                              const z3::expr& off) {
    const z3::expr mem = kernel::slab_granule_after<S>(b.e, fx, size, b.e.granule_down(off));
    q.witnesses.push_back({"offset", off});
    q.witnesses.push_back({"granule tag / shadow", mem, Witness::hex});
    return {mem, read_faults(b, fx.ptr_tag, mem, off, b.c.bool_val(true))};
}


// 4 detection, out of bounds: a one-byte read past the rounded size, inside
// the object's slot (round_up(size, G) <= off < object_size), is caught: the
// kmalloc redzone KUnit's kmalloc_oob_right reads. What KASAN owes here is the
// retagging -- the granule no longer carries the pointer's tag (Generic: its
// shadow poisons the byte) -- as the model's oracle judges it; whether a
// check then faults on differing tags is mismatch-faults' question, and
// whether the mode checks at all (kasan=off, a match-all pointer) coverage's.
// `size` is what the caller asked for; `fx_size` the size the effect's
// granules are read with (slab_granule_after: Generic's partial granule).
z3::expr oob_missed(Builder& b, const kernel::SlabAllocEffect<S>& fx, const z3::expr& size, const z3::expr& fx_size,
                    const z3::expr& object_size, const z3::expr& off, Query& q) {
    q.assumptions.push_back(z3::ule(b.e.granule_up(size), off) && z3::ult(off, object_size));
    const ByteAccess a = object_byte_access(b, q, fx, fx_size, off);
    const z3::expr caught = z3::ite(b.e.generic, a.faults, oracle_mismatch(b.e, fx.ptr_tag, a.mem));
    return b.e.kasan_enabled && (b.e.generic || fx.ptr_tag != b.c.bv_val(KASAN_TAG_KERNEL, 64)) && !caught;
}


// The flags __vmalloc callers may pass: GFP_VMALLOC_SUPPORTED (what
// vmalloc_fix_flags() keeps from all ones). With a baseline, its callers
// exist whatever the patch does (a flag the patch drops from the list is
// still passed: that is what a review must see), in the invariants' queries
// too (b.callers); what the patch changes (changes/*) also counts the callers
// it makes valid.
z3::expr supported_flags(Builder& b, bool with_new_callers) {
    const z3::expr all = b.c.bv_val(~std::uint64_t(0), 64);
    const z3::expr mine = b.v.vmalloc_fix_flags(b.e, all).gfp;
    if (!b.base && b.callers) return b.callers->vmalloc_fix_flags(make_env(*b.callers, b.in), all).gfp;
    if (!b.base) return mine;
    const z3::expr theirs = b.base->vmalloc_fix_flags(*b.be, all).gfp;
    return with_new_callers ? (theirs | mine) : theirs;
}

}  // namespace tagproof::solver::ob
