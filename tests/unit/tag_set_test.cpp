// tag_set_test.cpp — the word-wise tag set random_tag() reads
// (model/spec/tag_set.hpp), held to std::bitset<256> value by value: the
// members of a range, their count, the HW_TAGS nibble folding, and the
// counts that keep the set as values come and go.
#include <gtest/gtest.h>

#include <bitset>
#include <random>
#include <vector>

#include "tag_set.hpp"

using tagproof::spec::TagSet;
using tagproof::spec::ValueCounts;

namespace {

std::vector<unsigned> members(const TagSet& s) {
    std::vector<unsigned> out;
    s.for_each([&](unsigned t) { out.push_back(t); });
    return out;
}

std::vector<unsigned> members(const std::bitset<256>& b, unsigned lo = 0, unsigned hi = 255) {
    std::vector<unsigned> out;
    for (unsigned t = lo; t <= hi; ++t)
        if (b.test(t)) out.push_back(t);
    return out;
}

}  // namespace

TEST(TagSet, RangesAndNibblesAsABitsetValueByValue) {
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        TagSet s;
        std::bitset<256> b;
        for (int k = int(rng() % 40); k--;) {
            const unsigned t = rng() % 256;
            s.set(t);
            b.set(t);
        }
        ASSERT_EQ(members(s), members(b));
        const unsigned lo = rng() % 256, hi = lo + rng() % (256 - lo);
        const TagSet r = s.range(lo, hi);
        ASSERT_EQ(members(r), members(b, lo, hi)) << lo << ".." << hi;
        ASSERT_EQ(r.count(), members(b, lo, hi).size());
        std::bitset<256> nib;
        for (unsigned t : members(b)) nib.set(0xF0 | (t & 0xF));
        ASSERT_EQ(members(s.mte_nibbles()), members(nib));
    }
    // the word edges
    TagSet e;
    for (unsigned t : {0u, 63u, 64u, 127u, 128u, 191u, 192u, 255u}) e.set(t);
    EXPECT_EQ(members(e.range(63, 64)), (std::vector<unsigned>{63, 64}));
    EXPECT_EQ(members(e.range(64, 191)), (std::vector<unsigned>{64, 127, 128, 191}));
    EXPECT_EQ(members(e.range(200, 100)), std::vector<unsigned>{});
    EXPECT_EQ(members(e.range(255, 255)), std::vector<unsigned>{255});
}

TEST(TagSet, CountsKeepTheSetOfValuesHeld) {
    ValueCounts c;
    c.add(0xF3, 16);
    c.add(0xFE, 1);
    c.add(0x10, 0);  // nothing added: not held
    EXPECT_EQ(members(c.held), (std::vector<unsigned>{0xF3, 0xFE}));
    c.sub(0xF3, 15);
    EXPECT_TRUE(c.held.test(0xF3)) << "one granule still holds it";
    c.sub(0xF3, 1);
    EXPECT_FALSE(c.held.test(0xF3));
    // negative control: a set kept by additions alone would still hold it
    TagSet added_only;
    added_only.set(0xF3);
    added_only.set(0xFE);
    EXPECT_NE(members(added_only), members(c.held));
}
