// config.cpp — derive the runtime predicates from build, machine and boot.
#include "config.hpp"

#include "error.hpp"

namespace tagproof {

const char* mode_name(Mode m) {
    switch (m) {
        case Mode::none: return "none";
        case Mode::generic: return "generic";
        case Mode::sw_tags: return "sw_tags";
        case Mode::hw_tags: return "hw_tags";
    }
    return "?";
}

Mode parse_mode(const std::string& s, const std::string& where) {
    if (s == "none") return Mode::none;
    if (s == "generic") return Mode::generic;
    if (s == "sw_tags") return Mode::sw_tags;
    if (s == "hw_tags") return Mode::hw_tags;
    throw InputError(where, "unknown KASAN mode '" + s + "': expected none, generic, sw_tags or hw_tags");
}

}  // namespace tagproof
