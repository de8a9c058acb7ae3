// corpus_cache.cpp — see corpus_cache.hpp.
#include "corpus_cache.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "build_cache.hpp"
#include "error.hpp"
#include "hash128.hpp"
#include "kept_fields.hpp"
#include "file/variant_file.hpp"
#include "variant.hpp"

namespace tagproof::scenario {

namespace fs = std::filesystem;

namespace {

using kept::get;
using kept::get_list;
using kept::put;
using kept::put_list;

const char kMagic[] = "tagproof corpus cache 1";

}  // namespace

std::string corpus_cache_dir() { return build_cache_dir("corpus", "TAGPROOF_CORPUS_CACHE"); }

std::string corpus_cache_entry(const std::string& key) {
    const std::string dir = corpus_cache_dir();
    if (dir.empty()) return "";
    // the explorer's state hash (model/core/hash128.hpp)
    return dir + "/" + hash128_hex(hash128(key)) + ".corpus";
}

std::string corpus_cache_key(const std::vector<std::string>& files, const std::string& variant,
                             const std::string& options) {
    const std::string id = own_build_id();
    if (id.empty()) return "";
    std::ostringstream k;
    put(k, std::string(kMagic));
    put(k, "build-id " + id);
    put(k, "options " + options);
    put(k, "variant " + variant);
    const std::string identity = kernel::variant_identity(variant);
    if (identity.empty()) return "";
    put(k, identity);
    put(k, std::uint64_t(files.size()));
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) return "";
        std::ostringstream text;
        text << in.rdbuf();
        put(k, f);
        put(k, text.str());
    }
    return k.str();
}

std::optional<CorpusResult> corpus_cache_load(const std::string& key) {
    const std::string dir = corpus_cache_dir();
    if (dir.empty() || key.empty()) return std::nullopt;
    std::ifstream in(corpus_cache_entry(key), std::ios::binary);
    if (!in) return std::nullopt;
    std::string magic, k;
    if (!get(in, magic) || magic != kMagic || !get(in, k) || k != key) return std::nullopt;
    CorpusResult r;
    std::uint64_t n = 0, runs = 0;
    if (!get(in, r.variant) || !get(in, runs) || !get_list(in, r.not_applicable) || !get(in, n) || n > 1000000)
        return std::nullopt;
    r.runs = runs;
    r.entries.resize(n);
    for (auto& e : r.entries) {
        std::uint64_t mode = 0, active = 0;
        if (!get(in, e.file) || !get(in, e.name) || !get(in, mode) || !get(in, active) || !get(in, e.outcome) ||
            !get_list(in, e.violations) || mode > std::uint64_t(Mode::hw_tags) || active > 1)
            return std::nullopt;
        e.mode = Mode(mode);
        e.hw_tags_active = active;
    }
    std::vector<std::string> ce;
    if (!get_list(in, ce) || ce.size() % 2) return std::nullopt;
    for (std::size_t i = 0; i < ce.size(); i += 2) r.counterexamples[ce[i]] = ce[i + 1];
    std::string end;
    if (!get(in, end) || end != "end") return std::nullopt;
    return r;
}

void corpus_cache_store(const std::string& key, const CorpusResult& r) {
    const std::string dir = corpus_cache_dir();
    if (dir.empty() || key.empty()) return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return;
    std::ostringstream o;
    put(o, std::string(kMagic));
    put(o, key);
    put(o, r.variant);
    put(o, std::uint64_t(r.runs));
    put_list(o, r.not_applicable);
    put(o, std::uint64_t(r.entries.size()));
    for (const auto& e : r.entries) {
        put(o, e.file);
        put(o, e.name);
        put(o, std::uint64_t(e.mode));
        put(o, std::uint64_t(e.hw_tags_active));
        put(o, e.outcome);
        put_list(o, e.violations);
    }
    std::vector<std::string> ce;
    for (const auto& [inv, text] : r.counterexamples) {
        ce.push_back(inv);
        ce.push_back(text);
    }
    put_list(o, ce);
    put(o, std::string("end"));
    if (kept::write_whole(corpus_cache_entry(key), o.str())) prune_other_builds(dir);
}

}  // namespace tagproof::scenario
