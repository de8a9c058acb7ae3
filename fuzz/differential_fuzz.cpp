// differential_fuzz.cpp — libFuzzer target: bytes decoded into the shared
// command vocabulary (differential/event.hpp), run on the model and the
// reference in lockstep; any difference is a crash with both states and the
// trace printed (issue 5); TAGPROOF_FUZZ_TRIAGE=1 prints and goes on.
//
// Input layout: decode_fuzz_input() (differential/event.hpp): a variant
// byte (TAGPROOF_VARIANT overrides it), random-tag picks, two configuration
// bytes, then four bytes an event.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "event.hpp"
#include "fuzz_env.hpp"
#include "variant.hpp"

using namespace tagproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    // planted: the reference leaves a tag range's last granule untagged
    const differential::FuzzRun r = fuzz::run_input(
        data, size, "differential_fuzz (a libFuzzer input, decoded)",
        fuzz::planted() ? reference::RefMutation::short_tag_range : reference::RefMutation::none, true);
    if (r.mismatch.empty()) return 0;
    // the first line names the event: what the triage deduplicates by
    std::fprintf(stderr, "mismatch of %s\n%s\n--- scenario ---\n%s--- end ---\n", r.mismatch_at.c_str(),
                 r.mismatch.c_str(), r.scenario.c_str());
    if (fuzz::triage()) return 0;
    std::abort();
}
