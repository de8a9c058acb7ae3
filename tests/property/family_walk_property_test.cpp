// RapidCheck over the whole vocabulary (properties/family_walk_property.hpp):
// random walks through every family in every boot configuration keep every
// invariant but the variant's recorded defects; each control that only the
// families' entry points reach (a kmem_cache_rcu object freed without the
// grace period, a mempool element unpoisoned whole, vmap over tagged pages,
// a KFENCE page tag) is caught by a walk, and its shrunk, line-minimised
// scenario replays in the model. The 15 page/slab commands of commands.hpp
// reach none of these: the control's first test asks them too.
#include <gtest/gtest.h>

#include "builtin_variants.hpp"

#include "family_walk.hpp"
#include "families.hpp"
#include "family_walk_property.hpp"
#include "property.hpp"
#include "runner.hpp"
#include "scenario.hpp"
#include "variant.hpp"
#include "file/variant_file.hpp"

using namespace tagproof;
using namespace tagproof::properties;

namespace {

// Does the scenario, run as a reviewer would (`tagproof run`), show `invariant`?
bool replays(const std::string& text, const std::string& invariant) {
    scenario::Scenario sc = scenario::parse_scenario(text, "walk");
    bool shown = false;
    for (const auto& res : scenario::run_scenario(sc, {}))
        for (const auto& v : res.violations) shown |= v.rfind(invariant, 0) == 0;
    return shown;
}

class Walks : public ::testing::TestWithParam<std::string> {};

TEST_P(Walks, KeepEveryInvariantButTheRecordedDefects) {
    WalkOptions o;
    o.tests = 1000;
    o.seed = round_seed(0);
    PropertyResult r = check_family_walks(kernel::find_variant(GetParam()), o);
    ASSERT_TRUE(r.passed) << r.failure.message << "\n" << r.failure.scenario;
    EXPECT_EQ(r.cases, 1000);
}

INSTANTIATE_TEST_SUITE_P(Variants, Walks, testing_support::builtin_variants(), testing_support::variant_test_name);

struct Control {
    const char* variant;
    const char* family;
    const char* invariant;
};

class WalkControl : public ::testing::TestWithParam<Control> {};

TEST_P(WalkControl, IsCaughtAndReplays) {
    const Control c = GetParam();
    WalkOptions o;
    o.family = c.family;
    o.tests = 300;
    o.max_events = 12;
    o.seed = 20261201;
    // what the release under the control breaks too is not the control's (the mempool family's
    // sampled re-issue, linux-6.3 on): the walk must find the control's own defect
    o.baseline_filter = true;
    PropertyResult r = check_family_walks(kernel::find_variant(c.variant), o);
    ASSERT_FALSE(r.passed) << c.variant << ": no walk of the " << c.family << " family broke " << c.invariant;
    EXPECT_EQ(r.failure.invariant, c.invariant) << r.failure.message;
    EXPECT_LE(r.failure.events, 8u) << r.failure.scenario;
    // the minimised scenario, run as a reviewer would
    EXPECT_TRUE(replays(r.failure.scenario, c.invariant)) << r.failure.scenario;
}

INSTANTIATE_TEST_SUITE_P(
    Controls, WalkControl,
    ::testing::Values(Control{"control-rcu-debug-not-deferred", "kmem_cache_rcu", "detection"},
                      Control{"control-rcu-poisoned-at-free", "kmem_cache_rcu", "no-false-positive"},
                      Control{"control-mempool-whole-slot", "mempool", "detection"},
                      Control{"control-vmap-tags-pages", "vmalloc", "no-false-positive"},
                      Control{"control-page-tag-plain", "kfence", "page-tag-consistency"}),
    [](const auto& info) {
        std::string n = info.param.variant;
        for (char& ch : n)
            if (ch == '-') ch = '_';
        return n;
    });

// The same controls under the 15 commands: the gap the walks close.
TEST(WalkControl, TheCommandsAloneMissTheRcuControl) {
    PropertyOptions o;
    o.seed = 20261201;
    PropertyResult r = check_invariants(kernel::find_variant("control-rcu-debug-not-deferred"), o);
    // what they find elsewhere (a mempool page re-issued sampled out: linux-7.0's own) is not the control's
    EXPECT_TRUE(r.passed || r.failure.scenario.find("kmem_cache") == std::string::npos)
        << "the commands reach kmem_cache_rcu now: " << r.failure.message;
}


// Walks run every KASAN mode (issue 34: the walks ran HW_TAGS only, so a
// Generic or SW_TAGS path only a family reaches was "holds" for RapidCheck).
// The huge zero folio under Generic with MTE and init_on_free (the corpus's
// linux70_huge_zero_folio_generic_mte) is a walk of the user family away.

TEST(WalkModes, AGenericWalkReachesTheHugeZeroFolio) {
    WalkOptions o;
    o.family = "user";
    o.modes = {Mode::generic};
    o.assert_recorded = true;  // linux-7.0 records it: the walk must still find it
    o.tests = 1000;
    o.seed = 20261205;
    PropertyResult r = check_family_walks(kernel::find_variant("linux-7.0"), o);
    ASSERT_FALSE(r.passed) << "no Generic walk of the user family broke zeroing";
    EXPECT_EQ(r.failure.invariant, "zeroing") << r.failure.message;
    EXPECT_NE(r.failure.scenario.find("\nmodes generic\n"), std::string::npos) << r.failure.scenario;
    EXPECT_TRUE(replays(r.failure.scenario, "zeroing")) << r.failure.scenario;
}

// The control: a walk keeps to the modes it is given (a review passes its
// --modes); every scenario it writes names that mode.
TEST(WalkModes, AWalkKeepsToTheModesAsked) {
    for (Mode m : {Mode::hw_tags, Mode::sw_tags}) {
        WalkOptions o;
        o.family = "user";
        o.modes = {m};
        o.assert_recorded = true;
        o.tests = 300;
        o.seed = 20261205;
        PropertyResult r = check_family_walks(kernel::find_variant("linux-7.0"), o);
        if (r.passed) continue;
        EXPECT_NE(r.failure.scenario.find(std::string("\nmodes ") + mode_name(m) + "\n"), std::string::npos)
            << r.failure.scenario;
    }
}

// A violation the baseline shows at the same event is let pass so the search
// goes on to what the variant adds, and kept (PropertyResult::shared): a
// review fills its cell with it instead of "holds" (issue 34: linux-7.0's
// page-tag-consistency [hw_tags], linux-6.4's too, was "holds" for RapidCheck).
TEST(BaselineFilter, WhatTheBaselineBreaksTooIsKeptNotDropped) {
    const kernel::Variant& v = kernel::find_variant("linux-7.0");
    WalkOptions o;
    o.family = "mempool";
    o.modes = {Mode::hw_tags};
    o.assert_recorded = true;
    o.ignore = {"no-false-positive"};  // linux-7.0's own (its v6.8 free check): not the point here
    o.baseline_filter = true;
    o.tests = 1000;
    o.seed = 20261205;
    PropertyResult r = check_family_walks(v, o);
    ASSERT_TRUE(r.shared.count("page-tag-consistency@hw_tags"))
        << "the sampled re-issue, " << v.baseline() << "'s too, was not kept";
    const LastFailure& f = r.shared.at("page-tag-consistency@hw_tags");
    EXPECT_NE(f.scenario.find("kasan.page_alloc.sample"), std::string::npos) << f.scenario;
    EXPECT_TRUE(replays(f.scenario, "page-tag-consistency")) << f.scenario;
    // the control: with no baseline to filter by, the same walks fail on it
    o.baseline_filter = false;
    PropertyResult c = check_family_walks(v, o);
    EXPECT_FALSE(c.passed);
    EXPECT_EQ(c.failure.invariant, "page-tag-consistency") << c.failure.message;
    EXPECT_TRUE(c.shared.empty());
}

// Filtered by a baseline that does not parse a boot parameter, a walk still
// boots it, and the baseline walks without it (its kernel ignores an unknown
// parameter): linux-6.3's sampled mempool re-issue is found over a v6.1 base,
// whose boot has no kasan.page_alloc.sample. Dropping such boots, as the
// walks did, left the sampling unwalked.
TEST(BaselineFilter, ABootTheBaselineCannotParseIsStillWalked) {
    const kernel::Variant& v = kernel::find_variant("linux-6.3");
    ASSERT_FALSE(kernel::find_variant(v.baseline()).boot_syntax().page_alloc_sample) << v.baseline();
    WalkOptions o;
    o.family = "mempool";
    o.modes = {Mode::hw_tags};
    o.assert_recorded = true;
    o.baseline_filter = true;
    o.tests = 1000;
    o.seed = 20261205;
    PropertyResult r = check_family_walks(v, o);
    ASSERT_FALSE(r.passed) << "no walk booted kasan.page_alloc.sample";
    EXPECT_TRUE(r.failure.invariant == "page-tag-consistency" || r.failure.invariant == "no-false-positive")
        << r.failure.message;
    EXPECT_NE(r.failure.scenario.find("kasan.page_alloc.sample"), std::string::npos) << r.failure.scenario;
}

}  // namespace

