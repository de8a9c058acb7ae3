// GFP layouts: values per era and build (checked against the kernel's headers,
// see docs/sources.md), the kernel's print order, parse/print round trips and
// errors on bad strings.
#include <gtest/gtest.h>

#include <random>

#include "error.hpp"
#include "gfp.hpp"
#include "variant.hpp"

using namespace tagproof;

// The layout of an era as its release variant builds it (the bit count is
// the era's GFP_BITS_SHIFT rule).
static GfpLayout era_layout(GfpEra e, const BuildConfig& b) {
    const char* name = e == GfpEra::v6_1 ? "linux-6.1" : e == GfpEra::v6_3 ? "linux-6.3" : e == GfpEra::v6_4 ? "linux-6.4" : "linux-7.0";
    return kernel::find_variant(name).gfp_layout(b);
}

static BuildConfig build(Mode m, bool lockdep = false) {
    BuildConfig b;
    b.mode = m;
    b.lockdep = lockdep;
    return b;
}

TEST(Gfp, V61ValuesUnderHwTags) {
    GfpLayout L = era_layout(GfpEra::v6_1, build(Mode::hw_tags));
    EXPECT_EQ(L.mask("__GFP_SKIP_ZERO"), 0x1000000u);
    EXPECT_EQ(L.mask("__GFP_SKIP_KASAN_UNPOISON"), 0x2000000u);
    EXPECT_EQ(L.mask("__GFP_SKIP_KASAN_POISON"), 0x4000000u);
    EXPECT_EQ(L.mask("GFP_HIGHUSER_MOVABLE"), 0x6100ccau);
    EXPECT_EQ(L.mask("GFP_TRANSHUGE"), 0x61c24cau);
    EXPECT_EQ(L.mask("GFP_ATOMIC"), 0xa20u);
    EXPECT_EQ(L.bits_shift(), 27);
    EXPECT_FALSE(L.defines("__GFP_SKIP_KASAN"));
}

TEST(Gfp, SkipBitsAreZeroOutsideHwTags) {
    for (GfpEra e : {GfpEra::v6_1, GfpEra::v6_4, GfpEra::current})
        for (Mode m : {Mode::none, Mode::generic, Mode::sw_tags}) {
            GfpLayout L = era_layout(e, build(m));
            EXPECT_EQ(L.mask("__GFP_SKIP_ZERO"), 0u);
            EXPECT_EQ(L.mask("GFP_HIGHUSER_MOVABLE"), 0x100ccau) << gfp_era_name(e);
        }
}

TEST(Gfp, V64AndCurrentValues) {
    GfpLayout L64 = era_layout(GfpEra::v6_4, build(Mode::hw_tags, true));
    EXPECT_EQ(L64.mask("__GFP_SKIP_KASAN"), 0x2000000u);
    EXPECT_EQ(L64.mask("GFP_HIGHUSER_MOVABLE"), 0x2100ccau);
    EXPECT_EQ(L64.mask("__GFP_NOLOCKDEP"), 0x4000000u);
    EXPECT_EQ(L64.mask("GFP_ATOMIC"), 0x820u);
    EXPECT_EQ(L64.bits_shift(), 27);
    // enum era: NOLOCKDEP moves with the HW_TAGS bits
    EXPECT_EQ(era_layout(GfpEra::current, build(Mode::generic, true)).mask("__GFP_NOLOCKDEP"), 0x1000000u);
    EXPECT_EQ(era_layout(GfpEra::current, build(Mode::hw_tags, true)).mask("__GFP_NOLOCKDEP"), 0x4000000u);
    EXPECT_EQ(era_layout(GfpEra::current, build(Mode::hw_tags)).mask("GFP_NOWAIT"), 0x2800u);
    EXPECT_EQ(era_layout(GfpEra::current, build(Mode::hw_tags)).mask("__GFP_ZEROTAGS"), 0x800000u);
}

