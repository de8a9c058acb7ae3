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

const char* check_style_name(CheckStyle s) {
    switch (s) {
        case CheckStyle::outlined: return "outlined";
        case CheckStyle::inline_check: return "inline";
        case CheckStyle::fastpath: return "fastpath";
        case CheckStyle::calls: return "calls";
    }
    return "?";
}

CheckStyle parse_check_style(const std::string& s, const std::string& where) {
    for (CheckStyle c : {CheckStyle::outlined, CheckStyle::inline_check, CheckStyle::fastpath, CheckStyle::calls})
        if (s == check_style_name(c)) return c;
    throw InputError(where, "unknown check style '" + s + "': expected outlined, inline, fastpath or calls");
}

}  // namespace tagproof
