// source_tree.cpp — see source_tree.hpp.
#include "source_tree.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sys/wait.h>

#include "error.hpp"

namespace fs = std::filesystem;

namespace tagproof::tree {

namespace {

// Runs a command (no shell quoting needed: the arguments are paths and hex
// we produced or checked), returning its output and exit status.
std::string run(const std::string& cmd, int* status) {
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) {
        *status = -1;
        return out;
    }
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    const int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

std::string shell_quote(const std::string& s) {
    std::string o = "'";
    for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
}

}  // namespace

bool SourceTree::has_commit(const std::string& sha) const {
    if (!git || sha.empty() || sha.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
    int st = 0;
    run("git -C " + shell_quote(root) + " cat-file -e " + sha + "^{commit} 2>/dev/null", &st);
    return st == 0;
}

SourceTree open_tree(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw InputError(dir, "not a directory: --tree takes a kernel source tree");
    SourceTree t;
    t.root = fs::absolute(dir).lexically_normal().string();
    while (t.root.size() > 1 && t.root.back() == '/') t.root.pop_back();
    std::ifstream mk(t.root + "/Makefile");
    if (!mk) throw InputError(dir, "no Makefile: not a kernel source tree");
    std::string line, ver, pl, sub;
    int n = 0;
    static const std::regex var(R"(^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d*)\s*$)");
    while (std::getline(mk, line) && ++n < 40) {
        std::smatch m;
        if (!std::regex_match(line, m, var)) continue;
        (m[1] == "VERSION" ? ver : m[1] == "PATCHLEVEL" ? pl : sub) = m[2];
    }
    if (ver.empty() || pl.empty())
        throw InputError(t.root + "/Makefile", "no VERSION and PATCHLEVEL lines: not a kernel source tree");
    if (!fs::exists(t.root + "/mm/page_alloc.c", ec))
        throw InputError(dir, "no mm/page_alloc.c: not a kernel source tree");
    t.version = ver + "." + pl + (sub.empty() ? "" : "." + sub);
    if (fs::exists(t.root + "/.git", ec)) {
        int st = 0;
        const std::string d = run("git -C " + shell_quote(t.root) + " describe --tags 2>/dev/null", &st);
        t.git = true;
        if (st == 0 && !d.empty()) t.describe = d;
    }
    return t;
}

std::string tree_cache() {
    if (const char* e = std::getenv("TAGPROOF_TREES"); e && *e) return e;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tagproof/trees";
    const char* h = std::getenv("HOME");
    return std::string(h && *h ? h : "/root") + "/.cache/tagproof/trees";
}

std::vector<SourceTree> installed_trees() {
    std::vector<SourceTree> v;
    std::error_code ec;
    const std::string c = tree_cache();
    if (!fs::is_directory(c, ec)) return v;
    for (const auto& e : fs::directory_iterator(c, ec)) {
        if (!fs::exists(e.path() / ".tagproof-ready", ec)) continue;
        try {
            v.push_back(open_tree(e.path().string()));
        } catch (const InputError&) {
            // a cache entry that is not a tree is not offered
        }
    }
    std::sort(v.begin(), v.end(), [](const SourceTree& a, const SourceTree& b) { return version_less(a.version, b.version); });
    return v;
}

}  // namespace tagproof::tree
