// apply.hpp — a mailed series applied to a scratch copy of the files it
// touches, as `git apply` / GNU `patch -l -F3` do: each hunk where its @@ line
// says (exact), else the nearest place its lines match (offset), else with up
// to three context lines dropped from its ends (fuzz), comparing runs of
// blanks as equal (mail clients turn tabs into spaces; seed 002 is such a
// mail). The user's tree is only read. A series the tree already contains
// (merged since) is taken in reverse: the tree is the "after" and the series
// reverted is the "before".
#pragma once
#include <map>
#include <string>
#include <vector>

#include "mail.hpp"

namespace tagproof::tree {

struct HunkPlace {
    std::size_t patch = 0, file = 0, hunk = 0;  // indices into the Series
    std::string path;
    enum class How { exact, moved, failed } how = How::failed;
    int offset = 0;      // lines from where its @@ line put it
    int fuzz = 0;        // context lines dropped from each end
    int front = 0;       // leading context lines not matched (fuzz): old_line / new_line are the hunk's line `front`
    bool loose = false;  // matched only with blanks compared loosely
    // 1-based lines in the file as it was before this patch (old side) and
    // after it (new side); 0 when failed.
    int old_line = 0, old_count = 0, new_line = 0, new_count = 0;
    std::string why;     // failed: what did not match
    std::string merged_from;  // applied by a 3-way merge from this blob (the index line's pre-image)
    // failed: the most of its context and removed lines that match at one
    // place, of how many. Under half: the tree lacks the code it changes.
    std::size_t best_match = 0, old_total = 0;
    int best_line = 0;   // failed: where that place starts (1-based), 0 if none
    bool code_missing() const { return how == How::failed && best_match * 2 < old_total; }
    std::string describe() const;  // "applied", "applied at offset 22 with fuzz 1", "failed: ..."
};

// One file's text at each step of the series: text[0] before the first patch
// that touches it, text[k] after the k-th (in series order, reverted order
// already undone: text[0] is always the "before").
struct FileSteps {
    std::string path;
    bool in_tree = false;           // the tree has this file
    std::vector<std::size_t> patches;  // the series' patches that touch it, in order
    std::vector<std::string> text;  // text.size() == patches.size() + 1
};

struct SeriesApply {
    bool reversed = false;          // the tree already has the series
    std::vector<HunkPlace> hunks;   // in series order
    std::map<std::string, FileSteps> files;
    std::size_t applied() const;
    std::size_t failed() const { return hunks.size() - applied(); }
    // The text of `path` before and after patch `patch` (the file as that
    // patch found it and left it).
    const std::string& before(const std::string& path, std::size_t patch) const;
    const std::string& after(const std::string& path, std::size_t patch) const;
};

// Applies one file diff to `text`; `reverse` swaps its sides. Fills `places`
// (one per hunk) and returns the new text. Hunks that fail leave the text as
// it was there.
std::string apply_file(const std::string& text, const patch::FileDiff& fd, bool reverse, std::size_t patch_index,
                       std::size_t file_index, std::vector<HunkPlace>& places);

// Reads each touched file from `root` (a missing file is an empty one, as a
// new file's diff expects) and applies the series forward; if the tree
// already contains it (more hunks land reversed than forward), in reverse.
// A file whose hunks do not all apply forward is merged 3-way where the tree
// is a git checkout holding the diff's pre-image (three_way.hpp).
SeriesApply apply_series(const patch::Series& s, const std::string& root);

}  // namespace tagproof::tree
