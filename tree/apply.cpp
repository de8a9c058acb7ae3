// apply.cpp — see apply.hpp. The search follows GNU patch's locate_hunk():
// try the place the @@ line names, then outward one line at a time in both
// directions, never before the end of the hunk placed before it; with fuzz F,
// F context lines are dropped from each end of the hunk (never its last
// context line on a side, so a hunk is never placed by its changed lines
// alone).
#include "apply.hpp"

#include "three_way.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tagproof::tree {

namespace {

constexpr int kMaxFuzz = 3;  // patch -F3, git apply's -C default context

struct Lines {
    std::vector<std::string> v;
    bool final_newline = true;
};

Lines split(const std::string& text) {
    Lines l;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t j = text.find('\n', i);
        if (j == std::string::npos) {
            l.v.push_back(text.substr(i));
            l.final_newline = false;
            break;
        }
        l.v.push_back(text.substr(i, j - i));
        i = j + 1;
    }
    return l;
}

std::string join(const Lines& l) {
    std::string s;
    for (std::size_t i = 0; i < l.v.size(); ++i) {
        s += l.v[i];
        if (i + 1 < l.v.size() || l.final_newline) s += '\n';
    }
    return s;
}

// Blanks compared loosely (patch -l): runs of blanks are one blank, blanks at
// either end do not count.
std::string loose(const std::string& s) {
    std::string o;
    bool blank = false;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            blank = true;
            continue;
        }
        if (blank && !o.empty()) o += ' ';
        blank = false;
        o += c;
    }
    return o;
}

struct Side {
    std::vector<std::string> old_lines, new_lines;  // the hunk's two sides
    std::vector<char> kinds;                         // per hunk line, sides swapped when reversed
    std::vector<std::string> texts;
    int pre = 0, suf = 0;                            // leading / trailing context lines
};

Side sides(const patch::Hunk& h, bool reverse) {
    Side s;
    for (const auto& l : h.lines) {
        char k = l.kind;
        if (reverse && k == '+') k = '-';
        else if (reverse && k == '-') k = '+';
        s.kinds.push_back(k);
        s.texts.push_back(l.text);
        if (k != '+') s.old_lines.push_back(l.text);
        if (k != '-') s.new_lines.push_back(l.text);
    }
    for (char k : s.kinds) {
        if (k != ' ') break;
        ++s.pre;
    }
    for (auto it = s.kinds.rbegin(); it != s.kinds.rend(); ++it) {
        if (*it != ' ') break;
        ++s.suf;
    }
    if (s.pre == (int)s.kinds.size()) s.suf = 0;  // context only: all of it leads
    return s;
}

bool match_at(const std::vector<std::string>& file, std::size_t at, const std::vector<std::string>& pat, std::size_t from,
              std::size_t to, bool is_loose) {
    for (std::size_t k = from; k < to; ++k) {
        const std::string& a = file[at + (k - from)];
        const std::string& b = pat[k];
        if (is_loose ? loose(a) != loose(b) : a != b) return false;
    }
    return true;
}

}  // namespace

std::string HunkPlace::describe() const {
    if (how == How::failed) return "failed: " + why;
    if (!merged_from.empty()) return "applied by a 3-way merge from blob " + merged_from + " (its index line), as git apply --3way";
    std::vector<std::string> parts;
    if (offset) parts.push_back("at offset " + std::to_string(offset) + (offset == 1 || offset == -1 ? " line" : " lines"));
    if (fuzz) parts.push_back("with fuzz " + std::to_string(fuzz));
    if (loose) parts.push_back("with blanks compared loosely");
    std::string s = "applied";
    for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : " ") + parts[i];
    return s;
}

std::size_t SeriesApply::applied() const {
    return std::count_if(hunks.begin(), hunks.end(), [](const HunkPlace& h) { return h.how != HunkPlace::How::failed; });
}

static const std::string& step_text(const SeriesApply& a, const std::string& path, std::size_t patch, bool after) {
    auto it = a.files.find(path);
    if (it == a.files.end()) throw std::logic_error("SeriesApply: no file " + path);
    const FileSteps& f = it->second;
    for (std::size_t k = 0; k < f.patches.size(); ++k)
        if (f.patches[k] == patch) return f.text[after ? k + 1 : k];
    throw std::logic_error("SeriesApply: patch " + std::to_string(patch) + " does not touch " + path);
}
const std::string& SeriesApply::before(const std::string& path, std::size_t patch) const {
    return step_text(*this, path, patch, false);
}
const std::string& SeriesApply::after(const std::string& path, std::size_t patch) const {
    return step_text(*this, path, patch, true);
}

