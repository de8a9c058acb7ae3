// granule_of_byte_test.cpp — the check grid's Generic ground truth
// (solver/check_grid.cpp generic_bad) reads byte p + i's shadow through
// granule g0 + 8 * j, g0 = p & ~7, j = ((p & 7) + i) >> 3, one of three:
// Z3 holds that granule equal to (p + i) & ~7, the granule the byte is in,
// for every 64-bit p (wrapping included) and every i an access of at most 16
// bytes reads, and j at most 2.
#include <gtest/gtest.h>
#include <z3++.h>

#include <functional>

namespace {

using GranuleOf = std::function<z3::expr(const z3::expr& p, unsigned i)>;

// The first byte offset i (0..15) at which `granule` differs from (p + i) & ~7
// for some p or picks past the third granule, or -1 when none does.
int first_difference(const GranuleOf& granule) {
    for (unsigned i = 0; i < 16; ++i) {
        z3::context c;
        const z3::expr p = c.bv_const("p", 64), seven = c.bv_val(7, 64);
        const z3::expr j = z3::lshr((p & seven) + c.bv_val(i, 64), c.bv_val(3, 64));
        z3::solver s(c);
        s.add(granule(p, i) != ((p + c.bv_val(i, 64)) & ~seven) || z3::ugt(j, c.bv_val(2, 64)));
        if (s.check() != z3::unsat) return int(i);
    }
    return -1;
}

TEST(GranuleOfByte, ThreeGranulesHoldEveryByteOfA16ByteAccess) {
    EXPECT_EQ(first_difference([](const z3::expr& p, unsigned i) {
                  z3::context& c = p.ctx();
                  const z3::expr seven = c.bv_val(7, 64);
                  const z3::expr j = z3::lshr((p & seven) + c.bv_val(i, 64), c.bv_val(3, 64));
                  return (p & ~seven) + c.bv_val(8, 64) * j;
              }),
              -1);
}

// The control: the granule without the carry from p's offset (i >> 3 alone)
// is told apart at i = 1 (p = 7: byte 8 is in the next granule)
TEST(GranuleOfByte, AGranuleWithoutTheCarryIsToldApart) {
    EXPECT_EQ(first_difference([](const z3::expr& p, unsigned i) {
                  z3::context& c = p.ctx();
                  return (p & ~c.bv_val(7, 64)) + c.bv_val(8 * (i >> 3), 64);
              }),
              1);
}

}  // namespace
