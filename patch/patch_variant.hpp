// patch_variant.hpp — a series read into a variant file: the base it applies
// on, the claims its own words make, and a rule line per mapped hunk (the
// file is written out so the reviewer can read and edit it).
#pragma once
#include <string>
#include <vector>

#include "sites.hpp"

namespace tagproof::patch {

struct PatchReading {
    Series series;
    std::vector<HunkMap> hunks;
    std::string base;       // a release (linux-7.0) or a variant file's absolute path
    std::string base_how;   // where the base came from, for the reader
    std::string claims_how; // where the claims came from
    std::string name;       // the variant's name
    std::string file_text;  // the variant file
    std::size_t rules = 0;  // rule lines in it
    std::size_t hunks_mapped() const;    // every changed line read (rules, notes or comments)
    std::size_t hunks_unmapped() const;
    std::size_t hunks_with_rules() const;  // that change code the model has rules for
    std::size_t hunks_comments_only() const;
};

// Reads the series, maps its hunks, checks each rule against the base (a rule
// the base cannot read, such as a flag it does not define, is moved to the
// hunk's unmapped lines with the reader's message) and writes the file's text.
// `base` is --base: a release, a built-in variant file's path, or "".
// `tree_base`: the hand release standing for the tree the review took
// (linux-6.1 for tree:6.1.x), with why; used when --base is not given.
struct TreeBase {
    std::string release, how;
};
PatchReading read_patch_series(const std::vector<std::string>& paths, const std::string& base, const TreeBase& tree_base = {});
// The same for a series already read from `paths`.
PatchReading read_patch_series(Series series, const std::vector<std::string>& paths, const std::string& base,
                               const TreeBase& tree_base = {});

// The release a series is for, with the words it came from: --base's (a
// release, or the one a base variant file is on), else the version the
// series names ("6.12" for "based on v6.12", not the hand release standing
// for it); "" when neither names one.
std::string named_release(const Series& s, const std::string& base, std::string* how);

// The base a series names ("Applies on 7-0-rc1.", "based on v6.3"), as a
// release, with the words it came from; "" when it names none.
std::string base_from_text(const std::string& text, std::string* how);

}  // namespace tagproof::patch
