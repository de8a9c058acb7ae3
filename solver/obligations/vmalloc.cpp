// obligations/vmalloc.cpp — __vmalloc, vmap stacks and aliases, vrealloc in place.
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

// ---- vmalloc: __vmalloc(size, gfp) with PAGE_KERNEL ----------------------------------------------
// vmalloc_fix_flags(), __vmalloc_node_range's plan, the first backing page's
// post_alloc_hook over a previous owner's block (page_alloc above, at order
// 0), then the area after kasan_unpoison_vmalloc: both from the one
// transition (effects.hpp), as the model applies them.

struct VmallocAlloc {
    z3::expr gfp;  // what the caller passed
    kernel::VmallocPlan<S> plan;
    kernel::VmallocUnpoison<S> un;
    PageAlloc page;
    kernel::AreaEffect<S> area;
};

// The area a caller of __vmalloc_node_range gets with `gfp` as it reaches
// there (after __vmalloc's vmalloc_fix_flags, or as kernel/fork.c passes it).
VmallocAlloc vmalloc_area(Builder& b, Query& q, const z3::expr& gfp, const z3::expr& node_gfp, bool prot_kernel = true) {
    const auto plan = b.v.vmalloc_node_range(b.e, node_gfp, b.c.bool_val(prot_kernel));
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

// exec: an executable area (module text, JIT images), from __vmalloc_node_range()
// called directly with a prot other than PAGE_KERNEL: no vmalloc_fix_flags()
VmallocAlloc vmalloc_alloc(Builder& b, Query& q, bool exec = false) {
    z3::expr gfp = b.word("gfp");
    VmallocAlloc v = exec ? vmalloc_area(b, q, gfp, gfp, false)
                          : vmalloc_area(b, q, gfp, b.v.vmalloc_fix_flags(b.e, gfp).gfp);
    q.entry = exec ? "__vmalloc_node_range(size, ..., gfp, prot other than PAGE_KERNEL): executable memory"
                   : "__vmalloc(size, gfp) (PAGE_KERNEL): the area its caller gets";
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

// 3 no-false-positive, executable memory: an area mapped with a prot other
// than PAGE_KERNEL (module text, JIT images: __vmalloc_node_range() called
// directly, no vmalloc_fix_flags) is handed out through a match-all pointer,
// its addresses becoming the PC (requirements.hpp match_all_required; the
// model's oracle reads the same coverage.hpp tagged_code_pointer).
Query no_false_positive_vmalloc_exec_query(Builder& b) {
    Query q(b.c);
    const VmallocAlloc v = vmalloc_alloc(b, q, true);
    q.violation = kernel::tagged_code_pointer<S>(need(b, kernel::Caller::vmalloc, v.gfp, b.c.bv_val(0, 64), false),
                                                 v.area.ptr_tag);
    q.scenario = [&b, v](const z3::model& m) {
        std::string s = header(b, m, "no-false-positive_vmalloc_exec", "executable memory from __vmalloc_node_range",
                               "pages=16 cpus=1");
        return s + "x = vmalloc_exec(100, " + gfp_text(b, m, v.gfp) + ")\nexpect violation no-false-positive\n";
    };
    return q;
}

// ---- vmap: an alias of pages the caller owns --------------------------------------------------
// 3 no-false-positive: vmap() / vm_map_ram() of a page allocation (PAGE_KERNEL,
// VM_MAP) calls kasan_unpoison_vmalloc with the variant's vmap_unpoison_plan;
// its effect is vmalloc_area_effect's over the owner's block: vmap()'s
// __get_vm_area_node() before the area is mapped, vm_map_ram() after. The
// unpoison itself may not fault (HW_TAGS tag stores over vmap()'s unmapped
// area), nor the alias's first access, nor the owner's own, through
// page_address() (the linear map, tagged): under HW_TAGS the MTE tags are
// the pages', but a retag through the alias's PAGE_KERNEL PTEs does not land
// (effects.hpp: tag stores land only through tagged PTEs).
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
    const z3::expr map_ram = b.c.bool_const("vm_map_ram");  // else vmap()
    q.prefer.push_back(!map_ram);  // vmap(), the path the kernel's own callers take most
    const auto area = kernel::vmalloc_area_effect<S>(b.e, plan, un, backing, T, map_ram);
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
    q.violation = area.unmapped_fault || alias_faults || owner_faults;
    q.witnesses.push_back({"the alias by vm_map_ram (mapped before its unpoison)", map_ram, Witness::boolean});
    q.witnesses.push_back({"the unpoison's tag stores fault (area not mapped yet)", area.unmapped_fault, Witness::boolean});
    q.witnesses.push_back({"alias pointer tag", area.ptr_tag, Witness::hex});
    q.witnesses.push_back({"alias memory tag", area.mem_tag, Witness::hex});
    q.witnesses.push_back({"alias PTEs tagged", area.tagged_mapping, Witness::boolean});
    q.witnesses.push_back({"kasan_unpoison_vmalloc retags", un.retag, Witness::boolean});
    q.witnesses.push_back({"owner's memory tag after", owner_mem, Witness::hex});
    q.scenario = [&b, a, map_ram](const z3::model& m) {
        std::string s = header(b, m, "no_false_positive_vmap", "a page allocation, its vmap alias, both read",
                               "pages=16 cpus=1");
        s += "g = alloc_pages(" + std::to_string(num(m, a.order)) + ", " + gfp_text(b, m, a.gfp) + ")\n";
        s += std::string("gp = page_address(g)\nv = ") + (truth(m, map_ram) ? "vm_map_ram" : "vmap") +
             "(g)\nread(v, 1)\nread(gp, 1)\nexpect violation no-false-positive\n";
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
    // rounded up to a whole block: block is a power of two (or 0 when the
    // shift passes 64 bits), so the round-up is a mask, as the kernel's ALIGN()
    // writes it. The same value as udiv(x, block) * block for every input
    // (both 0 for a block of 0), without a 64-bit divider and multiplier for
    // the solver to bit-blast: this query took 0.7 s of a 7.0-era variant's
    // 1.9 s of proofs, and 39 ms now (RoundUpMask.* holds the two equal).
    const z3::expr mapped = (used + block - one) & ~(block - one);
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

// 5 zeroing, a shrink then a grow in place: vrealloc()'s kernel-doc honours
// __GFP_ZERO when every call, from the allocation on, asked for it
// (requirements.hpp resize_asked_zero). An area whose owner wrote its
// `size` bytes is shrunk in place to s1 < size, then grown in place to s1 <
// s2 <= size: the byte at s1 held the owner's data, and reads zero
// afterwards only if the shrink zeroed the bytes it gave up (the variant's
// vrealloc_shrink_zeroes). The grow zeroes nothing: its KASAN call
// (vrealloc_in_place_effect) writes tags only, and vrealloc() itself relies on
// "unused memory will have already been zeroed".
Query zeroing_vrealloc_shrink_query(Builder& b) {
    Query q(b.c);
    if (no_vrealloc(b, q)) return q;
    auto& c = b.c;
    const z3::expr g0 = b.word("gfp"), g1 = b.word("gfp_shrink"), g2 = b.word("gfp_grow");
    const z3::expr size = b.word("size"), s1 = b.word("shrink_to"), s2 = b.word("grow_to");
    q.entry = "vmalloc(size, gfp), vrealloc(p, s1, gfp_shrink), vrealloc(p, s2, gfp_grow), in place (mm/vmalloc.c)";
    // GFP_KERNEL with or without __GFP_ZERO: the zeroing asked is the question,
    // and init_on_alloc=1 asks it of GFP_KERNEL too
    const z3::expr kernel = b.e.gfp.GFP_KERNEL, zero = b.e.gfp.GFP_KERNEL | b.e.gfp.ZERO;
    for (const z3::expr& g : {g0, g1, g2}) q.assumptions.push_back(g == kernel || g == zero);
    q.assumptions.push_back(z3::ule(c.bv_val(1, 64), s1) && z3::ult(s1, s2) && z3::ule(s2, size) &&
                            z3::ule(size, c.bv_val(8192, 64)));
    q.assumptions.push_back(kernel::resize_asked_zero<S>(b.e, g0) && kernel::resize_asked_zero<S>(b.e, g1) &&
                            kernel::resize_asked_zero<S>(b.e, g2));
    const z3::expr zeroed = b.v.vrealloc_shrink_zeroes(b.e, g1);
    q.violation = !zeroed;
    q.prefer.push_back(g0 == zero && g1 == zero && g2 == zero);
    q.prefer.push_back(size == c.bv_val(8192, 64) && s1 == c.bv_val(100, 64) && s2 == c.bv_val(200, 64));
    q.witnesses.push_back({"gfp of the allocation", g0, Witness::gfp});
    q.witnesses.push_back({"size", size});
    q.witnesses.push_back({"shrink to", s1});
    q.witnesses.push_back({"gfp of the shrink", g1, Witness::gfp});
    q.witnesses.push_back({"grow to", s2});
    q.witnesses.push_back({"gfp of the grow", g2, Witness::gfp});
    q.witnesses.push_back({"the shrink zeroed what it gave up", zeroed, Witness::boolean});
    q.scenario = [&b, g0, g1, g2, size, s1, s2](const z3::model& m) {
        const std::string n = std::to_string(num(m, size));
        std::string s = header(b, m, "zeroing_vrealloc_shrink", "an area shrunk, then grown, in place by vrealloc",
                               "pages=16 cpus=1");
        s += "v = vmalloc(" + n + ", " + gfp_text(b, m, g0) + ")\nwrite(v, " + n + ")\n";
        s += "v = vrealloc(v, " + std::to_string(num(m, s1)) + ", " + gfp_text(b, m, g1) + ")\n";
        s += "v = vrealloc(v, " + std::to_string(num(m, s2)) + ", " + gfp_text(b, m, g2) + ")\n";
        return s + "expect violation zeroing\n";
    };
    return q;
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

}  // namespace tagproof::solver::ob
