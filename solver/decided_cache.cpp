// decided_cache.cpp — see decided_cache.hpp.
#include "decided_cache.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "file/variant_file.hpp"
#include "kept_fields.hpp"
#include "proof_cache.hpp"

namespace tagproof::solver {

namespace {

using kept::get;
using kept::get_list;
using kept::put;
using kept::put_list;

const char kMagic[] = "tagproof decided obligation 1";

thread_local std::size_t hits = 0;

std::string dir() { return proofs_dir(); }  // beside the proofs: one switch, one pruning

std::string entry(const std::string& d, const Hash128& h) { return d + "/" + hash128_hex(h) + ".decided"; }

bool decided(const std::string& verdict) { return verdict != "unknown"; }
bool found(const std::string& verdict) { return verdict == "counterexample" || verdict == "changed"; }

}  // namespace

std::optional<Hash128> decided_key(const std::string& variant, const std::string& baseline, const std::string& obligation,
                                   const std::string& options, const Hash128& first_query) {
    if (dir().empty()) return std::nullopt;
    const std::string vid = kernel::variant_identity(variant);
    const std::string bid = baseline.empty() ? "none" : kernel::variant_identity(baseline);
    if (vid.empty() || bid.empty()) return std::nullopt;
    std::ostringstream k;
    put(k, std::string(kMagic));
    put(k, variant);
    put(k, vid);
    put(k, baseline);
    put(k, bid);
    put(k, obligation);
    put(k, options);
    put(k, first_query.hi);
    put(k, first_query.lo);
    return hash128(k.str());
}

std::optional<std::vector<ScopeVerdict>> decided_kept(const Hash128& key) {
    const std::string d = dir();
    if (d.empty()) return std::nullopt;
    std::ifstream in(entry(d, key), std::ios::binary);
    if (!in) return std::nullopt;
    std::string magic;
    std::uint64_t hi = 0, lo = 0, n = 0;
    if (!get(in, magic) || magic != kMagic || !get(in, hi) || !get(in, lo) || hi != key.hi || lo != key.lo ||
        !get(in, n) || n == 0 || n > 8)
        return std::nullopt;
    std::vector<ScopeVerdict> out(n);
    for (auto& sv : out) {
        std::uint64_t ok = 0;
        if (!get(in, sv.scope) || !get(in, sv.verdict) || !get_list(in, sv.details) || !get_list(in, sv.broken) ||
            !get(in, sv.scenario) || !get(in, sv.replay) || !get(in, ok) || ok > 1)
            return std::nullopt;
        sv.replay_ok = ok;
    }
    std::string end;
    if (!get(in, end) || end != "end") return std::nullopt;
    ++hits;
    return out;
}

void keep_decided(const Hash128& key, const std::vector<ScopeVerdict>& scopes) {
    const std::string d = dir();
    if (d.empty() || scopes.empty()) return;
    bool any = false;
    for (const auto& sv : scopes) {
        if (!decided(sv.verdict) || !sv.smt2_file.empty()) return;
        any |= found(sv.verdict);
    }
    if (!any) return;
    std::error_code ec;
    std::filesystem::create_directories(d, ec);
    if (ec) return;
    std::ostringstream o;
    put(o, std::string(kMagic));
    put(o, key.hi);
    put(o, key.lo);
    put(o, std::uint64_t(scopes.size()));
    for (const auto& sv : scopes) {
        put(o, sv.scope);
        put(o, sv.verdict);
        put_list(o, sv.details);
        put_list(o, sv.broken);
        put(o, sv.scenario);
        put(o, sv.replay);
        put(o, std::uint64_t(sv.replay_ok));
    }
    put(o, std::string("end"));
    kept::write_whole(entry(d, key), o.str());
}

std::size_t decided_cache_hits() { return hits; }

}  // namespace tagproof::solver
