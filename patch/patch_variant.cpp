// patch_variant.cpp — from a read series to a variant file (patch_variant.hpp).
//
// Claims are read from the series' own words and hunks, and written into the
// file with where they came from, for the reviewer to correct:
//   - where behaviour may change: "no functional change" -> none; a subject
//     naming HW_TAGS / HW tags -> hw_tags_active; otherwise any;
//   - which callers it leaves untagged: a hunk that gives a modelled caller's
//     GFP constant, call or condition __GFP_SKIP_KASAN (untagged) or
//     __GFP_KASAN_SAMPLE (untagged when sampled).
// The claims are data to check, not verdicts: the review still holds every
// caller to what it requires (docs/requirements.md).
#include "patch_variant.hpp"

#include <cctype>
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "error.hpp"
#include "file/variant_file.hpp"
#include "variant.hpp"

namespace tagproof::patch {

std::size_t PatchReading::hunks_mapped() const {
    std::size_t n = 0;
    for (const auto& h : hunks) n += h.mapped();
    return n;
}
std::size_t PatchReading::hunks_unmapped() const { return hunks.size() - hunks_mapped(); }
std::size_t PatchReading::hunks_with_rules() const {
    std::size_t n = 0;
    for (const auto& h : hunks) n += !h.rules.empty() || !h.notes.empty();
    return n;
}
std::size_t PatchReading::hunks_comments_only() const {
    std::size_t n = 0;
    for (const auto& h : hunks) n += h.comments_only;
    return n;
}

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower((unsigned char)c));
    return s;
}
// "[PATCH v2 0/3] KASAN: HW_TAGS: Disable ..." -> "KASAN: HW_TAGS: Disable ..."
std::string bare_subject(const std::string& s) {
    std::string t = s;
    while (!t.empty() && t[0] == '[') {
        std::size_t e = t.find(']');
        if (e == std::string::npos) break;
        t = t.substr(e + 1);
        while (!t.empty() && t[0] == ' ') t.erase(0, 1);
    }
    return t;
}
std::string no_hash(std::string s) {  // a variant file's '#' starts a comment
    for (char& c : s)
        if (c == '#' || c == '\n') c = ' ';
    return s;
}
std::string slug(const std::string& s) {
    std::string o;
    for (char c : lower(s)) {
        if (std::isalnum((unsigned char)c)) o += c;
        else if (!o.empty() && o.back() != '-') o += '-';
        if (o.size() >= 40) break;
    }
    while (!o.empty() && o.back() == '-') o.pop_back();
    return o;
}

std::string release_for(int major, int minor, std::string* note) {
    auto v = major * 100 + minor;
    const std::string ver = "v" + std::to_string(major) + "." + std::to_string(minor);
    std::string r;
    if (v >= 700) r = "linux-7.0";
    else if (v >= 604) r = "linux-6.4";
    else if (v >= 603) r = "linux-6.3";
    else if (v >= 601) r = "linux-6.1";
    else return "";
    const bool exact = (v == 700 || v == 604 || v == 603 || v == 601);
    if (note && !exact) *note = " (the nearest modelled release at or below " + ver + ")";
    return r;
}

// The reader's message for a rule line, without the check file's place.
std::string reader_message(const std::string& what) {
    std::string m = what;
    if (auto p = m.find(": "); p != std::string::npos && m.compare(0, 7, "(check)") == 0) m = m.substr(p + 2);
    if (auto p = m.find("; names allowed here"); p != std::string::npos) m = m.substr(0, p);
    return m;
}

}  // namespace

// The version a series' words name ("Applies on 7-0-rc1." -> 7.0), as
// major and minor, with the words; false when they name none.
static bool version_from_text(const std::string& text, int* major, int* minor, std::string* words) {
    static const std::regex applies(
        R"((applies|applied|based|rebased|apply)\s+(cleanly\s+)?(on|onto|to|against)\s+(top\s+of\s+)?(the\s+)?(linux\s+|kernel\s+|mainline\s+)?v?(\d{1,3})[.-](\d{1,3})([.-]rc\d+)?)",
        std::regex::icase);
    std::smatch m;
    if (!std::regex_search(text, m, applies)) return false;
    *major = std::stoi(m[7]);
    *minor = std::stoi(m[8]);
    *words = m[0].str();
    return true;
}

