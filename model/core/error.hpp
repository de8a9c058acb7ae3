// error.hpp — the one error type for bad input.
//
// Every parser (boot command line, GFP string, scenario file, trace) throws
// InputError with the place ("file:line" or "cmdline") and what was expected,
// so the CLI can print one line and exit with status 2.
//
// The message quotes what the user wrote, and what they wrote may be a NUL,
// an escape sequence, a byte-order mark or a 2 MB line: printed raw, it hides
// what was wrong (or rewrites the terminal). So every message is made
// printable here, once: control characters and bytes that are not UTF-8 text
// are shown escaped (\t, \x01, \xff, U+FEFF as \ufeff), and a word longer
// than kLongWord is cut with its length given.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tagproof {

namespace error_text {

constexpr std::size_t kLongWord = 200;   // a token longer than this is cut (paths stay whole)
constexpr std::size_t kLongMessage = 1200;

inline void escape_byte(std::string& out, unsigned char c) {
    static const char* hex = "0123456789abcdef";
    switch (c) {
        case '\t': out += "\\t"; return;
        case '\r': out += "\\r"; return;
        case '\n': out += "\\n"; return;
        default: break;
    }
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
}

// Length of the well-formed UTF-8 sequence at s[i] (2..4), or 0.
inline std::size_t utf8_len(const std::string& s, std::size_t i) {
    const unsigned char c = (unsigned char)s[i];
    std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if (((unsigned char)s[i + k] & 0xC0) != 0x80) return 0;
    return n;
}

// Where a line stops being text: the first control character (a byte below
// 0x20 other than a tab, or DEL), or npos. Every reader of a text input
// (scenario files, kmem traces, kernel console logs) refuses input there;
// `escape_ok`: a terminal escape (0x1b) is text, as a serial console prints
// colours with it.
inline std::size_t first_control(std::string_view s, bool escape_ok = false) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t' && !(escape_ok && c == 0x1b)) || c == 0x7f) return i;
    }
    return std::string_view::npos;
}

// One line of text a terminal shows as written: see the file comment.
inline std::string printable(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F) {
            out += char(c);
            ++i;
        } else if (c >= 0x80) {
            const std::size_t n = utf8_len(s, i);
            if (n == 3 && s.compare(i, 3, "\xEF\xBB\xBF") == 0) {
                out += "\\ufeff";  // a byte-order mark: invisible when printed
                i += 3;
            } else if (n) {
                out.append(s, i, n);
                i += n;
            } else {
                escape_byte(out, c);
                ++i;
            }
        } else {
            escape_byte(out, c);
            ++i;
        }
    }
    // cut long words (a 2 MB line quoted in a message) to their head and length
    std::string cut;
    std::size_t word = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == ' ' || out[i] == '\'') {
            word = 0;
            cut += out[i];
            continue;
        }
        if (++word <= kLongWord) {
            cut += out[i];
            continue;
        }
        std::size_t end = out.find_first_of(" '", i);
        if (end == std::string::npos) end = out.size();
        cut += "... (" + std::to_string(end - i + kLongWord) + " characters)";
        i = end - 1;
    }
    if (cut.size() > kLongMessage)
        cut = cut.substr(0, kLongMessage) + "... (message cut: " + std::to_string(cut.size()) + " characters)";
    return cut;
}

}  // namespace error_text

class InputError : public std::runtime_error {
public:
    InputError(std::string where, const std::string& what)
        : std::runtime_error(error_text::printable(where.empty() ? what : where + ": " + what)),
          where_(std::move(where)) {}
    const std::string& where() const { return where_; }

private:
    std::string where_;
};

}  // namespace tagproof
