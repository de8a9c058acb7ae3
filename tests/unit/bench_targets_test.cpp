// `tagproof bench`'s reading of Google Benchmark JSON and its targets: a
// recorded run is judged on the medians of its repetitions (not its means,
// not one repetition), a run kept as aggregates on its _median entries, a
// run with a slow reference and a slow tag store misses exactly those, and
// what is not benchmark output is refused.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "bench_cpu.hpp"
#include "bench_targets.hpp"
#include "error.hpp"

using namespace tagproof;
using namespace tagproof::bench;

namespace {

std::string read(const std::string& name) {
    std::ifstream in(std::string(TAGPROOF_SOURCE_DIR) + "/tests/bench/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> missed(const std::vector<TargetCheck>& checks) {
    std::vector<std::string> out;
    for (const auto& c : checks)
        if (!c.met()) out.push_back(c.what);
    return out;
}

// A run of `tagproof bench --json` (reports/PERFORMANCE.md, 2026-12-06): five
// repetitions of each benchmark, judged on medians computed from them, each
// side's spread in the detail.
TEST(BenchTargets, ARecordedRunIsJudgedOnTheMediansOfItsRepetitions) {
    const auto rs = parse_benchmark_json(read("run-2026-12-06.json"), "run-2026-12-06.json");
    const Measured ref = measure(rs, "BM_ReferenceEvents", true);
    EXPECT_EQ(ref.runs, 5);
    EXPECT_NEAR(ref.median / 1e6, 19.89, 0.01);
    EXPECT_NEAR(ref.min / 1e6, 16.2, 0.05);  // one slow repetition: the median is not moved by it
    EXPECT_NEAR(ref.spread(), 0.19, 0.01);
    const auto checks = check_targets(rs);
    ASSERT_EQ(checks.size(), 6u);
    EXPECT_NEAR(checks[1].measured, 21.19, 0.01);
    EXPECT_NE(checks[2].detail.find("5 runs"), std::string::npos) << checks[2].detail;
    EXPECT_EQ(missed(checks), (std::vector<std::string>{"reference events per second (millions)",
                                                        "reference / model events per second"}));
}

// The median, not the mean: a run kept with its aggregates alone (12-01)
// is read from its _median entries, and says its spread is unknown.
TEST(BenchTargets, ARunKeptAsAggregatesIsReadFromItsMedians) {
    const auto checks = check_targets(parse_benchmark_json(read("aggregates-2026-12-01.json"), "x.json"));
    ASSERT_EQ(checks.size(), 6u);
    EXPECT_NEAR(checks[1].measured, 167.71, 0.01);
    EXPECT_NEAR(checks[3].measured, 1.29, 0.01);  // 4 KiB: over 1.2
    EXPECT_NE(checks[0].detail.find("spread unknown"), std::string::npos) << checks[0].detail;
    EXPECT_EQ(missed(checks), (std::vector<std::string>{"reference events per second (millions)",
                                                        "TagStore::set_range / memset, 4096 B"}));
}

// met.json is constructed (its context says how): every target met.
TEST(BenchTargets, ARunMeetingEveryTargetIsMet) {
    const auto checks = check_targets(parse_benchmark_json(read("met.json"), "met.json"));
    for (const auto& c : checks) EXPECT_TRUE(c.met()) << c.what << " " << c.measured;
}

TEST(BenchTargets, ASlowReferenceAndASlowTagStoreAreMissed) {
    const auto checks = check_targets(parse_benchmark_json(read("missed.json"), "missed.json"));
    EXPECT_EQ(missed(checks), (std::vector<std::string>{"reference events per second (millions)",
                                                        "reference / model events per second",
                                                        "TagStore::set_range / memset, 4096 B"}));
}

TEST(BenchTargets, TheMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
    std::vector<BenchResult> rs;
    for (double t : {4.0, 1.0, 3.0, 100.0}) rs.push_back({"BM_X", t, "ns", 0, false});
    rs.push_back({"BM_X_median", 999, "ns", 0, true});  // an aggregate beside them is not a repetition
    const Measured m = measure(rs, "BM_X", false);
    EXPECT_EQ(m.runs, 4);
    EXPECT_DOUBLE_EQ(m.median, 3.5);
    EXPECT_DOUBLE_EQ(m.min, 1.0);
    EXPECT_DOUBLE_EQ(m.max, 100.0);
    EXPECT_THROW(measure(rs, "BM_Y", false), InputError);
}

TEST(BenchTargets, WhatIsNotBenchmarkOutputIsRefused) {
    EXPECT_THROW(parse_benchmark_json("{\"context\": {}}\n", "x.json"), InputError);
    EXPECT_THROW(parse_benchmark_json("\"benchmarks\": [\n {\n \"name\": \"BM_X\",\n \"real_time\": fast,\n", "x.json"),
                 InputError);
    // a run without the event benchmarks cannot be held to the targets
    std::string renamed = read("met.json");
    for (std::size_t at; (at = renamed.find("BM_ModelEvents")) != std::string::npos;)
        renamed.replace(at, 14, "BM_OtherEvents");
    const auto results = parse_benchmark_json(renamed, "x.json");  // parses
    EXPECT_THROW(check_targets(results), InputError);               // but lacks the model's run
}

}  // namespace

// `tagproof bench` pins its run to the CPU that ran the calibration quickest
// (bench/bench_cpu.hpp): the times as measured on this project's machine
// (cpu1 the host's shared vCPU) choose cpu0; the same times the other way
// round choose cpu1 (the control: the choice follows the times, not the
// number); ties go to the lowest number; a CPU without a time is refused.
TEST(BenchCpu, TheRunIsPinnedToTheQuickestCpu) {
    const std::vector<CpuTiming> measured = {{0, 1.80, "ns"}, {1, 3.10, "ns"}};
    EXPECT_EQ(quietest_cpu(measured), 0);
    EXPECT_EQ(describe_choice(measured, 0), "cpu0 1.8 ns, cpu1 3.1 ns (1.72x): pinned to cpu0");
    EXPECT_EQ(quietest_cpu({{0, 3.10, "ns"}, {1, 1.80, "ns"}}), 1);
    EXPECT_EQ(quietest_cpu({{3, 2.0, "ns"}, {2, 2.0, "ns"}}), 2);
    EXPECT_THROW(quietest_cpu({}), InputError);
    EXPECT_THROW(quietest_cpu({{0, 1.8, "ns"}, {1, 0, "ns"}}), InputError);
}
