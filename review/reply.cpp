// reply.cpp — the review of a mailed series, as a reply to the list
// (reply.hpp), and the same in Markdown, JSON and HTML.
#include "reply.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "modelled.hpp"
#include "report.hpp"
#include "variant.hpp"

namespace tagproof::review {

namespace {

constexpr std::size_t W = 72;

void add(std::string& s, const std::vector<std::string>& lines) {
    for (const auto& l : lines) s += l + "\n";
}
std::string para(const std::string& t) {
    std::string s;
    add(s, wrap(t, W, "", ""));
    return s;
}

// What a finding's text must name for it to be about a rule's hunk: the
// callers the rule's place serves (sites.cpp), the rule, and the scenario's
// own words for them where they differ.
std::vector<std::string> keywords(const std::string& rule) {
    static const std::map<std::string, std::vector<std::string>> words = {
        {"THREADINFO_GFP", {"thread_info", "stack_alloc"}},
        {"GFP_VMAP_STACK", {"vmap_stack", "stack_alloc"}},
        {"cached_stack_unpoison", {"cached_stack", "stack_alloc"}},
        {"GFP_PGTABLE_KERNEL", {"pgtable"}},
        {"pte_alloc_one_kernel_gfp", {"pgtable"}},
        {"pte_alloc_one_gfp", {"pgtable"}},
        {"GFP_VMALLOC_SUPPORTED", {"vmalloc"}},
        {"vmalloc_meta_gfp", {"vmalloc"}},
        {"skb_frag_gfp", {"skb"}},
        {"skb_frag_fallback_gfp", {"skb"}},
        {"alloc_skb_frags_gfp", {"skb"}},
        {"zero_tags", {"huge_zero", "ZEROTAGS", "user_page"}},
        {"reset_tags_initially", {"alloc_pages", "page-tag"}},
        {"sample_eligible", {"sample", "alloc_pages"}},
        {"sample_wrapped", {"sample", "alloc_pages"}},
        {"sample_reset", {"sample", "alloc_pages"}},
        {"__GFP_KASAN_SAMPLE", {"sampling"}},
        {"__GFP_BITS_SHIFT", {"gfp-encoding", "__GFP_BITS"}},
    };
    std::vector<std::string> k = patch::rule_callers(rule);
    k.push_back(rule);
    if (auto it = words.find(rule); it != words.end()) k.insert(k.end(), it->second.begin(), it->second.end());
    return k;
}

std::string finding_words(const Finding& f) {
    std::string t = f.origin + "\n" + f.scenario + "\n" + f.property + "\n" + f.happened;
    for (const auto& x : f.functions) t += "\n" + x;
    return t;
}

const patch::Hunk* hunk_ptr(const patch::PatchReading& p, const patch::HunkMap& hm) {
    const auto& fd = p.series.patches[hm.patch].files[hm.file];
    return fd.binary || hm.hunk >= fd.hunks.size() ? nullptr : &fd.hunks[hm.hunk];
}

// The hunk quoted whole: its @@ line and every line (a context line cut could
// be the one that decides, as gfp_mask |= ... above a changed condition).
std::string quoted(const patch::PatchReading& p, const patch::HunkMap& hm) {
    std::string s = "> diff --git a/" + hm.path + " b/" + hm.path + "\n";
    const patch::Hunk* h = hunk_ptr(p, hm);
    if (!h) return s + "> (binary)\n";
    s += "> @@ -" + std::to_string(h->old_start) + "," + std::to_string(h->old_count) + " +" +
         std::to_string(h->new_start) + "," + std::to_string(h->new_count) + " @@" + (h->function.empty() ? "" : " " + h->function) +
         "\n";
    for (const auto& l : h->lines) s += "> " + std::string(1, l.kind) + l.text + "\n";
    return s;
}

// A hunk's findings: the first of each (property, headline) in full, the same
// finding in the other modes named after it; a question of the hunk's own
// when it drops a flag the violated property rests on.
std::string findings_under(const Reply& r, const patch::HunkMap* hm, const std::vector<std::size_t>& idx) {
    std::string s;
    std::vector<bool> shown(idx.size(), false);
    for (std::size_t a = 0; a < idx.size(); ++a) {
        if (shown[a]) continue;
        const Finding& f = r.review->findings[idx[a]];
        s += "\n" + finding_text(f);
        std::string others;
        for (std::size_t b = a + 1; b < idx.size(); ++b) {
            const Finding& g = r.review->findings[idx[b]];
            if (shown[b] || g.property != f.property || headline(g) != headline(f)) continue;
            shown[b] = true;
            others += (others.empty() ? "" : ", ") + std::string(mode_name(g.mode)) +
                      (idx[b] < r.report_files.size() ? " (" + r.report_files[idx[b]] + ")" : "");
        }
        if (!others.empty()) s += "\n" + para("The same finding in " + others + ".");
        if (hm && f.property == "zeroing")
            for (const auto& m : hm->rules)
                if (std::find(m.removed.begin(), m.removed.end(), "__GFP_ZERO") != m.removed.end())
                    s += "\n" + para("In this hunk " + m.rule + " loses __GFP_ZERO: what zeroes these pages for its callers now?");
    }
    return s;
}

std::string scope_words(const VariantReview& v) {
    std::string s;
    for (const auto& n : v.notes) s += (s.empty() ? "" : "; ") + n;
    return s;
}

// The reply's opening: how many hunks were checked, on which tree and why,
// and each tree tried (issue 31 items 1, 2, 4).
std::string tree_paragraphs(const Reply& r) {
    std::string s;
    if (r.accounting) {
        std::string h = r.accounting->headline();
        if (r.tree && r.tree->tree()) h += " on " + r.tree->tree()->tree.era() + " (" + r.tree->tree()->tree.root + ")";
        s += para(h + ".");
    }
    if (!r.tree) return s;
    if (const auto* t = r.tree->tree())
        s += para("Tree: " + t->tree.era() + ", because " + r.tree->why + ". " + t->verdict + ".");
    else
        s += para("Tree: none taken: " + r.tree->why + ". The hand-written model of the base release was used.");
    for (const auto& t : r.tree->tries)
        if (!t.taken) s += para("  Tried " + t.tree.era() + ": " + t.verdict + ".");
    if (r.accounting) {
        for (const auto& n : r.accounting->notes) s += para("  Read with libclang: " + n + ".");
        for (const auto& a : r.accounting->assumptions) s += para("  Assumed: " + a + ".");
    }
    return s;
}

std::string verdict_line(const Reply& r, std::size_t introduced_n) {
    const auto& p = *r.reading;
    const std::size_t all = p.hunks.size();
    if (!r.review && p.rules > 0)
        return "Verdict: not reviewed (--map-only): the mapping above is what a review would check.";
    if (!r.review && r.accounting && r.accounting->all_no_change(all))
        return "Verdict: no semantic change: " + std::string(all == 1 ? "the one hunk reads" : "every hunk reads") +
               " the same before and after on the tree (above), so there is nothing for the engines to check.";
    if (!r.review)
        return "Verdict: not reviewed. None of the series' " + std::to_string(all) +
               " hunks changes code the model has a rule for, so nothing was checked; this is no verdict that it holds.";
    auto hunks = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " hunk" : " hunks"); };
    // The hunks the verdict covers: those the accounting checked (with or
    // without a tree), else those the site table mapped.
    const std::size_t un = r.accounting ? all - r.accounting->checked() : p.hunks_unmapped();
    std::string cover = un == 0 ? (all == 1 ? "the one hunk" : all == 2 ? "both hunks" : "all " + hunks(all))
                        : r.accounting
                            ? "the " + hunks(all - un) + " checked of " + std::to_string(all) + " only (" + hunks(un) +
                                  (un == 1 ? " is" : " are") + " not checked: each says why above)"
                            : "the " + hunks(all - un) + " mapped of " + std::to_string(all) + " only (" + hunks(un) +
                                  (un == 1 ? " is" : " are") + " not modelled: listed above, unchecked)";
    if (introduced_n) {
        // one finding in several modes counts once
        std::set<std::string> distinct;
        for (const Finding* f : introduced(*r.review)) distinct.insert(f->property + "\n" + headline(*f));
        const std::size_t d = distinct.size();
        return "Verdict: " + std::to_string(d) + " finding" + (d == 1 ? "" : "s") + " the series introduces" +
               (d != introduced_n ? " (" + std::to_string(introduced_n) + " counting each KASAN mode)" : "") + ", in " +
               cover + ".";
    }
    if (r.review->unknown) return "Verdict: undecided: some engine could not decide, or a modelling gap (above); covers " + cover + ".";
    return "Verdict: no finding the series introduces, within the engines' bounds above; covers " + cover + ".";
}

}  // namespace

