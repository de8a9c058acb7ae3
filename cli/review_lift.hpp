// review_lift.hpp — a patch review that reads the kernel's own code (issue 31
// item 3): the modelled functions lifted from the tree before the series and
// from the patched scratch copy after it. The tree's lifted functions become
// the baseline variant (written beside the patch's variant file); the
// functions the series changes go into the patch's variant file as rule
// bodies, so the engines check the kernel's code as patched.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "account.hpp"
#include "choose.hpp"
#include "lift_body.hpp"

namespace tagproof::cli {

struct ReviewLift {
    tree::TreeLift before, after;
    // each lift target a hunk may change: "" when it is read on both sides, else why not
    std::map<std::string, std::string> status;
    std::vector<std::string> changed;  // lifted functions whose text the series changes
    std::string tree_variant;          // the baseline's name (tree-6.1.192)
};

// Lifts the targets from the taken tree, before and after the series, over
// `release` (a hand era a variant file may build on).
ReviewLift lift_for_review(const tree::TreeTry& t, const std::string& release);

// What was read and what is assumed, for the reply (the accounting's notes
// and assumptions).
void describe_lift(const ReviewLift& l, tree::Accounting& acc);

// The patch's variant file, rebased on the tree's lifted file (tree_file, a
// name in the same directory) and carrying the changed functions' bodies.
std::string lifted_patch_text(const std::string& file_text, const std::string& release, const ReviewLift& l,
                              const std::string& tree_file);

}  // namespace tagproof::cli