// mode-isolation in the walks (issue 34: a walk ran no baseline in lockstep,
// so a difference only a family's entry points show was "holds" for
// RapidCheck). tests/variants/pgtable_no_zero.variant drops __GFP_ZERO from
// GFP_PGTABLE_KERNEL and claims no change: under Generic a kernel page table
// is handed out not zeroed where linux-7.0 zeroes it. With zeroing itself let
// pass, the walk must still tell the outcomes apart, and its scenario must
// show mode-isolation when `tagproof run` replays it against the baseline.
namespace {
const kernel::Variant& pgtable_no_zero() {
    return kernel::load_variant_file(std::string(TAGPROOF_SOURCE_DIR) + "/tests/variants/pgtable_no_zero.variant");
}
WalkOptions isolation_walks(Mode m) {
    WalkOptions o;
    o.family = "user";
    o.modes = {m};
    o.tests = 300;
    o.seed = 20261205;
    o.baseline_filter = true;
    o.ignore = {"zeroing"};  // the variant's own break: what is left is the comparison
    return o;
}
}  // namespace

TEST(WalkIsolation, AWalkTellsTheVariantFromItsBaselineWhereHwTagsIsNotActive) {
    WalkOptions o = isolation_walks(Mode::generic);
    o.isolation = true;
    PropertyResult r = check_family_walks(pgtable_no_zero(), o);
    ASSERT_FALSE(r.passed) << "no Generic walk of the user family told file-pgtable-no-zero from linux-7.0";
    EXPECT_EQ(r.failure.invariant, "mode-isolation") << r.failure.message;
    EXPECT_NE(r.failure.message.find("data zero"), std::string::npos) << r.failure.message;
    EXPECT_NE(r.failure.scenario.find("\nbaseline linux-7.0\n"), std::string::npos) << r.failure.scenario;
    EXPECT_TRUE(replays(r.failure.scenario, "mode-isolation")) << r.failure.scenario;
}

