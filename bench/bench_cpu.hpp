// bench_cpu.hpp — which CPU `tagproof bench` runs its benchmarks on.
//
// Why: on the 2-vCPU machines this project is built on, one vCPU ran every
// benchmark 1.4-1.7 times slower than the other, the same program, minutes
// apart (memset of 4 KiB of tag bytes 1.8 ns on cpu0, 2.7-3.2 ns on cpu1; the
// reference 27 M events/s on cpu0, 19.5 M/s on cpu1: `taskset -c N
// build/bench/tagproof_bench`). The host shares that vCPU; a run left to the
// scheduler landed on either and could move between them, so an absolute
// target (the reference's events per second) passed or failed by where the
// process landed. `tagproof bench` therefore times one short benchmark on
// each CPU it may run on, pins the run to the quickest (the quietest: the
// same work, so a slower CPU is a busier one) and prints every CPU's time.
// Ratio targets are unchanged by the choice: both sides run on that CPU.
#pragma once
#include <string>
#include <vector>

namespace tagproof::bench {

struct CpuTiming {
    int cpu = 0;
    double time = 0;  // the calibration benchmark's median real time
    std::string unit;
};

// The CPU to pin to: the least time; among equal times the lowest number.
// Throws InputError when there is nothing to choose from or a time is not
// positive (a calibration that did not run).
int quietest_cpu(const std::vector<CpuTiming>& timings);

// "cpu0 1.80 ns, cpu1 3.10 ns (1.72x): pinned to cpu0" and the like.
std::string describe_choice(const std::vector<CpuTiming>& timings, int chosen);

}  // namespace tagproof::bench
