// rule_drift.hpp — a lifted rule beside the hand-written rule of an era,
// decided by Z3 over the rule's inputs (issue 31 item 6, the functions'
// rows): every build, machine and boot state, every gfp, order and sampling
// counter. Equal, or the input where they differ.
//
// The two are the same base era's rules (file/file_rules.hpp) evaluated with
// and without the lifted overrides, so the comparison is of exactly what the
// lifted code changes; a lifted post_alloc_hook is compared plan field by
// plan field, with the lifted helpers it calls (should_skip_init, ...) in it.
#pragma once
#include <string>
#include <vector>

#include "file/rule_expr.hpp"

namespace tagproof::solver {

struct RuleDriftRow {
    std::string rule;   // post_alloc_hook, should_skip_init, ...
    std::string field;  // a plan's field ("reset_page_tag"), "" for a value rule
    bool equal = false;
    std::string witness;  // where they differ: the configuration and the arguments
    std::string lifted_value, hand_value;  // there
};

// The rules `lifted` defines, on the base era `release` (linux-6.1, ...),
// against that era's hand rules.
std::vector<RuleDriftRow> rule_drift(const kernel::RuleOverrides& lifted, const std::string& release);

}  // namespace tagproof::solver
