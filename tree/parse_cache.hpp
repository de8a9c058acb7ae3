// parse_cache.hpp — what libclang read from a tree's own file, kept on disk
// between processes. Parsing mm/page_alloc.c with the kernel's headers takes
// libclang seconds, and every review, lift and test process parsed the same
// unchanged files again (issue 33: the tree tests spent most of their time
// there). An entry is used only while every file the parse read (the file,
// each header it included, the -include files) has the size and
// modification time it had, and only by the same tagproof executable (a
// rebuilt reader may read differently); anything else is parsed again.
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

// The entry for `path` of the tree at `root` parsed with `flags`, if it is
// still true of the files on disk.
std::optional<ParsedFile> load_parsed(const std::string& root, const std::string& path,
                                      const std::vector<std::string>& flags);

// Keeps `pf`, which read `inputs` (absolute paths). Written to a temporary
// file and renamed: two processes saving one entry leave one whole entry.
// A cache that cannot be written is not an error: the next process parses.
void save_parsed(const std::string& root, const std::string& path, const std::vector<std::string>& flags,
                 const ParsedFile& pf, const std::vector<std::string>& inputs);

}  // namespace tagproof::tree
