// check_proofs.hpp — the statements of tag-checks.md §9 about the SW_TAGS check
// styles, proved with Z3 over the same decision code (model/kernel/checks).
#pragma once
#include <string>
#include <vector>

namespace tagproof::solver {

struct CheckStatement {
    std::string id;         // "9.4 call-refines-outlined"
    std::string text;
    std::string styles;     // which styles it relates ("O vs C")
    std::string expected;   // proved / counterexample (as tag-checks.md §9 records)
    std::string verdict;    // proved / counterexample / unknown
    std::string witness;    // the smallest input, for a counterexample
    double ms = 0;
};

std::vector<CheckStatement> prove_check_statements(unsigned timeout_ms = 20000);

}  // namespace tagproof::solver
