// invariants_fuzz.cpp — libFuzzer target: the invariants of one variant on
// decoded event sequences (the shared vocabulary, differential/event.hpp),
// run in the executable model with its oracle. A violation of an invariant
// the variant is not recorded to have aborts with the scenario that replays
// it between "--- scenario ---" markers (the campaign's triage reads them;
// with TAGPROOF_FUZZ_TRIAGE=1 it prints and goes on, so one process can read
// a whole crash directory).
//
// The variant: TAGPROOF_VARIANT in the environment (a campaign sets it), or
// else byte 0 picks one of the ten built-in ones. Input layout:
// decode_fuzz_input() (differential/event.hpp), as differential_fuzz.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "event.hpp"
#include "fuzz_env.hpp"
#include "variant.hpp"

using namespace tagproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    // the reference's agreement is differential_fuzz's job: run to the end
    const differential::FuzzRun r = fuzz::run_input(data, size, "invariants_fuzz (a libFuzzer input, decoded)",
                                                    reference::RefMutation::none, /*stop_at_mismatch=*/false);
    if (!r.violated) return 0;
    std::fprintf(stderr, "violation of %s: %s\nat event: %s\n--- scenario ---\n%s--- end ---\n", r.invariant.c_str(),
                 r.message.c_str(), r.violation_at.c_str(), r.violation_scenario.c_str());
    if (fuzz::triage()) return 0;  // one process reads every crash
    std::abort();
}
