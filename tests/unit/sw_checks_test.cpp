// The SW_TAGS check styles on the distinguishing inputs of tag-checks.md §6,
// concretely (the solver proves the general statements, §9).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "checks/generic_check.hpp"
#include "checks/hw_check.hpp"
#include "checks/sw_checks.hpp"
#include "domain.hpp"

using namespace tagproof::kernel;
using namespace tagproof::kernel::checks;
using C = Concrete;

namespace {
struct Mem {
    std::map<std::uint64_t, std::uint64_t> sh, dt;
    std::set<std::uint64_t> unmapped;
    std::uint64_t dflt = 0xFE;
    std::uint64_t shadow(std::uint64_t a) const { return sh.count(a) ? sh.at(a) : dflt; }
    std::uint64_t data(std::uint64_t a) const { return dt.count(a) ? dt.at(a) : 0xAA; }
    bool mapped(std::uint64_t a) const { return !unmapped.count(a); }
    void set(const ShadowEra& e, std::uint64_t p, std::uint64_t tag) { sh[Shadow<C>::low56(Shadow<C>::kernel_addr(e, p))] = tag; }
};
constexpr std::uint64_t kBase = 0xffff000000012340ull;  // a granule-aligned kernel address
std::uint64_t tagged(std::uint64_t a, std::uint64_t t) { return (a & 0x00ffffffffffffffull) | (t << 56); }
}  // namespace

TEST(ShadowAddress, AllFourAgreeForKernelPointers) {
    for (const ShadowEra* e : {&kShadowBefore, &kShadowAfter})
        for (std::uint64_t t : {0x00ull, 0x3cull, 0xfeull, 0xffull}) {
            std::uint64_t p = tagged(kBase + 0x1234, t);
            auto a = Shadow<C>::low56(Shadow<C>::inline_addr(*e, p));
            EXPECT_EQ(a, Shadow<C>::low56(Shadow<C>::outlined_addr(*e, p)));
            EXPECT_EQ(a, Shadow<C>::low56(Shadow<C>::kernel_addr(*e, p)));
        }
    // bit 55 = 0 (NULL): the compiler's two forms differ (row 7, Q2)
    EXPECT_NE(Shadow<C>::low56(Shadow<C>::inline_addr(kShadowBefore, 0)),
              Shadow<C>::low56(Shadow<C>::outlined_addr(kShadowBefore, 0)));
}

TEST(CheckStyles, AgreeOnAlignedKernelAccesses) {
    Mem m;
    m.set(kShadowBefore, kBase, 0x3c);
    for (std::uint64_t t : {0x3cull, 0x3dull, 0xffull})
        for (unsigned k = 0; k <= 4; ++k) {
            std::uint64_t p = tagged(kBase, t);
            bool o = outlined_check<C>(kShadowBefore, m, p, k).report;
            EXPECT_EQ(o, call_check<C>(kShadowBefore, m, p, 1ull << k).report);
            EXPECT_EQ(o, fastpath_check<C>(kShadowBefore, m, p, k).report);
            EXPECT_EQ(o, t != 0x3c && t != 0xff);
        }
}

TEST(CheckStyles, Row2MisalignedCrossingSeenOnlyByTheCall) {
    Mem m;
    m.set(kShadowBefore, kBase, 0x3c);
    m.set(kShadowBefore, kBase + 16, 0x55);
    std::uint64_t p = tagged(kBase + 14, 0x3c);  // 4 bytes at 14: crosses into the next granule
    EXPECT_FALSE(outlined_check<C>(kShadowBefore, m, p, 2).report);
    EXPECT_FALSE(inline_check<C>(kShadowBefore, m, p, 2).report);
    EXPECT_TRUE(call_check<C>(kShadowBefore, m, p, 4).report);
}

TEST(CheckStyles, Row4MatchAllButTheCallReportsAWrap) {
    Mem m;
    std::uint64_t p = 0xfffffffffffffff8ull;  // tag 0xFF, p + 16 wraps
    EXPECT_FALSE(outlined_check<C>(kShadowBefore, m, p, 4).report);
    EXPECT_FALSE(inline_check<C>(kShadowBefore, m, p, 4).report);
    EXPECT_TRUE(call_check<C>(kShadowBefore, m, p, 16).report);
}

