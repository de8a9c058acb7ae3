// bench_targets.hpp — the speed targets the benchmarks are held to, read
// from Google Benchmark's JSON output (`tagproof bench`):
//   - the reference replays at least 27 M events a second (issue 33) and at
//     least 50 times the model's events per second (issue 5);
//   - setting tags in the packed store within 1.2 times a memset of the same
//     tag bytes (issue 33; issue 15 had 1.5, issue 5 had 3).
// Each benchmark is run several times in one run; a target is decided on the
// medians of its sides, and each side's spread (the slowest repetition
// against the fastest, over the median) is printed beside it, so a verdict
// that one noisy repetition could flip shows as such.
#pragma once
#include <string>
#include <vector>

namespace tagproof::bench {

struct BenchResult {
    std::string name;              // "BM_TagStoreSetRange/4096", or "..._median" for an aggregate
    double real_time = 0;          // in `unit`
    std::string unit;              // "ns", "ms", ...
    double items_per_second = 0;   // 0 when the benchmark does not count items
    bool aggregate = false;        // run_type "aggregate" (mean, median, stddev, cv)
};

// The "benchmarks" of --benchmark_out_format=json. Throws InputError
// (where:line) for text that is not that.
std::vector<BenchResult> parse_benchmark_json(const std::string& text, const std::string& where);

// One benchmark's repetitions: the median decides; min and max show the spread.
struct Measured {
    double median = 0, min = 0, max = 0;
    int runs = 0;  // repetitions read; 0 when the JSON kept only the median aggregate
    std::string unit;
    // (max - min) / median, or -1 when unknown
    double spread() const { return runs > 1 && median > 0 ? (max - min) / median : -1; }
};

// A benchmark's real time (items = false) or items per second (items = true)
// over its repetitions. Throws InputError naming a benchmark the run lacks.
Measured measure(const std::vector<BenchResult>& results, const std::string& name, bool items);

struct TargetCheck {
    std::string what;     // "reference / model events per second"
    double measured = 0;  // the ratio (or the rate), of medians
    double limit = 0;
    bool at_least = true;  // measured >= limit, else measured <= limit
    std::string detail;    // each side's median and spread, as printed
    bool met() const { return at_least ? measured >= limit : measured <= limit; }
};

// Every target, from one run's results. Throws InputError naming a
// benchmark the targets need and the run lacks.
std::vector<TargetCheck> check_targets(const std::vector<BenchResult>& results);

// "18.1 M/s, 5 runs, spread 4 %" and the like, for a target's detail.
std::string describe(const Measured& m, double scale, const char* unit);

}  // namespace tagproof::bench
