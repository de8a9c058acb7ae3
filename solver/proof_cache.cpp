// proof_cache.cpp — see proof_cache.hpp.
#include "proof_cache.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "build_cache.hpp"
#include "query_digest.hpp"

namespace tagproof::solver {

namespace fs = std::filesystem;

namespace {

// per thread: a review's solver runs on its own thread, and says how many of
// its proofs were kept
thread_local std::size_t hits = 0;

// What this process knows to be unsat already, per cache directory (spares a
// file system look-up for a query asked twice in one process), and the
// directories it has made.
std::mutex known_lock;
std::unordered_map<std::string, std::unordered_set<Hash128, Hash128Hasher>> known_unsat;
std::unordered_set<std::string> made;

std::string entry_name(const Hash128& h) { return hash128_hex(h) + ".unsat"; }

bool recall(const std::string& dir, const Hash128& h) {
    {
        std::lock_guard<std::mutex> g(known_lock);
        if (known_unsat[dir].count(h)) return true;
    }
    std::error_code ec;
    if (!fs::exists(dir + "/" + entry_name(h), ec)) return false;
    std::lock_guard<std::mutex> g(known_lock);
    known_unsat[dir].insert(h);
    return true;
}

// The entry is an empty file: created whole or not at all, so a reader
// never sees half of one. Failures are ignored: the cache only saves time.
void keep(const std::string& dir, const Hash128& h) {
    bool first = false;
    {
        std::lock_guard<std::mutex> g(known_lock);
        known_unsat[dir].insert(h);
        first = made.insert(dir).second;
    }
    if (first) {
        std::error_code ec;
        fs::create_directories(dir, ec);
        prune_other_builds(dir);
    }
    std::ofstream(dir + "/" + entry_name(h));
}

}  // namespace

std::string proofs_dir() { return build_cache_dir("proofs", "TAGPROOF_PROOF_CACHE"); }

bool proof_cache_on() { return !proofs_dir().empty(); }

std::optional<Hash128> proof_key(const z3::expr_vector& assertions, const std::string& context) {
    if (proofs_dir().empty()) return std::nullopt;
    return query_digest(assertions, context);
}

bool proof_kept(const Hash128& key) {
    const std::string dir = proofs_dir();
    if (dir.empty() || !recall(dir, key)) return false;
    ++hits;
    return true;
}

void keep_proof(const Hash128& key) {
    if (const std::string dir = proofs_dir(); !dir.empty()) keep(dir, key);
}

z3::check_result check_kept(z3::solver& s, const std::string& context) {
    const std::optional<Hash128> key = proof_key(s.assertions(), context);
    if (key && proof_kept(*key)) return z3::unsat;
    const z3::check_result r = s.check();
    if (key && r == z3::unsat) keep_proof(*key);
    return r;
}

std::size_t proof_cache_hits() { return hits; }

}  // namespace tagproof::solver
