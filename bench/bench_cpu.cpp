// bench_cpu.cpp — see bench_cpu.hpp.
#include "bench_cpu.hpp"

#include <cstdio>

#include "error.hpp"

namespace tagproof::bench {

int quietest_cpu(const std::vector<CpuTiming>& timings) {
    if (timings.empty()) throw InputError("benchmark calibration", "no CPU was timed");
    const CpuTiming* best = nullptr;
    for (const auto& t : timings) {
        if (!(t.time > 0))
            throw InputError("benchmark calibration", "cpu" + std::to_string(t.cpu) + " has no time");
        if (!best || t.time < best->time || (t.time == best->time && t.cpu < best->cpu)) best = &t;
    }
    return best->cpu;
}

std::string describe_choice(const std::vector<CpuTiming>& timings, int chosen) {
    std::string out;
    double best = 0;
    for (const auto& t : timings)
        if (t.cpu == chosen) best = t.time;
    for (const auto& t : timings) {
        char b[96];
        if (t.cpu == chosen || !(best > 0))
            std::snprintf(b, sizeof b, "cpu%d %.3g %s", t.cpu, t.time, t.unit.c_str());
        else
            std::snprintf(b, sizeof b, "cpu%d %.3g %s (%.2fx)", t.cpu, t.time, t.unit.c_str(), t.time / best);
        out += (out.empty() ? "" : ", ") + std::string(b);
    }
    return out + ": pinned to cpu" + std::to_string(chosen);
}

}  // namespace tagproof::bench
