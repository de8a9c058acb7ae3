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

#include "family_walk_property.hpp"
#include "property.hpp"
#include "runner.hpp"
#include "scenario.hpp"
#include "variant.hpp"

using namespace tagproof;
using namespace tagproof::properties;

namespace {

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
    scenario::Scenario sc = scenario::parse_scenario(r.failure.scenario, "walk");
    bool shown = false;
    for (const auto& res : scenario::run_scenario(sc, {}))
        for (const auto& v : res.violations) shown |= v.rfind(c.invariant, 0) == 0;
    EXPECT_TRUE(shown) << r.failure.scenario;
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

}  // namespace
