// source_tree.hpp — a kernel source tree a review reads: the user's own
// (`--tree DIR`, a git checkout or a plain one) or one the set-up unpacked
// from Debian's linux-source packages into the tree cache
// (scripts/setup-trees.sh). Its name is the model's era for it: tree:6.1.158,
// or a checkout's `git describe`.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "version.hpp"  // version_parts, version_less, major_minor

namespace tagproof::tree {

struct SourceTree {
    std::string root;       // absolute
    std::string version;    // from the top Makefile: VERSION.PATCHLEVEL.SUBLEVEL
    std::string describe;   // `git describe` of a checkout, else ""
    bool git = false;
    std::string era() const { return "tree:" + (describe.empty() ? version : describe); }
    // Whether the checkout holds this commit (git cat-file -e); false for a plain tree.
    bool has_commit(const std::string& sha) const;
};

// Reads a tree: DIR must hold a kernel Makefile with VERSION and PATCHLEVEL
// and mm/page_alloc.c. Throws InputError naming DIR and what is missing.
SourceTree open_tree(const std::string& dir);

// The tree cache: $TAGPROOF_TREES, else $XDG_CACHE_HOME/tagproof/trees, else
// ~/.cache/tagproof/trees.
std::string tree_cache();
// Every ready tree in the cache, oldest version first.
std::vector<SourceTree> installed_trees();

}  // namespace tagproof::tree
