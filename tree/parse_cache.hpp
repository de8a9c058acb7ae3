// parse_cache.hpp — what libclang read from a tree's file, kept on disk
// between processes. Parsing mm/page_alloc.c with the kernel's headers takes
// libclang seconds, and every review, lift and test process parsed the same
// unchanged files again (issue 33: the tree tests spent most of their time
// there). An entry is used only while every file the parse read (the file,
// each header it included, the -include files) has the size and
// modification time it had, and only by a reader built from the same
// sources of tree/ (a changed reader may read differently) with the same
// libclang; anything else is parsed again. A rebuild that changes nothing
// in tree/ keeps the entries.
// A patched text of a tree's file (what review parses for the series) is
// kept by its digest beside the tree's headers it read: the same series
// reviewed again, or by another test, is not parsed again.
//
// Where: $TAGPROOF_PARSE_CACHE, else "parsed" beside the tree cache
// (~/.cache/tagproof/parsed). TAGPROOF_PARSE_CACHE=off turns it off.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "functions.hpp"

namespace tagproof::tree {

// The cache directory, or "" when it is off.
std::string parse_cache_dir();

// A digest of a text (two 64-bit hashes and its length), naming a patched
// text in the key.
std::string text_digest(const std::string& text);

// The entry for `path` of the tree at `root` parsed with `flags` (and, for a
// patched text, `text_id` its digest; "" for the file on disk), if it is
// still true of the files on disk.
std::optional<ParsedFile> load_parsed(const std::string& root, const std::string& path,
                                      const std::vector<std::string>& flags, const std::string& text_id);

// Keeps `pf`, which read `inputs` (absolute paths). Written to a temporary
// file and renamed: two processes saving one entry leave one whole entry.
// A cache that cannot be written is not an error: the next process parses.
void save_parsed(const std::string& root, const std::string& path, const std::vector<std::string>& flags,
                 const std::string& text_id, const ParsedFile& pf, const std::vector<std::string>& inputs);

}  // namespace tagproof::tree
