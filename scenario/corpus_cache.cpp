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
#include "file/variant_file.hpp"
#include "variant.hpp"

namespace tagproof::scenario {

namespace fs = std::filesystem;

namespace {

// ---- the entry's text: length-prefixed fields --------------------------------

void put(std::ostream& o, const std::string& s) { o << s.size() << ':' << s << '\n'; }
void put(std::ostream& o, std::uint64_t n) { put(o, std::to_string(n)); }

bool get(std::istream& in, std::string& s) {
    std::size_t n = 0;
    char colon = 0;
    if (!(in >> n) || !in.get(colon) || colon != ':' || n > (std::size_t(1) << 30)) return false;
    s.resize(n);
    if (!in.read(s.data(), std::streamsize(n))) return false;
    return in.get() == '\n';
}
bool get(std::istream& in, std::uint64_t& x) {
    std::string s;
    if (!get(in, s) || s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    x = std::strtoull(s.c_str(), nullptr, 10);
    return true;
}
bool get_list(std::istream& in, std::vector<std::string>& v) {
    std::uint64_t n = 0;
    if (!get(in, n) || n > 1000000) return false;
    v.resize(n);
    for (auto& s : v)
        if (!get(in, s)) return false;
    return true;
}
void put_list(std::ostream& o, const std::vector<std::string>& v) {
    put(o, std::uint64_t(v.size()));
    for (const auto& s : v) put(o, s);
}

const char kMagic[] = "tagproof corpus cache 1";

}  // namespace

std::string corpus_cache_dir() { return build_cache_dir("corpus", "TAGPROOF_CORPUS_CACHE"); }

std::string corpus_cache_entry(const std::string& key) {
    const std::string dir = corpus_cache_dir();
    if (dir.empty()) return "";
    const Hash128 h = hash128(key);  // the explorer's state hash (model/core/hash128.hpp)
    char name[40];
    std::snprintf(name, sizeof name, "%016llx%016llx", static_cast<unsigned long long>(h.hi),
                  static_cast<unsigned long long>(h.lo));
    return dir + "/" + name + ".corpus";
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
    try {
        const kernel::Variant& v = kernel::find_variant(variant);
        if (kernel::find_file_variant(variant) == &v) {
            const std::string src = kernel::variant_file_source(variant);
            if (src.empty()) return "";  // registered from a struct: no text stands for it
            put(k, "file");
            put(k, src);
        } else {
            put(k, "built-in");  // its code is the binary's
        }
    } catch (const InputError&) {
        return "";
    }
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
    const std::string path = corpus_cache_entry(key);
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!(out << o.str())) {
            fs::remove(tmp, ec);
            return;
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) fs::remove(tmp, ec);
    prune_other_builds(dir);
}

}  // namespace tagproof::scenario
