// corpus_cache.cpp — see corpus_cache.hpp.
#include "corpus_cache.hpp"

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "error.hpp"
#include "hash128.hpp"
#include "file/variant_file.hpp"
#include "variant.hpp"

namespace tagproof::scenario {

namespace fs = std::filesystem;

namespace {

// ---- the binary ------------------------------------------------------------

// The GNU build-id note of the main program (the first object
// dl_iterate_phdr reports): ld writes it from the linked bytes, so two
// builds of different code have different ids.
int find_build_id(struct dl_phdr_info* info, std::size_t, void* out) {
    auto* id = static_cast<std::string*>(out);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_NOTE) continue;
        const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
        const char* end = p + ph.p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const auto* n = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const char* name = p + sizeof(ElfW(Nhdr));
            const char* desc = name + ((n->n_namesz + 3) & ~3u);
            if (desc + n->n_descsz > end) break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                static const char hex[] = "0123456789abcdef";
                for (unsigned k = 0; k < n->n_descsz; ++k) {
                    const unsigned char b = static_cast<unsigned char>(desc[k]);
                    id->push_back(hex[b >> 4]);
                    id->push_back(hex[b & 15]);
                }
                return 1;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 1;  // the main program only
}

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

// Entries of other binaries are never read again: keep the newest few
// directories (one per build-id), so a developer's rebuilds do not pile up.
void prune_other_builds(const fs::path& root, const std::string& mine) {
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> dirs;
    for (const auto& e : fs::directory_iterator(root, ec))
        if (e.is_directory(ec) && e.path().filename() != mine) dirs.push_back({e.last_write_time(ec), e.path()});
    std::sort(dirs.begin(), dirs.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 3; i < dirs.size(); ++i) fs::remove_all(dirs[i].second, ec);
}

}  // namespace

std::string own_build_id() {
    static const std::string id = [] {
        std::string s;
        dl_iterate_phdr(find_build_id, &s);
        return s;
    }();
    return id;
}

std::string corpus_cache_dir() {
    const char* e = std::getenv("TAGPROOF_CORPUS_CACHE");
    if (e && std::string(e) == "off") return "";
    std::string root;
    if (e && *e) root = e;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) root = std::string(x) + "/tagproof/corpus";
    else if (const char* h = std::getenv("HOME"); h && *h) root = std::string(h) + "/.cache/tagproof/corpus";
    else return "";
    const std::string id = own_build_id();
    return id.empty() ? "" : root + "/" + id;
}

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
    prune_other_builds(fs::path(dir).parent_path(), fs::path(dir).filename().string());
}

}  // namespace tagproof::scenario