std::string apply_file(const std::string& text, const patch::FileDiff& fd, bool reverse, std::size_t patch_index,
                       std::size_t file_index, std::vector<HunkPlace>& places) {
    Lines file = split(text);
    long delta = 0;          // lines the hunks placed so far added
    std::size_t floor = 0;   // no hunk is placed before the end of the one before it
    for (std::size_t hi = 0; hi < fd.hunks.size(); ++hi) {
        const patch::Hunk& h = fd.hunks[hi];
        const Side s = sides(h, reverse);
        HunkPlace p;
        p.patch = patch_index, p.file = file_index, p.hunk = hi, p.path = fd.path;
        const int start = reverse ? h.new_start : h.old_start;
        const int count = (int)s.old_lines.size();
        // Where the @@ line puts it, 0-based in today's text: a hunk with no
        // old lines inserts after line `start`.
        const long want = (count == 0 ? start : start - 1) + delta;
        bool found = false;
        // Fuzz beyond what either end can drop tries nothing new.
        const int max_fuzz = std::min(kMaxFuzz, std::max({0, s.pre - 1, s.suf - 1}));
        for (int fuzz = 0; fuzz <= max_fuzz && !found; ++fuzz) {
            const int dp = std::min(fuzz, std::max(0, s.pre - 1));
            const int ds = std::min(fuzz, std::max(0, s.suf - 1));
            const std::size_t len = s.old_lines.size() - dp - ds;
            const long n = (long)file.v.size();
            for (int mode = 0; mode < 2 && !found; ++mode) {
                const bool is_loose = mode == 1;
                const long first = want + dp;
                const long max_dist = std::max(first - (long)floor, n - first) + 1;
                for (long d = 0; d <= max_dist && !found; ++d) {
                    for (int sign : {1, -1}) {
                        if (d == 0 && sign == -1) continue;
                        const long at = first + sign * d;
                        if (at < (long)floor || at + (long)len > n) continue;
                        if (!match_at(file.v, (std::size_t)at, s.old_lines, dp, dp + len, is_loose)) continue;
                        // Replace: context kept as the file has it, '-' dropped,
                        // '+' taken from the patch; the context fuzz dropped
                        // (the first dp and last ds old lines) is left alone.
                        std::vector<std::string> repl;
                        std::size_t old_k = 0, fi = (std::size_t)at;
                        for (std::size_t k = 0; k < s.kinds.size(); ++k) {
                            const char kind = s.kinds[k];
                            if (kind == '+') {
                                repl.push_back(s.texts[k]);
                                continue;
                            }
                            const bool dropped = old_k < (std::size_t)dp || old_k >= s.old_lines.size() - ds;
                            ++old_k;
                            if (dropped) continue;  // only context is ever dropped
                            if (kind == ' ') repl.push_back(file.v[fi]);
                            ++fi;
                        }
                        file.v.erase(file.v.begin() + at, file.v.begin() + at + (long)len);
                        file.v.insert(file.v.begin() + at, repl.begin(), repl.end());
                        p.how = (d == 0 && fuzz == 0) ? HunkPlace::How::exact : HunkPlace::How::moved;
                        p.offset = (int)(at - first);
                        p.fuzz = fuzz;
                        p.front = dp;
                        p.loose = is_loose;
                        p.old_line = (int)(at - delta) + 1;
                        p.old_count = (int)len;
                        p.new_line = (int)at + 1;
                        p.new_count = (int)repl.size();
                        delta += (long)repl.size() - (long)len;
                        floor = (std::size_t)at + repl.size();
                        found = true;
                        break;
                    }
                }
            }
        }
        if (!found) {
            // Say how near it came: the place matching most of its old lines.
            std::size_t best = 0;
            long best_at = -1;
            const long n = (long)file.v.size();
            for (long at = 0; at + (long)s.old_lines.size() <= n; ++at) {
                std::size_t m = 0;
                for (std::size_t k = 0; k < s.old_lines.size(); ++k)
                    if (loose(file.v[at + k]) == loose(s.old_lines[k])) ++m;
                if (m > best) best = m, best_at = at;
            }
            p.how = HunkPlace::How::failed;
            p.best_match = best;
            p.best_line = int(best_at + 1);
            p.old_total = s.old_lines.size();
            if (text.empty() && !s.old_lines.empty())
                p.why = "the tree has no " + fd.path;
            else if (best_at < 0)
                p.why = "its " + std::to_string(s.old_lines.size()) + " context and removed lines match nowhere in " +
                        fd.path;
            else
                p.why = "its " + std::to_string(s.old_lines.size()) + " context and removed lines match nowhere in " +
                        fd.path + " (at most " + std::to_string(best) + " of them, at line " +
                        std::to_string(best_at + 1) + ")";
        }
        places.push_back(p);
    }
    return join(file);
}

