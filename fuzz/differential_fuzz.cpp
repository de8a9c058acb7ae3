// differential_fuzz.cpp — libFuzzer target: bytes decoded into the shared
// command vocabulary (differential/event.hpp), run on the model and the
// reference in lockstep; any difference is a crash with both states and the
// trace printed (issue 5).
//
// Input layout: byte 0 picks the variant (the ten built-in ones), byte 1 the
// number of random-tag picks k (0-15), the next k bytes those picks, the rest
// decode_events(): two configuration bytes, then four bytes an event.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "error.hpp"
#include "event.hpp"
#include "lockstep.hpp"
#include "variant.hpp"

using namespace tagproof;

namespace {
const char* const kVariants[] = {"linux-6.1", "linux-6.3", "linux-6.4", "linux-7.0", "mm-2026",
                                 "anjum-v2",  "anjum-v3",  "anjum-v4",  "sample-v2", "sample-v3"};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const kernel::Variant& v = kernel::find_variant(kVariants[data[0] % 10]);
    const std::size_t k = std::min<std::size_t>(data[1] % 16, size - 2);
    std::vector<std::uint8_t> picks(data + 2, data + 2 + k);
    differential::Decoded d = differential::decode_events(data + 2 + k, size - 2 - k, v);
    if (d.events.size() > 64) d.events.resize(64);  // long inputs add time, not states
    try {
        differential::Lockstep ls(v, d.config, picks);
        std::string mismatch = ls.run(d.events);
        if (!mismatch.empty()) {
            std::fprintf(stderr, "%s\nscenario:\n%s", mismatch.c_str(), ls.scenario().c_str());
            std::abort();
        }
    } catch (const InputError& e) {
        // the decoder only builds valid configurations: an error here is a bug in it
        std::fprintf(stderr, "the decoded input was refused: %s\n", e.what());
        std::abort();
    }
    return 0;
}
