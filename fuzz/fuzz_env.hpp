// fuzz_env.hpp — what the environment tells a fuzz target, beside its input.
#pragma once
#include <cstdlib>
#include <cstring>

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

}  // namespace tagproof::fuzz
