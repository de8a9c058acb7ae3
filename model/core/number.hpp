// number.hpp — the one reader of a whole number that every parser of
// tagproof's input uses (command-line options, scenario files and their config
// keys, GFP strings): C's literal rules, as the kernel's kstrtoull(s, 0) and
// the scenario format write them (0x hex, a leading 0 octal, else decimal),
// no sign, no blanks, nothing after the digits. Each caller names the range.
#pragma once
#include <cstdint>
#include <string_view>

namespace tagproof {

enum class NumberRead { ok, empty, negative, not_a_number, beyond_u64 };

inline NumberRead read_number(std::string_view s, std::uint64_t& out) {
    if (s.empty()) return NumberRead::empty;
    if (s[0] == '-') return NumberRead::negative;
    unsigned base = 10;
    std::size_t i = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (s.size() > 1 && s[0] == '0') {
        base = 8;
        i = 1;
    }
    std::uint64_t v = 0;
    bool beyond = false;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        unsigned d = c >= '0' && c <= '9' ? unsigned(c - '0')
                     : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10)
                                            : 99;
        if (d >= base) return NumberRead::not_a_number;
        if (v > (UINT64_MAX - d) / base) beyond = true;
        v = v * base + d;
    }
    if (beyond) return NumberRead::beyond_u64;
    out = v;
    return NumberRead::ok;
}

// What a failed read says: "is negative", "is beyond 2^64-1", ...
inline const char* number_problem(NumberRead r) {
    switch (r) {
        case NumberRead::ok: return "is a number";
        case NumberRead::empty: return "is empty: expected a number";
        case NumberRead::negative: return "is negative";
        case NumberRead::not_a_number: return "is not a number";
        case NumberRead::beyond_u64: return "is beyond 2^64-1";
    }
    return "?";
}

}  // namespace tagproof
