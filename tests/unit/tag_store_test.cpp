// The reference's packed tag store against the plainest possible store (one
// byte per granule), on the range shapes that matter to word-at-a-time code:
// within one word, across one boundary, spanning whole words, and at the ends.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tag_store.hpp"

using tagproof::reference::TagStore;

namespace {
struct Plain {
    std::vector<std::uint8_t> t;
    void set_range(std::size_t g, std::size_t n, std::uint8_t tag) {
        for (std::size_t i = g; i < g + n; ++i) t[i] = tag & 0xF;
    }
    std::size_t first_mismatch(std::size_t g, std::size_t n, std::uint8_t tag) const {
        for (std::size_t i = g; i < g + n; ++i)
            if (t[i] != (tag & 0xF)) return i;
        return g + n;
    }
};

void expect_same(const TagStore& s, const Plain& p) {
    ASSERT_EQ(s.granules(), p.t.size());
    for (std::size_t i = 0; i < p.t.size(); ++i) ASSERT_EQ(s.get(i), p.t[i]) << "granule " << i;
}
}  // namespace

TEST(TagStore, PacksTwoGranulesPerByte) {
    TagStore s(100, 0xE);
    EXPECT_EQ(s.storage_bytes(), 50u);
    EXPECT_EQ(s.get(99), 0xE);
    s.set(17, 0x3);
    EXPECT_EQ(s.get(16), 0xE);
    EXPECT_EQ(s.get(17), 0x3);
    EXPECT_EQ(s.get(18), 0xE);
}

TEST(TagStore, RangeShapes) {
    // (start, length) pairs around the 16-granule word boundaries of a 70-granule store
    const std::pair<std::size_t, std::size_t> shapes[] = {{0, 0},  {0, 1},  {3, 5},   {15, 1}, {15, 2}, {14, 20},
                                                          {16, 16}, {0, 64}, {5, 60}, {63, 7}, {0, 70}, {69, 1}};
    std::uint8_t tag = 1;
    for (auto [g, n] : shapes) {
        TagStore s(70, 0xF);
        Plain p{std::vector<std::uint8_t>(70, 0xF)};
        s.set_range(g, n, tag);
        p.set_range(g, n, tag);
        expect_same(s, p);
        EXPECT_TRUE(s.all_equal(g, n, tag)) << g << "+" << n;
        if (n) {
            EXPECT_FALSE(s.all_equal(g, n, tag ^ 1));
        }
        if (g) {
            EXPECT_EQ(s.first_mismatch(g - 1, n + 1, tag), g - 1);
        }
        if (g + n < 70) {
            EXPECT_EQ(s.first_mismatch(g, n + 1, tag), g + n);
        }
        tag = (tag + 3) & 0xF;
    }
}

TEST(TagStore, AgreesWithOneBytePerGranuleOnRandomRanges) {
    std::mt19937_64 rng(20261201);
    const std::size_t N = 1000;
    TagStore s(N, 0);
    Plain p{std::vector<std::uint8_t>(N, 0)};
    for (int step = 0; step < 20000; ++step) {
        std::size_t g = rng() % N, n = rng() % (N - g + 1);
        std::uint8_t tag = std::uint8_t(rng() & 0xFF);  // the high nibble must be dropped
        if (rng() % 2) {
            s.set_range(g, n, tag);
            p.set_range(g, n, tag);
        } else {
            ASSERT_EQ(s.first_mismatch(g, n, tag), p.first_mismatch(g, n, tag)) << "step " << step;
        }
    }
    expect_same(s, p);
}

// The short ranges an object's tags are (fill_bytes' ladder of overlapping
// stores, the end nibbles merged): every length 0..33 at both start
// parities, at the store's start, across a word boundary and flush with its
// last granule, each against the plain store, so an end nibble lost or one
// granule too many shows as a granule that differs.
TEST(TagStore, SmallRangesAtEveryParityAndEnd) {
    const std::size_t N = 71;  // odd: the last granule is a low nibble
    for (std::size_t n = 0; n <= 33; ++n) {
        for (std::size_t g : {std::size_t(0), std::size_t(1), std::size_t(14), std::size_t(15), N - n,
                              n < N ? N - n - 1 : 0}) {
            if (g + n > N) continue;
            TagStore s(N, 0x5);
            Plain p{std::vector<std::uint8_t>(N, 0x5)};
            s.set_range(g, n, 0xA);
            p.set_range(g, n, 0xA);
            SCOPED_TRACE(std::to_string(g) + "+" + std::to_string(n));
            expect_same(s, p);
        }
    }
}

// The negative control: the comparison above sees a range one granule long.
TEST(TagStore, SmallRangeComparisonSeesOneGranuleMore) {
    TagStore s(71, 0x5);
    Plain p{std::vector<std::uint8_t>(71, 0x5)};
    s.set_range(15, 8, 0xA);
    p.set_range(15, 9, 0xA);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < 71; ++i) differ += s.get(i) != p.t[i];
    EXPECT_EQ(differ, 1u);
}
