// gfp_fuzz.cpp — libFuzzer target: GFP strings (model/core/gfp.cpp) in every
// era and build. A string either parses or is refused with an InputError;
// what parses prints (as the kernel prints it) to a string that parses back
// to the same value.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "error.hpp"
#include "fuzz_env.hpp"
#include "gfp.hpp"
#include "variant.hpp"

using namespace tagproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    // every built-in variant's layout: the four eras and a series' own bit
    const auto& vs = kernel::all_variants();
    const kernel::Variant& v = *vs[(data[0] & 0xF) % vs.size()];
    BuildConfig b;
    b.mode = (data[0] >> 4) & 1 ? Mode::generic : Mode::hw_tags;
    b.lockdep = (data[0] >> 5) & 1;
    const GfpLayout L = v.gfp_layout(b);
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    gfp_t g;
    try {
        g = L.parse(text, "fuzz");
    } catch (const InputError&) {
        return 0;
    }
    std::string printed = L.print(g);
    // planted: the printer loses its last flag
    if (fuzz::planted() && printed.rfind('|') != std::string::npos) printed.erase(printed.rfind('|'));
    gfp_t back;
    try {
        back = L.parse(printed, "printed");
    } catch (const InputError&) {
        std::abort();  // the printer wrote what the parser refuses
    }
    if (back != g) std::abort();  // print / parse do not round-trip
    return 0;
}
