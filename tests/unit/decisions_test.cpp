// Each variant's decisions, one fact per test, named after the kernel rule.
#include <gtest/gtest.h>

#include "variant.hpp"

using namespace tagproof;
using namespace tagproof::kernel;

namespace {

struct Kernel {
    const Variant& v;
    BuildConfig b;
    Machine m;
    BootParams p;
    CEnv e;
    GfpLayout L;
    Kernel(const std::string& name, Mode mode = Mode::hw_tags, const std::string& cmdline = "", bool mte = true)
        : v(find_variant(name)), b(mk(mode)), m(mkm(mte)), p(parse_boot_params(cmdline, v.boot_syntax())),
          e(v.make_env(b, m, p, derive_runtime(b, m, p))), L(v.gfp_layout(b)) {}
    static BuildConfig mk(Mode mode) { BuildConfig b; b.mode = mode; return b; }
    static Machine mkm(bool mte) { Machine m; m.mte = mte; return m; }
    gfp_t g(const std::string& s) const { return L.parse(s, "test"); }
};

}  // namespace

TEST(PostAllocHook, GfpKernelIsTaggedWithIntegratedInit) {
    Kernel s("linux-7.0");
    auto p = s.v.post_alloc_hook(s.e, s.g("GFP_KERNEL|__GFP_ZERO"), 0, 0);
    EXPECT_TRUE(p.unpoison);
    EXPECT_TRUE(p.unpoison_init);  // STZG zeroes
    EXPECT_FALSE(p.kernel_init);
    EXPECT_FALSE(p.reset_page_tag);
}

TEST(PostAllocHook, SkipKasanResetsPageTagAndClears) {
    Kernel s("linux-7.0");
    auto p = s.v.post_alloc_hook(s.e, s.g("GFP_KERNEL|__GFP_ZERO|__GFP_SKIP_KASAN"), 0, 0);
    EXPECT_FALSE(p.unpoison);
    EXPECT_TRUE(p.reset_page_tag);
    EXPECT_TRUE(p.kernel_init);
}

TEST(PostAllocHook, SoftwareModesNeverSkipUnpoison) {
    for (Mode m : {Mode::generic, Mode::sw_tags}) {
        Kernel s("mm-2026", m);
        auto p = s.v.post_alloc_hook(s.e, s.g("GFP_KERNEL|__GFP_SKIP_KASAN"), 0, 0);  // the flag is 0 here
        EXPECT_TRUE(p.unpoison) << mode_name(m);
        EXPECT_EQ(s.g("__GFP_SKIP_KASAN"), 0u);
    }
}

TEST(PostAllocHook, KasanOffSkipsAndResets) {
    Kernel s("linux-7.0", Mode::hw_tags, "kasan=off");
    auto p = s.v.post_alloc_hook(s.e, s.g("GFP_KERNEL|__GFP_ZERO"), 0, 0);
    EXPECT_FALSE(p.unpoison);
    EXPECT_TRUE(p.reset_page_tag);
    EXPECT_TRUE(p.kernel_init);
}

TEST(Sampling, OneInNEligibleStartingWithTheFirst) {
    Kernel s("linux-6.4", Mode::hw_tags, "kasan.page_alloc.sample=3");
    std::int64_t skip = 0;
    std::vector<bool> tagged;
    for (int i = 0; i < 7; ++i) {
        auto p = s.v.post_alloc_hook(s.e, s.g("GFP_KERNEL"), 3, skip);
        tagged.push_back(p.unpoison);
        EXPECT_EQ(p.sampled_out, !p.unpoison);
        skip = std::int64_t(p.sample_skip_next);
    }
    EXPECT_EQ(tagged, (std::vector<bool>{true, false, false, true, false, false, true}));
    // below sample.order: always tagged, counter untouched
    auto small = s.v.post_alloc_hook(s.e, s.g("GFP_KERNEL"), 2, 1);
    EXPECT_TRUE(small.unpoison);
    EXPECT_EQ(std::int64_t(small.sample_skip_next), 1);
}

TEST(Sampling, SampleV2SamplesOnlyMarkedAllocations) {
    Kernel s("sample-v2", Mode::hw_tags, "kasan.page_alloc.sample=2");
    auto unmarked = s.v.post_alloc_hook(s.e, s.g("GFP_KERNEL"), 3, 0);
    EXPECT_TRUE(unmarked.unpoison);
    auto m1 = s.v.post_alloc_hook(s.e, s.v.skb_frag_gfp(s.e), 0, 0);
    auto m2 = s.v.post_alloc_hook(s.e, s.v.skb_frag_gfp(s.e), 0, std::int64_t(m1.sample_skip_next));
    EXPECT_TRUE(m1.unpoison);
    EXPECT_FALSE(m2.unpoison);  // order 0, but marked: sampled
}

TEST(Sampling, SampledOutSetsSkipPoisonFlagBefore64) {
    Kernel s("linux-6.3", Mode::hw_tags, "kasan.page_alloc.sample=2");
    auto p = s.v.post_alloc_hook(s.e, s.g("GFP_KERNEL"), 3, 1 - 1 + 1);  // counter 1 -> 0: not tagged
    EXPECT_FALSE(p.unpoison);
    EXPECT_TRUE(p.set_skip_poison_flag);
    EXPECT_TRUE(p.reset_page_tag);
}

