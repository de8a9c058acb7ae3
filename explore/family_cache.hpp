// family_cache.hpp — a family exploration kept with the questions it asked
// of the variant (kernel/variant_calls.hpp), and reused by any variant that
// answers all of them the same (issue 33: work shared instead of repeated).
//
// A review explores about 150 (family, boot) pairs; a mutant, a patch or a
// lifted tree changes a rule or two of its base, and most explorations never
// ask it: they build the very graph the base's review built. Each exploration
// is kept per binary and per everything in its options (the family's events
// and setup, the boot, the mode, the depth and budgets) beside the transcript
// of its questions, and read back when re-asking every question of the new
// variant gives the recorded answers: the counts and the verdicts, and the
// edges in the order they were built, checked whole; the Boost graph is built
// from them only when FamilyResult::graph() is asked for (a review reads the
// verdicts, the cross-check the edges). What the variant's own record adds
// (FamilyVerdict::recorded) is not kept: explore_family() reads it from the
// variant each time.
//
// Entries live beside the corpus's (corpus_cache_dir()/families, off with
// TAGPROOF_CORPUS_CACHE=off), kept by kernel/kept_by_answers.hpp.
#pragma once
#include <optional>
#include <string>

#include "family_explorer.hpp"
#include "variant_calls.hpp"

namespace tagproof::explore {

// The key of an exploration with options `o` ("" when the cache is off or
// the binary has no build-id).
std::string family_key(const FamilyOptions& o);

// Fills `into` with the exploration kept under `key` by a variant that
// answered every question as `v` does (its options `o`); false, `into`
// untouched, when there is none.
bool family_kept(const std::string& key, const FamilyOptions& o, const kernel::Variant& v, FamilyResult& into);

// Keeps `r` under `key` with the transcript of what it asked.
void keep_family(const std::string& key, const kernel::CallTranscript& asked, const FamilyResult& r);

}  // namespace tagproof::explore
