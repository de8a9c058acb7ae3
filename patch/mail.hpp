// mail.hpp — a patch series as a reviewer receives it: `git format-patch`
// files, an mbox saved from the list, a list archive's page with the patch in
// it, or `git diff` output. What the review needs of it: each patch's subject,
// the text around the diffs (where the series says what it claims and what it
// applies on), and every hunk with the line it came from.
#pragma once
#include <string>
#include <vector>

namespace tagproof::patch {

struct HunkLine {
    char kind = ' ';  // ' ' context, '+' added, '-' removed
    std::string text; // without the prefix
    int at = 0;       // its line in the input file
};

struct Hunk {
    int old_start = 0, old_count = 0, new_start = 0, new_count = 0;
    std::string function;  // the text after the second @@ (git's function context)
    int at = 0;            // the @@ line in the input file
    std::vector<HunkLine> lines;
    // The old side (context and '-') and the new side (context and '+'), as
    // indices into `lines`.
    std::vector<int> side(char drop) const;
};

struct FileDiff {
    std::string path;      // the new path (the old one for a deletion), without a/ b/
    bool binary = false;   // "GIT binary patch" / "Binary files ... differ"
    // "index c607307c657a6..69ae205effb46 100644": the blobs before and after,
    // abbreviated ("" when the diff has no index line); a 3-way apply reads
    // the before from a git checkout that has it
    std::string old_blob, new_blob;
    int at = 0;
    std::vector<Hunk> hunks;
};

struct Patch {
    std::string subject;   // "[PATCH v2 1/3] vmalloc: add __GFP_SKIP_KASAN support" ("" for a bare diff)
    std::string text;      // the commit message and notes before the diff
    std::vector<FileDiff> files;
};

struct Series {
    std::vector<std::string> inputs;  // the files read
    std::string cover_subject, cover_text;  // a "0/N" message, if any
    std::vector<Patch> patches;             // the ones with diffs, in order
    std::string all_text;                   // every non-diff line: where claims and bases are looked for
};

// Reads one input's text into `s` (appending its patches). Throws InputError
// with path:line:column for a malformed diff, and (require_diff) when the
// text holds no diff.
void read_patches(const std::string& text, const std::string& path, Series& s, bool require_diff = true);
[[noreturn]] void no_patch(const std::string& where);
// Reads files; "-" is standard input.
Series read_series(const std::vector<std::string>& paths);

}  // namespace tagproof::patch
