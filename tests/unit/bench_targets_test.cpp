// `tagproof bench`'s reading of Google Benchmark JSON and its targets: the
// recorded run meets them (its medians, not its means), a run with a slow reference and a slow tag store
// misses exactly those, and what is not benchmark output is refused.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

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

TEST(BenchTargets, TheRecordedRunMeetsEveryTarget) {
    const auto checks = check_targets(parse_benchmark_json(read("met.json"), "met.json"));
    ASSERT_EQ(checks.size(), 5u);
    // the run in reports/PERFORMANCE.md (five repetitions interleaved, judged
    // on the medians that sit beside the means and deviations in the JSON)
    EXPECT_NEAR(checks[0].measured, 167.71, 0.01);
    EXPECT_NEAR(checks[2].measured, 1.29, 0.01);
    for (const auto& c : checks) EXPECT_TRUE(c.met()) << c.what << " " << c.measured;
}

TEST(BenchTargets, ASlowReferenceAndASlowTagStoreAreMissed) {
    const auto checks = check_targets(parse_benchmark_json(read("missed.json"), "missed.json"));
    std::vector<std::string> missed;
    for (const auto& c : checks)
        if (!c.met()) missed.push_back(c.what);
    EXPECT_EQ(missed, (std::vector<std::string>{"reference / model events per second",
                                                "TagStore::set_range / memset, 4096 B"}));
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
