// body_reader.hpp — reads `rule NAME(PARAMS) { C }` of a variant file into a
// RuleBody (rule_expr.hpp), the C subset a function lifted from a tree is
// written in (scenario/variant-files.md, "Rule bodies"): local declarations,
// assignments (= |= &=), if/else, return, calls, and a for loop over a
// block's pages. A call that is neither a rule, a predicate nor a primitive
// is kept as an unread call when its value is not used, and refused when it
// is. Anything else (while, goto, switch, a preprocessor line) is an error
// at its FILE:LINE:COLUMN.
#pragma once
#include <string>
#include <vector>

#include "gfp.hpp"
#include "rule_expr.hpp"

namespace tagproof::kernel {

// A rule that only a body may define, with the parameters the model passes.
struct BodyRule {
    const char* name;
    std::vector<const char*> params;  // the kernel's own names, in the kernel's order
    int order_param;                  // which is the block's order
    const char* what;
    std::size_t min_params;           // eras that dropped the trailing ones
    bool effects;                     // calls primitives with an effect on tags or data
    bool reads_page;                  // reads the freed page (page_kasan_tag, PageSkipKASanPoison)
};
// post_alloc_hook(page, order, gfp_flags): its body makes the PostAllocPlan;
// should_skip_kasan_poison(page[, fpi_flags]): its body decides the free path's skip.
const std::vector<BodyRule>& body_only_rules();

struct BodyText {
    std::string text;               // from NAME to the closing '}', comments blanked
    std::string path;
    int first_line = 0;             // the line text[0] is on
    std::vector<std::size_t> line_starts;  // where each line begins in text
};

struct BodyContext {
    const GfpLayout& hw;
    const GfpLayout& other;
    const std::string& base_name;  // the release, for messages
    std::size_t param_count;       // the rule's parameters
    bool effects;                  // primitives may be called (post_alloc_hook)
    int order_param = -1;          // the parameter a page loop's bound names (post_alloc_hook's order)
    std::size_t min_params = 0;    // fewer accepted down to this (0: exactly param_count)
    bool reads_page = false;       // page_kasan_tag() / PageSkipKASanPoison() may be read
};

// Reads one body. rule is the name the text must start with.
RuleBody read_rule_body(const BodyText& t, const std::string& rule, const BodyContext& c);

}  // namespace tagproof::kernel