std::string base_from_text(const std::string& text, std::string* how) {
    int major = 0, minor = 0;
    std::string words;
    if (!version_from_text(text, &major, &minor, &words)) return "";
    std::string note;
    std::string r = release_for(major, minor, &note);
    if (!r.empty() && how) *how = "the series says \"" + words + "\"" + note;
    return r;
}

namespace {
bool is_variant_path(const std::string& b) { return b.size() > 8 && b.compare(b.size() - 8, 8, ".variant") == 0; }
}  // namespace

std::string named_release(const Series& s, const std::string& base_opt, std::string* how) {
    if (base_opt.empty()) {
        // the version itself (6.12), not the hand release standing for it
        int major = 0, minor = 0;
        std::string words;
        if (!version_from_text(s.all_text, &major, &minor, &words)) return "";
        if (how) *how = "the series says \"" + words + "\"";
        return std::to_string(major) + "." + std::to_string(minor);
    }
    const std::string release = is_variant_path(base_opt) ? kernel::read_variant_file(base_opt).release : base_opt;
    if (how) *how = "--base " + base_opt + (release == base_opt ? "" : " (on " + release + ")");
    return release;
}

PatchReading read_patch_series(const std::vector<std::string>& paths, const std::string& base_opt, const TreeBase& tree_base) {
    return read_patch_series(read_series(paths), paths, base_opt, tree_base);
}

