// explore_families.hpp — the vocabulary families part of `tagproof explore`.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cross_check.hpp"
#include "families.hpp"

namespace tagproof::cli {

struct FamilyTotals {
    std::size_t families = 0, runs = 0, states = 0, transitions = 0;
    bool truncated = false;
    std::size_t sampled_events = 0;                     // transitions whose tag choices were sampled
    bool unrecorded = false;                            // a violation the variant is not recorded to have
    std::map<std::string, std::string> first_violation; // invariant -> "family, configuration"
    std::map<std::string, std::string> new_violation;   // ... neither recorded nor the baseline's
    std::set<std::string> recorded_violation;           // invariants broken where the variant's own record says
    std::string baseline;                               // the variant's baseline, explored alike where needed
    std::set<std::string> shown;                        // family/invariant counterexamples printed
    std::set<std::string> calls;                        // the entry points driven
};

// Explores each family (or only `only`) in each configuration to `depth`
// events; writes each counterexample to scenario_dir when given; hands each
// exploration to `checker` (the solver's proofs, cross-checked) when given.
FamilyTotals explore_families(const kernel::Variant& v, const std::vector<explore::BootConfig>& configs,
                              unsigned depth, const std::string& only, const std::string& scenario_dir,
                              explore::CrossChecker* checker = nullptr);

}  // namespace tagproof::cli
