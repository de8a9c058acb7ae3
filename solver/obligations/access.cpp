// obligations/access.cpp — match-all-never-faults and mismatch-faults (the tag check), and
// page allocation and free: no-false-positive, detection and page-tag-consistency.
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

}  // namespace tagproof::solver::ob