PatchReading read_patch_series(Series series, const std::vector<std::string>& paths, const std::string& base_opt,
                               const TreeBase& tree_base) {
    PatchReading r;
    r.series = std::move(series);
    r.hunks = map_series(r.series);

    // ---- the base
    std::string release;
    if (!base_opt.empty()) {
        if (is_variant_path(base_opt)) {
            r.base = std::filesystem::absolute(base_opt).lexically_normal().string();
            kernel::VariantFile bf = kernel::read_variant_file(r.base);  // throws with its place
            release = bf.release;
            r.base_how = "--base " + base_opt + " (" + bf.name + ", on " + bf.release + ")";
        } else {
            if (!kernel::is_file_base_release(base_opt))
                throw InputError("--base", "'" + base_opt + "': a patch applies on linux-6.1, linux-6.3, linux-6.4 or "
                                           "linux-7.0, or on a variant file (a path ending .variant)");
            r.base = release = base_opt;
            r.base_how = "--base " + base_opt;
        }
    } else if (!tree_base.release.empty()) {
        r.base = release = tree_base.release;
        r.base_how = tree_base.how;
    } else if (std::string how, b = base_from_text(r.series.all_text, &how); !b.empty()) {
        r.base = release = b;
        r.base_how = how;
    } else {
        r.base = release = "linux-7.0";
        r.base_how = "the series names no base (no \"Applies on ...\" or \"based on v...\"); taking linux-7.0, the newest "
                     "modelled release (--base to change)";
        if (r.series.all_text.find("base-commit:") != std::string::npos)
            r.base_how = "its base-commit: is not a commit the tool knows; taking linux-7.0, the newest modelled release "
                         "(--base to change)";
    }

    // ---- every rule checked against the base; one rule per name
    // the series' own new GFP bits come first: its rules may use them
    std::string flags;
    for (const auto& hm : r.hunks)
        for (const auto& m : hm.rules)
            if (m.line.rfind("flag ", 0) == 0) flags += m.line + "\n";
    auto check = [&](const std::string& line) {
        std::string text = "name patch-check\nbase " + r.base + "\n" + (line.rfind("flag ", 0) == 0 ? "" : flags) + line + "\n";
        (void)kernel::parse_variant_file(text, "(check)");
    };
    std::map<std::string, std::pair<std::string, int>> seen;  // rule -> line, its hunk's @@ line
    for (auto& hm : r.hunks) {
        const Hunk* hk = r.series.patches[hm.patch].files[hm.file].binary ? nullptr
                                                                          : &r.series.patches[hm.patch].files[hm.file].hunks[hm.hunk];
        std::vector<MappedRule> keep;
        for (auto& m : hm.rules) {
            try {
                check(m.line);
            } catch (const InputError& e) {
                std::string msg = reader_message(e.what());
                if (msg.find("defines no such GFP flag") != std::string::npos)
                    msg += " (is it added by an earlier patch of the series? Review on a base that defines it: --base "
                           "FILE.variant with a `flag` line; variants/sample-v2-1.variant is one)";
                hm.unmapped.push_back({m.at.empty() ? (hk ? hk->at : 0) : m.at.front(), m.rule + " on " + release + ": " + msg});
                continue;
            }
            if (auto it = seen.find(m.rule); it != seen.end()) {
                if (it->second.first != m.line)
                    hm.unmapped.push_back({m.at.empty() ? 0 : m.at.front(),
                                           m.rule + " is set already by the hunk at line " + std::to_string(it->second.second) +
                                               " of the series, differently; the model has one " + m.rule});
                continue;
            }
            seen[m.rule] = {m.line, hk ? hk->at : 0};
            keep.push_back(m);
        }
        hm.rules = keep;
    }

    // ---- name, summary, claims
    const Series& s = r.series;
    std::string subject = !s.cover_subject.empty() ? s.cover_subject : s.patches.empty() ? "" : s.patches[0].subject;
    subject = bare_subject(subject);
    if (subject.find("*** SUBJECT HERE ***") != std::string::npos && !s.patches.empty())  // format-patch's unfilled cover
        subject = bare_subject(s.patches[0].subject);
    r.name = "patch-" + (subject.empty() ? slug(std::filesystem::path(paths.front()).stem().string()) : slug(subject));
    if (r.name == "patch-") r.name = "patch-series";
    std::string scope = "any", claim_text;
    // changelogs are wrapped at 72 columns, so a phrase may span lines: every
    // run of white space reads as one space
    std::string prose;
    for (char c : s.all_text) {
        const bool space = std::isspace((unsigned char)c);
        if (!space) prose += c;
        else if (!prose.empty() && prose.back() != ' ') prose += ' ';
    }
    const std::string all = lower(prose);
    std::string subjects = lower(s.cover_subject);
    for (const auto& p : s.patches) subjects += "\n" + lower(p.subject);
    // "No functional change intended for callers that do not pass
    // __GFP_ZERO" claims nothing of the callers it leaves out: a phrase
    // qualified so is not a claim of no change at all
    const std::size_t nfc = all.find("no functional change");
    std::string qualified;
    if (nfc != std::string::npos) {
        std::istringstream after(all.substr(nfc + 20, 200));
        std::string w;
        // the next word, past "intended" and a comma ("..., except for ...")
        auto next = [&after, &w] {
            w.clear();
            while (w.empty() && after >> w)
                while (!w.empty() && w.back() == ',') w.pop_back();
        };
        next();
        if (w == "intended" || w == "is") next();
        static const std::set<std::string> limits = {"for", "except", "unless", "other", "outside", "beyond",
                                                     "apart", "but", "besides", "when", "if", "in"};
        if (limits.count(w)) {
            const std::size_t end = all.find_first_of(".\n", nfc);
            qualified = prose.substr(nfc, end == std::string::npos ? std::string::npos : end - nfc);  // as written
        }
    }
    if (nfc != std::string::npos && qualified.empty()) {
        scope = "none";
        claim_text = "no functional change";
        r.claims_how = "the series says \"no functional change\"";
    } else if (!qualified.empty()) {
        claim_text = subject.empty() ? qualified : subject;
        r.claims_how = "the series says \"" + qualified + "\": a change, for the callers it does not leave out";
    } else if (subjects.find("hw_tags") != std::string::npos || subjects.find("hw tags") != std::string::npos ||
               subjects.find("hw-tags") != std::string::npos || subjects.find("hw tag") != std::string::npos ||
               subjects.find("hw-tag") != std::string::npos) {
        scope = "hw_tags_active";
        claim_text = subject;
        r.claims_how = "a subject names HW_TAGS: the change is taken to be for HW tags only";
    } else {
        claim_text = subject.empty() ? "the series does not say where its behaviour changes" : subject;
        r.claims_how = "the series does not say that its change is for HW tags only or functionally nothing";
    }

    // untag claims from the hunks
    std::vector<std::string> untags;
    std::set<std::string> have;
    for (const auto& hm : r.hunks)
        for (const auto& m : hm.rules)
            for (const std::string& flag : {std::string("__GFP_SKIP_KASAN"), std::string("__GFP_KASAN_SAMPLE")}) {
                if (std::find(m.added.begin(), m.added.end(), flag) == m.added.end()) continue;
                const bool cond = m.rule.rfind("vmalloc_", 0) == 0;
                for (const auto& c : rule_callers(m.rule)) {
                    std::string u = c + (cond ? " when " + flag : "") + (flag == "__GFP_KASAN_SAMPLE" ? " when sampled" : "");
                    if (!have.insert(u).second) continue;
                    untags.push_back("untag " + u + " -- " + no_hash(bare_subject(s.patches[hm.patch].subject)) +
                                     (s.patches[hm.patch].subject.empty() ? "" : ": ") + no_hash(m.what));
                }
            }

    // ---- the file
    std::ostringstream f;
    std::string sources;
    for (const auto& p : paths) sources += (sources.empty() ? "" : ", ") + std::filesystem::path(p).filename().string();
    f << "# Written by `tagproof review` from " << sources << ": " << s.patches.size() << " patch"
      << (s.patches.size() == 1 ? "" : "es") << ", " << r.hunks.size() << " hunk" << (r.hunks.size() == 1 ? "" : "s")
      << ": " << r.hunks_with_rules() << " change code the model has rules for, " << r.hunks_comments_only()
      << " only comments, " << r.hunks_unmapped() << " nothing it has.\n"
      << "# Edit it and run: tagproof review --variant-file THIS-FILE\n"
      << "name " << r.name << "\n"
      << "base " << r.base << "\n"
      << "# base: " << no_hash(r.base_how) << "\n"
      << "summary " << no_hash(subject.empty() ? "the patch in " + sources : subject) << "\n"
      << "claims " << scope << " " << no_hash(claim_text) << "\n"
      << "# claims: " << no_hash(r.claims_how) << "\n";
    for (const auto& u : untags) f << u << "\n";
    // new GFP bits before any rule (a rule may name them)
    for (const auto& hm : r.hunks)
        for (const auto& m : hm.rules)
            if (m.line.rfind("flag ", 0) == 0) {
                f << "# " << no_hash(m.what) << "\n" << m.line << "\n";
                ++r.rules;
            }
    std::size_t last_patch = std::size_t(-1);
    for (const auto& hm : r.hunks) {
        if (hm.patch != last_patch) {
            last_patch = hm.patch;
            const std::string& subj = s.patches[hm.patch].subject;
            f << "\n# " << no_hash(subj.empty() ? "the diff" : subj) << "\n";
        }
        const auto& fd = s.patches[hm.patch].files[hm.file];
        bool defines_only = !hm.rules.empty();
        for (const auto& m : hm.rules) defines_only &= m.line.find('(') == std::string::npos || m.line.find("(") > m.line.find('=');
        std::string where = hm.path + (hm.function.empty() || defines_only ? "" : " " + hm.function + "()");
        if (!fd.binary && hm.hunk < fd.hunks.size()) where += ", the hunk at line " + std::to_string(fd.hunks[hm.hunk].at) + " of the series";
        f << "# " << no_hash(where) << (hm.comments_only ? ": comments only" : "") << "\n";
        for (const auto& m : hm.rules) {
            if (m.line.rfind("flag ", 0) == 0) {
                f << "# " << no_hash(m.what) << " (its flag line is above)\n";
                continue;
            }
            f << "# " << no_hash(m.what) << "\n" << m.line << "\n";
            ++r.rules;
        }
        for (const auto& x : hm.notes) f << "# " << no_hash(x) << "\n";
        for (const auto& u : hm.unmapped) f << "# NOT MAPPED (line " << u.at << "): " << no_hash(u.why) << "\n";
    }
    r.file_text = f.str();
    return r;
}

}  // namespace tagproof::patch
