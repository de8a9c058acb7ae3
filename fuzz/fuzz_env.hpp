// fuzz_env.hpp — what the environment tells a fuzz target, beside its input.
#pragma once
#include <cstdlib>
#include <cstring>

namespace tagproof::fuzz {

// TAGPROOF_FUZZ_TRIAGE=1: an event target prints its finding and returns
// instead of aborting, so a campaign's triage reads a whole crash directory
// in one process (fuzz/campaign.sh).
inline bool triage() {
    static const bool on = [] {
        const char* t = std::getenv("TAGPROOF_FUZZ_TRIAGE");
        return t && !std::strcmp(t, "1");
    }();
    return on;
}

// TAGPROOF_FUZZ_PLANT=1: a parser target's negative control. The target
// breaks its own half of the round trip or the accounting it checks (each
// says how beside its check), and must then crash within seconds: an oracle
// that cannot fail is no oracle (ctest fuzz.<target>.planted).
inline bool planted() {
    static const bool on = [] {
        const char* t = std::getenv("TAGPROOF_FUZZ_PLANT");
        return t && !std::strcmp(t, "1");
    }();
    return on;
}

}  // namespace tagproof::fuzz
