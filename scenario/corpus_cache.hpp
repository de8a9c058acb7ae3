// corpus_cache.hpp — a corpus result kept across processes (issue 33: work
// shared instead of repeated). Every tree review runs the corpus under the
// tree's lifted era as its baseline, and every mutant under its base release:
// the same files, the same variant, the same binary, so the same result. It
// is kept under ~/.cache/tagproof/corpus and read back only when all it
// depends on is the same:
//   - the binary: its GNU build-id (a rebuild is another binary);
//   - the variant: a built-in's name (its code is the binary's), or a variant
//     file's name and the texts it was read from, its base files' included
//     (kernel::variant_file_source; not its path, which the model does not
//     read: a review writes the tree's era into each --out); a variant with
//     neither is not kept;
//   - the corpus: each file's path and its bytes;
//   - the runner's options (max_runs, samples), which corpus.cpp fixes.
// The model reads nothing else (no environment, no clock; the runner's
// sampling is seeded by the scenario's name). A key's text is kept in its
// entry and compared on reading, so two keys that hash alike are told apart.
// TAGPROOF_CORPUS_CACHE=DIR keeps it in DIR; =off keeps nothing.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "corpus.hpp"

namespace tagproof::scenario {

// The key of `variant`'s corpus over `files` with the runner's options, or
// "" when it cannot be made complete (no build-id, a variant without a
// source, a file that cannot be read).
std::string corpus_cache_key(const std::vector<std::string>& files, const std::string& variant,
                             const std::string& options);

// The cache's directory ("" when it is off), one per binary.
std::string corpus_cache_dir();
// The file an entry of `key` is kept in (named by the key's hash128(); the
// key itself is in the file and compared).
std::string corpus_cache_entry(const std::string& key);

// The result kept under `key`, if a whole entry with that very key is there
// (a torn, truncated or foreign file is a miss, never an error).
std::optional<CorpusResult> corpus_cache_load(const std::string& key);
// Keeps `r` under `key` (written aside and renamed: a reader sees the whole
// entry or none). Failures to write are ignored: the cache only saves time.
void corpus_cache_store(const std::string& key, const CorpusResult& r);

}  // namespace tagproof::scenario
