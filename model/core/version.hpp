// version.hpp — kernel version strings, read one way everywhere: a tree's
// Makefile version (6.12.118), a release name (linux-7.0, v6.3-rc1), a kernel
// log's banner (6.12.117-arm64).
#pragma once
#include <string>
#include <vector>

namespace tagproof {

// The numbers of the first version in `s` (after any non-digit prefix such
// as "linux-" or "v"), up to the first character that is neither a digit nor
// a dot: "6.12.118" -> {6, 12, 118}, "linux-7.0" -> {7, 0}, "v6.3-rc1" ->
// {6, 3}; {} when there is none.
inline std::vector<long> version_parts(const std::string& s) {
    std::vector<long> n;
    std::size_t i = 0;
    while (i < s.size() && !(s[i] >= '0' && s[i] <= '9')) ++i;
    long cur = -1;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (c >= '0' && c <= '9') {
            cur = (cur < 0 ? 0 : cur * 10) + (c - '0');
        } else if (c == '.' && cur >= 0) {
            n.push_back(cur);
            cur = -1;
        } else {
            break;
        }
    }
    if (cur >= 0) n.push_back(cur);
    return n;
}

// Version order: "6.1.158" < "6.12.1".
inline bool version_less(const std::string& a, const std::string& b) { return version_parts(a) < version_parts(b); }

// "major.minor" of a version ("linux-7.0" -> "7.0", "6.12.118" -> "6.12"), "" if none.
inline std::string major_minor(const std::string& s) {
    const auto n = version_parts(s);
    if (n.size() < 2) return "";
    return std::to_string(n[0]) + "." + std::to_string(n[1]);
}

}  // namespace tagproof
