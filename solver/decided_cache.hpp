// decided_cache.hpp — counterexamples kept across processes (issue 33: work
// shared instead of repeated), beside the proofs of proof_cache.hpp.
//
// With the proofs kept, what a review's or a `prove`'s solver stage spends is
// its counterexamples: each one is found, then made readable (the usual
// configuration preferred, the fewest GFP bits, a dozen more checks), read
// into a configuration, witnesses and a scenario, and replayed. All of that
// is a function of the obligation, the variant's and the baseline's code,
// the options (prove.cpp lists them, the planted modelling gap of a negative
// control among them) and the binary: the same for the same of each, since every
// query is asked in a fresh context. So an obligation decided with a
// counterexample (or a change) is kept whole — every scope's verdict and
// text — under a key of all of those, and a later prove() of the same
// obligation reads it instead of asking Z3 again.
//
// Kept: an obligation whose scopes are all decided (no "unknown": an unknown
// may be decided with more time) and one of them a counterexample or a
// change (a proof alone is proof_cache.hpp's). Not kept, and not read: a
// variant no text stands for (kernel::variant_identity), and a prove() that
// writes files of its own (--smt2, --write-scenarios).
//
// The entries live in the proofs' directory (TAGPROOF_PROOF_CACHE=DIR there,
// =off keeps neither), one file each, written whole or not at all.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hash128.hpp"
#include "prove.hpp"

namespace tagproof::solver {

// What decides an obligation's verdict and text besides its query: the
// variant's and the baseline's code, the obligation, the options. nullopt
// when nothing is kept (the cache off, a variant with no identity).
std::optional<Hash128> decided_key(const std::string& variant, const std::string& baseline, const std::string& obligation,
                                   const std::string& options, const Hash128& first_query);

// The scopes kept under `key`, counted in decided_cache_hits(); nullopt when
// none are (or the entry does not read).
std::optional<std::vector<ScopeVerdict>> decided_kept(const Hash128& key);

// Keeps `scopes` under `key` when they are what this cache keeps (above).
void keep_decided(const Hash128& key, const std::vector<ScopeVerdict>& scopes);

// This thread's count of obligations read from kept decisions.
std::size_t decided_cache_hits();

}  // namespace tagproof::solver