TEST(SampleV3, ZeroTagsPageKeepsItsOldPageTag) {
    // the bug "kasan: reset page tags properly with sampling" fixed
    Kernel bug("sample-v3"), fixed("linux-6.3");
    gfp_t user = bug.g("GFP_HIGHUSER_MOVABLE|__GFP_ZERO|__GFP_ZEROTAGS");
    EXPECT_FALSE(bug.v.post_alloc_hook(bug.e, user, 0, 0).reset_page_tag);
    EXPECT_TRUE(fixed.v.post_alloc_hook(fixed.e, user, 0, 0).reset_page_tag);
}

TEST(FreePagesPrepare, V61NeverSeesTheSkipPoisonFlag) {
    Kernel s61("linux-6.1"), s63("linux-6.3");
    FreeInput<Concrete> in;
    in.page_tag = KASAN_TAG_KERNEL;
    in.pg_skip_kasan_poison = true;
    EXPECT_TRUE(s61.v.free_pages_prepare(s61.e, in).poison);   // 487a32ec24be ordering
    EXPECT_FALSE(s63.v.free_pages_prepare(s63.e, in).poison);  // the revert
}

TEST(FreePagesPrepare, V64SkipsIffPageTagIsMatchAll) {
    Kernel s("linux-6.4");
    FreeInput<Concrete> in;
    in.page_tag = 0xF3;
    EXPECT_TRUE(s.v.free_pages_prepare(s.e, in).poison);
    in.page_tag = KASAN_TAG_KERNEL;
    EXPECT_FALSE(s.v.free_pages_prepare(s.e, in).poison);
    Kernel g("linux-6.4", Mode::generic);
    EXPECT_TRUE(g.v.free_pages_prepare(g.e, in).poison);  // Generic: only deferred init skips
}

TEST(FreePagesPrepare, InitOnFreeIsIntegratedWhenPoisoning) {
    Kernel s("linux-7.0", Mode::hw_tags, "init_on_free=1");
    FreeInput<Concrete> in;
    in.page_tag = 0xF5;
    auto f = s.v.free_pages_prepare(s.e, in);
    EXPECT_TRUE(f.poison_init);
    EXPECT_FALSE(f.kernel_init);
    in.page_tag = KASAN_TAG_KERNEL;
    f = s.v.free_pages_prepare(s.e, in);
    EXPECT_FALSE(f.poison);
    EXPECT_TRUE(f.kernel_init);
}

TEST(ZeroTags, Linux70SkipsTagClearingUnderInitOnFree) {
    Kernel old("linux-7.0", Mode::hw_tags, "init_on_free=1"), fixed("mm-2026", Mode::hw_tags, "init_on_free=1");
    gfp_t g = old.g("GFP_TRANSHUGE|__GFP_ZERO|__GFP_ZEROTAGS");
    EXPECT_FALSE(old.v.post_alloc_hook(old.e, g, 2, 0).tag_clear);
    auto p = fixed.v.post_alloc_hook(fixed.e, g, 2, 0);
    EXPECT_TRUE(p.tag_clear);
    EXPECT_FALSE(p.tag_clear_data);  // data already zero from init_on_free
}

TEST(ZeroTags, NoMteMeansTheCallerClears) {
    Kernel s("linux-7.0", Mode::hw_tags, "", /*mte=*/false);
    auto p = s.v.post_alloc_hook(s.e, s.g("GFP_HIGHUSER_MOVABLE|__GFP_ZERO|__GFP_ZEROTAGS"), 0, 0);
    EXPECT_FALSE(p.tag_clear);
    EXPECT_TRUE(p.kernel_init);
}

TEST(Vmalloc, MainlineTagsTheMappingAndSkipsThePages) {
    Kernel s("linux-7.0");
    auto v = s.v.vmalloc_node_range(s.e, s.g("GFP_KERNEL|__GFP_ZERO"), true);
    EXPECT_TRUE(v.tagged_mapping);
    EXPECT_EQ(v.page_gfp, s.g("GFP_KERNEL|__GFP_ZERO|__GFP_SKIP_KASAN|__GFP_SKIP_ZERO"));
    EXPECT_TRUE(v.flag_init);
    auto u = s.v.kasan_unpoison_vmalloc(s.e, v);
    EXPECT_TRUE(u.retag);
    EXPECT_TRUE(u.retag_init);
}

