// The one transition (model/kernel/effects.hpp, issue 15): post_alloc_hook's
// effect on a block, in the kernel's order, is what the model, the reference
// and the solver all apply. A variant that resets the page tag after
// unpoisoning (control-reset-after-unpoison) gets the same verdict from
// `prove --baseline`, the explorer and its scenario; the solver once proved
// its mode-isolation because it had its own copy of the order.
#include <gtest/gtest.h>

#include "effects.hpp"
#include "explorer.hpp"
#include "prove.hpp"
#include "runner.hpp"
#include "scenario.hpp"
#include "test_env.hpp"
#include "variant.hpp"

using namespace tagproof;
using namespace tagproof::kernel;
using tagproof::test::env_for;

namespace {

std::string verdict(const std::string& variant, const std::string& obligation) {
    solver::ProveOptions po;
    po.variant = variant;
    po.baseline = "linux-7.0";
    po.only = {obligation};
    for (const auto& v : solver::prove(po))
        if (v.id == obligation) {
            for (const auto& s : v.scopes) {
                if (s.verdict == "counterexample") {
                    EXPECT_TRUE(s.replay_ok) << obligation << ": " << s.replay;
                    return "counterexample";
                }
            }
            return v.scopes.empty() ? "?" : v.scopes[0].verdict;
        }
    return "missing";
}

bool explorer_finds(const std::string& variant, const std::string& invariant) {
    explore::ExploreOptions o;
    o.variant = variant;
    o.depth = 2;
    for (const auto& v : explore::explore(o).verdicts)
        if (v.invariant == invariant) return v.violated;
    ADD_FAILURE() << "the explorer has no invariant " << invariant;
    return false;
}

std::vector<std::string> scenario_violations(const std::string& variant, Mode m) {
    scenario::Scenario sc =
        scenario::load_scenario(std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/negative/reset_after_unpoison.litmus");
    scenario::RunOptions ro;
    ro.variant_override = variant;
    std::vector<std::string> v;
    for (const auto& r : scenario::run_scenario(sc, ro))
        if (r.mode == m)
            for (const auto& x : r.violations) v.push_back(x.substr(0, x.find(':')));
    return v;
}
bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

// The order, concretely: the reset after unpoisoning wins; tag_clear then
// unpoison leaves the drawn tag; nothing written keeps the old state.
TEST(OneTransition, TheKernelsOrderConcretely) {
    const Variant& v = find_variant("linux-7.0");
    CEnv hw = env_for(v, Mode::hw_tags), sw = env_for(v, Mode::sw_tags);
    BlockState<Concrete> old{0xF5, 0xF5, 0xF5, false};
    PostAllocPlan<Concrete> p;
    p.unpoison = true;
    p.reset_page_tag = true;
    auto s = apply_effect<Concrete>(post_alloc_effect<Concrete>(hw, p, 0xF3), old);
    EXPECT_EQ(s.page_tag, 0xFFu);
    EXPECT_EQ(s.mem_tag, 0xF3u);
    p.reset_page_tag = false;
    p.tag_clear = true;
    s = apply_effect<Concrete>(post_alloc_effect<Concrete>(hw, p, 0xF3), old);
    EXPECT_EQ(s.page_tag, 0xF3u);
    EXPECT_EQ(s.mte_tag, 0xF3u);
    PostAllocPlan<Concrete> none;
    s = apply_effect<Concrete>(post_alloc_effect<Concrete>(sw, none, 0x33), old);
    EXPECT_EQ(s.page_tag, 0xF5u);
    EXPECT_EQ(s.mem_tag, 0xF5u);
    EXPECT_FALSE(s.data_zero);
    none.tag_clear = true;  // SW_TAGS: tag_clear writes the MTE tags (with MTE), never the shadow
    s = apply_effect<Concrete>(post_alloc_effect<Concrete>(sw, none, 0x33), old);
    EXPECT_EQ(s.mem_tag, 0xF5u);
    EXPECT_EQ(s.mte_tag, sw.mte ? 0xF0u : 0xF5u);
}

TEST(OneTransition, ResetAfterUnpoisonSameVerdictFromEveryEngine) {
    const std::string v = "control-reset-after-unpoison";
    // SW_TAGS: the outcome differs from linux-7.0's
    EXPECT_EQ(verdict(v, "mode-isolation/sw_tags/alloc_pages"), "counterexample");
    EXPECT_TRUE(has(scenario_violations(v, Mode::sw_tags), "mode-isolation"));
    // HW_TAGS: handed out through a match-all pointer
    EXPECT_EQ(verdict(v, "detection/coverage/alloc_pages"), "counterexample");
    EXPECT_TRUE(explorer_finds(v, "detection"));
    EXPECT_TRUE(has(scenario_violations(v, Mode::hw_tags), "detection"));
}

// The twin: linux-7.0 itself, every engine saying detection holds there.
// (Its mode-isolation against itself could not fail, so it is not asked;
// that the comparison can fail is the control's case above.)
TEST(OneTransition, TheBaselineHoldsInEveryEngine) {
    EXPECT_EQ(verdict("linux-7.0", "detection/coverage/alloc_pages"), "proved");
    EXPECT_FALSE(explorer_finds("linux-7.0", "detection"));
    EXPECT_FALSE(has(scenario_violations("linux-7.0", Mode::hw_tags), "detection"));
    EXPECT_FALSE(has(scenario_violations("linux-7.0", Mode::sw_tags), "detection"));
}
