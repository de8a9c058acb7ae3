// boot_fuzz.cpp — libFuzzer target: the kernel command line parser
// (model/core/boot_params.cpp) in both modes. The lenient parser must accept
// every input (the kernel's fallbacks); the strict one may refuse it, only
// with an InputError; what either accepts must print back to a command line
// that parses to the same values.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "boot_params.hpp"
#include "error.hpp"
#include "fuzz_env.hpp"

using namespace tagproof;

namespace {
// planted: to_cmdline() loses its last word
std::string printed(const BootParams& p) {
    std::string s = p.to_cmdline();
    if (fuzz::planted() && s.rfind(' ') != std::string::npos) s.erase(s.rfind(' '));
    return s;
}

void same(const BootParams& a, const BootParams& b) {
    if (a.kasan != b.kasan || a.mode != b.mode || a.vmalloc != b.vmalloc || a.page_alloc_sample != b.page_alloc_sample ||
        a.page_alloc_sample_order != b.page_alloc_sample_order || a.fault != b.fault || a.write_only != b.write_only ||
        a.multi_shot != b.multi_shot || a.init_on_alloc != b.init_on_alloc || a.init_on_free != b.init_on_free)
        std::abort();  // to_cmdline() does not round-trip
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string cmdline(reinterpret_cast<const char*>(data), size);
    for (bool sampling : {false, true}) {
        BootParamSyntax syn;
        syn.page_alloc_sample = syn.page_alloc_sample_order = sampling;
        BootParams lenient = parse_boot_params(cmdline, syn);  // never throws
        same(lenient, parse_boot_params(printed(lenient), syn));
        try {
            BootParams strict = parse_boot_params_strict(cmdline, "fuzz", syn);
            same(strict, parse_boot_params_strict(printed(strict), "fuzz", syn));
        } catch (const InputError&) {
        }
    }
    return 0;
}
