// variant_file_fuzz.cpp — libFuzzer target: the variant-file reader
// (model/kernel/file/variant_file.cpp). Any input is either read or refused
// with an InputError naming a place inside the input; a file that reads has
// every rule printable back to C that reads as the same expression.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "error.hpp"
#include "file/variant_file.hpp"
#include "fuzz_env.hpp"

using namespace tagproof;

namespace {

bool same(const kernel::RuleExpr& a, const kernel::RuleExpr& b) {
    if (a.kind != b.kind || a.name != b.name || a.value != b.value || a.hw != b.hw || a.other != b.other ||
        a.base_ref != b.base_ref || a.kids.size() != b.kids.size())
        return false;
    for (std::size_t i = 0; i < a.kids.size(); ++i)
        if (!same(a.kids[i], b.kids[i])) return false;
    return true;
}

// "fuzz.variant:L:C" must be a line of the input and a column of it (or one past its end)
void check_place(const std::string& where, const std::string& text) {
    const std::string p = "fuzz.variant:";
    if (where.rfind(p, 0) != 0) return;  // a base file's, or the whole file's
    int line = 0, col = 0;
    if (std::sscanf(where.c_str() + p.size(), "%d:%d", &line, &col) != 2) return;
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    if (line < 1 || line > int(lines.size()) || col < 1 || col > int(lines[line - 1].size()) + 1) {
        std::fprintf(stderr, "error place %s outside the input\n", where.c_str());
        std::abort();
    }
}

// planted: the printer writes && as ||
std::string printed(const kernel::RuleExpr& x) {
    std::string s = kernel::print_rule_expr(x);
    if (fuzz::planted())
        for (std::size_t p; (p = s.find(" && ")) != std::string::npos;) s.replace(p, 4, " || ");
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    kernel::VariantFile f;
    try {
        f = kernel::parse_variant_file(text, "fuzz.variant");
    } catch (const InputError& e) {
        check_place(e.where(), text);
        return 0;
    }
    for (const auto& [name, x] : f.overrides.rules) {
        std::string params;
        for (const auto& r : kernel::overridable_rules())
            if (name == r.name)
                for (const char* q : r.params) params += std::string(params.empty() ? "" : ", ") + q;
        const std::string again = "name again\nbase " + f.release + "\n" +
                                  [&] {
                                      std::string fl;
                                      for (const auto& g : f.extra_flags) fl += "flag " + g.name + (g.hw_tags_only ? "" : " every_build") + "\n";
                                      return fl;
                                  }() +
                                  "rule " + name + (params.empty() ? "" : "(" + params + ")") + " = " + printed(x) + "\n";
        kernel::VariantFile g;
        try {
            g = kernel::parse_variant_file(again, "again.variant");
        } catch (const InputError& e) {
            std::fprintf(stderr, "printed rule does not read back: %s\n%s", e.what(), again.c_str());
            std::abort();
        }
        const kernel::RuleExpr* y = g.overrides.find(name.c_str());
        if (!y || !same(x, *y)) {
            std::fprintf(stderr, "printed rule reads back differently:\n%s", again.c_str());
            std::abort();
        }
    }
    return 0;
}
