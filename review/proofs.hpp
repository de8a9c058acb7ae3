// proofs.hpp — which of the solver's verdicts the families explorer holds
// to enumeration (explore/cross_check.hpp): review, `tagproof explore` and
// the tests select them by this one rule.
#pragma once
#include <string>
#include <vector>

#include "cross_check.hpp"
#include "prove.hpp"

namespace tagproof::review {

// A verdict the explorer can check: a defect obligation (not an
// informational change) about one variant (mode-isolation compares two),
// whose primary scope (within caller contracts) reads `verdict`.
bool enumerable(const solver::Verdict& vd, const std::string& verdict = "proved");

// The variant's obligations within caller contracts whose verdict is
// `verdict` and that the explorer can check.
std::vector<explore::ProvedObligation> enumerable_obligations(const std::string& variant,
                                                              const std::string& verdict = "proved");

}  // namespace tagproof::review
