// check_ctx.hpp — the symbolic memory and premises shared by the §9 check
// statements (check_proofs.cpp) and the styles × properties grid
// (check_grid.cpp). Shadow and data memory are Z3 arrays indexed by bits
// 55..0 of an address (TBI), values masked to a byte; `mapped` is a third
// array, so loads of an unmapped shadow address show up as a fault and not as
// a spurious pass (tag-checks.md §8).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "checks/sw_checks.hpp"
#include "z3_domain.hpp"

namespace tagproof::solver::checkctx {

using S = Symbolic;
using kernel::checks::ShadowEra;
using Sh = kernel::checks::Shadow<S>;

struct SymMem {
    z3::expr sh, dt, mp;
    z3::expr shadow(const z3::expr& a) const { return z3::select(sh, a) & S::lit(0xFF); }
    z3::expr data(const z3::expr& a) const { return z3::select(dt, a) & S::lit(0xFF); }
    z3::expr mapped(const z3::expr& a) const { return z3::select(mp, a); }
};

struct Ctx {
    z3::context& c;
    SymMem mem;
    z3::expr p;
    std::vector<z3::expr> facts;
};

inline Ctx make_ctx(z3::context& c) {
    z3::sort bv = c.bv_sort(64);
    return Ctx{c,
               {c.constant("shadow", c.array_sort(bv, bv)), c.constant("data", c.array_sort(bv, bv)),
                c.constant("mapped", c.array_sort(bv, c.bool_sort()))},
               c.bv_const("p", 64),
               {}};
}

// a kernel pointer (bit 55 set) at or above the lowest address with metadata
inline z3::expr kern(Ctx& x, const ShadowEra& e) {
    return (x.p & S::lit(std::uint64_t(1) << 55)) != S::lit(0) && !S::ult(Sh::U(x.p), S::lit(e.mem_start));
}
inline z3::expr aligned(Ctx& x, unsigned k) { return (x.p & S::lit((1u << k) - 1)) == S::lit(0); }
// p + 2^k does not wrap (kasan_check_range's first test would report)
inline z3::expr nowrap(const z3::expr& a, unsigned k) { return !S::ult(a + S::lit(1u << k), a); }
// every shadow byte an access of 2^k bytes through a kernel pointer reads is mapped
inline z3::expr shadow_mapped(Ctx& x, const ShadowEra& e, unsigned k) {
    auto u = Sh::U(x.p);
    return x.mem.mapped(Sh::low56(Sh::inline_addr(e, x.p))) && x.mem.mapped(Sh::low56(Sh::outlined_addr(e, x.p))) &&
           x.mem.mapped(Sh::low56(Sh::kernel_addr(e, u))) &&
           x.mem.mapped(Sh::low56(Sh::kernel_addr(e, u + S::lit((1u << k) - 1))));
}

inline std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

}  // namespace tagproof::solver::checkctx
