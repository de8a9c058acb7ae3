// corpus_file_cache.hpp — one scenario file's runs kept with the questions
// they asked of the variant (kernel/variant_calls.hpp), and reused by any
// variant that answers all of them the same (issue 33: work shared instead of
// repeated).
//
// corpus_cache.hpp keeps a whole corpus per variant text, so it helps only a
// variant reviewed twice. But a mutant, a patch or a lifted tree changes one
// rule or two of its base: most scenario files never ask the changed rule and
// run exactly as under the base. Here each file's runs are kept per binary,
// file path and bytes, and runner options, beside the transcript of every
// question the runs asked; a later variant reuses them when re-asking every
// question gives the recorded answer (variant_calls.hpp says why that is the
// same run). A key may hold several entries, one per distinct transcript.
//
// Entries live under corpus_cache_dir()/files (TAGPROOF_CORPUS_CACHE=off keeps
// none), kept by kernel/kept_by_answers.hpp.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "corpus.hpp"
#include "variant_calls.hpp"

namespace tagproof::scenario {

// What the corpus takes from one file's run under one variant.
struct FileRuns {
    std::vector<CorpusEntry> entries;
    std::string not_applicable;  // "" or why this variant cannot run the file
    std::size_t runs = 0;
    bool reused = false;  // read from a kept entry (file_runs_kept), not run here
};

// The key of `file`'s runs with the runner's `options`: the binary, the
// options, the path and the bytes. "" when it cannot be made (the cache off,
// no build-id, the file unreadable).
std::string file_runs_key(const std::string& file, const std::string& options);

// Runs kept under `key` by a variant that answered every question as `v`
// does (FileRuns::reused set).
std::optional<FileRuns> file_runs_kept(const std::string& key, const kernel::Variant& v);

// Keeps `runs` under `key` with the transcript of what they asked.
void keep_file_runs(const std::string& key, const kernel::CallTranscript& asked, const FileRuns& runs);

}  // namespace tagproof::scenario
