// bench_targets.hpp — the speed targets the benchmarks are held to, read
// from Google Benchmark's JSON output (`tagproof bench`): the reference at
// least 50 times the model's events per second, and setting tags in the
// packed store within 1.5 times a memset of the same tag bytes (issue 15;
// issue 5 had 3).
#pragma once
#include <string>
#include <vector>

namespace tagproof::bench {

struct BenchResult {
    std::string name;              // "BM_TagStoreSetRange/4096"
    double real_time = 0;          // in `unit`
    std::string unit;              // "ns", "ms", ...
    double items_per_second = 0;   // 0 when the benchmark does not count items
};

// The "benchmarks" of --benchmark_out_format=json. Throws InputError
// (where:line) for text that is not that.
std::vector<BenchResult> parse_benchmark_json(const std::string& text, const std::string& where);

struct TargetCheck {
    std::string what;     // "reference / model events per second"
    double measured = 0;  // the ratio
    double limit = 0;
    bool at_least = true;  // measured >= limit, else measured <= limit
    bool met() const { return at_least ? measured >= limit : measured <= limit; }
};

// Every target, from one run's results. Throws InputError naming a
// benchmark the targets need and the run lacks.
std::vector<TargetCheck> check_targets(const std::vector<BenchResult>& results);

}  // namespace tagproof::bench
