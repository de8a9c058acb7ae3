// corpus_file_cache.cpp — see corpus_file_cache.hpp.
#include "corpus_file_cache.hpp"

#include <fstream>
#include <sstream>

#include "build_cache.hpp"
#include "corpus_cache.hpp"
#include "hash128.hpp"
#include "kept_by_answers.hpp"
#include "kept_fields.hpp"

namespace tagproof::scenario {

namespace {

using kept::get;
using kept::get_list;
using kept::put;
using kept::put_list;

const char kMagic[] = "tagproof corpus file runs 2";

kernel::KeptByAnswers& store() {
    static kernel::KeptByAnswers s(kMagic, ".runs");
    return s;
}

std::string key_dir(const std::string& key) { return corpus_cache_dir() + "/files/" + hash128_hex(hash128(key)); }

std::string payload_of(const FileRuns& r) {
    std::ostringstream o;
    put(o, r.not_applicable);
    put(o, std::uint64_t(r.runs));
    put(o, std::uint64_t(r.entries.size()));
    for (const auto& c : r.entries) {
        put(o, c.file);
        put(o, c.name);
        put(o, std::uint64_t(c.mode));
        put(o, std::uint64_t(c.hw_tags_active));
        put(o, c.outcome);
        put_list(o, c.violations);
    }
    return o.str();
}

std::optional<FileRuns> runs_of(const std::string& payload) {
    std::istringstream in(payload);
    FileRuns r;
    std::uint64_t runs = 0, n = 0;
    if (!get(in, r.not_applicable) || !get(in, runs) || !get(in, n) || n > 100000) return std::nullopt;
    r.runs = runs;
    r.entries.resize(n);
    for (auto& c : r.entries) {
        std::uint64_t mode = 0, active = 0;
        if (!get(in, c.file) || !get(in, c.name) || !get(in, mode) || !get(in, active) || !get(in, c.outcome) ||
            !get_list(in, c.violations) || mode > std::uint64_t(Mode::hw_tags) || active > 1)
            return std::nullopt;
        c.mode = Mode(mode);
        c.hw_tags_active = active;
    }
    if (in.peek() != std::char_traits<char>::eof()) return std::nullopt;
    return r;
}

}  // namespace

std::string file_runs_key(const std::string& file, const std::string& options) {
    if (corpus_cache_dir().empty()) return "";
    const std::string id = own_build_id();
    if (id.empty()) return "";
    std::ifstream in(file, std::ios::binary);
    if (!in) return "";
    std::ostringstream text;
    text << in.rdbuf();
    std::ostringstream k;
    put(k, std::string(kMagic));
    put(k, "build-id " + id);
    put(k, "options " + options);
    put(k, file);
    put(k, text.str());
    return k.str();
}

std::optional<FileRuns> file_runs_kept(const std::string& key, const kernel::Variant& v) {
    if (key.empty()) return std::nullopt;
    auto payload = store().find(key_dir(key), key, v);
    if (!payload) return std::nullopt;
    auto r = runs_of(*payload);
    if (r) r->reused = true;
    return r;
}

void keep_file_runs(const std::string& key, const kernel::CallTranscript& asked, const FileRuns& runs) {
    if (!key.empty()) store().keep(key_dir(key), key, asked, payload_of(runs));
}

}  // namespace tagproof::scenario
