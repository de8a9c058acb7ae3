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
#include <set>
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
    if (d.events.size() > 64) d.events.resize(64);
    const auto known = v.known_defects();
    const std::set<std::string> allowed(known.begin(), known.end());
    try {
        differential::Lockstep ls(v, d.config, picks);
        for (const auto& e : d.events) {
            ls.step(e);  // the reference's agreement is differential_fuzz's job
            for (const auto& x : ls.model().violations()) {
                if (allowed.count(x.invariant)) continue;
                const std::string at = fuzz::last_event(ls.trace());
                std::fprintf(stderr, "violation of %s: %s\nat event: %s\n--- scenario ---\n%sexpect violation %s\n--- end ---\n",
                             x.invariant.c_str(), x.message.c_str(), at.c_str(),
                             ls.scenario("fuzz_" + x.invariant, "invariants_fuzz (a libFuzzer input, decoded)").c_str(),
                             x.invariant.c_str());
                if (fuzz::triage()) return 0;  // one process reads every crash
                std::abort();
            }
        }
    } catch (const InputError& e) {
        std::fprintf(stderr, "the decoded input was refused: %s\n", e.what());
        std::abort();
    }
    return 0;
}
