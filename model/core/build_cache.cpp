// build_cache.cpp — see build_cache.hpp.
#include "build_cache.hpp"

#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

namespace tagproof {

namespace fs = std::filesystem;

namespace {

// The GNU build-id note of the main program (the first object
// dl_iterate_phdr reports).
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

}  // namespace

std::string own_build_id() {
    static const std::string id = [] {
        std::string s;
        dl_iterate_phdr(find_build_id, &s);
        return s;
    }();
    return id;
}

std::string build_cache_dir(const std::string& kind, const char* env_var) {
    const char* e = std::getenv(env_var);
    if (e && std::string(e) == "off") return "";
    std::string root;
    if (e && *e) root = e;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) root = std::string(x) + "/tagproof/" + kind;
    else if (const char* h = std::getenv("HOME"); h && *h) root = std::string(h) + "/.cache/tagproof/" + kind;
    else return "";
    const std::string id = own_build_id();
    return id.empty() ? "" : root + "/" + id;
}

void prune_other_builds(const std::string& dir, unsigned keep) {
    const fs::path mine(dir);
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> dirs;
    for (const auto& e : fs::directory_iterator(mine.parent_path(), ec))
        if (e.is_directory(ec) && e.path().filename() != mine.filename()) dirs.push_back({e.last_write_time(ec), e.path()});
    std::sort(dirs.begin(), dirs.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = keep; i < dirs.size(); ++i) fs::remove_all(dirs[i].second, ec);
}

}  // namespace tagproof