TEST(Gfp, PrintsAsTheKernelDoes) {
    GfpLayout old = era_layout(GfpEra::v6_4, build(Mode::hw_tags));
    GfpLayout cur = era_layout(GfpEra::current, build(Mode::hw_tags));
    gfp_t g = old.parse("GFP_KERNEL|__GFP_ZERO|__GFP_NOWARN|__GFP_COMP", "t");
    EXPECT_EQ(old.print(g), "GFP_KERNEL|__GFP_NOWARN|__GFP_COMP|__GFP_ZERO");  // hand-ordered list
    EXPECT_EQ(cur.print(g), "GFP_KERNEL|__GFP_ZERO|__GFP_NOWARN|__GFP_COMP");  // bit order (v6.15+)
    EXPECT_EQ(cur.print(0x2100cca), "GFP_HIGHUSER_MOVABLE");
    EXPECT_EQ(era_layout(GfpEra::v6_4, build(Mode::generic)).print(0x140cca), "GFP_HIGHUSER_MOVABLE|__GFP_COMP");
    EXPECT_EQ(old.print(0x200), "0x200");  // the unused bit has no name
    EXPECT_EQ(old.print(0), "none");
    EXPECT_EQ(era_layout(GfpEra::v6_1, build(Mode::hw_tags, true)).print(0x8000000), "0x8000000");
}

TEST(Gfp, RoundTripEveryNameInEveryEraAndBuild) {
    for (GfpEra e : {GfpEra::v6_1, GfpEra::v6_3, GfpEra::v6_4, GfpEra::current})
        for (Mode m : {Mode::none, Mode::generic, Mode::sw_tags, Mode::hw_tags})
            for (bool lockdep : {false, true}) {
                GfpLayout L = era_layout(e, build(m, lockdep));
                for (const auto* list : {&L.single_flags(), &L.composites()})
                    for (const auto& f : *list) {
                        gfp_t v = L.parse(f.name, "t");
                        EXPECT_EQ(v, f.mask);
                        EXPECT_EQ(L.parse(L.print(v), "t"), v) << f.name << " in " << gfp_era_name(e);
                    }
            }
}

TEST(Gfp, RoundTripRandomMasks) {
    std::mt19937_64 rng(1);
    for (GfpEra e : {GfpEra::v6_1, GfpEra::v6_4, GfpEra::current}) {
        GfpLayout L = era_layout(e, build(Mode::hw_tags, true));
        for (int i = 0; i < 2000; ++i) {
            gfp_t v = rng() & L.bits_mask();
            EXPECT_EQ(L.parse(L.print(v), "t"), v) << L.print(v);
        }
    }
}

TEST(Gfp, BadStringsNameTheProblem) {
    GfpLayout L = era_layout(GfpEra::current, build(Mode::hw_tags));
    auto msg = [&](const std::string& s) {
        try {
            L.parse(s, "here");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(msg("GFP_KERNEL|__GFP_ZEROO").find("unknown GFP flag '__GFP_ZEROO'"), std::string::npos);
    EXPECT_NE(msg("GFP_KERNEL||__GFP_ZERO").find("empty flag name"), std::string::npos);
    EXPECT_NE(msg("0x12g").find("bad number"), std::string::npos);
    EXPECT_NE(msg("").find("empty GFP string"), std::string::npos);
    EXPECT_NE(msg("__GFP_SKIP_KASAN_POISON").find("one __GFP_SKIP_KASAN"), std::string::npos);
    EXPECT_NE(msg("GFP_KERNEL|bogus").find("here: "), std::string::npos);
    EXPECT_EQ(L.parse(" GFP_KERNEL | __GFP_ZERO ", "t"), 0xdc0u);
}

TEST(Gfp, ExtraFlagOfASeriesAndTheBitsMask) {
    GfpLayout ok = kernel::find_variant("sample-v2").gfp_layout(build(Mode::hw_tags));
    EXPECT_EQ(ok.mask("__GFP_KASAN_SAMPLE"), 0x8000000u);
    EXPECT_TRUE((ok.mask("__GFP_KASAN_SAMPLE") & ~ok.bits_mask()) == 0);
    GfpLayout bad = kernel::find_variant("mutant-gfp-bit-outside-mask").gfp_layout(build(Mode::hw_tags));
    EXPECT_FALSE((bad.mask("__GFP_KASAN_SAMPLE") & ~bad.bits_mask()) == 0);
    EXPECT_EQ(kernel::find_variant("sample-v2").gfp_layout(build(Mode::generic)).mask("__GFP_KASAN_SAMPLE"), 0u);
}
