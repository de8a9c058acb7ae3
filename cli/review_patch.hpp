// review_patch.hpp — `tagproof review PATCH...` (verb_review_patch.cpp).
#pragma once
#include <string>
#include <vector>

#include "review.hpp"

namespace tagproof::cli {

// Reads the series, writes its variant file and reply to `out`, prints the
// reply; `map_only` stops after the mapping. Returns the exit status.
// --tree DIR / --no-tree.
struct TreeOption {
    std::string dir;
    bool none = false;
    bool confirm = false;  // --confirm: the findings run in the tree's kernel, with and without the series
};
int review_patch(const std::vector<std::string>& paths, const std::string& base, const TreeOption& tree, review::ReviewOptions ro,
                 const std::string& format, const std::string& out, bool map_only, bool quiet);

// A name safe as a file name; each finding's scenario and report in `out`
// (verb_review.cpp), the report files returned in finding order.
std::string safe_file_name(std::string s);
std::vector<std::string> write_finding_reports(review::VariantReview& r, const std::string& out, const std::string& format);

// `tagproof review --explain [TERM]`: the terms of tagproof's output.
int explain_terms(const std::vector<std::string>& terms);

}  // namespace tagproof::cli
