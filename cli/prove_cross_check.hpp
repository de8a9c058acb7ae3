// prove_cross_check.hpp — `tagproof prove` holds its proofs against the
// executable model (issue 34 item 5): every obligation proved within the
// caller contracts whose entry point a family of the explorer drives is
// enumerated there, over the boot product, and a transition that breaks it is
// a disagreement: `prove` then prints the disagreement (a modelling gap of the
// solver or of the model), never "proved".
#pragma once
#include <map>
#include <string>
#include <vector>

#include "prove.hpp"

namespace tagproof::cli {

struct ProofCrossCheck {
    std::map<std::string, std::string> disagrees;  // obligation id -> where the explorer breaks it
    std::string note;                              // what ran, for the summary
};

// The proved obligations of `verdicts` against the families that drive them,
// each family in every configuration of the boot product at its review depth.
ProofCrossCheck cross_check_proofs(const std::string& variant, const std::vector<solver::Verdict>& verdicts);

}  // namespace tagproof::cli
