// gfp_drift.hpp — the GFP constants a tree defines beside the hand-written
// era's (issue 31 item 6, the constants' rows): for each name, the value the
// tree's preprocessor gives (gfp_lift.hpp) and the value the era's layout and
// rules give in the same build (HW_TAGS, no LOCKDEP: the configuration the
// trees are prepared with), equal or not. A constant has no inputs, so the
// two numbers decide; a difference is a row to resolve (the hand era fixed,
// or explained in docs/decisions.md).
#pragma once
#include <string>
#include <vector>

#include "gfp_lift.hpp"
#include "variant.hpp"

namespace tagproof::tree {

struct DriftRow {
    std::string name;
    bool in_tree = false, in_hand = false;
    unsigned long long tree_value = 0, hand_value = 0;
    bool equal() const { return in_tree == in_hand && tree_value == hand_value; }
};

struct GfpDrift {
    std::string era;          // the hand variant compared
    std::vector<DriftRow> rows;
    std::size_t differing() const;
};

// The names compared: every single flag and composite of the era's layout,
// __GFP_BITS_SHIFT and __GFP_BITS_MASK, and the GFP constants the era's rules
// stand for (THREADINFO_GFP, GFP_PGTABLE_KERNEL, GFP_PGTABLE_USER).
std::vector<std::string> gfp_drift_names(const kernel::Variant& hand);

GfpDrift gfp_drift(const GfpLift& lifted, const kernel::Variant& hand);

}  // namespace tagproof::tree
