// scenario_fuzz.cpp — libFuzzer target: the scenario file parser
// (scenario/parser.cpp). Any text is parsed or refused with an InputError
// naming file:line; nothing else may escape, nothing may crash.
#include <cstdint>
#include <string>

#include "error.hpp"
#include "fuzz_env.hpp"
#include "scenario.hpp"

using namespace tagproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        scenario::Scenario sc = scenario::parse_scenario(text, "fuzz.litmus");
        (void)sc;
    } catch (const InputError& e) {
        std::string w = e.where();
        if (fuzz::planted() && w.find(':') != std::string::npos) w.erase(0, w.find(':') + 1);  // planted: the file name lost
        if (w.rfind("fuzz.litmus", 0) != 0) __builtin_trap();  // an error must name the file (and line)
    }
    return 0;
}
