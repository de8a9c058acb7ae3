// three_way.hpp — `git apply --3way` for a file diff whose hunks do not all
// find their place in the tree: where the tree is a git checkout that holds
// the blob the diff's index line names as its pre-image, the diff is applied
// to that blob (where it was written) and the result merged into the tree's
// file with `git merge-file` (base: the blob; ours: the tree's file; theirs:
// the blob with the diff). A conflict, a missing blob or a tree that is not
// a git checkout leaves the hunks failed, with why.
#pragma once
#include <optional>
#include <string>

#include "mail.hpp"

namespace tagproof::tree {

// The merged text, or nullopt with `why` set.
std::optional<std::string> three_way_merge(const std::string& root, const patch::FileDiff& fd, const std::string& ours,
                                           std::string& why);

}  // namespace tagproof::tree
