// review_confirm.hpp — `tagproof review PATCH --confirm`: the findings the
// series introduces, run in the tree's kernel with and without the series
// (oracle/confirm.hpp), each finding's `kernel` line filled.
#pragma once
#include <functional>
#include <string>

#include "choose.hpp"
#include "reply.hpp"
#include "review.hpp"

namespace tagproof::cli {

// `base_variant`: the model's variant of the unpatched tree (its lifted era,
// or the hand release). Returns how many findings the kernel contradicted.
// With no finding the series introduces, the corpus is run in both kernels
// instead (oracle::confirm_clean), into reply.kernel. `tree` null: no tree
// was taken (`why_no_tree`), and each finding says so.
std::size_t confirm_review(review::VariantReview& r, review::Reply& reply, const tree::TreeTry* tree,
                           const std::string& why_no_tree,
                           const std::string& base_variant, const std::string& out,
                           const std::function<void(const std::string&)>& progress);

}  // namespace tagproof::cli
