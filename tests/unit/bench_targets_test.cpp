// `tagproof bench`'s reading of Google Benchmark JSON and its targets: the
// recorded run meets them, a run with a slow reference and a slow tag store
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
    EXPECT_NEAR(checks[0].measured, 128.4, 0.1);  // 5.96 M / 46.4 k
    EXPECT_NEAR(checks[2].measured, 15.0 / 8.66, 1e-3);
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
    std::string only_tags = read("met.json");
    only_tags = only_tags.substr(0, only_tags.find("    {\n      \"name\": \"BM_ModelEvents\"")) + "  ]\n}\n";
    EXPECT_THROW(check_targets(parse_benchmark_json(only_tags, "x.json")), InputError);
}

}  // namespace
