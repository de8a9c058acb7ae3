// obligations.cpp — the invariants of DESIGN §4 as obligations per entry
// point. Each function builds one query over the variant's own rules
// (instantiated with the Z3 domain); the oracle side — what must hold — is
// stated here in its own words.
#include <cstdio>
#include <functional>
#include <set>

#include "checks/generic_check.hpp"
#include "coverage.hpp"
#include "effects.hpp"
#include "promises.hpp"
#include "error.hpp"
#include "layout.hpp"

#include "obligation.hpp"
#include "trace_bmc.hpp"

namespace tagproof::solver {

using kernel::BlockState;
using kernel::FreeInput;
using kernel::PostAllocPlan;
using kernel::TagCheckInput;
using S = Symbolic;

z3::expr Builder::tag(const std::string& name, std::vector<z3::expr>& domain) {
    z3::expr t = word(name);
    domain.push_back(z3::ule(t, c.bv_val(0xFF, 64)));
    return t;
}

// The oracle's notion of "the tags differ" (nibbles for MTE, bytes for SW_TAGS).
z3::expr oracle_mismatch(const SEnv& e, const z3::expr& ptr, const z3::expr& mem) {
    z3::context& c = ptr.ctx();
    auto f = c.bv_val(0xF, 64);
    return z3::ite(e.hw_tags, (ptr & f) != (mem & f), ptr != mem);
}

// The oracle's notion of "this access is checked": HW tags active, TCF on,
// a Normal-Tagged mapping, not a load under kasan.write_only; SW_TAGS always.
z3::expr oracle_checking(const SEnv& e, const TagCheckInput<S>& in) {
    return (e.kasan_hw_tags_enabled() && in.tcf_on && in.tagged_mapping && !(in.write_only && !in.is_write)) ||
           (e.sw_tags && e.kasan_enabled);
}

namespace {

std::uint64_t num(const z3::model& m, const z3::expr& e) { return m.eval(e, true).get_numeral_uint64(); }
bool truth(const z3::model& m, const z3::expr& e) { return m.eval(e, true).is_true(); }
std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

// The scenario header every counterexample starts with.
std::string header(const Builder& b, const z3::model& m, const std::string& name, const std::string& doc,
                   const std::string& extra_config = "") {
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

// A page allocation from a symbolic old state: the stored page tag and memory
// tag of whoever had the page before (arbitrary), a reachable sampling counter.
struct PageAlloc {
    z3::expr gfp, order, skip, T, P_old, M_old;
    PostAllocPlan<S> plan;
    z3::expr page_tag, mem, ptr;  // after the allocation; ptr = page_address()'s tag
    z3::expr zeroed;              // the data reads zero (tag_clear_data, integrated init, or kernel_init)
    z3::expr mte;  // the MTE allocation tag after it (mem in HW_TAGS; user space's store otherwise)
};

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

// ---- 1 match-all-never-faults, 2 mismatch-faults: the tag check ------------------------------------
Query access_query(Builder& b, bool match_all) {
    Query q(b.c);
    q.entry = "tag check of one granule (arm64 MTE / SW_TAGS compiler check)";
    TagCheckInput<S> in;
    in.tcf_on = b.c.bool_const("tcf_on");
    in.write_only = b.in.write_only;
    in.is_write = b.c.bool_const("is_write");
    in.tagged_mapping = b.c.bool_const("tagged_mapping");
    in.ptr_tag = b.tag("ptr_tag", q.assumptions);
    in.mem_tag = b.tag("mem_tag", q.assumptions);
    // kasan.write_only=on (an input: an era without it keeps it off) acts only with HW tags active
    in.write_only = in.write_only && b.e.kasan_hw_tags_enabled();
    z3::expr faults = b.v.granule_check_faults(b.e, in);
    if (match_all) {
        q.violation = in.ptr_tag == b.c.bv_val(0xFF, 64) && faults;
    } else {
        q.violation = oracle_checking(b.e, in) && in.ptr_tag != b.c.bv_val(0xFF, 64) && oracle_mismatch(b.e, in.ptr_tag, in.mem_tag) &&
                      !faults;
    }
    q.witnesses = {{"pointer tag", in.ptr_tag, Witness::hex}, {"memory tag", in.mem_tag, Witness::hex},
                   {"write", in.is_write, Witness::boolean}, {"write_only", in.write_only, Witness::boolean},
                   {"TCF on", in.tcf_on, Witness::boolean}, {"tagged mapping", in.tagged_mapping, Witness::boolean},
                   {"faults", faults, Witness::boolean}};
    q.scenario = [&b, in, match_all](const z3::model& m) {
        std::uint64_t ptr = num(m, in.ptr_tag), mem = num(m, in.mem_tag);
        bool w = truth(m, in.is_write);
        std::string inv = match_all ? "match-all-never-faults" : "mismatch-faults";
        std::string s = header(b, m, inv + "_access", "one access with the pointer and memory tags of the counterexample",
                               "cpus=1");
        s += "p = kmalloc(64)\nset_mem_tag(p, 16, " + hex(mem) + ")\nq = set_tag(p, " + hex(ptr) + ")\n";
        s += std::string(w ? "write" : "read") + "(q, 1)\nexpect violation " + inv + "\n";
        return s;
    };
    return q;
}

// ---- 3 no-false-positive, 6 page-tag-consistency (alloc side) -----------------------------------
Query alloc_pages_query(Builder& b, bool consistency) {
    Query q(b.c);
    q.entry = "alloc_pages(order, gfp) -> page_address()";
    z3::expr gfp = b.word("gfp");
    PageAlloc a = page_alloc(b, q, gfp);
    q.contracts = page_alloc_contracts(b.e, gfp, b.bits_mask);
    if (consistency) {
        q.violation = b.e.tag_based() && b.e.kasan_enabled && a.page_tag != b.c.bv_val(0xFF, 64) &&
                      oracle_mismatch(b.e, a.page_tag, a.mem);
    } else {
        TagCheckInput<S> in = plain_access(b, a.ptr, a.mem);
        q.violation = b.v.granule_check_faults(b.e, in);
    }
    std::string inv = consistency ? "page-tag-consistency" : "no-false-positive";
    q.scenario = [&b, a, inv](const z3::model& m) { return page_alloc_scenario(b, m, a, inv + "_alloc_pages", inv, false); };
    return q;
}

// ---- 4 detection, 6 page-tag-consistency (free side) ---------------------------------------------
Query free_pages_query(Builder& b, bool consistency) {
    Query q(b.c);
    q.entry = "alloc_pages(order, gfp), free_pages(), access through the old pointer";
    z3::expr gfp = b.word("gfp");
    PageAlloc a = page_alloc(b, q, gfp);
    q.contracts = page_alloc_contracts(b.e, gfp, b.bits_mask);
    FreeInput<S> fin;
    fin.page_tag = z3::ite(b.e.kasan_enabled && b.e.tag_based(), a.page_tag, b.c.bv_val(0xFF, 64));
    fin.pg_skip_kasan_poison = a.plan.set_skip_poison_flag;
    fin.fpi_skip_kasan_poison = S::boolean(false);
    auto f = b.v.free_pages_prepare(b.e, fin);
    q.witnesses.push_back({"PG_skip_kasan_poison", a.plan.set_skip_poison_flag, Witness::boolean});
    q.witnesses.push_back({"poisoned at free", f.poison, Witness::boolean});
    if (consistency) {
        // free-time skip matches alloc-time skip (HW tags active)
        z3::expr requested = S::any(gfp, b.e.gfp.SKIP_KASAN_POISON | b.e.gfp.SKIP_KASAN) || a.plan.sampled_out;
        z3::expr untagged = fin.page_tag == b.c.bv_val(0xFF, 64);
        q.violation = b.e.kasan_hw_tags_enabled() &&
                      ((requested && untagged && f.poison) || (!untagged && !f.poison));
    } else {
        // Detection is about policy: after the free, the tags KASAN assigned
        // differ from the old pointer's (whether the check then fires is
        // mismatch-faults' business).
        BlockState<S> held;
        held.page_tag = a.page_tag;
        held.mem_tag = a.mem;
        held.mte_tag = a.mte;
        held.data_zero = a.zeroed;
        const z3::expr mem_after = kernel::apply_effect<S>(kernel::free_pages_effect<S>(b.e, f), held).mem_tag;
        z3::expr detectable = z3::ite(b.e.generic, f.poison, oracle_mismatch(b.e, a.ptr, mem_after));
        q.violation = a.plan.unpoison && b.e.kasan_enabled && !detectable;
    }
    std::string inv = consistency ? "page-tag-consistency" : "detection";
    q.scenario = [&b, a, inv](const z3::model& m) {
        std::uint64_t order = num(m, a.order);
        std::string s = header(b, m, inv + "_free_pages", "alloc_pages, free_pages, then a read through the old pointer",
                               "pages=" + std::to_string(std::max<std::uint64_t>(64, (4ull << order) + 8)));
        s += "old = alloc_pages(" + std::to_string(order) + ", GFP_KERNEL)\nfree_pages(old)\n";
        s += "pg = alloc_pages(" + std::to_string(order) + ", " + gfp_text(b, m, a.gfp) + ")\n";
        s += "p = page_address(pg)\nfree_pages(pg)\nread(p, 1)\nexpect violation " + inv + "\n";
        return s;
    };
    return q;
}

// The caller's needs, symbolically: the table the oracle reads (requirements.hpp).
kernel::Requirement<S> need(const Builder& b, kernel::Caller c, const z3::expr& gfp, const z3::expr& order) {
    kernel::CallerInput<S> in;
    in.gfp = gfp;
    in.order = order;
    in.vm_mte = b.c.bool_val(false);
    in.prot_kernel = b.c.bool_val(true);
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

// A user page once mapped: post_alloc_hook's block `allocated`, then
// set_pte_at()'s mte_sync_tags() for a VM_MTE vma (effects.hpp). Freeing
// cleared PG_mte_tagged, so after the allocation it is set only if
// post_alloc_hook cleared the tags (tag_clear_highpage(s)).
BlockState<S> mapped_user_page(const SymVariant& v, const SEnv& e, const PostAllocPlan<S>& plan,
                               const BlockState<S>& allocated, const z3::expr& vm_mte) {
    const z3::expr clears = v.mte_sync_tags_clears(e, kernel::pg_mte_tagged_after_alloc<S>(e, plan));
    return kernel::apply_effect<S>(kernel::mte_sync_tags_effect<S>(e, vm_mte, clears), allocated);
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

// The kernel callers whose GFP constant is the code under review: what they
// pass (the variant's constant) against what they need (the table).
enum class Site { pgtable_kernel, pgtable_user, thread_info, skb, skb_frags };
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
            return {kernel::Caller::pgtable_kernel, b.v.GFP_PGTABLE_KERNEL(b.e), 0, "pt = pgtable_alloc(kernel)",
                    "GFP_PGTABLE_KERNEL"};
        case Site::pgtable_user:
            return {kernel::Caller::pgtable_user, b.v.GFP_PGTABLE_USER(b.e), 0, "pt = pgtable_alloc(user)",
                    "GFP_PGTABLE_USER"};
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

// ---- vmalloc: __vmalloc(size, gfp) with PAGE_KERNEL ----------------------------------------------
// vmalloc_fix_flags(), __vmalloc_node_range's plan, the first backing page's
// post_alloc_hook over a previous owner's block (page_alloc above, at order
// 0), then the area after kasan_unpoison_vmalloc: both from the one
// transition (effects.hpp), as the model applies them.
z3::expr supported_flags(Builder& b, bool with_new_callers);  // below, with mode-isolation's vmalloc

struct VmallocAlloc {
    z3::expr gfp;  // what the caller passed
    kernel::VmallocPlan<S> plan;
    kernel::VmallocUnpoison<S> un;
    PageAlloc page;
    kernel::AreaEffect<S> area;
};

// The area a caller of __vmalloc_node_range gets with `gfp` as it reaches
// there (after __vmalloc's vmalloc_fix_flags, or as kernel/fork.c passes it).
VmallocAlloc vmalloc_area(Builder& b, Query& q, const z3::expr& gfp, const z3::expr& node_gfp) {
    const auto plan = b.v.vmalloc_node_range(b.e, node_gfp, b.c.bool_val(true));
    const auto un = b.v.kasan_unpoison_vmalloc(b.e, plan);
    PageAlloc page = page_alloc(b, q, plan.page_gfp);
    q.assumptions.push_back(page.order == b.c.bv_val(0, 64));
    for (auto& w : q.witnesses)
        if (w.name == "gfp") w.name = "backing pages' gfp";
    BlockState<S> backing;
    backing.page_tag = page.page_tag;
    backing.mem_tag = page.mem;
    backing.mte_tag = page.mte;
    backing.data_zero = page.zeroed;
    const z3::expr T = b.tag("vmalloc_random_tag", q.assumptions);
    q.assumptions.push_back(z3::uge(T, b.v.random_tag_min(b.e)) && z3::ule(T, b.v.random_tag_max(b.e)));
    return VmallocAlloc{gfp, plan, un, page, kernel::vmalloc_area_effect<S>(b.e, plan, un, backing, T)};
}

VmallocAlloc vmalloc_alloc(Builder& b, Query& q) {
    z3::expr gfp = b.word("gfp");
    VmallocAlloc v = vmalloc_area(b, q, gfp, b.v.vmalloc_fix_flags(b.e, gfp).gfp);
    q.entry = "__vmalloc(size, gfp) (PAGE_KERNEL): the area its caller gets";
    q.contracts = vmalloc_contracts(b.e, gfp, b.bits_mask, supported_flags(b, false));
    // the caller's gfp is the one to show and to shrink, not the pages'
    q.minimise_bits = {gfp};
    q.prefer.insert(q.prefer.begin(), gfp == b.e.gfp.GFP_KERNEL);
    q.witnesses.insert(q.witnesses.begin(), {"caller's gfp", gfp, Witness::gfp});
    q.witnesses.push_back({"tagged mapping", v.area.tagged_mapping, Witness::boolean});
    q.witnesses.push_back({"kasan_unpoison_vmalloc retags", v.un.retag, Witness::boolean});
    q.witnesses.push_back({"area pointer tag", v.area.ptr_tag, Witness::hex});
    q.witnesses.push_back({"area memory tag", v.area.mem_tag, Witness::hex});
    return v;
}

// Replay: a previous owner's secret in the page the area gets, the area, a
// read of its first byte.
std::string vmalloc_scenario(const Builder& b, const z3::model& m, const VmallocAlloc& v, const std::string& inv) {
    std::string s = header(b, m, inv + "_vmalloc", "a freed owner's page, then __vmalloc(100, gfp) and a read",
                           "pages=16 cpus=1");
    s += "old = alloc_pages(0, GFP_KERNEL)\npo = page_address(old)\nwrite(po, 64)\nfree_pages(old)\n";
    s += "v = vmalloc(100, " + gfp_text(b, m, v.gfp) + ")\nread(v, 1)\nexpect violation " + inv + "\n";
    return s;
}

// 5 zeroing: memory the caller asked zero (vzalloc's __GFP_ZERO,
// init_on_alloc) reads zero, by the pages' own zeroing or KASAN's.
Query zeroing_vmalloc_query(Builder& b) {
    Query q(b.c);
    const VmallocAlloc v = vmalloc_alloc(b, q);
    q.witnesses.push_back({"area zeroed", v.area.data_zeroed, Witness::boolean});
    // with init_on_free the previous owner's data was zeroed when it was freed
    q.violation = !b.e.init_on_free && need(b, kernel::Caller::vmalloc, v.gfp, b.c.bv_val(0, 64)).zero_data &&
                  !v.area.data_zeroed;
    q.scenario = [&b, v](const z3::model& m) { return vmalloc_scenario(b, m, v, "zeroing"); };
    return q;
}

// 5 zeroing of a vmap stack: kernel/fork.c alloc_thread_stack_node() (CONFIG_VMAP_STACK)
// calls __vmalloc_node_range(THREAD_SIZE, ..., GFP_VMAP_STACK, PAGE_KERNEL, ...) for a
// fresh stack, with no vmalloc_fix_flags; a new task's stack must not show a
// previous task's frames (requirements: thread_stack). The per-CPU cache's
// reuse clears by hand (memset), which the families explorer enumerates.
Query zeroing_vmap_stack_query(Builder& b) {
    Query q(b.c);
    const z3::expr gfp = b.v.GFP_VMAP_STACK(b.e);
    const VmallocAlloc v = vmalloc_area(b, q, gfp, gfp);
    q.entry = "a fresh vmap stack (alloc_thread_stack_node: __vmalloc_node_range with GFP_VMAP_STACK)";
    q.witnesses.insert(q.witnesses.begin(), {"GFP_VMAP_STACK", gfp, Witness::gfp});
    q.witnesses.push_back({"area zeroed", v.area.data_zeroed, Witness::boolean});
    q.violation = !b.e.init_on_free && need(b, kernel::Caller::thread_stack, gfp, b.c.bv_val(0, 64)).zero_data &&
                  !v.area.data_zeroed;
    q.scenario = [&b](const z3::model& m) {
        std::string s = header(b, m, "zeroing_vmap_stack", "a freed owner's page, then a fresh vmap stack and a read",
                               "pages=16 cpus=1 vmap_stack=y");
        s += "old = alloc_pages(0, GFP_KERNEL)\npo = page_address(old)\nwrite(po, 64)\nfree_pages(old)\n";
        s += "s = stack_alloc()\nread(s, 8)\nexpect violation zeroing\n";
        return s;
    };
    return q;
}

// 4 detection, coverage: the area's pointer carries a random tag and (HW) its
// PTEs are MT_NORMAL_TAGGED, unless the table or the claims allow otherwise.
Query coverage_vmalloc_query(Builder& b) {
    Query q(b.c);
    const VmallocAlloc v = vmalloc_alloc(b, q);
    const auto loss = kernel::coverage_loss<S>(b.e, b.v.concrete().claims(), kernel::Caller::vmalloc,
                                               need(b, kernel::Caller::vmalloc, v.gfp, b.c.bv_val(0, 64)), v.gfp,
                                               v.area.ptr_tag, b.c.bool_val(true), v.area.tagged_mapping);
    q.violation = loss.match_all_pointer || loss.untagged_mapping;
    q.scenario = [&b, v](const z3::model& m) { return vmalloc_scenario(b, m, v, "detection"); };
    return q;
}

// 3 no-false-positive: the caller's first access through its own pointer
// passes the tag check (the tag-based modes' check, the variant's rule;
// Generic's shadow check is not a rule a variant changes).
Query no_false_positive_vmalloc_query(Builder& b) {
    Query q(b.c);
    const VmallocAlloc v = vmalloc_alloc(b, q);
    TagCheckInput<S> in = plain_access(b, v.area.ptr_tag, v.area.mem_tag);
    in.tagged_mapping = v.area.tagged_mapping;
    q.violation = b.v.granule_check_faults(b.e, in);
    q.scenario = [&b, v](const z3::model& m) { return vmalloc_scenario(b, m, v, "no-false-positive"); };
    return q;
}

// ---- vmap: an alias of pages the caller owns --------------------------------------------------
// 3 no-false-positive: vmap() / vm_map_ram() of a page allocation (PAGE_KERNEL,
// VM_MAP) calls kasan_unpoison_vmalloc with the variant's vmap_unpoison_plan;
// its effect is vmalloc_area_effect's over the owner's block. Neither the
// alias's first access nor the owner's own, through page_address() (the
// linear map, tagged), may fault: under HW_TAGS the MTE tags are the pages',
// so a retag of the alias retags the owner's memory.
Query no_false_positive_vmap_query(Builder& b) {
    Query q(b.c);
    q.entry = "vmap(pages, count, VM_MAP, PAGE_KERNEL) / vm_map_ram() of a page allocation the caller owns";
    const z3::expr gfp = b.word("gfp");
    const PageAlloc a = page_alloc(b, q, gfp);
    q.contracts = page_alloc_contracts(b.e, gfp, b.bits_mask);
    q.prefer.insert(q.prefer.begin(), a.order == b.c.bv_val(0, 64));
    BlockState<S> backing;
    backing.page_tag = a.page_tag;
    backing.mem_tag = a.mem;
    backing.mte_tag = a.mte;
    backing.data_zero = a.zeroed;
    const auto plan = b.v.vmap_unpoison_plan(b.e);
    const auto un = b.v.kasan_unpoison_vmalloc(b.e, plan);
    const z3::expr T = b.tag("vmap_random_tag", q.assumptions);
    q.assumptions.push_back(z3::uge(T, b.v.random_tag_min(b.e)) && z3::ule(T, b.v.random_tag_max(b.e)));
    const auto area = kernel::vmalloc_area_effect<S>(b.e, plan, un, backing, T);
    // the alias: its own tag against the area's first granule, checked where its PTEs are tagged
    const z3::expr alias_faults = read_faults(b, area.ptr_tag, area.mem_tag, b.c.bv_val(0, 64), area.tagged_mapping);
    // the owner: page_address()'s tag against the pages' MTE tags after the alias (HW_TAGS);
    // the shadow modes keep the linear map's shadow apart
    // (only what the alias changes: an owner's access that faulted before it
    // is no-false-positive/alloc_pages' finding)
    const z3::expr owner_mem = z3::ite(b.e.hw_tags, area.mem_tag, a.mem);
    const z3::expr owner_faults =
        !b.e.generic && b.v.granule_check_faults(b.e, plain_access(b, a.ptr, owner_mem)) &&
        !b.v.granule_check_faults(b.e, plain_access(b, a.ptr, a.mem));
    q.violation = alias_faults || owner_faults;
    q.witnesses.push_back({"alias pointer tag", area.ptr_tag, Witness::hex});
    q.witnesses.push_back({"alias memory tag", area.mem_tag, Witness::hex});
    q.witnesses.push_back({"alias PTEs tagged", area.tagged_mapping, Witness::boolean});
    q.witnesses.push_back({"kasan_unpoison_vmalloc retags", un.retag, Witness::boolean});
    q.witnesses.push_back({"owner's memory tag after", owner_mem, Witness::hex});
    q.scenario = [&b, a](const z3::model& m) {
        std::string s = header(b, m, "no_false_positive_vmap", "a page allocation, its vmap alias, both read",
                               "pages=16 cpus=1");
        s += "g = alloc_pages(" + std::to_string(num(m, a.order)) + ", " + gfp_text(b, m, a.gfp) + ")\n";
        s += "gp = page_address(g)\nv = vmap(g)\nread(v, 1)\nread(gp, 1)\nexpect violation no-false-positive\n";
        return s;
    };
    return q;
}

// ---- vrealloc grown in place, a huge area -----------------------------------------------------------
// 5 zeroing: vmalloc_huge(size, gfp) maps whole blocks of vm_shift()'s order;
// KASAN's INIT and init_vmalloc_pages() zero only the pages that hold the
// requested bytes (effects.hpp AreaEffect::data_zeroed), and vrealloc() to a
// size the area holds grows in place without zeroing ("unused memory will
// have already been zeroed"). The grown bytes past round_up(size, PAGE_SIZE)
// are zero only if the area's pages came zeroed from their post_alloc_hook.
// With __GFP_ZERO on the allocation and the call (vrealloc's rule), they must
// be. Shown in 6.12.118 under QEMU MTE (reports/kernel-vrealloc-huge-stale.md).
bool no_vrealloc(Builder& b, Query& q);

Query zeroing_vrealloc_huge_query(Builder& b) {
    Query q(b.c);
    if (no_vrealloc(b, q)) return q;
    const z3::expr gfp = b.word("gfp");
    const VmallocAlloc v = vmalloc_area(b, q, gfp, gfp);  // vmalloc_huge(): no vmalloc_fix_flags
    q.entry = "vmalloc_huge(size, gfp) then vrealloc() within the area, in place (mm/vmalloc.c)";
    q.contracts = vmalloc_contracts(b.e, gfp, b.bits_mask, supported_flags(b, false));
    q.minimise_bits = {gfp};
    q.prefer.insert(q.prefer.begin(), gfp == (b.e.gfp.GFP_KERNEL | b.e.gfp.ZERO));
    const z3::expr size = b.word("size");
    q.assumptions.push_back(z3::ugt(size, b.c.bv_val(0, 64)) && z3::ult(size, b.c.bv_val(std::uint64_t(1) << 40, 64)));
    q.prefer.push_back(size == b.c.bv_val(2167152, 64));  // 2 MiB + 70000, as the replay has it
    const z3::expr page = b.c.bv_val(4096, 64), one = b.c.bv_val(1, 64);
    const z3::expr used = z3::udiv(size + page - one, page);  // pages holding the requested bytes
    const z3::expr block = z3::shl(one, b.v.vmalloc_huge_order(b.e, size));
    const z3::expr mapped = z3::udiv(used + block - one, block) * block;
    q.witnesses.insert(q.witnesses.begin(), {"caller's gfp", gfp, Witness::gfp});
    q.witnesses.push_back({"requested size", size, Witness::number});
    q.witnesses.push_back({"pages mapped", mapped, Witness::number});
    q.witnesses.push_back({"area's pages came zeroed", v.page.zeroed, Witness::boolean});
    q.violation = !b.e.init_on_free && need(b, kernel::Caller::vmalloc, gfp, b.c.bv_val(0, 64)).zero_data &&
                  z3::ugt(mapped, used) && !v.page.zeroed;
    q.scenario = [&b, v](const z3::model& m) {
        std::string s = header(b, m, "zeroing_vrealloc_huge", "vmalloc_huge of 2 MiB + 70000, grown in place by 30000",
                               "pages=2048 cpus=1");
        const std::string g = gfp_text(b, m, v.gfp);
        s += "v = vmalloc_huge(2167152, " + g + ")\nv2 = vrealloc(v, 2197152, " + g + ")\nexpect violation zeroing\n";
        return s;
    };
    return q;
}

// ---- vrealloc in place ---------------------------------------------------------------------------
// A __vmalloc(old_size) area (vmalloc_alloc above) resized by vrealloc() to a
// size its pages hold, so it stays in place: the area's granules after the
// allocation (effects.hpp vmalloc_granule_after), then the variant's
// vrealloc_hooks and their effect (vrealloc_in_place_effect,
// vrealloc_granule_after). A one-byte read at `offset` through the pointer
// vrealloc returns (the area's own) is checked as vmalloc's first access is.
struct VreallocInPlace {
    VmallocAlloc v;
    z3::expr old_size, new_size, off;
    kernel::VreallocEffect<S> fx;
    z3::expr mem, faults;  // the read's granule after vrealloc, and whether the read faults
};

VreallocInPlace vrealloc_in_place(Builder& b, Query& q) {
    auto& c = b.c;
    VreallocInPlace r{vmalloc_alloc(b, q), b.word("old_size"), b.word("new_size"), b.word("offset"), {}, c.bool_val(false),
                      c.bool_val(false)};
    // The area as vmalloc() / vzalloc() made it: its KASAN state does not
    // depend on other flags (vmalloc takes no __GFP_SKIP_KASAN; what it drops
    // is vmalloc's obligations' question), so the flag space stays small and
    // the contracts' scopes one.
    q.assumptions.push_back(r.v.gfp == b.e.gfp.GFP_KERNEL || r.v.gfp == (b.e.gfp.GFP_KERNEL | b.e.gfp.ZERO));
    q.contracts.clear();
    const z3::expr T2 = b.tag("vrealloc_random_tag", q.assumptions);
    q.assumptions.push_back(z3::uge(T2, b.v.random_tag_min(b.e)) && z3::ule(T2, b.v.random_tag_max(b.e)));
    const z3::expr page = c.bv_val(4096, 64), pages_end = (r.old_size + page - c.bv_val(1, 64)) & ~(page - c.bv_val(1, 64));
    q.assumptions.push_back(z3::ule(c.bv_val(1, 64), r.old_size) && z3::ule(r.old_size, c.bv_val(8192, 64)) &&
                            z3::ule(c.bv_val(1, 64), r.new_size) && z3::ule(r.new_size, pages_end) &&
                            r.new_size != r.old_size);
    q.entry = "vrealloc(p, new_size, gfp) of a __vmalloc area, in place (mm/vmalloc.c, __kasan_vrealloc)";
    r.fx = kernel::vrealloc_in_place_effect<S>(b.e, b.v.vrealloc_hooks(b.e), r.old_size, r.new_size, r.v.area.ptr_tag,
                                               T2, r.v.area.tagged_mapping);
    const z3::expr granule = b.e.granule_down(r.off);
    const z3::expr before = kernel::vmalloc_granule_after<S>(b.e, r.v.un, r.v.area, r.old_size, granule);
    r.mem = kernel::vrealloc_granule_after<S>(b.e, r.fx, r.new_size, granule, before);
    r.faults = read_faults(b, r.v.area.ptr_tag, r.mem, r.off, r.v.area.tagged_mapping);
    q.witnesses.push_back({"old size", r.old_size});
    q.witnesses.push_back({"new size", r.new_size});
    q.witnesses.push_back({"offset", r.off});
    q.witnesses.push_back({"its granule before", before, Witness::hex});
    q.witnesses.push_back({"KASAN call writes", r.fx.written, Witness::boolean});
    q.witnesses.push_back({"KASAN call unaligned (WARN)", r.fx.called && !r.fx.aligned, Witness::boolean});
    q.witnesses.push_back({"its granule after", r.mem, Witness::hex});
    return r;
}

std::string vrealloc_scenario(const Builder& b, const z3::model& m, const VreallocInPlace& r, const std::string& inv) {
    std::string s = header(b, m, inv + "_vrealloc", "__vmalloc(old_size, gfp), vrealloc in place, a read",
                           "pages=16 cpus=1");
    s += "v = vmalloc(" + std::to_string(num(m, r.old_size)) + ", " + gfp_text(b, m, r.v.gfp) + ")\n";
    s += "v2 = vrealloc(v, " + std::to_string(num(m, r.new_size)) + ")\n";
    s += "read(v2 + " + std::to_string(num(m, r.off)) + ", 1)\nexpect violation " + inv + "\n";
    return s;
}

bool no_vrealloc(Builder& b, Query& q) {
    if (b.v.concrete().features().vrealloc) return false;
    q.applicable = false;
    q.why_not = "vrealloc() does not exist in this era (v6.12+)";
    return true;
}

// 3 no-false-positive: after growing or shrinking in place, a read below the
// new size through the returned pointer never faults (the grow's false
// positive syzbot found in v6.15 .. v6.18).
Query no_false_positive_vrealloc_query(Builder& b) {
    Query q(b.c);
    if (no_vrealloc(b, q)) return q;
    const VreallocInPlace r = vrealloc_in_place(b, q);
    q.assumptions.push_back(z3::ult(r.off, r.new_size));
    q.violation = r.faults;
    q.prefer.push_back(r.old_size == b.c.bv_val(1024, 64) && r.new_size == b.c.bv_val(1500, 64));
    q.scenario = [&b, r](const z3::model& m) { return vrealloc_scenario(b, m, r, "no-false-positive"); };
    return q;
}

// 4 detection: after shrinking in place, a read in the granules given up
// (round_up(new, G) <= off < old) faults wherever the area's redzone was
// poisoned at allocation (HW: retagged with a tagged pointer; the shadow
// modes: a populated shadow): what was out of bounds before stays so.
Query detection_vrealloc_query(Builder& b) {
    Query q(b.c);
    if (no_vrealloc(b, q)) return q;
    const VreallocInPlace r = vrealloc_in_place(b, q);
    const z3::expr gone = b.e.granule_up(r.new_size);
    q.assumptions.push_back(z3::ult(r.new_size, r.old_size) && z3::ule(gone, r.off) && z3::ult(r.off, r.old_size));
    const z3::expr checked =
        b.e.kasan_enabled &&
        z3::ite(b.e.hw_tags,
                r.v.area.redzone_poisoned && r.v.area.tagged_mapping && r.v.area.ptr_tag != b.c.bv_val(KASAN_TAG_KERNEL, 64),
                b.e.config_kasan_vmalloc);
    // KASAN's part is the retagging (oob_missed below says why): the granule no
    // longer carries the pointer's tag, or Generic's shadow poisons the byte
    const z3::expr caught = z3::ite(b.e.generic, r.faults, oracle_mismatch(b.e, r.v.area.ptr_tag, r.mem));
    q.violation = checked && !caught;
    q.prefer.push_back(r.old_size == b.c.bv_val(2048, 64) && r.new_size == b.c.bv_val(1024, 64));
    q.scenario = [&b, r](const z3::model& m) { return vrealloc_scenario(b, m, r, "detection"); };
    return q;
}

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
    k.fx = kernel::slab_alloc_effect<S>(b.e, b.v.slab_tag_per_alloc(b.e, no_ctor), k.T, S::lit(KASAN_TAG_KERNEL), init,
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

// A one-byte read at `off` of a slab object after `fx` (of `size` bytes):
// its granule's tag or Generic shadow (effects.hpp slab_granule_after) and
// whether the mode's check faults on it (Generic's shadow check, the
// variant's tag check).
// The offset and the granule's value are the query's witnesses.
struct ByteAccess {
    z3::expr mem, faults;
};
ByteAccess object_byte_access(Builder& b, Query& q, const kernel::SlabAllocEffect<S>& fx, const z3::expr& size,
                              const z3::expr& off) {
    const z3::expr mem = kernel::slab_granule_after<S>(b.e, fx, size, b.e.granule_down(off));
    q.witnesses.push_back({"offset", off});
    q.witnesses.push_back({"granule tag / shadow", mem, Witness::hex});
    return {mem, read_faults(b, fx.ptr_tag, mem, off, b.c.bool_val(true))};
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
    const auto fx = kernel::krealloc_in_place_effect<S>(b.e, k.fx.ptr_tag, b.c.bool_val(false),
                                                        b.v.kmalloc_redzone_start(b.e, new_size));
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
    for (unsigned i = 0; i < b.depth; ++i) {
        auto d = b.v.kasan_sample_page_alloc(b.e, el.order, el.gfp, skip);
        // i mod N == 0 for the constant i: N is one of i's divisors (N = 0, if
        // the domain allowed it, gives i mod 0 = i in SMT-LIB, as here). A
        // 64-bit divider per step made this the slowest query of a variant.
        z3::expr expect = b.c.bool_val(i == 0);
        for (unsigned d = 1; d <= i; ++d)
            if (i % d == 0) expect = expect || b.e.sample == b.c.bv_val(d, 64);
        bad = bad || (d.tag != expect);
        skip = d.skip_next;
    }
    q.violation = b.e.kasan_hw_tags_enabled() && bad;
    q.witnesses = {{"kasan.page_alloc.sample", b.in.sample}, {"order", el.order}};
    unsigned depth = b.depth;
    q.scenario = [&b, el, depth](const z3::model& m) { return sampling_scenario(b, m, el.order, depth); };
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

z3::expr any_differs(z3::context& c, const Query& q) {
    z3::expr d = c.bool_val(false);
    for (const auto& [n, ab] : q.fields) d = d || (ab.first != ab.second);
    return d;
}

// The build and runtime states compared: where the variant claims no change
// (each state its own obligation, so a verdict names it), or where it does.
enum class Region { none, generic, sw_tags, hw_inactive, hw_active };
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

enum class Entry { alloc_pages, free_pages, vmalloc, vmap_stack, cached_stack, pgtable_kernel, pgtable_user, thread_info, user_page, skb,
                   skb_fallback, skb_frags, kfence, gfp_layout, slab, mempool };

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
                           std::string(en == Entry::skb_fallback ? "pages=7 " : "") + "cpus=1 vmap_stack=" +
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
        case Entry::skb_frags: s += "sk = alloc_skb_with_frags(32768, 3)\nf0 = skb_frag_page(sk, 0)\n"; break;
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
            z3::expr ga = user ? b.v.GFP_PGTABLE_USER(b.e) : b.v.GFP_PGTABLE_KERNEL(b.e);
            z3::expr gb = user ? B.GFP_PGTABLE_USER(*b.be) : B.GFP_PGTABLE_KERNEL(*b.be);
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
                return kernel::slab_alloc_effect<S>(e, V.slab_tag_per_alloc(e, rcu), T, slot, init,
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
        case Entry::skb_frags:
            plan_fields(q, "skb frag (order 3)", b.e,
                        b.v.post_alloc_hook(b.e, b.v.alloc_skb_frags_gfp(b.e, b.e.gfp.GFP_KERNEL), b.c.bv_val(3, 64), skip),
                        *b.be,
                        B.post_alloc_hook(*b.be, B.alloc_skb_frags_gfp(*b.be, b.be->gfp.GFP_KERNEL), b.c.bv_val(3, 64), skip));
            break;
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

std::vector<Obligation> build_list() {
    std::vector<Obligation> v = {
        {"match-all-never-faults/access", "match-all-never-faults",
         "an access through a pointer with tag 0xFF never faults", false, false,
         [](Builder& b) { return access_query(b, true); }},
        {"mismatch-faults/access", "mismatch-faults",
         "with checking on, a pointer tag that differs from the memory tag faults", false, false,
         [](Builder& b) { return access_query(b, false); }},
        {"no-false-positive/alloc_pages", "no-false-positive",
         "an access through page_address() of a fresh allocation never faults", false, false,
         [](Builder& b) { return alloc_pages_query(b, false); }},
        {"detection/free_pages", "detection",
         "a use-after-free of a tagged page through its old pointer is detected", false, false,
         [](Builder& b) { return free_pages_query(b, false); }},
        {"zeroing/alloc_pages", "zeroing",
         "memory promised zero by __GFP_ZERO or init_on_alloc is zeroed", false, false,
         [](Builder& b) { return zeroing_query(b); }},
        {"detection/coverage/alloc_pages", "detection",
         "page_address() of an allocation carries a random tag unless the caller may have match-all", false, false,
         [](Builder& b) { return coverage_alloc_pages_query(b); }},
        {"zeroing/huge_zero_folio", "zeroing",
         "the huge zero folio, mapped into PROT_MTE vmas as is, has zero tags", false, false,
         [](Builder& b) { return huge_zero_query(b); }},
        {"zeroing/user_page_mte", "zeroing",
         "a user page mapped PROT_MTE has zero tags in every KASAN mode (ZEROTAGS or mte_sync_tags)", false, false,
         [](Builder& b) { return user_page_mte_query(b); }},
        {"page-tag-consistency/alloc_pages", "page-tag-consistency",
         "after allocation the page tag is match-all or equals the memory tag", false, false,
         [](Builder& b) { return alloc_pages_query(b, true); }},
        {"page-tag-consistency/free_pages", "page-tag-consistency",
         "free-time poisoning matches the allocation: skipped iff tagging was skipped", false, false,
         [](Builder& b) { return free_pages_query(b, true); }},
        {"zeroing/vmalloc", "zeroing", "an area __vmalloc's caller asks zeroed (__GFP_ZERO, init_on_alloc) reads zero",
         false, false, [](Builder& b) { return zeroing_vmalloc_query(b); }},
        {"zeroing/vmap_stack", "zeroing", "a fresh vmap stack reads zero, whatever GFP_VMAP_STACK asks for", false,
         false, [](Builder& b) { return zeroing_vmap_stack_query(b); }},
        {"detection/coverage/vmalloc", "detection",
         "a PAGE_KERNEL vmalloc area is tagged and (HW) mapped MT_NORMAL_TAGGED unless match-all is allowed or claimed",
         false, false, [](Builder& b) { return coverage_vmalloc_query(b); }},
        {"no-false-positive/vmalloc", "no-false-positive",
         "an access through __vmalloc's pointer to its own area never faults", false, false,
         [](Builder& b) { return no_false_positive_vmalloc_query(b); }},
        {"zeroing/kmalloc", "zeroing", "a kmalloc object its caller asks zeroed (__GFP_ZERO, init_on_alloc) reads zero",
         false, false, [](Builder& b) { return zeroing_kmalloc_query(b); }},
        {"detection/coverage/kmalloc", "detection",
         "kmalloc's pointer carries a random tag unless the caller may have match-all", false, false,
         [](Builder& b) { return coverage_kmalloc_query(b); }},
        {"no-false-positive/kmalloc", "no-false-positive",
         "an access through kmalloc's pointer below the size it asked for never faults", false, false,
         [](Builder& b) { return no_false_positive_kmalloc_query(b); }},
        {"no-false-positive/krealloc", "no-false-positive",
         "after krealloc in place, an access below the new size through the same pointer never faults", false, false,
         [](Builder& b) { return no_false_positive_krealloc_query(b); }},
        {"no-false-positive/vmap", "no-false-positive",
         "neither a vmap alias's first access nor the page owner's own through page_address() faults", false, false,
         [](Builder& b) { return no_false_positive_vmap_query(b); }},
        {"zeroing/skb_with_frags", "zeroing",
         "alloc_skb_with_frags' frags are zeroed where its caller asks (__GFP_ZERO, init_on_alloc)", false, false,
         [](Builder& b) { return zeroing_skb_with_frags_query(b); }},
        {"detection/oob/kmalloc", "detection",
         "a read past kmalloc's rounded size, inside the object's slot, faults (kmalloc_oob_right)", false, false,
         [](Builder& b) { return detection_oob_kmalloc_query(b); }},
        {"no-false-positive/mempool", "no-false-positive",
         "an access below the size of a mempool element taken from the reserve never faults", false, false,
         [](Builder& b) { return no_false_positive_mempool_query(b); }},
        {"no-false-positive/mempool_page", "no-false-positive",
         "a page mempool's element handed out again from the reserve is accessible through page_address()", false,
         false, [](Builder& b) { return no_false_positive_mempool_page_query(b); }},
        {"page-tag-consistency/mempool_page", "page-tag-consistency",
         "a page mempool's element handed out again carries its memory's tag in page_address()", false, false,
         [](Builder& b) { return page_tag_mempool_page_query(b); }},
        {"detection/oob/mempool", "detection",
         "a read past a kmalloc mempool element's rounded size, inside its slot, faults (mempool_kmalloc_oob_right)",
         false, false, [](Builder& b) { return detection_oob_mempool_query(b); }},
        {"no-false-positive/vrealloc", "no-false-positive",
         "after vrealloc in place, a read below the new size through the returned pointer never faults", false, false,
         [](Builder& b) { return no_false_positive_vrealloc_query(b); }},
        {"zeroing/vrealloc_huge", "zeroing",
         "bytes vrealloc() grows a huge vmalloc area by in place read zero when every call asked __GFP_ZERO", false,
         false, [](Builder& b) { return zeroing_vrealloc_huge_query(b); }},
        {"detection/vrealloc", "detection",
         "after vrealloc shrinks in place, a read of the bytes given up faults wherever the area's redzone was poisoned",
         false, false, [](Builder& b) { return detection_vrealloc_query(b); }},
        {"detection/kmem_cache_free", "detection",
         "a freed slab object is poisoned once no reader may use it, wherever KASAN promises to catch its use",
         false, false, [](Builder& b) { return detection_slab_free_query(b); }},
        {"no-false-positive/kmem_cache_free", "no-false-positive",
         "a SLAB_TYPESAFE_BY_RCU object stays readable until the grace period ends", false, false,
         [](Builder& b) { return no_false_positive_slab_free_query(b); }},
        {"no-false-positive/cached_stack", "no-false-positive",
         "a stack reused from the per-CPU cache is accessible to its new task, whatever the old one left", false,
         false, [](Builder& b) { return no_false_positive_cached_stack_query(b); }},
        {"tag-range/random_tag", "tag-range", "random tags lie in 0xF0..0xFD (HW) / 0x00..0xFD (SW)", false, false,
         [](Builder& b) { return tag_range_query(b); }},
        {"sampling-accounting/bmc", "sampling-accounting",
         "of k eligible allocations on a CPU exactly the 1st, (N+1)th, ... are tagged", false, false,
         [](Builder& b) { return sampling_bmc_query(b); }},
        {"sampling-accounting/induction", "sampling-accounting",
         "the per-CPU counter stays in [0, N-1] and tags exactly when it is 0", false, false,
         [](Builder& b) { return sampling_induction_query(b); }},
        {"gfp-encoding/layout", "gfp-encoding", "every GFP bit lies inside __GFP_BITS_MASK, none shared", false, false,
         [](Builder& b) { return gfp_encoding_query(b); }},
    };
    for (Region rg : {Region::none, Region::generic, Region::sw_tags, Region::hw_inactive})
        for (Entry en : {Entry::alloc_pages, Entry::free_pages, Entry::vmalloc, Entry::vmap_stack, Entry::cached_stack,
                         Entry::pgtable_kernel, Entry::pgtable_user, Entry::thread_info, Entry::user_page, Entry::skb,
                         Entry::skb_fallback, Entry::skb_frags, Entry::kfence, Entry::gfp_layout, Entry::slab, Entry::mempool}) {
            v.push_back({std::string("mode-isolation/") + region_name(rg) + "/" + entry_name(en), "mode-isolation",
                         std::string("in the state ") + region_name(rg) +
                             " the entry point behaves exactly as under the baseline",
                         true, false, [en, rg](Builder& b) { return isolation_query(b, en, rg); }});
        }
    for (Site s : {Site::pgtable_kernel, Site::pgtable_user, Site::thread_info, Site::skb, Site::skb_frags}) {
        if (s != Site::skb && s != Site::skb_frags)
            v.push_back({std::string("zeroing/") + site_name(s), "zeroing",
                         "what the caller needs zeroed is zeroed, whatever its GFP constant asks for", false, false,
                         [s](Builder& b) { return zeroing_site_query(b, s); }});
        if (s != Site::thread_info)  // tsk->stack is match-all by design
            v.push_back({std::string("detection/coverage/") + site_name(s), "detection",
                         "the caller's pointer carries a random tag unless match-all is allowed or claimed", false,
                         false, [s](Builder& b) { return coverage_site_query(b, s); }});
    }
    for (const char* inv : {"match-all-never-faults", "mismatch-faults", "no-false-positive", "detection", "zeroing",
                            "page-tag-consistency"})
        v.push_back({std::string(inv) + "/trace", inv,
                     "no sequence of page allocations, frees and accesses on 2 pages and 2 CPUs breaks it", false,
                     false, [inv](Builder& b) { return trace_query(b, inv); }});
    const char* internal[] = {"call", "prot_normal", "metadata_gfp", "page_gfp"};
    for (int i = 0; i < 4; ++i)
        v.push_back({std::string("internals/vmalloc.") + internal[i], "mode-isolation",
                     "an intermediate value of __vmalloc_node_range (not an outcome) that differs from the baseline",
                     true, true, [i](Builder& b) { return vmalloc_internals_query(b, i); }});
    // every entry point mode-isolation has, free_pages and the per-CPU stack cache too
    for (Entry en : {Entry::alloc_pages, Entry::free_pages, Entry::vmalloc, Entry::vmap_stack, Entry::cached_stack,
                     Entry::pgtable_kernel, Entry::pgtable_user, Entry::thread_info, Entry::user_page, Entry::skb,
                     Entry::skb_fallback, Entry::skb_frags, Entry::kfence, Entry::gfp_layout, Entry::slab, Entry::mempool}) {
        v.push_back({std::string("changes/") + entry_name(en), "mode-isolation",
                     "with HW_TAGS active: what the entry point does differently from the baseline", true, true,
                     [en](Builder& b) { return isolation_query(b, en, Region::hw_active); }});
    }
    return v;
}

}  // namespace

const std::vector<Obligation>& all_obligations() {
    static const std::vector<Obligation> list = build_list();
    return list;
}

}  // namespace tagproof::solver
