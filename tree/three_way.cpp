// three_way.cpp — see three_way.hpp. git is run as a command (Debian's git):
// `git cat-file blob` for the pre-image, `git merge-file -p` for the merge;
// the three texts go through a scratch directory, never the user's tree.
#include "three_way.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "apply.hpp"

namespace fs = std::filesystem;

namespace tagproof::tree {

namespace {

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// stdout of a command, and its exit status (-1: it did not run)
int capture(const std::string& cmd, std::string& out) {
    FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
    if (!p) return -1;
    std::array<char, 65536> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

std::optional<std::string> three_way_merge(const std::string& root, const patch::FileDiff& fd, const std::string& ours,
                                           std::string& why) {
    if (fd.old_blob.empty()) {
        why = "no 3-way merge: the diff has no index line";
        return std::nullopt;
    }
    if (!fs::exists(root + "/.git")) {
        why = "no 3-way merge: the tree is not a git checkout";
        return std::nullopt;
    }
    std::string base;
    if (capture("git -C " + quoted(root) + " cat-file blob " + quoted(fd.old_blob), base) != 0) {
        why = "no 3-way merge: the tree's git has no blob " + fd.old_blob + " (the index line's pre-image)";
        return std::nullopt;
    }
    // the diff where it was written: every hunk in place on its own pre-image
    std::vector<HunkPlace> places;
    const std::string theirs = apply_file(base, fd, false, 0, 0, places);
    for (const auto& p : places)
        if (p.how == HunkPlace::How::failed) {
            why = "no 3-way merge: the diff does not apply to its own pre-image " + fd.old_blob;
            return std::nullopt;
        }
    std::mt19937_64 rng(std::random_device{}());
    const fs::path dir = fs::temp_directory_path() / ("tagproof-3way-" + std::to_string(rng()));
    fs::create_directories(dir);
    auto put = [&](const char* name, const std::string& text) {
        std::ofstream(dir / name, std::ios::binary) << text;
        return (dir / name).string();
    };
    const std::string o = put("ours", ours), b = put("base", base), t = put("theirs", theirs);
    std::string merged;
    const int rc = capture("git merge-file -p " + quoted(o) + " " + quoted(b) + " " + quoted(t), merged);
    fs::remove_all(dir);
    if (rc != 0) {
        why = rc > 0 ? "the 3-way merge from blob " + fd.old_blob + " conflicts (" + std::to_string(rc) + " conflict(s))"
                     : "no 3-way merge: git merge-file did not run";
        return std::nullopt;
    }
    return merged;
}

}  // namespace tagproof::tree
