// Facts every built-in variant must satisfy, whatever its era (a table over
// all variants), and the mutants' one broken rule each.
#include <gtest/gtest.h>

#include "test_env.hpp"

#include "variant.hpp"

using namespace tagproof;
using namespace tagproof::kernel;
using tagproof::test::env_for;


TEST(AllVariants, ThirteenWithDistinctNamesAndKnownBaselines) {
    const auto& all = all_variants();
    ASSERT_EQ(all.size(), 13u);
    for (const auto* v : all) {
        EXPECT_FALSE(v->is_mutant());
        if (!v->baseline().empty()) {
            EXPECT_NO_THROW(find_variant(v->baseline())) << v->name();
        }
        for (const auto* w : all)
            if (v != w) {
                EXPECT_NE(v->name(), w->name());
            }
    }
}

TEST(AllVariants, GfpKernelIsTaggedAndPoisonedWithHwTagsActive) {
    for (const auto* v : all_variants()) {
        CEnv e = env_for(*v, Mode::hw_tags);
        auto p = v->post_alloc_hook(e, e.gfp.GFP_KERNEL, 0, 0);
        EXPECT_TRUE(p.unpoison) << v->name();
        EXPECT_FALSE(p.reset_page_tag) << v->name();
        FreeInput<Concrete> in;
        in.page_tag = 0xF4;
        EXPECT_TRUE(v->free_pages_prepare(e, in).poison) << v->name();
    }
}

TEST(AllVariants, SoftwareModesTagEverythingAndIgnoreSkipBits) {
    for (const auto* v : all_variants())
        for (Mode m : {Mode::generic, Mode::sw_tags}) {
            CEnv e = env_for(*v, m);
            EXPECT_EQ(e.gfp.SKIP_KASAN | e.gfp.SKIP_KASAN_UNPOISON | e.gfp.SKIP_KASAN_POISON | e.gfp.SKIP_ZERO, 0u);
            gfp_t user = v->user_page_gfp(e, false);
            auto p = v->post_alloc_hook(e, user, 0, 0);
            EXPECT_TRUE(p.unpoison) << v->name() << " " << mode_name(m);
            EXPECT_FALSE(p.sampled_out);
            EXPECT_TRUE(v->cached_stack_unpoison(e)) << v->name();
        }
}

TEST(AllVariants, KasanOffTagsNothing) {
    for (const auto* v : all_variants()) {
        CEnv e = env_for(*v, Mode::hw_tags, "kasan=off");
        auto p = v->post_alloc_hook(e, e.gfp.GFP_KERNEL | e.gfp.ZERO, 3, 0);
        EXPECT_FALSE(p.unpoison) << v->name();
        EXPECT_TRUE(p.kernel_init) << v->name();
        auto vm = v->vmalloc_node_range(e, e.gfp.GFP_KERNEL, true);
        EXPECT_FALSE(v->kasan_unpoison_vmalloc(e, vm).retag) << v->name();
    }
}

TEST(AllVariants, UserPagesSkipTaggingWithHwTags) {
    for (const auto* v : all_variants()) {
        CEnv e = env_for(*v, Mode::hw_tags);
        auto p = v->post_alloc_hook(e, v->user_page_gfp(e, false), 0, 0);
        EXPECT_FALSE(p.unpoison) << v->name();
        EXPECT_TRUE(p.kernel_init) << v->name();  // __GFP_ZERO, cleared through a match-all pointer
    }
}

TEST(AllVariants, RandomTagRangeAndMatchAll) {
    for (const auto* v : all_variants()) {
        CEnv e = env_for(*v, Mode::hw_tags);
        EXPECT_EQ(v->random_tag_min(e), KASAN_TAG_MIN_HW);
        EXPECT_EQ(v->random_tag_max(e), KASAN_TAG_MAX);
        EXPECT_TRUE(v->ptr_tag_match_all(e, KASAN_TAG_KERNEL));
        EXPECT_TRUE(v->tag_mismatch(e, 0xF1, KASAN_TAG_INVALID));
    }
}

TEST(Mutants, EachBreaksOneRule) {
    CEnv e = env_for(find_variant("mutant-no-tcma"), Mode::hw_tags);
    EXPECT_FALSE(find_variant("mutant-no-tcma").ptr_tag_match_all(e, 0xFF));
    EXPECT_FALSE(find_variant("mutant-invalid-matches").tag_mismatch(e, 0xF1, 0xFE));
    EXPECT_EQ(find_variant("mutant-match-all-tag").random_tag_max(e), 0xFF);
    FreeInput<Concrete> in;
    in.page_tag = 0xF2;
    EXPECT_FALSE(find_variant("mutant-no-free-poison").free_pages_prepare(e, in).poison);
    for (const auto* m : all_mutants()) EXPECT_TRUE(m->is_mutant()) << m->name();
}
