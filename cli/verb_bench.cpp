// verb_bench.cpp — `tagproof bench`: runs the Google Benchmark program
// (bench/) and holds its numbers to the targets (bench/bench_targets.hpp):
// ratios of one run where a target compares two things, so a slower or
// busier machine moves both sides; the reference's own rate is absolute.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "bench_targets.hpp"
#include "error.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

int verb_bench(const Args& args) {
    Options o = parse_verb_options("bench", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof bench [--min-time SECONDS] [--json FILE] [--binary PATH]\n"
                     "       tagproof bench --from-json FILE\n\n"
                     "Runs the benchmarks (build/bench/tagproof_bench: tag setting against memset,\n"
                     "model and reference events per second), five repetitions of each interleaved,\n"
                     "and checks each target on the medians of the one run: the reference at least\n"
                     "27 M events/s and at least 50 times the model; TagStore::set_range within 1.2\n"
                     "times memset of the same tag bytes at 128 B, 4 KiB, 32 KiB and 2 MiB. Each\n"
                     "side's median, range and spread ((slowest - fastest) / median) is printed.\n"
                     "--json keeps Google Benchmark's JSON; --from-json checks a kept run.\n"
                     "Exit status: 0 every target met, 1 a target missed, 2 bad input.\n";
        return 0;
    }
    if (!o.positional.empty()) throw InputError("command line", "tagproof bench takes no arguments");
    std::string json_file = o.get("--from-json");
    if (json_file.empty()) {
        std::string min_time = o.get("--min-time", "0.2");
        char* end = nullptr;
        const double t = std::strtod(min_time.c_str(), &end);
        if (end == min_time.c_str() || *end || !(t > 0 && t <= 60))
            throw InputError("--min-time", "'" + min_time + "': expected seconds, more than 0 and at most 60");
        const std::string bin = o.get("--binary", TAGPROOF_BENCH_BINARY);
        if (access(bin.c_str(), X_OK) != 0)
            throw InputError(bin, "the benchmark program is not built (cmake --build --preset default)");
        json_file = o.get("--json");
        if (json_file.empty()) {
            char tmpl[] = "/tmp/tagproof-bench-XXXXXX";
            const int fd = mkstemp(tmpl);
            if (fd < 0) throw InputError("/tmp", "cannot create a file for the benchmark's JSON");
            close(fd);
            json_file = tmpl;
        }
        // the benchmark's console table goes to stderr: progress, not the verdict.
        // Five repetitions in random interleaving, judged on their medians: a
        // few-nanosecond run beside its memset moved 30% between two runs on a
        // shared 2-core machine, and interleaving lets both sides see the same
        // noise.
        const std::string cmd = "'" + bin + "' --benchmark_min_time=" + min_time +
                                " --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true"
                                " --benchmark_out='" +
                                json_file + "' --benchmark_out_format=json 1>&2";
        std::cerr << "running: " << cmd << "\n";
        if (std::system(cmd.c_str()) != 0) throw InputError(bin, "the benchmark program failed");
    }
    std::stringstream ss;
    {
        std::ifstream in(json_file);
        if (!in) throw InputError(json_file, "cannot open the benchmark JSON");
        ss << in.rdbuf();
    }
    // a temporary file of ours goes, whatever the JSON holds
    if (o.get("--json").empty() && o.get("--from-json").empty()) std::filesystem::remove(json_file);
    const auto checks = bench::check_targets(bench::parse_benchmark_json(ss.str(), json_file));
    bool all = true;
    std::printf("%-44s %10s %8s  %s\n", "target (medians of one run)", "measured", "limit", "verdict");
    for (const auto& c : checks) {
        all = all && c.met();
        std::printf("%-44s %10.2f %2s %5.1f  %s\n", c.what.c_str(), c.measured, c.at_least ? ">=" : "<=", c.limit,
                    c.met() ? "met" : "MISSED");
        std::printf("    %s\n", c.detail.c_str());
    }
    std::printf("%s\n", all ? "every target met" : "a target was missed");
    return all ? EXIT_HOLDS : EXIT_COUNTEREXAMPLE;
}

}  // namespace tagproof::cli
