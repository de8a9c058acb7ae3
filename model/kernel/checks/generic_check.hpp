// generic_check.hpp — how Generic KASAN decides, written once over the value
// domain: the runtime check of mm/kasan/generic.c (check_region_inline ->
// memory_is_poisoned_{1,2_4_8,16,n}, reached from __asan_loadN / __asan_storeN
// and kasan_check_range). The model's access event (model/spec/access.cpp)
// uses generic_granule_poisons for each 8-byte granule it walks; the solver
// (solver/check_grid.cpp) composes generic_check and proves it byte precise.
//
// The shadow byte s of an 8-byte granule, read as s8 (mm/kasan/kasan.h):
//   0        all 8 bytes accessible
//   1..7     the first s bytes accessible (a partial granule: kmalloc(13))
//   < 0      none accessible (redzone, freed object, page free: 0xFx / 0xFB...)
//   8..0x7F  never written by the kernel: accessible by the last-granule
//            test, poisoned by memory_is_nonzero (see below).
#pragma once
#include <cstdint>

namespace tagproof::kernel::checks {

inline constexpr unsigned KASAN_GRANULE_SIZE_GENERIC = 8;

// One granule of an access. The last granule the access touches poisons by
// memory_is_poisoned_1's test: a non-zero shadow byte, read as s8, that is
// negative or not above `last_off` (0..7, the offset of the last byte read in
// it). A granule the access runs past (`runs_past`) poisons iff its shadow
// byte is non-zero, memory_is_nonzero's test (which also catches the 8..0x7F
// values the kernel never writes).
template <class D>
typename D::Bool generic_granule_poisons(const typename D::Word& shadow, const typename D::Word& last_off,
                                         const typename D::Bool& runs_past) {
    auto s = shadow & D::lit(0xFF);
    auto negative = !D::ult(s, D::lit(0x80));
    return s != D::lit(0) && (runs_past || negative || !D::ult(last_off, s));
}

// check_region_inline(addr, n) for 1 <= n <= 16: the granules from
// shadow(addr) to shadow(addr + n - 1), at most three. `mem.shadow(a)` reads
// the shadow byte of the granule holding address a. A zero-size access and
// an access that wraps are the caller's (kasan_check_range tests them first).
template <class D, class Mem>
typename D::Bool generic_check(const Mem& mem, const typename D::Word& addr, const typename D::Word& n) {
    auto last = addr + n - D::lit(1);
    const auto mask = D::lit(KASAN_GRANULE_SIZE_GENERIC - 1);
    auto g0 = addr & ~mask, gl = last & ~mask;
    typename D::Bool bad = D::boolean(false);
    for (unsigned i = 0; i < 3; ++i) {
        auto g = g0 + D::lit(std::uint64_t(i) * KASAN_GRANULE_SIZE_GENERIC);
        // compared as offsets from g0: the granule after the top one wraps to 0
        auto in_range = !D::ult(gl - g0, D::lit(std::uint64_t(i) * KASAN_GRANULE_SIZE_GENERIC));
        bad = bad || (in_range && generic_granule_poisons<D>(mem.shadow(g), last & mask, g != gl));
    }
    return bad;
}

}  // namespace tagproof::kernel::checks
