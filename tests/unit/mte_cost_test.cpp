// mte_set_mem_tag_range's instruction counts in closed form, against its
// loops run step by step (the shape of asm/mte-kasan.h's SET_MEMTAG_RANGE).
#include <gtest/gtest.h>

#include "mte_cost.hpp"

using namespace tagproof::reference;

namespace {
TagRangeCost by_loops(std::uint64_t curr, std::uint64_t size, std::uint64_t dczid) {
    TagRangeCost c;
    std::uint64_t bs = std::uint64_t(4) << (dczid & 0xF), mask = bs - 1;
    bool dzp = (dczid >> 4) & 1;
    std::uint64_t end1 = curr | mask, end3 = curr + size, end2 = end3 & ~mask;
    if (!dzp && size >= 2 * bs) {
        do {
            ++c.stg;
            curr += 16;
        } while (curr < end1);
        do {
            ++c.dc_gva;
            curr += bs;
        } while (curr < end2);
    }
    while (curr < end3) {
        ++c.stg;
        curr += 16;
    }
    c.granules = size / 16;
    return c;
}
}  // namespace

TEST(MteSetMemTagRangeCost, OnePageWith64ByteBlocks) {
    auto c = mte_set_mem_tag_range_cost(0x10000, 4096, 4);
    EXPECT_EQ(c.stg, 4u);  // the first block by STG even though it is aligned
    EXPECT_EQ(c.dc_gva, 63u);
    EXPECT_EQ(c.granules, 256u);
}

TEST(MteSetMemTagRangeCost, SmallRangesAndProhibitedDcAreAllStg) {
    EXPECT_EQ(mte_set_mem_tag_range_cost(0x10000, 112, 4).stg, 7u);  // < 2 blocks
    auto c = mte_set_mem_tag_range_cost(0x10000, 4096, 0x14);       // DZP set
    EXPECT_EQ(c.stg, 256u);
    EXPECT_EQ(c.dc_gva, 0u);
}

TEST(MteSetMemTagRangeCost, ClosedFormEqualsTheLoops) {
    for (std::uint64_t dczid : {2ull, 3ull, 4ull, 5ull, 0x14ull})
        for (std::uint64_t start = 0x10000; start < 0x10000 + 256; start += 16)
            for (std::uint64_t size = 16; size <= 2048; size += 16) {
                auto a = mte_set_mem_tag_range_cost(start, size, dczid), b = by_loops(start, size, dczid);
                ASSERT_EQ(a.stg, b.stg) << std::hex << start << "+" << size << " dczid " << dczid;
                ASSERT_EQ(a.dc_gva, b.dc_gva) << std::hex << start << "+" << size << " dczid " << dczid;
                ASSERT_EQ(a.stg * 16 + a.dc_gva * (4ull << (dczid & 0xF)), size);
            }
}