TEST(CheckStyles, Row5ShortGranuleFalseNegativeOfTheInlineCheck) {
    Mem m;
    m.set(kShadowBefore, kBase, 0x0e);  // memory tag 0x0E
    std::uint64_t p = tagged(kBase + 5, 0x00);
    m.dt[(kBase | 15) & 0x00ffffffffffffffull] = 0x00;  // last data byte of the granule equals T
    EXPECT_FALSE(inline_check<C>(kShadowBefore, m, p, 0).report);
    EXPECT_TRUE(outlined_check<C>(kShadowBefore, m, p, 0).report);
    EXPECT_TRUE(call_check<C>(kShadowBefore, m, p, 1).report);
}

TEST(CheckStyles, Row8BelowTheShadowedRangeTheCallReports) {
    Mem m;
    std::uint64_t p = 0x0080000000000000ull;  // bit 55 set, tag 0x00, below 0xffff000000000000 after reset
    EXPECT_TRUE(call_check<C>(kShadowBefore, m, p, 1).report);
}

TEST(CheckStyles, Routing) {
    EXPECT_TRUE(eligible(4, 4));
    EXPECT_TRUE(eligible(16, 0));
    EXPECT_FALSE(eligible(3, 1));
    EXPECT_FALSE(eligible(8, 4));
    EXPECT_FALSE(eligible(32, 16));
}

// Generic (mm/kasan/generic.c): a kmalloc(13) object: granule 0 shadow 0,
// granule 1 shadow 5 (bytes 8..12 valid), then a redzone (0xFC).
namespace {
struct GMem {
    std::map<std::uint64_t, std::uint64_t> sh;
    std::uint64_t shadow(std::uint64_t g) const { return sh.count(g & ~7ull) ? sh.at(g & ~7ull) : 0xFC; }
};
}  // namespace

TEST(GenericCheck, ByteExactOnAPartialGranule) {
    GMem m{{{0x1000, 0x00}, {0x1008, 0x05}}};
    EXPECT_FALSE(generic_check<C>(m, 0x1000, 8));
    EXPECT_FALSE(generic_check<C>(m, 0x100c, 1));  // byte 12: last valid
    EXPECT_TRUE(generic_check<C>(m, 0x100d, 1));   // byte 13: first invalid
    EXPECT_FALSE(generic_check<C>(m, 0x1004, 8));  // 4..11 crosses into the partial granule, valid
    EXPECT_TRUE(generic_check<C>(m, 0x1006, 8));   // 6..13 ends one byte too far
    EXPECT_TRUE(generic_check<C>(m, 0x1008, 16));  // runs past the partial granule into the redzone
    EXPECT_TRUE(generic_check<C>(m, 0x1000, 16));  // runs past granule 1 (shadow 5, not 0)
    EXPECT_TRUE(generic_check<C>(m, 0x1010, 1));   // redzone: negative shadow
}

TEST(GenericCheck, UnwrittenShadowValuesFollowTheKernel) {
    // 0x22 is never written: memory_is_poisoned_1 lets the byte through,
    // memory_is_nonzero flags a granule the access runs past
    GMem m{{{0x2000, 0x22}, {0x2008, 0x00}}};
    EXPECT_FALSE(generic_check<C>(m, 0x2007, 1));
    EXPECT_TRUE(generic_check<C>(m, 0x2004, 8));
}

TEST(MteFaultDelivery, SyncAsyncAsymm) {
    auto d = [](bool async, bool asymm, bool write) { return mte_fault_delivery<C>(async, asymm, write); };
    EXPECT_FALSE(d(false, false, false).deferred);  // sync load
    EXPECT_FALSE(d(false, false, true).deferred);   // sync store
    EXPECT_TRUE(d(false, false, true).checks_off_after);
    EXPECT_TRUE(d(true, false, false).deferred);    // async load
    EXPECT_FALSE(d(true, false, false).checks_off_after);
    EXPECT_FALSE(d(false, true, false).deferred);   // asymm load: sync
    EXPECT_TRUE(d(false, true, true).deferred);     // asymm store: async
}
