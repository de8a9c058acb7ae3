// proof_cache.hpp — proofs kept across processes (issue 33: work shared
// instead of repeated).
//
// Most of a review's solver time is Z3 proving obligations that no patch
// touched: a mutant or a tree's series changes one rule, and every
// obligation that does not read it builds the very query its baseline's
// review built. An unsat answer is a fact about the query alone, so it is
// kept under the query's digest (query_digest.hpp) and a later check of the
// same query is answered from it without asking Z3.
//
// Only unsat is kept. A satisfiable query needs its model (the
// counterexample is read from it, minimised and replayed) and an unknown one
// may be decided with more time; both are asked of Z3 every time. So a kept
// entry can change nothing but how long a proof takes: the verdict, its
// text and the reply are the same with the cache on or off (ctest
// review.reproducible compares them).
//
// Entries live in build_cache_dir("proofs") — one directory per binary, as
// the corpus cache's — each an empty file named by the digest: its being
// there is the fact. TAGPROOF_PROOF_CACHE=DIR keeps them in DIR, =off keeps
// none.
#pragma once
#include <z3++.h>

#include <cstddef>
#include <optional>
#include <string>

#include "hash128.hpp"

namespace tagproof::solver {

// The directory kept proofs (and decided_cache.hpp's entries) live in; ""
// when none are kept.
std::string proofs_dir();

// Whether proofs are kept (TAGPROOF_PROOF_CACHE is not "off" and a
// directory can be named): with none, a caller need not build a query to
// look it up.
bool proof_cache_on();

// The key a query's proof is kept under: its assertions' digest with
// `context` folded in (query_digest.hpp); nullopt when proofs are not kept
// (TAGPROOF_PROOF_CACHE=off, no directory) or the query cannot be digested.
// A caller digests a query once and both looks it up and keeps it by this.
std::optional<Hash128> proof_key(const z3::expr_vector& assertions, const std::string& context);

// Whether the query of `key` was proved unsat before (counted in
// proof_cache_hits()).
bool proof_kept(const Hash128& key);

// Keeps the fact that the query of `key` is unsat (Z3 said so).
void keep_proof(const Hash128& key);

// For a solver whose context holds nothing else that is checked later (a
// context per check): s.check(), unless a check of the same assertions under the same `context`
// (the logic and the parameters that decide the answer, e.g. the timeout)
// was unsat before: then unsat without asking Z3. An unsat answer Z3 gives
// here is kept.
z3::check_result check_kept(z3::solver& s, const std::string& context);

// This thread's count of checks answered from kept proofs (a review's
// progress line says how many of its proofs were kept; tests read it).
std::size_t proof_cache_hits();

}  // namespace tagproof::solver
