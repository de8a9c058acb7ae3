// contracts.cpp — see contracts.hpp. Each contract cites its source.
#include "contracts.hpp"

namespace tagproof::solver {

namespace {
z3::expr has(const z3::expr& gfp, const z3::expr& mask) { return Symbolic::any(gfp, mask); }
}  // namespace

std::vector<Contract> page_alloc_contracts(const SEnv& e, const z3::expr& gfp, const z3::expr& bits_mask) {
    const auto& g = e.gfp;
    z3::context& c = gfp.ctx();
    return {
        {"gfp-in-mask", "callers pass only bits inside __GFP_BITS_MASK (include/linux/gfp_types.h)",
         (gfp & ~bits_mask) == c.bv_val(0, 64)},
        {"skip-zero-only-from-vmalloc",
         "__GFP_SKIP_ZERO is added by __vmalloc_node_range for its own pages, which it then zeroes "
         "through kasan_unpoison_vmalloc(KASAN_VMALLOC_INIT); no other caller passes it",
         !has(gfp, g.SKIP_ZERO)},
        {"skip-poison-with-skip-unpoison",
         "v6.0..v6.3: __GFP_SKIP_KASAN_POISON is passed only with __GFP_SKIP_KASAN_UNPOISON "
         "(GFP_HIGHUSER_MOVABLE): a page that was tagged is always poisoned at free",
         z3::implies(has(gfp, g.SKIP_KASAN_POISON), has(gfp, g.SKIP_KASAN_UNPOISON))},
        {"zerotags-for-user-mte-pages",
         "__GFP_ZEROTAGS comes only from vma_alloc_zeroed_movable_folio for VM_MTE vmas and the huge zero "
         "folio: with __GFP_ZERO and GFP_HIGHUSER_MOVABLE's skip bits, on a CPU with MTE (arch/arm64/mm/fault.c)",
         z3::implies(has(gfp, g.ZEROTAGS),
                     has(gfp, g.ZERO) && e.mte &&
                         ((gfp & (g.SKIP_KASAN | g.SKIP_KASAN_UNPOISON)) ==
                          (g.GFP_HIGHUSER_MOVABLE & (g.SKIP_KASAN | g.SKIP_KASAN_UNPOISON))))},
    };
}

std::vector<Contract> vmalloc_contracts(const SEnv& e, const z3::expr& gfp, const z3::expr& bits_mask,
                                        const z3::expr& supported) {
    const auto& g = e.gfp;
    z3::context& c = gfp.ctx();
    return {
        {"gfp-in-mask", "callers pass only bits inside __GFP_BITS_MASK", (gfp & ~bits_mask) == c.bv_val(0, 64)},
        {"vmalloc-no-skip-zero-or-zerotags",
         "vmalloc callers never pass __GFP_SKIP_ZERO or __GFP_ZEROTAGS (vmalloc adds SKIP_ZERO itself)",
         !has(gfp, g.SKIP_ZERO) && !has(gfp, g.ZEROTAGS)},
        {"vmalloc-supported-flags",
         "__vmalloc callers pass only flags GFP_VMALLOC_SUPPORTED lists (mm/vmalloc.c vmalloc_fix_flags)",
         (gfp & ~supported) == c.bv_val(0, 64)},
    };
}

z3::expr all_hold(z3::context& c, const std::vector<Contract>& cs) {
    z3::expr r = c.bool_val(true);
    for (const auto& k : cs) r = r && k.holds;
    return r;
}

}  // namespace tagproof::solver
