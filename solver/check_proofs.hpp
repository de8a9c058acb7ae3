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
    std::string scenario;   // a scenario file replaying it in the model ("" when it is no access outcome)
    std::string replay;     // what the model said
    bool replay_ok = true;
    double ms = 0;
};

// only: statement ids to run (their first word, "9.4'"); empty = all.
std::vector<CheckStatement> prove_check_statements(unsigned timeout_ms = 20000, const std::vector<std::string>& only = {});
// 9.7 is structural: one routing function serves every style.
inline const char* kRoutingNote =
    "9.7 routing-style-independent: structural: one eligible() (model/kernel/checks/sw_checks.hpp) routes every style;\n"
    "    tested by running scenarios/checks/routing_not_eligible.litmus under each style (tagproof run --check-style)";

}  // namespace tagproof::solver