namespace {

std::string read_tree_file(const std::string& root, const std::string& path, bool* exists) {
    std::ifstream in(root + "/" + path, std::ios::binary);
    *exists = (bool)in;
    if (!in) return "";
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

SeriesApply run(const patch::Series& s, const std::string& root, bool reverse) {
    SeriesApply a;
    a.reversed = reverse;
    for (std::size_t pi = 0; pi < s.patches.size(); ++pi)
        for (const auto& fd : s.patches[pi].files) {
            if (fd.binary || fd.hunks.empty()) continue;
            FileSteps& f = a.files[fd.path];
            if (f.text.empty()) {
                f.path = fd.path;
                f.text.push_back(read_tree_file(root, fd.path, &f.in_tree));
            }
            if (f.patches.empty() || f.patches.back() != pi) f.patches.push_back(pi);
        }
    std::vector<HunkPlace> places;
    auto step = [&](std::size_t pi) {
        for (std::size_t fi = 0; fi < s.patches[pi].files.size(); ++fi) {
            const auto& fd = s.patches[pi].files[fi];
            if (fd.binary || fd.hunks.empty()) continue;
            FileSteps& f = a.files[fd.path];
            const std::size_t first = places.size();
            std::string next = apply_file(f.text.back(), fd, reverse, pi, fi, places);
            const bool failed = std::any_of(places.begin() + std::ptrdiff_t(first), places.end(),
                                            [](const HunkPlace& h) { return h.how == HunkPlace::How::failed; });
            if (failed && !reverse) {
                std::string why;
                if (auto merged = three_way_merge(root, fd, f.text.back(), why)) {
                    // Where each hunk that did not apply sits: in the file before, the
                    // place that matched most of its lines; after, its first added line.
                    const Lines m = split(*merged);
                    for (auto it = places.begin() + std::ptrdiff_t(first); it != places.end(); ++it) {
                        if (it->how != HunkPlace::How::failed) continue;
                        const patch::Hunk& h = fd.hunks[it->hunk];
                        it->how = HunkPlace::How::moved;
                        it->merged_from = fd.old_blob;
                        it->old_line = it->best_line ? it->best_line : h.old_start;
                        it->old_count = h.old_count;
                        it->new_line = it->old_line;
                        it->new_count = h.new_count;
                        int lead = 0;
                        for (const auto& l : h.lines) {
                            if (l.kind == '+') {
                                for (std::size_t k = 0; k < m.v.size(); ++k)
                                    if (m.v[k] == l.text) {
                                        it->new_line = int(k) + 1 - lead;
                                        break;
                                    }
                                break;
                            }
                            if (l.kind == ' ') ++lead;
                        }
                        it->why.clear();
                    }
                    next = *merged;
                } else {
                    for (auto it = places.begin() + std::ptrdiff_t(first); it != places.end(); ++it)
                        if (it->how == HunkPlace::How::failed) it->why += "; " + why;
                }
            }
            f.text.push_back(std::move(next));
        }
    };
    if (!reverse) {
        for (std::size_t pi = 0; pi < s.patches.size(); ++pi) step(pi);
    } else {
        for (std::size_t pi = s.patches.size(); pi-- > 0;) step(pi);
        // Steps were taken from the "after" backwards: text[0] is to be the before.
        for (auto& [path, f] : a.files) std::reverse(f.text.begin(), f.text.end());
        for (auto& p : places) {
            std::swap(p.old_line, p.new_line);
            std::swap(p.old_count, p.new_count);
        }
    }
    std::sort(places.begin(), places.end(), [](const HunkPlace& x, const HunkPlace& y) {
        return std::tie(x.patch, x.file, x.hunk) < std::tie(y.patch, y.file, y.hunk);
    });
    a.hunks = std::move(places);
    return a;
}

}  // namespace

SeriesApply apply_series(const patch::Series& s, const std::string& root) {
    SeriesApply fwd = run(s, root, false);
    if (fwd.failed() == 0) return fwd;
    // "the tree already has the series" only where the reverse applies cleanly, as GNU patch's
    // "Reversed (or previously applied) patch detected!" asks: a reversed deletion whose
    // context is found only by dropping lines (fuzz) is no evidence of the series
    SeriesApply rev = run(s, root, true);
    std::size_t clean = 0;
    for (const auto& h : rev.hunks) clean += h.how != HunkPlace::How::failed && h.fuzz == 0 && !h.loose;
    return clean > fwd.applied() ? rev : fwd;
}

}  // namespace tagproof::tree
