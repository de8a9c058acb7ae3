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
#include <sched.h>
#include <unistd.h>

#include "bench_cpu.hpp"
#include "bench_targets.hpp"
#include "error.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

namespace {

// A temporary file for the benchmark's JSON, or `keep` when the user named one.
std::string json_path(const std::string& keep) {
    if (!keep.empty()) return keep;
    char tmpl[] = "/tmp/tagproof-bench-XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) throw InputError("/tmp", "cannot create a file for the benchmark's JSON");
    close(fd);
    return tmpl;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path, "cannot open the benchmark JSON");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The CPUs this process may run on (its affinity mask: taskset, cgroups).
std::vector<int> allowed_cpus(cpu_set_t& mask) {
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) throw InputError("sched_getaffinity", "cannot read this process's CPUs");
    std::vector<int> out;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &mask)) out.push_back(c);
    return out;
}

// Runs from here on (and the programs std::system starts, which inherit the
// mask) on `cpu` alone.
void pin_to(int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        throw InputError("--cpu", "cannot run on cpu" + std::to_string(cpu));
}

// The calibration: memset of 4 KiB of tag bytes, the benchmark a shared vCPU
// slowed most (bench/bench_cpu.hpp), three repetitions on each CPU, their
// median.
std::vector<bench::CpuTiming> calibrate(const std::string& bin, const std::vector<int>& cpus) {
    const char* name = "BM_MemsetTagBytes/4096";
    std::vector<bench::CpuTiming> out;
    for (int c : cpus) {
        pin_to(c);
        const std::string json = json_path("");
        const std::string cmd = "'" + bin + "' --benchmark_filter='^" + name +
                                "$' --benchmark_min_time=0.05 --benchmark_repetitions=3 --benchmark_out='" + json +
                                "' --benchmark_out_format=json >/dev/null 2>&1";
        const int rc = std::system(cmd.c_str());
        const std::string text = rc == 0 ? read_file(json) : "";
        std::filesystem::remove(json);
        if (rc != 0) throw InputError(bin, "the benchmark program failed on cpu" + std::to_string(c));
        const bench::Measured m = bench::measure(bench::parse_benchmark_json(text, bin), name, false);
        out.push_back({c, m.median, m.unit});
    }
    return out;
}

}  // namespace

int verb_bench(const Args& args) {
    Options o = parse_verb_options("bench", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof bench [--min-time SECONDS] [--json FILE] [--binary PATH] [--cpu N|auto|any]\n"
                     "       tagproof bench --from-json FILE\n\n"
                     "Runs the benchmarks (build/bench/tagproof_bench: tag setting against memset,\n"
                     "model and reference events per second), five repetitions of each interleaved,\n"
                     "and checks each target on the medians of the one run: the reference at least\n"
                     "27 M events/s and at least 50 times the model; TagStore::set_range within 1.2\n"
                     "times memset of the same tag bytes at 128 B, 4 KiB, 32 KiB and 2 MiB. Each\n"
                     "side's median, range and spread ((slowest - fastest) / median) is printed.\n"
                     "The run is pinned to one CPU: --cpu auto (the default) times a memset on each\n"
                     "CPU this process may use and takes the quickest (a shared vCPU runs the same\n"
                     "work slower), --cpu N takes N, --cpu any leaves it to the scheduler.\n"
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
        cpu_set_t mask;
        const std::vector<int> cpus = allowed_cpus(mask);
        const std::string cpu = o.get("--cpu", "auto");
        if (cpu == "auto") {
            if (cpus.size() > 1) {
                const auto timings = calibrate(bin, cpus);
                const int chosen = bench::quietest_cpu(timings);
                pin_to(chosen);
                std::printf("cpu (memset 4 KiB of tag bytes, median of 3): %s\n",
                            bench::describe_choice(timings, chosen).c_str());
            }
        } else if (cpu != "any") {
            char* cend = nullptr;
            const long n = std::strtol(cpu.c_str(), &cend, 10);
            if (cend == cpu.c_str() || *cend || n < 0 || n >= CPU_SETSIZE || !CPU_ISSET(int(n), &mask))
                throw InputError("--cpu", "'" + cpu + "': expected auto, any or a CPU this process may run on");
            pin_to(int(n));
            std::printf("cpu: pinned to cpu%ld (--cpu)\n", n);
        }
        json_file = json_path(o.get("--json"));
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
        const int rc = std::system(cmd.c_str());
        sched_setaffinity(0, sizeof mask, &mask);
        if (rc != 0) throw InputError(bin, "the benchmark program failed");
    }
    const std::string text = read_file(json_file);
    // a temporary file of ours goes, whatever the JSON holds
    if (o.get("--json").empty() && o.get("--from-json").empty()) std::filesystem::remove(json_file);
    const auto checks = bench::check_targets(bench::parse_benchmark_json(text, json_file));
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
