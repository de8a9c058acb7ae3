// The trace BMC over kasan.mode and kasan.write_only (issue 15, item 3): the
// boot parameters that decide how a tag-check fault is delivered and which
// accesses are checked are symbolic inputs like init_on_alloc, not the
// default boot alone. The negative control is mutant-write-only-unchecked,
// whose defect needs kasan.write_only=on: the BMC over the configuration space
// finds it (and the model replays it), the same BMC pinned to the default
// boot cannot.
#include <gtest/gtest.h>

#include "instance_bmc.hpp"
#include "prove.hpp"

using namespace tagproof;

namespace {

const solver::ScopeVerdict* trace_verdict(std::vector<solver::Verdict>& vs, const std::string& id) {
    for (const auto& v : vs)
        if (v.id == id) return v.primary();
    return nullptr;
}

std::vector<solver::Verdict> prove_trace(const std::string& variant, const std::string& invariant) {
    solver::ProveOptions po;
    po.variant = variant;
    po.only = {invariant + "/trace"};
    return solver::prove(po);
}

TEST(TraceBmcModes, TheMethodNamesTheConfigurationsItRangesOver) {
    auto vs = prove_trace("linux-7.0", "mismatch-faults");
    ASSERT_EQ(vs.size(), 1u);
    EXPECT_NE(vs[0].method.find("async or asymm"), std::string::npos) << vs[0].method;
    EXPECT_NE(vs[0].method.find("kasan.write_only"), std::string::npos) << vs[0].method;
    const auto* s = vs[0].primary();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->verdict, "proved");
}

TEST(TraceBmcModes, AWriteOnlyDefectIsFoundAndReplayed) {
    auto vs = prove_trace("mutant-write-only-unchecked", "mismatch-faults");
    const auto* s = trace_verdict(vs, "mismatch-faults/trace");
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->verdict, "counterexample");
    EXPECT_TRUE(s->replay_ok) << s->replay;
    EXPECT_NE(s->scenario.find("kasan.write_only=on"), std::string::npos) << s->scenario;
    EXPECT_NE(s->scenario.find("write("), std::string::npos) << s->scenario;
}

TEST(TraceBmcModes, PinnedToTheDefaultBootTheSameBmcMissesIt) {
    solver::ConcreteConfig sync_default;  // hw_tags, MTE, kasan.mode=sync, no write_only
    const auto a = solver::bmc_instance("mutant-write-only-unchecked", "mismatch-faults", sync_default,
                                        {0xcc0 /* GFP_KERNEL */}, 4);
    EXPECT_EQ(a.kind, solver::InstanceAnswer::holds);
    solver::ConcreteConfig write_only = sync_default;
    write_only.write_only = true;
    const auto b = solver::bmc_instance("mutant-write-only-unchecked", "mismatch-faults", write_only, {0xcc0}, 4);
    EXPECT_EQ(b.kind, solver::InstanceAnswer::violated);
    EXPECT_NE(b.trace.find("kasan.write_only=on"), std::string::npos) << b.trace;
}

// async keeps checking on after a fault (TFSR, reported later); sync turns it
// off on that CPU. Both are proved for linux-7.0 with the mode an input, and
// the mode shows in a counterexample only where it matters.
TEST(TraceBmcModes, AsyncAndAsymmAreReachedForTheRelease) {
    for (TagCheckMode m : {TagCheckMode::async, TagCheckMode::asymm}) {
        solver::ConcreteConfig c;
        c.check_mode = m;
        for (const char* inv : {"mismatch-faults", "no-false-positive", "detection"}) {
            const auto a = solver::bmc_instance("linux-7.0", inv, c, {0xcc0}, 4);
            EXPECT_EQ(a.kind, solver::InstanceAnswer::holds) << check_mode_name(m) << " " << inv << ": " << a.trace;
        }
        // the negative control in the same modes: write_only and a mismatched write
        solver::ConcreteConfig w = c;
        w.write_only = true;
        const auto b = solver::bmc_instance("mutant-write-only-unchecked", "mismatch-faults", w, {0xcc0}, 4);
        EXPECT_EQ(b.kind, solver::InstanceAnswer::violated) << check_mode_name(m);
        EXPECT_NE(b.trace.find(std::string("kasan.mode=") + check_mode_name(m)), std::string::npos) << b.trace;
    }
}

}  // namespace