TEST(Vmalloc, AnjumSkipsOnlyWithHwTagsActive) {
    for (const char* name : {"anjum-v2", "anjum-v3", "anjum-v4"}) {
        Kernel s(name);
        gfp_t stack = s.v.GFP_VMAP_STACK(s.e);
        auto v = s.v.vmalloc_node_range(s.e, stack, true);
        EXPECT_FALSE(v.tagged_mapping) << name;
        EXPECT_FALSE(s.v.kasan_unpoison_vmalloc(s.e, v).retag) << name;
        EXPECT_FALSE(v.page_gfp & s.g("__GFP_SKIP_ZERO")) << name;  // page_alloc zeroes
    }
    Kernel v3("anjum-v3"), v4("anjum-v4");
    gfp_t stack = v4.v.GFP_VMAP_STACK(v4.e);
    EXPECT_EQ(v3.v.vmalloc_node_range(v3.e, stack, true).meta_gfp & v3.g("__GFP_SKIP_KASAN"), v3.g("__GFP_SKIP_KASAN"));
    EXPECT_EQ(v4.v.vmalloc_node_range(v4.e, stack, true).meta_gfp & v4.g("__GFP_SKIP_KASAN"), 0u);
    // HW_TAGS compiled in but kasan=off: v3 skips the call, v4 does not; the wrapper makes both no-ops
    Kernel off3("anjum-v3", Mode::hw_tags, "kasan=off"), off4("anjum-v4", Mode::hw_tags, "kasan=off");
    auto p3 = off3.v.vmalloc_node_range(off3.e, stack, true), p4 = off4.v.vmalloc_node_range(off4.e, stack, true);
    EXPECT_FALSE(p3.call_unpoison);
    EXPECT_TRUE(p4.call_unpoison);
    EXPECT_FALSE(off3.v.kasan_unpoison_vmalloc(off3.e, p3).retag);
    EXPECT_FALSE(off4.v.kasan_unpoison_vmalloc(off4.e, p4).retag);
}

TEST(Vmalloc, KasanVmallocOffClearsPagesIfInit) {
    Kernel s("linux-7.0", Mode::hw_tags, "kasan.vmalloc=off");
    auto v = s.v.vmalloc_node_range(s.e, s.g("GFP_KERNEL|__GFP_ZERO"), true);
    auto u = s.v.kasan_unpoison_vmalloc(s.e, v);
    EXPECT_FALSE(u.retag);
    EXPECT_TRUE(u.clear_pages);
}

TEST(Vmalloc, SwTagsSkipsNonNormalProt) {
    Kernel s("linux-7.0", Mode::sw_tags);
    EXPECT_TRUE(s.v.kasan_unpoison_vmalloc(s.e, s.v.vmalloc_node_range(s.e, s.g("GFP_KERNEL"), true)).retag);
    EXPECT_FALSE(s.v.kasan_unpoison_vmalloc(s.e, s.v.vmalloc_node_range(s.e, s.g("GFP_KERNEL"), false)).retag);
    Kernel g("linux-7.0", Mode::generic);
    EXPECT_TRUE(g.v.kasan_unpoison_vmalloc(g.e, g.v.vmalloc_node_range(g.e, g.g("GFP_KERNEL"), false)).retag);
}

TEST(CallerGfp, TheSeriesAddsSkipKasan) {
    Kernel base("linux-7.0"), mm("mm-2026"), a2("anjum-v2");
    EXPECT_EQ(base.v.THREADINFO_GFP(base.e), 0x400dc0u);
    EXPECT_EQ(mm.v.THREADINFO_GFP(mm.e), 0x2400dc0u);
    EXPECT_EQ(mm.v.GFP_VMAP_STACK(mm.e), 0x2000dc0u);
    EXPECT_EQ(a2.v.GFP_PGTABLE_KERNEL(a2.e), 0x2000dc0u);
    EXPECT_EQ(a2.v.GFP_PGTABLE_USER(a2.e), 0x2400dc0u);
    Kernel gen("mm-2026", Mode::generic);
    EXPECT_EQ(gen.v.THREADINFO_GFP(gen.e), 0x400dc0u);  // the bit is 0 outside HW_TAGS
}

TEST(CachedStack, AnjumSkipsUnpoisonOnlyWithHwTags) {
    EXPECT_TRUE(Kernel("linux-7.0").v.cached_stack_unpoison(Kernel("linux-7.0").e));
    Kernel hw("anjum-v4"), sw("anjum-v4", Mode::sw_tags), off("anjum-v4", Mode::hw_tags, "kasan=off");
    EXPECT_FALSE(hw.v.cached_stack_unpoison(hw.e));
    EXPECT_TRUE(sw.v.cached_stack_unpoison(sw.e));
    EXPECT_TRUE(off.v.cached_stack_unpoison(off.e));
}

TEST(TagCheck, MatchAllAndNibbles) {
    Kernel s("linux-7.0");
    EXPECT_TRUE(s.v.ptr_tag_match_all(s.e, 0xFF));
    EXPECT_FALSE(s.v.tag_mismatch(s.e, 0xF3, 0xF3));
    EXPECT_TRUE(s.v.tag_mismatch(s.e, 0xF3, 0xFE));
    EXPECT_TRUE(s.v.tag_mismatch(s.e, 0xF3, 0xFF));  // no memory tag is match-all
    EXPECT_EQ(s.v.random_tag_min(s.e), 0xF0);
    EXPECT_EQ(s.v.random_tag_max(s.e), 0xFD);
    Kernel sw("linux-7.0", Mode::sw_tags);
    EXPECT_EQ(sw.v.random_tag_min(sw.e), 0x00);
}
