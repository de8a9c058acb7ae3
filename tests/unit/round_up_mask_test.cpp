// round_up_mask_test.cpp — zeroing/vrealloc_huge rounds a page count up to a
// whole block with a mask (solver/obligations/vmalloc.cpp), where it divided
// and multiplied: Z3 holds the two equal for every 64-bit value and every
// shift. A block is shl(1, k): 1 << k for k < 64, 0 for any larger k (so k =
// 65 stands for all of those). One symbolic k makes Z3 bit-blast a 64-bit
// divider and multiplier (13 s with the z3 binary); a constant k lets its
// simplifier turn both into shifts.
#include <gtest/gtest.h>
#include <z3++.h>

#include <functional>

namespace {

using Rounding = std::function<z3::expr(const z3::expr& x, const z3::expr& block)>;

// The first k (0..65) at which `round` differs from udiv(x, block) * block for
// some x, or -1 when it never does.
int first_difference(const Rounding& round) {
    for (unsigned k = 0; k <= 65; ++k) {
        z3::context c;
        const z3::expr x = c.bv_const("x", 64);
        const z3::expr block = z3::shl(c.bv_val(1, 64), c.bv_val(k, 64));
        z3::solver s(c);
        s.add(z3::udiv(x, block) * block != round(x, block));
        if (s.check() != z3::unsat) return int(k);
    }
    return -1;
}

TEST(RoundUpMask, IsTheDivisionTimesTheBlockForEveryValueAndShift) {
    EXPECT_EQ(first_difference([](const z3::expr& x, const z3::expr& block) {
                  return x & ~(block - x.ctx().bv_val(1, 64));
              }),
              -1);
}

// The control: a mask that also clears the block's own bit is told apart (at
// k = 0 already: the block is 1, and x = 1 would round to 0)
TEST(RoundUpMask, AWrongMaskIsToldApart) {
    EXPECT_EQ(first_difference([](const z3::expr& x, const z3::expr& block) {
                  return x & ~(block - x.ctx().bv_val(1, 64)) & ~block;
              }),
              0);
}

}  // namespace
