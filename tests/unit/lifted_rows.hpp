// lifted_rows.hpp — the rows a part reader's rules get when decided beside a
// hand era by Z3 (solver/rule_drift.hpp), for the part readers' tests.
#pragma once
#include <map>
#include <string>

#include "file/variant_file.hpp"
#include "rule_drift.hpp"

namespace tagproof::test {

// the rows of RULES' rules starting with PREFIX, decided beside ERA
inline std::map<std::string, solver::RuleDriftRow> rows_of(const std::string& rules, const std::string& era,
                                                           const std::string& prefix) {
    const kernel::VariantFile vf = kernel::parse_variant_file("name lifted-x\nbase " + era + "\n" + rules, "lifted");
    std::map<std::string, solver::RuleDriftRow> m;
    for (const auto& r : solver::rule_drift(vf.overrides, era))
        if (r.rule.rfind(prefix, 0) == 0) m[r.rule] = r;
    return m;
}

}  // namespace tagproof::test
