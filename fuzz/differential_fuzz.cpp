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

#include "error.hpp"
#include "event.hpp"
#include "fuzz_env.hpp"
#include "lockstep.hpp"
#include "variant.hpp"

using namespace tagproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    differential::FuzzInput in = differential::decode_fuzz_input(data, size, fuzz::fixed_variant());
    const kernel::Variant& v = *in.variant;
    differential::Decoded& d = in.decoded;
    const std::vector<std::uint8_t>& picks = in.picks;
    if (d.events.size() > 64) d.events.resize(64);  // long inputs add time, not states
    try {
        // planted: the reference leaves a tag range's last granule untagged
        differential::Lockstep ls(v, d.config, picks,
                                  fuzz::planted() ? reference::RefMutation::short_tag_range : reference::RefMutation::none);
        std::string mismatch = ls.run(d.events);
        if (!mismatch.empty()) {
            // the first line names the event: what the triage deduplicates by
            std::fprintf(stderr, "mismatch of %s\n%s\n--- scenario ---\n%s--- end ---\n",
                         fuzz::last_event(ls.trace()).c_str(), mismatch.c_str(),
                         ls.scenario().c_str());
            if (fuzz::triage()) return 0;
            std::abort();
        }
    } catch (const InputError& e) {
        // the decoder only builds valid configurations: an error here is a bug in it
        std::fprintf(stderr, "the decoded input was refused: %s\n", e.what());
        std::abort();
    }
    return 0;
}