std::vector<const Finding*> introduced(const VariantReview& r) {
    std::vector<const Finding*> v;
    for (const auto& f : r.findings)
        if (!f.recorded && !f.in_baseline) v.push_back(&f);
    return v;
}

int hunk_of(const patch::PatchReading& p, const Finding& f, const tree::Accounting* acc) {
    const std::string t = finding_words(f);
    for (std::size_t i = 0; i < p.hunks.size(); ++i)
        for (const auto& m : p.hunks[i].rules)
            for (const auto& k : keywords(m.rule))
                if (t.find(k) != std::string::npos) return int(i);
    if (!acc) return -1;
    int only = -1;
    for (std::size_t i = 0; i < p.hunks.size() && i < acc->hunks.size(); ++i) {
        const auto& a = acc->hunks[i];
        if (!a.lifted) continue;
        // (the trace names the function as the model does, without 6.10's _noprof)
        bool runs =
            std::find(f.functions.begin(), f.functions.end(), tree::without_noprof(a.function) + "()") != f.functions.end();
        // ... or its replay evaluated a rule the hunk changes, or it names what
        // such a rule stands for (the page-table gfp read from
        // __pte_alloc_one_kernel is about "pgtable" allocations)
        const std::size_t after = a.words.find("(after the series: ");
        for (std::size_t at = a.words.find("rule ", after); !runs && after != std::string::npos && at != std::string::npos;
             at = a.words.find("rule ", at + 5)) {
            std::size_t e = at + 5;
            while (e < a.words.size() && (std::isalnum((unsigned char)a.words[e]) || a.words[e] == '_')) ++e;
            const std::string rule = a.words.substr(at + 5, e - at - 5);
            runs = f.rules_run.count(rule) > 0;
            for (const auto& k : keywords(rule)) runs = runs || t.find(k) != std::string::npos;
        }
        // (a function read whole is its own rule)
        std::istringstream names(a.function);
        for (std::string n; !runs && std::getline(names, n, ',');) {
            while (!n.empty() && n.front() == ' ') n.erase(0, 1);
            runs = f.rules_run.count(tree::without_noprof(n)) > 0;
        }
        if (!runs) continue;
        if (only >= 0) return -1;  // two hunks change what the trace runs: not tied to one
        only = int(i);
    }
    return only;
}

