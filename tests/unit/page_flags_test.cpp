// page->flags' KASAN tag bits: the reference's word, and each era's encoding
// rule (page_kasan_tag_field / page_kasan_tag in the rules files).
#include <gtest/gtest.h>

#include "test_env.hpp"

#include "page_flags.hpp"
#include "variant.hpp"

using namespace tagproof;
using namespace tagproof::kernel;
using tagproof::test::env_for;
using tagproof::reference::PageFlags;


TEST(PageFlags, TheFieldSharesTheWordWithTheFlagBits) {
    PageFlags f;
    f.set(reference::PG_skip_kasan_poison);
    f.set(reference::PG_head);
    for (unsigned v = 0; v < 256; ++v) {
        f.set_kasan_field(v);
        ASSERT_EQ(f.kasan_field(), v);
        ASSERT_EQ(f.word & ~(reference::KASAN_TAG_MASK << reference::KASAN_TAG_PGSHIFT), 0x3u);
    }
}

// cf10bd4c4aff (v5.12): stored XOR 0xff, so a zeroed memmap reads match-all.
TEST(PageKasanTag, AZeroFieldReadsMatchAllInEveryBuiltInEra) {
    for (const Variant* v : all_variants())
        for (Mode m : {Mode::sw_tags, Mode::hw_tags}) {
            CEnv e = env_for(*v, m);
            EXPECT_EQ(v->page_kasan_tag(e, 0), KASAN_TAG_KERNEL) << v->name() << " " << mode_name(m);
            EXPECT_EQ(v->page_kasan_tag_field(e, KASAN_TAG_KERNEL), 0u) << v->name() << " " << mode_name(m);
        }
}

TEST(PageKasanTag, EveryTagTheModeAssignsRoundTrips) {
    for (const Variant* v : all_variants())
        for (Mode m : {Mode::sw_tags, Mode::hw_tags}) {
            CEnv e = env_for(*v, m);
            for (unsigned t = v->random_tag_min(e); t <= 0xFF; ++t)
                ASSERT_EQ(v->page_kasan_tag(e, v->page_kasan_tag_field(e, Tag(t))), t) << v->name();
        }
}

// v6.16: four bits under HW_TAGS, eight under SW_TAGS; v6.1 eight in both.
TEST(PageKasanTag, TheFieldWidthPerEraAndMode) {
    const Variant& v61 = find_variant("linux-6.1");
    const Variant& v70 = find_variant("linux-7.0");
    EXPECT_EQ(v61.page_kasan_tag_field(env_for(v61, Mode::hw_tags), 0xF3), 0x0Cu);
    EXPECT_EQ(v70.page_kasan_tag_field(env_for(v70, Mode::hw_tags), 0xF3), 0x0Cu);
    EXPECT_EQ(v61.page_kasan_tag_field(env_for(v61, Mode::sw_tags), 0x13), 0xECu);
    EXPECT_EQ(v70.page_kasan_tag_field(env_for(v70, Mode::sw_tags), 0x13), 0xECu);
    // a nibble n reads 0xf0 | (~n & 0xf) on linux-7.0 HW_TAGS; all eight bits count on linux-6.1
    EXPECT_EQ(v70.page_kasan_tag(env_for(v70, Mode::hw_tags), 0xFC), 0xF3);
    EXPECT_EQ(v61.page_kasan_tag(env_for(v61, Mode::hw_tags), 0xFC), 0x03);
}

// The negative control: without the XOR a zero field is tag 0x00.
TEST(PageKasanTag, ThePlainEncodingReadsZeroForAFreshPage) {
    const Variant& v = find_variant("control-page-tag-plain");
    CEnv e = env_for(v, Mode::hw_tags);
    EXPECT_EQ(v.page_kasan_tag(e, 0), 0x00);
    EXPECT_EQ(v.page_kasan_tag(e, v.page_kasan_tag_field(e, 0xF5)), 0xF5);
}
