// corpus.hpp — run a directory of scenario files under one variant, for a
// review: which invariants hold over the corpus, and which outcomes changed
// against a baseline.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "runner.hpp"
#include "variant.hpp"

namespace tagproof::scenario {

struct CorpusEntry {
    std::string file, name;
    Mode mode = Mode::hw_tags;
    bool hw_tags_active = false;  // what a claim "only with HW_TAGS active" covers
    std::string outcome;  // "Always 1/1 reports=2" — what a baseline comparison looks at
    std::vector<std::string> violations;  // "invariant: message"
};

struct CorpusResult {
    std::string variant;
    std::vector<CorpusEntry> entries;
    std::vector<std::string> not_applicable;  // files this variant cannot run (era syntax), with why
    std::size_t runs = 0;
    // invariant -> first counterexample (file [mode]: message)
    std::map<std::string, std::string> counterexamples;
    bool reused = false;  // read from the corpus cache (corpus_cache.hpp), not run in this process
    // files whose runs another variant made, answering every question alike (corpus_file_cache.hpp)
    std::size_t files = 0, files_reused = 0;
};

// Every *.litmus below the directories, sorted.
std::vector<std::string> corpus_files(const std::vector<std::string>& dirs);
// Runs each file under `variant` (the file's own variant line is overridden;
// its expectations are not judged, only what happened).
CorpusResult run_corpus(const std::vector<std::string>& files, const std::string& variant);
// The same, file by file, without the whole corpus's caches (the process's and
// corpus_cache.hpp's): only each file's runs kept by a variant that answered
// their questions alike (corpus_file_cache.hpp) are reused.
CorpusResult run_corpus_files(const std::vector<std::string>& files, const kernel::Variant& v);

}  // namespace tagproof::scenario
