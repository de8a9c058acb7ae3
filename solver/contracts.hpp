// contracts.hpp — what real callers pass, written down as data.
//
// An obligation is checked within these contracts and over the raw flag
// space; a counterexample names every contract its input breaks, so a
// reviewer never chases a trace no caller can produce without being told.
#pragma once
#include <string>
#include <vector>

#include "sym_variant.hpp"

namespace tagproof::solver {

struct Contract {
    std::string name;
    std::string text;  // the rule, with where it comes from
    z3::expr holds;
    int step = -1;     // a trace's step whose call it constrains (-1: the query's one call)
};

// Callers of alloc_pages() / __get_free_pages() other than vmalloc.
std::vector<Contract> page_alloc_contracts(const SEnv& e, const z3::expr& gfp, const z3::expr& bits_mask);
// Callers of __vmalloc_node_range().
// `supported`: the flags __vmalloc callers pass (GFP_VMALLOC_SUPPORTED of the
// baseline, or of the variant without one; a flag outside it is stripped
// with a WARN: a caller bug, not a caller).
std::vector<Contract> vmalloc_contracts(const SEnv& e, const z3::expr& gfp, const z3::expr& bits_mask,
                                        const z3::expr& supported);

z3::expr all_hold(z3::context& c, const std::vector<Contract>& cs);

}  // namespace tagproof::solver
