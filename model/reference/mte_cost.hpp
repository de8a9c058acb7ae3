// mte_cost.hpp — the instructions mte_set_mem_tag_range() (arm64
// asm/mte-kasan.h, since v5.14) issues for one range, counted in closed form
// so the reference can charge millions of calls. The kernel:
//   - reads the DC G(Z)VA block size from DCZID_EL0 (4 << BS bytes; DZP set
//     means DC G(Z)VA is prohibited);
//   - if DZP is clear and the range is at least two blocks: STG (STZG when
//     init) granule by granule up to the end of the first block, even when
//     the start is block aligned; then one DC GVA (GZVA) per whole block up
//     to the last block boundary;
//   - STG (STZG) for whatever is left.
// Addresses and sizes are MTE_GRANULE_SIZE multiples, size > 0 (the caller's
// contract there).
#pragma once
#include <cstdint>

namespace tagproof::reference {

struct TagRangeCost {
    std::uint64_t stg = 0;     // STG, or STZG with init
    std::uint64_t dc_gva = 0;  // DC GVA, or DC GZVA with init
    std::uint64_t granules = 0;
};

// DCZID_EL0 as a parameter: BS in bits 3:0, DZP in bit 4 (BS = 4: 64 bytes).
inline TagRangeCost mte_set_mem_tag_range_cost(std::uint64_t addr, std::uint64_t size, std::uint64_t dczid = 4) {
    constexpr std::uint64_t G = 16;
    const unsigned bs_shift = 2 + unsigned(dczid & 0xF);  // bs a power of two: shifts, not divisions
    const std::uint64_t bs = std::uint64_t(1) << bs_shift;
    const bool dzp = (dczid >> 4) & 1;
    TagRangeCost c;
    c.granules = size / G;
    if (dzp || size < 2 * bs) {
        c.stg = size / G;
        return c;
    }
    const std::uint64_t mask = bs - 1;
    const std::uint64_t end3 = addr + size, end2 = end3 & ~mask;
    // the STG loop runs at least once and stops at the first block boundary after addr
    const std::uint64_t first_boundary = (addr | mask) + 1;
    // the DC loop runs at least once; size >= 2 blocks puts end2 past first_boundary
    c.dc_gva = (end2 - first_boundary) >> bs_shift;
    c.stg = (first_boundary - addr) / G + (end3 - end2) / G;
    return c;
}

}  // namespace tagproof::reference