std::string reply_text(const Reply& r) {
    const auto& p = *r.reading;
    std::string s;
    const std::string subj = !p.series.cover_subject.empty() ? p.series.cover_subject
                             : p.series.patches.empty()      ? ""
                                                             : p.series.patches[0].subject;
    if (!subj.empty()) s += para("Re: " + subj) + "\n";
    s += tree_paragraphs(r);
    std::string intro = std::string(r.review ? "tagproof reviewed " : "tagproof read ") + std::to_string(p.series.patches.size()) + " patch" +
                        (p.series.patches.size() == 1 ? "" : "es") + " on " +
                        (r.tree && r.tree->tree() ? r.tree->tree()->tree.era() + " over " + p.base : p.base) + " (" +
                        p.base_how + "). ";
    // hunks in functions read from the tree count as read, whatever the site table made of them
    std::size_t lifted = 0, lifted_unmapped = 0;
    if (r.accounting)
        for (std::size_t hi = 0; hi < p.hunks.size() && hi < r.accounting->hunks.size(); ++hi)
            if (r.accounting->hunks[hi].lifted && !p.hunks[hi].comments_only) {
                ++lifted;
                lifted_unmapped += !p.hunks[hi].mapped();
            }
    const std::size_t ruled = p.hunks_with_rules(), comments = p.hunks_comments_only();
    intro += "Of its " + std::to_string(p.hunks.size()) + " hunk" + (p.hunks.size() == 1 ? "" : "s") + ", " +
             (lifted ? std::to_string(lifted) + " change" + (lifted == 1 ? "s" : "") +
                           " functions the model reads from the tree, before and after the series, "
                     : std::string()) +
             std::to_string(ruled) + " change" + (ruled == 1 ? "s" : "") + " code the model has rules for, " +
             std::to_string(comments) + " only comments, and " + std::to_string(p.hunks_unmapped() - lifted_unmapped) +
             " nothing the model has (not checked). The variant file made of them:";
    s += para(intro) + "  " + r.variant_file + "\n";
    if (r.review) {
        s += "\n" + para("What ran: " + scope_words(*r.review) + ".");
        std::string claims;
        for (const auto& c : r.review->claims) claims += (claims.empty() ? "" : "; ") + c;
        if (!claims.empty()) s += "\n" + para("What the series is taken to claim (" + p.claims_how + "): " + claims + ".");
    }
    std::vector<const Finding*> intro_f = r.review ? introduced(*r.review) : std::vector<const Finding*>{};
    std::map<int, std::vector<std::size_t>> under;  // hunk -> finding indices (into review->findings)
    if (r.review)
        for (std::size_t i = 0; i < r.review->findings.size(); ++i) {
            const Finding& f = r.review->findings[i];
            if (f.recorded || f.in_baseline) continue;
            under[hunk_of(p, f, r.accounting)].push_back(i);
        }
    std::size_t last_patch = std::size_t(-1);
    for (std::size_t hi = 0; hi < p.hunks.size(); ++hi) {
        const auto& hm = p.hunks[hi];
        if (hm.comments_only && !under.count(int(hi))) {
            // not quoted, but accounted for
            if (r.accounting && hi < r.accounting->hunks.size()) {
                const auto& a = r.accounting->hunks[hi];
                const patch::Hunk* h = hunk_ptr(p, hm);
                s += "\n" + para("Hunk at line " + std::to_string(h ? h->at : 0) + " of the series (" + a.file +
                                 "), not quoted: " + a.words + ".");
            }
            continue;
        }
        if (hm.patch != last_patch) {
            last_patch = hm.patch;
            const std::string& ps = p.series.patches[hm.patch].subject;
            s += "\n" + para(ps.empty() ? "The diff" : ps);
        }
        s += "\n" + quoted(p, hm) + "\n";
        if (r.accounting && hi < r.accounting->hunks.size()) {
            const auto& a = r.accounting->hunks[hi];
            add(s, wrap("Tree: " + a.file + (a.function.empty() ? "" : ", in " + a.function) + ": " + a.words + ".", W, "",
                        "  "));
        }
        for (const auto& m : hm.rules) add(s, wrap("Read as: " + m.what + " (" + m.line + ").", W, "", "  "));
        for (const auto& x : hm.notes) add(s, wrap("Read as: " + x + ".", W, "", "  "));
        const bool read_from_tree =
            r.accounting && hi < r.accounting->hunks.size() &&
            (r.accounting->hunks[hi].lifted || r.accounting->hunks[hi].what == tree::HunkAccount::What::no_change);
        if (!read_from_tree)  // else the tree's code (or its preprocessor: no change) stands for these lines
            for (const auto& u : hm.unmapped)
                add(s, wrap("Not modelled, not checked (line " + std::to_string(u.at) + "): " + u.why, W, "", "  "));
        if (auto it = under.find(int(hi)); it != under.end())
            s += findings_under(r, &hm, it->second);
        else if (!hm.rules.empty() && r.review)
            s += para("No finding about this hunk.");
    }
    if (auto it = under.find(-1); it != under.end()) {
        s += "\n" + para("Findings not tied to one hunk:");
        s += findings_under(r, nullptr, it->second);
    }
    if (r.review) {
        std::string base_only;
        for (const auto& f : r.review->findings)
            if (f.in_baseline || f.recorded)
                base_only += (base_only.empty() ? "" : ", ") + f.property + " [" + mode_name(f.mode) + "]";
        if (!base_only.empty())
            s += "\n" + para("Also in " + r.review->baseline + ", so not this series' doing: " + base_only + ".");
        // what the series changes that its claim allows: coverage moved where it says, shown
        if (!r.review->changes.empty()) {
            s += "\n" + para("What the series changes against " + r.review->baseline +
                              ", within what it is taken to claim (above), so no finding:");
            for (const auto& c : r.review->changes) add(s, wrap(c, 72, "  ", "    "));
        }
        // the baseline's recorded defects the series no longer shows
        for (const auto& d : kernel::recorded_defects_of(r.review->baseline)) {
            bool seen = false, checked = false;
            for (const auto& pv : r.review->verdicts)
                if (pv.property == d.property) {
                    seen |= pv.violated;
                    for (const auto& sv : pv.sources) checked |= sv.status != SourceVerdict::not_covered;
                }
            if (checked && !seen)
                s += "\n" + para("Fixed by the series: " + r.review->baseline + "'s recorded " + d.property + " defect (" + d.why +
                                  ") is not found in it.");
        }
    }
    if (!r.fixed.empty()) {
        std::string f;
        for (const auto& x : r.fixed) f += (f.empty() ? "" : ", ") + x;
        s += "\n" + para("Fixed by the series: " + r.fixed_in + " breaks " + f +
                          " (its corpus run shows it), and the series does not.");
    }
    if (!r.kernel.empty()) {
        s += "\n" + para("Kernel: " + r.kernel);
        for (const auto& d : r.kernel_differ) s += "  | " + d + "\n";
    }
    s += "\n" + para(verdict_line(r, intro_f.size()));
    return s;
}

