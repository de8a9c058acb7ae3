// corpus_file_cache.cpp — see corpus_file_cache.hpp.
#include "corpus_file_cache.hpp"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <system_error>

#include "build_cache.hpp"
#include "corpus_cache.hpp"
#include "hash128.hpp"
#include "kept_fields.hpp"

namespace tagproof::scenario {

namespace fs = std::filesystem;

namespace {

using kept::get;
using kept::get_list;
using kept::put;
using kept::put_list;

const char kMagic[] = "tagproof corpus file runs 1";

std::string key_dir(const std::string& key) { return corpus_cache_dir() + "/files/" + hash128_hex(hash128(key)); }

struct Kept {
    kernel::CallTranscript asked;
    FileRuns runs;
};

// An entry's text, or nullopt when `in` is not one of `key`.
std::optional<Kept> read_entry(std::istream& in, const std::string& key) {
    std::string magic, k, asked;
    if (!get(in, magic) || magic != kMagic || !get(in, k) || k != key || !get(in, asked)) return std::nullopt;
    auto t = kernel::CallTranscript::parse(asked);
    if (!t) return std::nullopt;
    Kept e{std::move(*t), {}};
    std::uint64_t runs = 0, n = 0;
    if (!get(in, e.runs.not_applicable) || !get(in, runs) || !get(in, n) || n > 100000) return std::nullopt;
    e.runs.runs = runs;
    e.runs.entries.resize(n);
    for (auto& c : e.runs.entries) {
        std::uint64_t mode = 0, active = 0;
        if (!get(in, c.file) || !get(in, c.name) || !get(in, mode) || !get(in, active) || !get(in, c.outcome) ||
            !get_list(in, c.violations) || mode > std::uint64_t(Mode::hw_tags) || active > 1)
            return std::nullopt;
        c.mode = Mode(mode);
        c.hw_tags_active = active;
    }
    std::string end;
    if (!get(in, end) || end != "end") return std::nullopt;
    return e;
}

std::string entry_text(const std::string& key, const std::string& asked, const FileRuns& r) {
    std::ostringstream o;
    put(o, std::string(kMagic));
    put(o, key);
    put(o, asked);
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
    put(o, std::string("end"));
    return o.str();
}

// The entries of each key this process has looked at: read from disk once,
// then kept in memory with what this process adds.
std::mutex mu;
std::map<std::string, std::vector<std::shared_ptr<const Kept>>> known;
std::atomic<std::size_t> reused{0};

std::vector<std::shared_ptr<const Kept>> entries_of(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu);
    auto [it, fresh] = known.try_emplace(key);
    if (fresh) {
        std::error_code ec;
        for (fs::directory_iterator d(key_dir(key), ec), end; !ec && d != end; d.increment(ec)) {
            if (d->path().extension() != ".runs") continue;
            std::ifstream in(d->path(), std::ios::binary);
            if (auto e = read_entry(in, key)) it->second.push_back(std::make_shared<const Kept>(std::move(*e)));
        }
    }
    return it->second;
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
    for (const auto& e : entries_of(key))
        if (e->asked.same_answers(v)) {
            ++reused;
            FileRuns r = e->runs;
            r.reused = true;
            return r;
        }
    return std::nullopt;
}

void keep_file_runs(const std::string& key, const kernel::CallTranscript& asked, const FileRuns& runs) {
    if (key.empty()) return;
    const std::string bytes = asked.bytes();
    auto e = std::make_shared<const Kept>(Kept{asked, runs});
    {
        std::lock_guard<std::mutex> lock(mu);
        known[key].push_back(e);
    }
    const std::string dir = key_dir(key);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return;
    kept::write_whole(dir + "/" + hash128_hex(hash128(bytes)) + ".runs", entry_text(key, bytes, runs));
}

std::size_t file_runs_reused() { return reused; }

}  // namespace tagproof::scenario
