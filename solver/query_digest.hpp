// query_digest.hpp — a 128-bit digest of a Z3 query's formulas, computed from
// their structure, for the proof cache (proof_cache.hpp).
//
// Why not the query's SMT-LIB text: printing it (z3::solver::to_smt2) cost
// more than checking it (fourteenth session: 4.28 s against 1.86 s for one
// variant's obligations). The digest walks the term DAG once, each shared
// node hashed once (memoised by Z3's AST id), so it costs a fraction of
// Z3's own construction of the terms.
//
// What a node contributes is everything Z3 reads of it:
//   - a numeral: its sort and its value (decimal);
//   - an application: its declaration (kind, name, every parameter — an
//     extract's bounds, a zero_extend's width —, domain and range sorts) and
//     its arguments' digests, in order;
//   - a sort: its kind, name and, for bit-vectors, its width; arrays their
//     domain and range.
// A node the digest does not know how to read whole (a quantifier, a bound
// variable, a datatype or any sort kind not listed) makes the digest
// undefined (nullopt): such a query is never cached, rather than cached
// under a digest that might not tell it apart.
//
// Two different queries share a digest only if their 128-bit hashes
// collide: about n^2 / 2^129 for n queries, the explorer's state table's
// odds (model/core/hash128.hpp).
#pragma once
#include <z3++.h>

#include <optional>
#include <string>

#include "hash128.hpp"

namespace tagproof::solver {

// The digest of `assertions` (in order) with `context` (the logic, the
// solver's parameters: whatever else decides the answer) folded in.
std::optional<Hash128> query_digest(const z3::expr_vector& assertions, const std::string& context);

}  // namespace tagproof::solver
