// family_walk_fuzz.cpp — libFuzzer target over the model's whole
// vocabulary: a walk through one of the explorer's families
// (explore/family_walk.hpp) in one configuration of the boot product, the
// events and the random tags chosen by the input. A violation of an
// invariant the variant is not recorded to have aborts with the scenario
// that replays it between "--- scenario ---" markers, as invariants_fuzz
// does (TAGPROOF_FUZZ_TRIAGE=1 prints and goes on).
//
// Input: byte 0 the variant (TAGPROOF_VARIANT overrides), byte 1 the family,
// byte 2 the boot configuration (each modulo how many there are), bytes 3-10
// the seed of the random tags, then one byte per event (modulo the events
// enabled at that point). Planted (TAGPROOF_FUZZ_PLANT=1): the recorded
// defects are asserted too, so the target must crash on linux-6.1's
// detection defect within seconds.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "families.hpp"
#include "family_walk.hpp"
#include "fuzz_env.hpp"
#include "variant.hpp"

using namespace tagproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 12) return 0;
    const auto& builtins = kernel::all_variants();
    const kernel::Variant& v = fuzz::fixed_variant() ? *fuzz::fixed_variant() : *builtins[data[0] % builtins.size()];
    const auto fams = explore::families(v);
    const auto configs = explore::boot_product(v, true);
    explore::FamilyOptions fo;
    fo.variant = v.name();
    fo.family = fams[data[1] % fams.size()];
    fo.config = configs[data[2] % configs.size()];
    std::uint64_t seed = 0;
    std::memcpy(&seed, data + 3, sizeof seed);
    explore::FamilyWalk w(fo, seed);
    for (std::size_t i = 11; i < size && i < 11 + 64; ++i) w.step(data[i]);
    const auto recorded = kernel::expected_defects(v);
    for (const auto& b : w.broken()) {
        bool allowed = false;
        if (!fuzz::planted())
            for (const auto& d : recorded) allowed |= d == b.invariant;
        if (allowed) continue;
        std::fprintf(stderr, "violation of %s: %s\nin the %s family, %s, after %zu events\n--- scenario ---\n%s--- end ---\n",
                     b.invariant.c_str(), b.message.c_str(), fo.family.name.c_str(), fo.config.name().c_str(), b.events,
                     w.scenario(b.invariant).c_str());
        if (fuzz::triage()) return 0;
        std::abort();
    }
    return 0;
}
