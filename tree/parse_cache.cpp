// parse_cache.cpp — see parse_cache.hpp.
#include "parse_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "source_tree.hpp"
#include "tree_reader_digest.h"

namespace tagproof::tree {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMagic = "tagproof parsed file 1\n";

struct Stamp {
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
    bool ok = false;
};

Stamp stamp(const std::string& path) {
    struct stat st {};
    Stamp s;
    if (::stat(path.c_str(), &st) != 0) return s;
    s.size = std::uint64_t(st.st_size);
    s.mtime_ns = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    s.ok = true;
    return s;
}

// What reads: the tree reader's sources (their digest, made at build time by
// cmake/source_digest.cmake) and the libclang it loads. An entry another
// reader or another libclang wrote is not used; one written by another build
// of the same reader is (a rebuild of the model or the solver kept none of
// them when this was the executable's path, size and mtime).
std::string reader_identity() {
    static const std::string id = [] {
        const Stamp s = stamp(TAGPROOF_LIBCLANG);
        return std::string("tree reader ") + TAGPROOF_TREE_READER_DIGEST + ", " + TAGPROOF_LIBCLANG + " " +
               std::to_string(s.size) + " " + std::to_string(s.mtime_ns);
    }();
    return id;
}

std::string key_of(const std::string& root, const std::string& path, const std::vector<std::string>& flags,
                   const std::string& text_id) {
    std::string k = reader_identity() + '\0' + root + '\0' + path + '\0' + text_id;
    for (const auto& f : flags) k += '\0' + f;
    return k;
}

std::string file_of(const std::string& dir, const std::string& key) {
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a: a file name; the key itself is compared on load
    for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ull;
    char name[40];
    std::snprintf(name, sizeof name, "%016llx.bin", (unsigned long long)h);
    return dir + "/" + name;
}

// ---- a plain binary form: integers as written, strings with their length -----------------
struct Out {
    std::string b;
    template <class T>
    void num(T v) { b.append(reinterpret_cast<const char*>(&v), sizeof v); }
    void str(const std::string& s) {
        num<std::uint32_t>(std::uint32_t(s.size()));
        b += s;
    }
};

struct In {
    const std::string& b;
    std::size_t at = 0;
    bool ok = true;
    template <class T>
    T num() {
        T v{};
        if (!ok || b.size() - at < sizeof v) {
            ok = false;
            return v;
        }
        std::memcpy(&v, b.data() + at, sizeof v);
        at += sizeof v;
        return v;
    }
    std::string str() {
        const auto n = num<std::uint32_t>();
        if (!ok || b.size() - at < n) {
            ok = false;
            return {};
        }
        std::string s = b.substr(at, n);
        at += n;
        return s;
    }
    // a count no larger than the bytes left could hold (a damaged entry is refused, not allocated)
    std::uint32_t count() {
        const auto n = num<std::uint32_t>();
        if (n > b.size() - at) ok = false;
        return ok ? n : 0;
    }
};

// Bounded: past kKeep entries (trees made by tests, patched copies' own
// files), the least recently written half goes.
constexpr std::size_t kKeep = 512;
void prune(const std::string& dir) {
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> all;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file(ec)) all.push_back({e.last_write_time(ec), e.path()});
    if (all.size() <= kKeep) return;
    std::sort(all.begin(), all.end());
    for (std::size_t i = 0; i < all.size() / 2; ++i) fs::remove(all[i].second, ec);
}

}  // namespace

std::string parse_cache_dir() {
    if (const char* e = std::getenv("TAGPROOF_PARSE_CACHE"); e && *e)
        return std::string(e) == "off" ? "" : std::string(e);
    return fs::path(tree_cache()).parent_path().string() + "/parsed";
}

std::string text_digest(const std::string& text) {
    std::uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
    for (unsigned char c : text) {
        a = (a ^ c) * 0x100000001b3ull;             // FNV-1a
        b = (b + c + 1) * 0x9e3779b97f4a7c15ull;   // and a multiplicative one: two 64-bit hashes
        b ^= b >> 29;
    }
    char s[64];
    std::snprintf(s, sizeof s, "%016llx%016llx:%zu", (unsigned long long)a, (unsigned long long)b, text.size());
    return s;
}

