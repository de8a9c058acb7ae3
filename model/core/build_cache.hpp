// build_cache.hpp — where work kept across processes lives (issue 33: work
// shared instead of repeated). Two caches use it: the corpus's results
// (scenario/corpus_cache.hpp) and the solver's proofs (solver/proof_cache.hpp).
// Each keeps one directory per binary, named by the binary's GNU build-id, so
// that nothing one build computed is ever read by another; the directories of
// other builds are pruned to the newest few, so a developer's rebuilds do not
// pile up.
#pragma once
#include <string>

namespace tagproof {

// The running binary's GNU build-id as hex ("" if it has none). ld writes it
// from the linked bytes: two builds of different code have different ids.
std::string own_build_id();

// The directory this binary keeps `kind`'s entries in: $ENV_VAR when set (a
// directory, or "off" for none), else $XDG_CACHE_HOME/tagproof/KIND, else
// ~/.cache/tagproof/KIND; then the build-id below it. "" when the cache is off
// or no such directory can be named (no home, no build-id).
std::string build_cache_dir(const std::string& kind, const char* env_var);

// Removes the directories of other builds next to `dir` (one of
// build_cache_dir's), all but the newest `keep`. Failures are ignored: the
// cache only saves time.
void prune_other_builds(const std::string& dir, unsigned keep = 3);

}  // namespace tagproof
