// The copy-on-write RAM arrays (model/spec/cow_array.hpp) and the explorer's
// state hash (model/core/hash128.hpp): a copy and its original part at the
// first write, a chunk's runs follow what it holds, and keys that differ in
// one byte hash apart.
#include <gtest/gtest.h>

#include <string>

#include "cow_array.hpp"
#include "hash128.hpp"

namespace tagproof::spec {
namespace {

TEST(CowArray, ACopyPartsFromItsOriginalAtTheFirstWrite) {
    CowArray<int> a;
    a.assign(1024, 7, 256);
    CowArray<int> b = a;
    EXPECT_TRUE(a.same_chunk(b, 1));
    b.set(300, 9);
    EXPECT_EQ(a[300], 7);  // the original keeps its value
    EXPECT_EQ(b[300], 9);
    EXPECT_FALSE(a.same_chunk(b, 1));  // the written chunk only
    EXPECT_TRUE(a.same_chunk(b, 0));
    b.fill(0, 1024, 7);
    EXPECT_EQ(b[300], 7);
    EXPECT_EQ(a[300], 7);
}

TEST(CowArray, AChunksRunsFollowAWriteAfterTheyWereTaken) {
    CowArray<std::uint8_t> a;
    a.assign(512, 0xF1, 256);
    ASSERT_EQ(a.chunk_runs(0).size(), 1u);
    a.fill(10, 20, 0xF2);  // the runs were taken: the chunk is written in a fresh copy
    const auto& r = a.chunk_runs(0);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[1].first, 10u);
    EXPECT_EQ(r[1].second, 0xF2);
    EXPECT_EQ(a.chunk_runs(1).size(), 1u);
}

TEST(CowArray, ASpanAcrossPagesIsRefused) {
    CowArray<int> a;
    a.assign(512, 0, 256);
    EXPECT_NO_THROW(a.span(0, 256));
    EXPECT_THROW(a.span(200, 100), std::logic_error);
    EXPECT_THROW(a.assign(300, 0, 256), std::logic_error);
}

TEST(Hash128, KeysThatDifferInOneByteHashApart) {
    std::string k(5000, 'x');
    const Hash128 h = hash128(k);
    EXPECT_EQ(hash128(k), h);
    for (std::size_t i : {std::size_t(0), std::size_t(15), std::size_t(16), std::size_t(4999)}) {
        std::string d = k;
        d[i] = 'y';
        EXPECT_FALSE(hash128(d) == h) << "byte " << i;
    }
    EXPECT_FALSE(hash128(k + std::string(1, '\0')) == h);  // the length is folded in
}

}  // namespace
}  // namespace tagproof::spec
