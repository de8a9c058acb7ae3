// The reference's page flags word: the KASAN tag field as include/linux/mm.h keeps it.
#include <gtest/gtest.h>

#include "page_flags.hpp"

using namespace tagproof::reference;

TEST(PageFlags, FreshPageReadsMatchAll) {
    PageFlags f;
    EXPECT_EQ(f.word, 0u);
    EXPECT_EQ(f.page_kasan_tag(true), 0xFF);  // stored XOR 0xFF: zero means KASAN_TAG_KERNEL
}

TEST(PageFlags, EveryTagRoundTripsAndLeavesTheFlagBits) {
    PageFlags f;
    f.set(PG_skip_kasan_poison);
    f.set(PG_head);
    for (unsigned t = 0; t < 256; ++t) {
        f.page_kasan_tag_set(true, std::uint8_t(t));
        ASSERT_EQ(f.page_kasan_tag(true), t);
        ASSERT_TRUE(f.test(PG_skip_kasan_poison));
        ASSERT_TRUE(f.test(PG_head));
        ASSERT_EQ(f.word & ~(KASAN_TAG_MASK << KASAN_TAG_PGSHIFT), 0x3u);
    }
    f.page_kasan_tag_reset(true);
    EXPECT_EQ(f.page_kasan_tag(true), 0xFF);
    EXPECT_EQ(f.word, 0x3u);  // the reset tag is stored as 0
}

TEST(PageFlags, WithoutKasanTheTagIsMatchAllAndNotStored) {
    PageFlags f;
    f.page_kasan_tag_set(false, 0xF3);
    EXPECT_EQ(f.word, 0u);
    EXPECT_EQ(f.page_kasan_tag(false), 0xFF);
    f.page_kasan_tag_set(true, 0xF3);
    EXPECT_EQ(f.page_kasan_tag(false), 0xFF);  // kasan_enabled() gates the read too
    EXPECT_EQ(f.page_kasan_tag(true), 0xF3);
}
