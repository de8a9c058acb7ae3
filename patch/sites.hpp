// sites.hpp — from hunks to rule overrides. The model's rules (the ones a
// variant file may override, scenario/variant-files.md) each sit at a place
// in the kernel: a #define of a GFP constant, the GFP mask of an allocation
// call in a named function, or a condition a modelled function decides on.
// A hunk that changes such a place becomes a `rule` line; every other changed
// line is listed, with why it could not be mapped.
#pragma once
#include <string>
#include <vector>

#include "mail.hpp"

namespace tagproof::patch {

struct MappedRule {
    std::string rule;   // GFP_PGTABLE_KERNEL, vmalloc_prot_normal, ...
    std::string line;   // "rule GFP_PGTABLE_KERNEL = GFP_KERNEL | __GFP_ZERO | __GFP_SKIP_KASAN"
    std::string what;   // "GFP_PGTABLE_KERNEL gains __GFP_SKIP_KASAN"
    std::vector<std::string> added, removed;  // GFP flags the place gains and loses
    std::vector<int> at;  // the input lines it came from
};

struct Unmapped {
    int at = 0;         // the first changed line it covers
    std::string why;
};

struct HunkMap {
    std::size_t patch = 0, file = 0, hunk = 0;  // indices into the Series
    std::string path, function;                 // where in the kernel
    std::vector<MappedRule> rules;
    std::vector<std::string> notes;             // changes read as part of another hunk's rule
    bool comments_only = false;                 // only comments and blank lines change
    std::vector<Unmapped> unmapped;
    bool mapped() const { return unmapped.empty(); }
};

// Maps every hunk of the series. Expressions are not checked here against a
// base (review_patch.cpp does, and moves a rule that does not read there to
// `unmapped` with the reader's message).
std::vector<HunkMap> map_series(const Series& s);

// The callers (docs/requirements.md names) a rule's place serves: what an
// untag claim names, and what a finding about the hunk names.
std::vector<std::string> rule_callers(const std::string& rule);

// The function a hunk's changes are in: a definition inside the hunk, else
// git's function context.
std::string hunk_function(const Hunk& h);

}  // namespace tagproof::patch
