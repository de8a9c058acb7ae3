// lift_functions.hpp — `tagproof lift`'s functions section (lift_functions.cpp).
#pragma once
#include <string>
#include <vector>

#include "source_tree.hpp"
#include "variant.hpp"

namespace tagproof::cli {

// `tagproof lift --primitives`: the primitive table with its sources.
void print_primitives();

// Lifts the modelled functions of `t` over each era of `eras` that a variant
// file may build on, prints each lifted rule beside the era's (equal, or the
// input where they differ) and returns how many rows differ. write_to: the
// lifted variant file (over the first era), "" for none. compared_any: false
// when no era of `eras` is a release, so that no row was decided (the eras
// skipped are named in the output).
std::size_t lift_function_drift(const tree::SourceTree& t, const std::vector<const kernel::Variant*>& eras, bool md,
                                const std::string& write_to, bool& compared_any);

}  // namespace tagproof::cli
