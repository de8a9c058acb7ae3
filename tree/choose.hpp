// choose.hpp — which kernel tree a series is reviewed on, and why. In order:
//   1. --tree DIR, whatever applies there (a hunk that fails is named);
//   2. the series' `base-commit:` in an installed tree that is a git
//      checkout holding it;
//   3. the release the mail names ("Applies on v7.0-rc1", "based on v6.3"):
//      an installed tree of that release; else the nearest installed tree,
//      taken only if every hunk applies there (a series written on a newer
//      tree than any installed is refused with the hunks that failed, and the
//      review falls back to the hand era);
//   4. otherwise the installed tree where most hunks find their place, ties
//      broken by the tree's release date nearest the mail's `Date:`;
// and none when no installed tree takes any hunk (the hand era is used, and
// the reply says so).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "apply.hpp"
#include "mail.hpp"
#include "source_tree.hpp"

namespace tagproof::tree {

struct TreeTry {
    SourceTree tree;
    SeriesApply applied;
    bool taken = false;
    std::string verdict;  // "taken: ..." or "refused: ..."
};

struct TreeChoice {
    std::optional<std::size_t> chosen;  // index into tries
    std::vector<TreeTry> tries;
    std::string why;                    // one sentence for the reply
    const TreeTry* tree() const { return chosen ? &tries[*chosen] : nullptr; }
};

// What the mail says of its base: base-commit, the release named, the Date.
struct BaseHints {
    std::string base_commit;   // hex, "" if none
    std::string release;       // "7.0" for "v7.0-rc1" (major.minor), "" if none
    std::string release_words; // the words it came from
    std::string date;          // YYYY-MM-DD from the first Date: header, "" if none
};
BaseHints base_hints(const patch::Series& s, const std::string& named_release, const std::string& named_how);

// `tree_dir` is --tree ("" for none). Throws InputError for a --tree that is
// not a kernel tree.
TreeChoice choose_tree(const patch::Series& s, const BaseHints& hints, const std::string& tree_dir);

// The mainline release date of a major.minor (kernel.org's release
// announcements), "" if not in the table.
std::string release_date(const std::string& major_minor);

}  // namespace tagproof::tree
