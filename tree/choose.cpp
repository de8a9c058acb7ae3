// choose.cpp — see choose.hpp.
#include "choose.hpp"

#include <cstdlib>
#include <map>
#include <regex>

#include "error.hpp"

namespace tagproof::tree {

std::string release_date(const std::string& mm) {
    // Mainline release days (the "Linux X.Y" announcements on LKML).
    static const std::map<std::string, std::string> dates = {
        {"5.10", "2020-12-13"}, {"5.11", "2021-02-14"}, {"5.12", "2021-04-25"}, {"5.13", "2021-06-27"},
        {"5.14", "2021-08-29"}, {"5.15", "2021-10-31"}, {"5.16", "2022-01-09"}, {"5.17", "2022-03-20"},
        {"5.18", "2022-05-22"}, {"5.19", "2022-07-31"}, {"6.0", "2022-10-02"},  {"6.1", "2022-12-11"},
        {"6.2", "2023-02-19"},  {"6.3", "2023-04-23"},  {"6.4", "2023-06-25"},  {"6.5", "2023-08-27"},
        {"6.6", "2023-10-30"},  {"6.7", "2024-01-07"},  {"6.8", "2024-03-10"},  {"6.9", "2024-05-12"},
        {"6.10", "2024-07-14"}, {"6.11", "2024-09-15"}, {"6.12", "2024-11-17"}, {"6.13", "2025-01-19"},
        {"6.14", "2025-03-24"}, {"6.15", "2025-05-25"}, {"6.16", "2025-07-27"}, {"6.17", "2025-09-28"},
        {"6.18", "2025-11-30"},
    };
    auto it = dates.find(mm);
    return it == dates.end() ? "" : it->second;
}

namespace {

long days(const std::string& ymd) {
    // days since 0000-03-01 (civil calendar), enough to compare distances
    int y = std::atoi(ymd.substr(0, 4).c_str()), m = std::atoi(ymd.substr(5, 2).c_str()),
        d = std::atoi(ymd.substr(8, 2).c_str());
    if (m <= 2) y -= 1, m += 12;
    return 365L * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 + d;
}

std::string month_number(const std::string& mon) {
    static const char* names[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (int i = 0; i < 12; ++i)
        if (mon == names[i]) return (i < 9 ? "0" : "") + std::to_string(i + 1);
    return "";
}

std::string count_words(const SeriesApply& a) {
    return std::to_string(a.applied()) + " of " + std::to_string(a.hunks.size()) + " hunks apply" +
           (a.reversed ? " in reverse (the tree already has the series)" : "");
}

std::string failures(const SeriesApply& a, std::size_t max = 3) {
    std::string s;
    std::size_t n = 0;
    for (const auto& h : a.hunks) {
        if (h.how != HunkPlace::How::failed) continue;
        if (n++ < max) s += (s.empty() ? "" : "; ") + h.path + " hunk " + std::to_string(h.hunk + 1) + ": " + h.why;
    }
    if (n > max) s += "; and " + std::to_string(n - max) + " more";
    return s;
}

}  // namespace

BaseHints base_hints(const patch::Series& s, const std::string& named_release, const std::string& named_how) {
    BaseHints h;
    static const std::regex commit(R"((?:^|\n)base-commit:\s*([0-9a-fA-F]{7,40}))");
    static const std::regex date(R"((?:^|\n)Date:\s*(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Z][a-z]{2})\s+(\d{4}))");
    std::smatch m;
    if (std::regex_search(s.all_text, m, commit)) h.base_commit = m[1];
    if (std::regex_search(s.all_text, m, date)) {
        const std::string mon = month_number(m[2]);
        std::string d = m[1];
        if (d.size() == 1) d = "0" + d;
        if (!mon.empty()) h.date = m[3].str() + "-" + mon + "-" + d;
    }
    h.release = major_minor(named_release);
    h.release_words = named_how;
    return h;
}

TreeChoice choose_tree(const patch::Series& s, const BaseHints& hints, const std::string& tree_dir) {
    TreeChoice c;
    if (!tree_dir.empty()) {
        TreeTry t{open_tree(tree_dir), {}, true, ""};
        t.applied = apply_series(s, t.tree.root);
        t.verdict = count_words(t.applied);
        c.tries.push_back(std::move(t));
        c.chosen = 0;
        c.why = "the tree given with --tree";
        return c;
    }
    std::vector<SourceTree> trees = installed_trees();
    if (trees.empty()) {
        c.why = "no kernel tree is installed (scripts/setup-trees.sh unpacks Debian's linux-source trees into " +
                tree_cache() + ")";
        return c;
    }
    for (auto& t : trees) {
        TreeTry tt{t, apply_series(s, t.root), false, ""};
        c.tries.push_back(std::move(tt));
    }
    auto take = [&](std::size_t i, const std::string& why) {
        c.chosen = i;
        c.tries[i].taken = true;
        c.tries[i].verdict = "taken: " + count_words(c.tries[i].applied);
        c.why = why;
    };
    auto refuse_rest = [&] {
        for (auto& t : c.tries)
            if (!t.taken && t.verdict.empty())
                t.verdict = "not taken: " + count_words(t.applied) +
                            (t.applied.failed() ? " (" + failures(t.applied) + ")" : "");
    };
    // 2. base-commit
    if (!hints.base_commit.empty())
        for (std::size_t i = 0; i < c.tries.size(); ++i)
            if (c.tries[i].tree.has_commit(hints.base_commit)) {
                take(i, "the series' base-commit " + hints.base_commit + " is in this checkout");
                refuse_rest();
                return c;
            }
    // 3. a named release
    if (!hints.release.empty()) {
        for (std::size_t i = 0; i < c.tries.size(); ++i)
            if (major_minor(c.tries[i].tree.version) == hints.release) {
                take(i, hints.release_words + ", and this tree is that release");
                refuse_rest();
                return c;
            }
        // the nearest by version, taken only if everything applies there
        std::size_t near = 0;
        auto num = [](const std::string& x) {
            const std::vector<long> n = version_parts(x);
            return (n.empty() ? 0 : n[0]) * 100 + (n.size() > 1 ? n[1] : 0);
        };
        auto dist = [&](const std::string& v) { return std::labs(num(v) - num(hints.release)); };
        for (std::size_t i = 1; i < c.tries.size(); ++i)
            if (dist(c.tries[i].tree.version) < dist(c.tries[near].tree.version)) near = i;
        TreeTry& t = c.tries[near];
        if (t.applied.failed() == 0 && !t.applied.hunks.empty()) {
            take(near, hints.release_words + ", no tree of that release is installed, and " +
                           "every hunk applies on " + t.tree.era() + ", the nearest installed");
        } else {
            t.verdict = "refused: " + hints.release_words + ", a release not installed; on " +
                        t.tree.era() + ", the nearest installed, " + std::to_string(t.applied.failed()) + " of " +
                        std::to_string(t.applied.hunks.size()) + " hunks do not apply (" + failures(t.applied) + ")";
            c.why = hints.release_words + "; no installed tree is that release, and " +
                    t.tree.era() + " (the nearest) does not take every hunk";
        }
        refuse_rest();
        return c;
    }
    // 4. most hunks placed, then the release date nearest the mail's; a tree
    // that lacks the code a failed hunk changes (under half its lines found
    // at any one place) is not the tree the series was written on.
    auto lacking = [](const SeriesApply& a) -> const HunkPlace* {
        for (const auto& h : a.hunks)
            if (h.code_missing()) return &h;
        return nullptr;
    };
    std::vector<std::size_t> fit;
    for (std::size_t i = 0; i < c.tries.size(); ++i) {
        if (const HunkPlace* h = lacking(c.tries[i].applied))
            c.tries[i].verdict = "refused: " + count_words(c.tries[i].applied) + ", and it lacks the code " + h->path +
                                 " hunk " + std::to_string(h->hunk + 1) + " changes (" + h->why +
                                 "): the series was written on another version";
        else
            fit.push_back(i);
    }
    if (fit.empty()) {
        c.why = "no installed tree has the code the series changes (each lacks a hunk's context; the trees tried are "
                "listed)";
        return c;
    }
    std::size_t best = fit.front();
    auto date_gap = [&](const SourceTree& t) {
        const std::string rd = release_date(major_minor(t.version));
        if (hints.date.empty() || rd.empty()) return 0L;
        return std::labs(days(rd) - days(hints.date));
    };
    for (std::size_t i : fit) {
        if (i == best) continue;
        const auto& a = c.tries[i];
        const auto& b = c.tries[best];
        // On a tie with no date to tell them apart, the newer tree (fit is
        // oldest first), as the hand model took the newest release.
        if (a.applied.applied() > b.applied.applied() ||
            (a.applied.applied() == b.applied.applied() && date_gap(a.tree) <= date_gap(b.tree)))
            best = i;
    }
    if (c.tries[best].applied.applied() == 0) {
        c.why = "no installed tree takes any of its hunks";
        refuse_rest();
        return c;
    }
    std::string why = "the series names no base; " + std::to_string(c.tries[best].applied.applied()) + " of " +
                      std::to_string(c.tries[best].applied.hunks.size()) + " hunks find their place here";
    if (c.tries.size() > 1) why += ", the most of the installed trees";
    if (!hints.date.empty()) why += " (mail dated " + hints.date + ")";
    take(best, why);
    refuse_rest();
    return c;
}

}  // namespace tagproof::tree