std::string reply_markdown(const Reply& r) {
    const auto& p = *r.reading;
    std::string s = "# tagproof review\n\n";
    if (r.accounting || r.tree) s += tree_paragraphs(r) + "\n";
    s += "Base: `" + p.base + "` (" + p.base_how + ")  \nVariant file: `" + r.variant_file + "`\n\n";
    if (r.review) s += "What ran: " + scope_words(*r.review) + "\n\n";
    std::map<int, std::vector<std::size_t>> under;
    if (r.review)
        for (std::size_t i = 0; i < r.review->findings.size(); ++i)
            if (!r.review->findings[i].recorded && !r.review->findings[i].in_baseline)
                under[hunk_of(p, r.review->findings[i], r.accounting)].push_back(i);
    for (std::size_t hi = 0; hi < p.hunks.size(); ++hi) {
        const auto& hm = p.hunks[hi];
        s += "## " + hm.path + (hm.function.empty() ? "" : " `" + hm.function + "()`") + "\n\n```diff\n";
        std::string q = quoted(p, hm);
        for (std::size_t b = 0; b < q.size();) {
            std::size_t e = q.find('\n', b);
            s += q.substr(b + 2, e - b - 2) + "\n";
            b = e + 1;
        }
        s += "```\n\n";
        if (r.accounting && hi < r.accounting->hunks.size()) {
            const auto& a = r.accounting->hunks[hi];
            s += "- tree: " + a.file + (a.function.empty() ? "" : ", in `" + a.function + "`") + ": " + a.words + "\n";
        }
        for (const auto& m : hm.rules) s += "- read as: " + m.what + " (`" + m.line + "`)\n";
        for (const auto& u : hm.unmapped) s += "- **not modelled** (line " + std::to_string(u.at) + "): " + u.why + "\n";
        if (auto it = under.find(int(hi)); it != under.end())
            for (std::size_t i : it->second) s += "\n" + finding_markdown(r.review->findings[i]) + "\n";
        s += "\n";
    }
    if (auto it = under.find(-1); it != under.end()) {
        s += "## Findings not tied to one hunk\n\n";
        for (std::size_t i : it->second) s += finding_markdown(r.review->findings[i]) + "\n";
    }
    if (!r.kernel.empty()) {
        s += "Kernel: " + r.kernel + "\n\n";
        for (const auto& d : r.kernel_differ) s += "- " + d + "\n";
        if (!r.kernel_differ.empty()) s += "\n";
    }
    s += "**" + verdict_line(r, r.review ? introduced(*r.review).size() : 0) + "**\n";
    return s;
}