std::optional<ParsedFile> load_parsed(const std::string& root, const std::string& path,
                                      const std::vector<std::string>& flags, const std::string& text_id) {
    const std::string dir = parse_cache_dir();
    if (dir.empty()) return std::nullopt;
    const std::string key = key_of(root, path, flags, text_id);
    std::ifstream f(file_of(dir, key), std::ios::binary);
    if (!f) return std::nullopt;
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string b = ss.str();
    In in{b};
    if (b.compare(0, std::strlen(kMagic), kMagic) != 0) return std::nullopt;
    in.at = std::strlen(kMagic);
    if (in.str() != key || !in.ok) return std::nullopt;
    // every file the parse read, as it was
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok; ++i) {
        const std::string p = in.str();
        const auto size = in.num<std::uint64_t>();
        const auto mtime = in.num<std::int64_t>();
        const Stamp now = stamp(p);
        if (!now.ok || now.size != size || now.mtime_ns != mtime) return std::nullopt;
    }
    ParsedFile pf;
    pf.configured = in.num<std::uint8_t>() != 0;
    pf.errors = in.num<std::int32_t>();
    pf.first_error = in.str();
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok; ++i) {
        Definition d;
        d.kind = Definition::Kind(in.num<std::uint8_t>());
        d.name = in.str();
        d.begin_line = in.num<std::int32_t>();
        d.end_line = in.num<std::int32_t>();
        pf.defs.push_back(d);
    }
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok; ++i) {
        Call c;
        c.callee = in.str();
        c.line = in.num<std::int32_t>();
        c.end_line = in.num<std::int32_t>();
        for (std::uint32_t j = 0, m = in.count(); j < m && in.ok; ++j) c.args.push_back(in.str());
        c.offset = in.num<std::uint32_t>();
        pf.calls.push_back(c);
    }
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok; ++i) {
        ParsedFile::Token t;
        t.line = in.num<std::int32_t>();
        t.offset = in.num<std::uint32_t>();
        t.text = in.str();
        pf.tokens.push_back(t);
    }
    if (!in.ok || in.at != b.size()) return std::nullopt;
    return pf;
}

void save_parsed(const std::string& root, const std::string& path, const std::vector<std::string>& flags,
                 const std::string& text_id, const ParsedFile& pf, const std::vector<std::string>& inputs) {
    const std::string dir = parse_cache_dir();
    if (dir.empty()) return;
    const std::string key = key_of(root, path, flags, text_id);
    Out o;
    o.b = kMagic;
    o.str(key);
    o.num<std::uint32_t>(std::uint32_t(inputs.size()));
    for (const auto& given : inputs) {
        std::error_code aec;
        const std::string p = fs::absolute(given, aec).string();  // another process may run elsewhere
        const Stamp s = stamp(p);
        if (aec || !s.ok) return;  // a file that went away while parsing: nothing to vouch for
        o.str(p);
        o.num<std::uint64_t>(s.size);
        o.num<std::int64_t>(s.mtime_ns);
    }
    o.num<std::uint8_t>(pf.configured ? 1 : 0);
    o.num<std::int32_t>(pf.errors);
    o.str(pf.first_error);
    o.num<std::uint32_t>(std::uint32_t(pf.defs.size()));
    for (const auto& d : pf.defs) {
        o.num<std::uint8_t>(std::uint8_t(d.kind));
        o.str(d.name);
        o.num<std::int32_t>(d.begin_line);
        o.num<std::int32_t>(d.end_line);
    }
    o.num<std::uint32_t>(std::uint32_t(pf.calls.size()));
    for (const auto& c : pf.calls) {
        o.str(c.callee);
        o.num<std::int32_t>(c.line);
        o.num<std::int32_t>(c.end_line);
        o.num<std::uint32_t>(std::uint32_t(c.args.size()));
        for (const auto& a : c.args) o.str(a);
        o.num<std::uint32_t>(c.offset);
    }
    o.num<std::uint32_t>(std::uint32_t(pf.tokens.size()));
    for (const auto& t : pf.tokens) {
        o.num<std::int32_t>(t.line);
        o.num<std::uint32_t>(t.offset);
        o.str(t.text);
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    prune(dir);
    const std::string file = file_of(dir, key);
    const std::string tmp = file + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary);
        if (!out) return;
        out.write(o.b.data(), std::streamsize(o.b.size()));
        if (!out) {
            fs::remove(tmp, ec);
            return;
        }
    }
    fs::rename(tmp, file, ec);
    if (ec) fs::remove(tmp, ec);
}

}  // namespace tagproof::tree
