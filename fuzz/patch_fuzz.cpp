// patch_fuzz.cpp — libFuzzer target: the patch reader (patch/mail.cpp,
// patch/sites.cpp). Any input is either read or refused with an InputError
// naming a line of the input; a series that reads has every hunk holding
// exactly the lines its @@ header counts, and maps without throwing: each
// hunk's rule lines are `rule NAME... = ...` or `flag __GFP_NAME ...`, each unmapped place a line of
// the input.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "error.hpp"
#include "fuzz_env.hpp"
#include "sites.hpp"

using namespace tagproof;

namespace {

int lines_in(const std::string& t) {
    int n = 0;
    for (char c : t) n += c == '\n';
    return n + (!t.empty() && t.back() != '\n');
}

void fail(const char* what, int n) {
    std::fprintf(stderr, "%s (%d)\n", what, n);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const int n = lines_in(text);
    patch::Series s;
    try {
        patch::read_patches(text, "fuzz.patch", s);
    } catch (const InputError& e) {
        int line = 0;
        if (std::sscanf(e.where().c_str(), "fuzz.patch:%d", &line) == 1 && (line < 1 || line > n + 1))
            fail("an error names a line outside the input", line);
        return 0;
    }
    for (const auto& p : s.patches)
        for (const auto& f : p.files)
            for (const auto& h : f.hunks) {
                // planted: the check believes a hunk holds one old line more than its header says
                const int want_old = h.old_count + (fuzz::planted() ? 1 : 0);
                if (int(h.side('+').size()) != want_old) fail("a hunk's old side is not its header's count", h.at);
                if (int(h.side('-').size()) != h.new_count) fail("a hunk's new side is not its header's count", h.at);
                for (const auto& l : h.lines)
                    if (l.at < 1 || l.at > n) fail("a hunk line outside the input", l.at);
            }
    for (const auto& hm : patch::map_series(s)) {
        for (const auto& r : hm.rules)
            if (!(r.line.rfind("rule " + r.rule, 0) == 0 && r.line.find(" = ") != std::string::npos) &&
                r.line.rfind("flag " + r.rule + " ", 0) != 0)
                fail("a rule line that is no rule or flag line", 0);
        for (const auto& u : hm.unmapped)
            if (u.at < 1 || u.at > n || u.why.empty()) fail("an unmapped place outside the input or without why", u.at);
    }
    return 0;
}