std::string reply_json(const Reply& r) {
    const auto& p = *r.reading;
    std::ostringstream o;
    o << "{\n  \"base\": " << json_string(p.base) << ",\n  \"base_how\": " << json_string(p.base_how)
      << ",\n  \"variant_file\": " << json_string(r.variant_file) << ",\n  \"claims_how\": " << json_string(p.claims_how)
      << ",\n  \"reviewed\": " << (r.review ? "true" : "false");
    if (r.tree) {
        o << ",\n  \"tree\": {\"taken\": " << json_string(r.tree->tree() ? r.tree->tree()->tree.era() : "")
          << ", \"root\": " << json_string(r.tree->tree() ? r.tree->tree()->tree.root : "")
          << ", \"why\": " << json_string(r.tree->why) << ", \"tried\": [";
        for (std::size_t i = 0; i < r.tree->tries.size(); ++i)
            o << (i ? ", " : "") << "{\"era\": " << json_string(r.tree->tries[i].tree.era())
              << ", \"verdict\": " << json_string(r.tree->tries[i].verdict) << "}";
        o << "]}";
    }
    if (r.accounting)
    {
        o << ",\n  \"checked\": " << r.accounting->checked() << ",\n  \"headline\": " << json_string(r.accounting->headline())
          << ",\n  \"assumptions\": [";
        for (std::size_t i = 0; i < r.accounting->assumptions.size(); ++i)
            o << (i ? ", " : "") << json_string(r.accounting->assumptions[i]);
        o << "]";
    }
    o << ",\n  \"hunks\": [";
    for (std::size_t hi = 0; hi < p.hunks.size(); ++hi) {
        const auto& hm = p.hunks[hi];
        const patch::Hunk* h = hunk_ptr(p, hm);
        o << (hi ? "," : "") << "\n    {\"patch\": " << json_string(p.series.patches[hm.patch].subject)
          << ", \"path\": " << json_string(hm.path) << ", \"function\": " << json_string(hm.function)
          << ", \"line\": " << (h ? h->at : 0) << ", \"mapped\": " << (hm.mapped() ? "true" : "false")
          << ", \"comments_only\": " << (hm.comments_only ? "true" : "false") << ", \"rules\": [";
        for (std::size_t i = 0; i < hm.rules.size(); ++i)
            o << (i ? ", " : "") << "{\"rule\": " << json_string(hm.rules[i].rule) << ", \"line\": " << json_string(hm.rules[i].line)
              << ", \"what\": " << json_string(hm.rules[i].what) << "}";
        o << "], \"unmapped\": [";
        for (std::size_t i = 0; i < hm.unmapped.size(); ++i)
            o << (i ? ", " : "") << "{\"line\": " << hm.unmapped[i].at << ", \"why\": " << json_string(hm.unmapped[i].why) << "}";
        o << "]";
        if (r.accounting && hi < r.accounting->hunks.size()) {
            const auto& a = r.accounting->hunks[hi];
            o << ", \"account\": {\"what\": " << json_string(tree::what_name(a.what))
              << ", \"checked\": " << (a.checked() ? "true" : "false") << ", \"place\": " << json_string(a.file)
              << ", \"definitions\": " << json_string(a.function) << ", \"why\": " << json_string(a.words) << "}";
        }
        o << ", \"findings\": [";
        bool first = true;
        if (r.review)
            for (std::size_t i = 0; i < r.review->findings.size(); ++i) {
                const Finding& f = r.review->findings[i];
                if (f.recorded || f.in_baseline || hunk_of(p, f, r.accounting) != int(hi)) continue;
                o << (first ? "" : ", ") << i;
                first = false;
            }
        o << "]}";
    }
    o << "\n  ],\n  \"findings\": [";
    if (r.review)
        for (std::size_t i = 0; i < r.review->findings.size(); ++i)
            o << (i ? "," : "") << "\n    " << finding_json(r.review->findings[i]);
    o << "\n  ]";
    if (r.review)  // every cell, as `tagproof review --format json` gives a variant's
        o << ",\n  \"baseline\": " << json_string(r.review->baseline) << ",\n  \"verdicts\": ["
          << verdict_cells_json(*r.review, "    ") << "\n  ]";
    o << ",\n  \"fixed\": [";
    for (std::size_t i = 0; i < r.fixed.size(); ++i) o << (i ? ", " : "") << json_string(r.fixed[i]);
    o << "], \"fixed_in\": " << json_string(r.fixed_in);
    if (!r.kernel.empty()) {
        o << ",\n  \"kernel\": " << json_string(r.kernel) << ", \"kernel_differ\": [";
        for (std::size_t i = 0; i < r.kernel_differ.size(); ++i) o << (i ? ", " : "") << json_string(r.kernel_differ[i]);
        o << "]";
    }
    o << ",\n  \"verdict\": " << json_string(verdict_line(r, r.review ? introduced(*r.review).size() : 0)) << "\n}\n";
    return o.str();
}

std::string reply_html(const Reply& r) {
    std::string s = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tagproof review</title></head><body>\n";
    s += "<pre>" + html_escape(reply_text(r)) + "</pre>\n";
    if (r.review)
        for (std::size_t i = 0; i < r.report_files.size(); ++i)
            s += "<p><a href=\"" + html_escape(r.report_files[i].substr(r.report_files[i].rfind('/') + 1)) + "\">" +
                 html_escape(r.review->findings[i].property + " [" + mode_name(r.review->findings[i].mode) + "]") + "</a></p>\n";
    return s + "</body></html>\n";
}

}  // namespace tagproof::review