// The controls: the same walks without the comparison pass (so it is the
// comparison that fails them), and HW_TAGS-active boots are not compared
// (there the patch may change outcomes: zeroing says whether it may).
TEST(WalkIsolation, WithoutTheComparisonTheSameWalksPass) {
    PropertyResult r = check_family_walks(pgtable_no_zero(), isolation_walks(Mode::generic));
    EXPECT_TRUE(r.passed) << r.failure.message << "\n" << r.failure.scenario;
}

TEST(WalkIsolation, AnActiveHwTagsBootIsNotCompared) {
    // which boots a walk compares: HW_TAGS with MTE and KASAN on is not one
    auto active = [](Mode m, const char* boot, bool mte) {
        explore::FamilyOptions fo;
        fo.variant = "linux-7.0";
        fo.family = explore::families(kernel::find_variant("linux-7.0")).front();
        fo.mode = m;
        fo.config = {boot, mte};
        return explore::FamilyWalk(fo, 1).hw_tags_active();
    };
    EXPECT_TRUE(active(Mode::hw_tags, "", true));
    EXPECT_TRUE(active(Mode::hw_tags, "init_on_free=1", true));
    EXPECT_FALSE(active(Mode::hw_tags, "kasan=off", true));
    EXPECT_FALSE(active(Mode::hw_tags, "", false));
    EXPECT_FALSE(active(Mode::generic, "", true));
    EXPECT_FALSE(active(Mode::sw_tags, "", true));
    // and the walks under HW_TAGS compare only those boots
    WalkOptions o = isolation_walks(Mode::hw_tags);
    o.isolation = true;
    PropertyResult r = check_family_walks(pgtable_no_zero(), o);
    if (!r.passed && r.failure.invariant == "mode-isolation") {
        const bool inactive = r.failure.scenario.find("mte=n") != std::string::npos ||
                              r.failure.scenario.find("kasan=off") != std::string::npos;
        EXPECT_TRUE(inactive) << r.failure.scenario;
    }
}
