// fuzz_env.hpp — what the environment tells a fuzz target, beside its input,
// and the run the two event targets share.
#pragma once
#include <cstdlib>
#include <cstring>

#include <cstdio>

#include "error.hpp"
#include "fuzz_run.hpp"
#include "variant.hpp"

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

// TAGPROOF_FUZZ_PLANT=1: a target's negative control. The target breaks its
// own half of what it checks (each says how beside its check: a parser's
// printer, the differential target's reference), and must then crash within
// seconds: an oracle that cannot fail is no oracle (ctest
// fuzz.<target>.planted, fuzz.campaign.planted-mismatch).
inline bool planted() {
    static const bool on = [] {
        const char* t = std::getenv("TAGPROOF_FUZZ_PLANT");
        return t && !std::strcmp(t, "1");
    }();
    return on;
}

// TAGPROOF_VARIANT: the variant a campaign fuzzes (else byte 0 picks one).
inline const kernel::Variant* fixed_variant() {
    static const kernel::Variant* v = [] {
        const char* name = std::getenv("TAGPROOF_VARIANT");
        return name && *name ? &kernel::find_variant(name, "TAGPROOF_VARIANT") : nullptr;
    }();
    return v;
}

// One event-target input decoded (TAGPROOF_VARIANT honoured) and run. The
// decoder only builds valid configurations: an InputError here is a bug in
// it, and a crash.
inline differential::FuzzRun run_input(const std::uint8_t* data, std::size_t size, const char* header,
                                       reference::RefMutation mutation, bool stop_at_mismatch) {
    const differential::FuzzInput in = differential::decode_fuzz_input(data, size, fixed_variant());
    try {
        return differential::run_fuzz_input(in, header, mutation, stop_at_mismatch);
    } catch (const InputError& e) {
        std::fprintf(stderr, "the decoded input was refused: %s\n", e.what());
        std::abort();
    }
}

}  // namespace tagproof::fuzz
