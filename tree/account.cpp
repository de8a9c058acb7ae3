// account.cpp — see account.hpp.
#include "account.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "functions.hpp"
#include "gfp_lift.hpp"
#include "modelled.hpp"

namespace tagproof::tree {

const char* what_name(HunkAccount::What w) {
    switch (w) {
        case HunkAccount::What::rule: return "read into the model";
        case HunkAccount::What::no_change: return "no semantic change";
        case HunkAccount::What::modelled_unread: return "modelled function, not read from the tree";
        case HunkAccount::What::call_site: return "call site of a modelled entry point";
        case HunkAccount::What::outside: return "outside the model";
        case HunkAccount::What::not_applied: return "not applied";
    }
    return "";
}

std::size_t Accounting::checked() const {
    return std::count_if(hunks.begin(), hunks.end(), [](const HunkAccount& h) { return h.checked(); });
}

bool Accounting::all_no_change(std::size_t n) const {
    return n > 0 && hunks.size() == n &&
           std::all_of(hunks.begin(), hunks.end(), [](const HunkAccount& h) { return h.what == HunkAccount::What::no_change; });
}

std::string Accounting::headline() const {
    return std::to_string(checked()) + " of " + std::to_string(hunks.size()) + " hunk" + (hunks.size() == 1 ? "" : "s") +
           " checked";
}

namespace {

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

// What the site table made of the hunk, when it made a rule of it.
// (A hunk with notes only was read as part of another hunk's rule.)
bool has_rules(const patch::HunkMap& hm) {
    return hm.unmapped.empty() && !hm.comments_only && (!hm.rules.empty() || !hm.notes.empty());
}
std::string rule_words(const patch::HunkMap& hm) {
    if (hm.rules.empty()) return "read as part of another hunk's rule";
    std::vector<std::string> r;
    for (const auto& m : hm.rules) r.push_back(m.rule);
    return std::string("read into rule") + (r.size() > 1 ? "s " : " ") + join(r);
}

HunkAccount without_tree(const patch::Series& s, const patch::HunkMap& hm) {
    HunkAccount a;
    a.file = hm.path;
    a.function = hm.function;
    if (has_rules(hm)) {
        a.what = HunkAccount::What::rule;
        a.words = rule_words(hm);
    } else if (hm.comments_only) {
        a.what = HunkAccount::What::no_change;
        a.words = "only comments and blank lines change";
    } else if (const Modelled* m = find_modelled(hm.function)) {
        a.what = HunkAccount::What::modelled_unread;
        a.words = "changes " + hm.function + ", which the model has by hand (" + m->model + "); not read from a tree";
    } else {
        a.what = HunkAccount::What::outside;
        a.words = "outside the model: " + (hm.function.empty() ? std::string("no modelled definition") : hm.function) +
                  " in " + hm.path;
    }
    return a;
}

// The calls to the model's entry points that a hunk changes, found from the
// AST on each side: paired by callee in order; one whose arguments differ is
// said with its gfp, one added or removed is said too; "" for none.
std::string call_changes(const std::vector<const Call*>& before, const std::vector<const Call*>& after) {
    auto modelled = [](const std::vector<const Call*>& v) {
        std::vector<const Call*> m;
        for (const Call* c : v)
            if (find_entry_point(c->callee)) m.push_back(c);
        return m;
    };
    std::vector<const Call*> b = modelled(before), a = modelled(after);
    std::vector<std::string> said;
    std::vector<bool> used(a.size(), false);
    for (const Call* x : b) {
        const EntryPoint* ep = find_entry_point(x->callee);
        const Call* y = nullptr;
        for (std::size_t i = 0; i < a.size() && !y; ++i)
            if (!used[i] && a[i]->callee == x->callee) used[i] = true, y = a[i];
        if (!y) {
            said.push_back("removes a call to " + x->callee + "()");
            continue;
        }
        if (x->args == y->args) continue;
        if (ep->gfp_arg >= 0 && (std::size_t)ep->gfp_arg < x->args.size() && (std::size_t)ep->gfp_arg < y->args.size() &&
            x->args[ep->gfp_arg] != y->args[ep->gfp_arg])
            said.push_back(x->callee + "()'s gfp goes from " + x->args[ep->gfp_arg] + " to " + y->args[ep->gfp_arg]);
        else
            said.push_back(x->callee + "()'s arguments change");
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (used[i]) continue;
        const int g = find_entry_point(a[i]->callee)->gfp_arg;
        said.push_back("adds a call to " + a[i]->callee + "()" +
                       (g >= 0 && (std::size_t)g < a[i]->args.size() ? " with " + a[i]->args[g] : ""));
    }
    return join(said, "; ");
}

// Every function of a hunk is read from the tree on both sides (wholly, or
// the part of it the series changes).
bool all_lifted(const std::vector<std::string>& names, const std::map<std::string, std::string>& lifted) {
    for (const auto& n : names) {
        auto it = lifted.find(without_noprof(n));
        if (it == lifted.end() || !(it->second.empty() || it->second.rfind(kInPart, 0) == 0)) return false;
    }
    return true;
}

// The values of the #defines a hunk changes, before and after it, from the
// tree's preprocessor (the GFP headers' unit, gfp_lift.hpp). A macro the unit
// cannot evaluate (function-like, not an integer, in a file it does not
// include) is left out: `all_equal` only when every one of them evaluates,
// on both sides, to the same value.
struct MacroValues {
    bool all_equal = false;
    std::string said;     // "GFP_KERNEL = 0xcc0"
    std::string changed;  // "GFP_USER 0x100cc0 -> 0x100dc0"
};

MacroValues macro_values(const std::string& root, const std::string& path, const std::set<std::string>& macros,
                         const std::string& before, const std::string& after) {
    MacroValues v;
    const std::vector<std::string> names(macros.begin(), macros.end());
    GfpLift b, a;
    try {
        b = lift_gfp_constants(root, names, {{path, before}});
        a = lift_gfp_constants(root, names, {{path, after}});
    } catch (const std::exception&) {
        return v;  // an unconfigured tree: no values
    }
    auto hex = [](unsigned long long x) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%#llx", x);
        return std::string(buf);
    };
    v.all_equal = true;
    for (const auto& n : names) {
        const LiftedConstant* x = b.find(n);
        const LiftedConstant* y = a.find(n);
        const bool both = x && y && x->evaluated && y->evaluated;
        if (!both) {
            v.all_equal = false;
            continue;
        }
        if (x->value == y->value) {
            v.said += (v.said.empty() ? "" : ", ") + n + " = " + hex(x->value);
        } else {
            v.all_equal = false;
            v.changed += (v.changed.empty() ? "" : ", ") + n + " " + hex(x->value) + " -> " + hex(y->value);
        }
    }
    return v;
}

}  // namespace

Accounting account(const patch::Series& s, const std::vector<patch::HunkMap>& maps, const SeriesApply* applied,
                   const std::string& root, const std::map<std::string, std::string>* lifted) {
    Accounting acc;
    std::map<std::pair<std::string, std::pair<std::size_t, int>>, ParsedFile> parsed;  // (path, (patch, side))
    auto parse = [&](const std::string& path, std::size_t patch, int side) -> const ParsedFile& {
        auto key = std::make_pair(path, std::make_pair(patch, side));
        auto it = parsed.find(key);
        if (it != parsed.end()) return it->second;
        const std::string& text = side == 0 ? applied->before(path, patch) : applied->after(path, patch);
        ParsedFile pf = read_definitions(root, path, text);
        if (side == 0 && patch == applied->files.at(path).patches.front())
            // (no time here: the reply is the same for the same patch and tree)
            acc.notes.push_back(path + ": " + std::to_string(pf.defs.size()) + " definitions read" +
                                (pf.configured ? "" : " (tree not configured: types unresolved, " +
                                                          std::to_string(pf.errors) + " clang errors)"));
        return parsed.emplace(key, std::move(pf)).first->second;
    };
    for (const auto& hm : maps) {
        const auto& fd = s.patches[hm.patch].files[hm.file];
        if (!applied || fd.binary) {
            acc.hunks.push_back(without_tree(s, hm));
            continue;
        }
        const patch::Hunk& h = fd.hunks[hm.hunk];
        const HunkPlace* place = nullptr;
        for (const auto& p : applied->hunks)
            if (p.patch == hm.patch && p.file == hm.file && p.hunk == hm.hunk) place = &p;
        HunkAccount a;
        a.file = fd.path;
        if (!place || place->how == HunkPlace::How::failed) {
            const std::string why = "it does not apply to the tree: " + (place ? place->why : std::string("not tried"));
            a.function = patch::hunk_function(h);
            if (has_rules(hm)) {
                // The site table read it into a rule of the hand era, which the
                // engines check; the tree could not confirm its place.
                a.what = HunkAccount::What::rule;
                a.words = rule_words(hm) + " of the hand-written era, but " + why;
            } else {
                a.what = HunkAccount::What::not_applied;
                a.words = "not checked: " + why;
            }
            acc.hunks.push_back(a);
            continue;
        }
        const ParsedFile& before = parse(fd.path, hm.patch, 0);
        const ParsedFile& after = parse(fd.path, hm.patch, 1);
        // Lines of each side this hunk covers, and the ones it changes.
        std::vector<int> minus, plus;
        int ob = place->old_line - place->front, nb = place->new_line - place->front;  // line of hunk line 0
        int oi = 0, ni = 0;
        int insert_after = ob - 1;  // for a hunk that only adds: the before line it adds after
        for (const auto& l : h.lines) {
            const char k = l.kind;
            if (k == ' ') {
                if (plus.empty() && minus.empty()) insert_after = ob + oi;
                ++oi, ++ni;
            } else if (k == '-') {
                minus.push_back(ob + oi++);
            } else {
                plus.push_back(nb + ni++);
            }
        }
        std::set<std::string> names, macros;
        std::vector<std::string> where;
        auto add_def = [&](const Definition* d, const ParsedFile& pf, int line) {
            if (!d) return;
            if (d->kind == Definition::Kind::macro) macros.insert(d->name);
            if (names.insert(d->name).second) where.push_back(d->name + " (" + fd.path + ":" + std::to_string(line) + ")");
        };
        for (int l : minus) add_def(before.at(l, l), before, l);
        for (int l : plus) add_def(after.at(l, l), after, l);
        if (minus.empty() && !plus.empty()) add_def(before.at(insert_after, insert_after), before, insert_after);
        // Tokens of the hunk's lines, before and after.
        const int first_old = ob, last_old = ob + oi - 1, first_new = nb, last_new = nb + ni - 1;
        const bool same_tokens = before.tokens_in(first_old, last_old) == after.tokens_in(first_new, last_new);
        // A helper the model has by hand that the hunk deletes (defined before,
        // not after) changes nothing by itself: what it did matters only
        // where it was called, and a caller still calling it would not build.
        // Beside a function the model reads it is named, not counted.
        std::vector<std::string> modelled, deleted;
        for (const auto& n : names)
            if (find_modelled(n)) {
                const bool helper = !lifted || lifted->find(without_noprof(n)) == lifted->end();
                (helper && before.find(n) && !after.find(n) ? deleted : modelled).push_back(n);
            }
        if (modelled.empty()) modelled = deleted, deleted.clear();  // alone, it is what the hunk changes
        a.function = join(std::vector<std::string>(names.begin(), names.end()));
        if (place->how == HunkPlace::How::exact && !place->loose)
            a.file = fd.path + ":" + std::to_string(place->old_line);
        else
            a.file = fd.path + ":" + std::to_string(place->old_line) + " (" + place->describe() + ")";
        // The #defines the hunk changes, as the tree's preprocessor evaluates
        // them before and after (the GFP headers' constants: gfp_lift.hpp).
        const MacroValues mv = same_tokens || macros.empty() ? MacroValues{} : macro_values(root, fd.path, macros,
                                                                                            applied->before(fd.path, hm.patch),
                                                                                            applied->after(fd.path, hm.patch));
        if (same_tokens) {
            a.what = HunkAccount::What::no_change;
            a.words = "no semantic change: its tokens are equal before and after (comments or blanks only)";
        } else if (mv.all_equal && macros.size() == names.size()) {
            a.what = HunkAccount::What::no_change;
            a.words = "no semantic change: the tree's preprocessor gives " + mv.said + " before and after";
        } else if (!modelled.empty() && lifted && all_lifted(modelled, *lifted)) {
            // the code read from the tree first: a site-table reading of the hunk gives way to it
            a.what = HunkAccount::What::rule;
            a.lifted = true;
            std::string part;
            for (const auto& n : modelled)
                if (const std::string& w = lifted->at(without_noprof(n)); !w.empty())
                    part += "; of " + n + " the model reads " + w.substr(kInPart.size()) +
                            (w.find("(after the series: ") != std::string::npos
                                 ? ", which the series changes"
                                 : ", which reads the same after the series (its text changes, no rule of it does)") +
                            ": the rest of " + n + " is not read";
            a.words = "changes " + join(modelled) +
                      ", read from the tree before and after the series into rule bodies: the review checks the code" +
                      part;
            for (const auto& n : deleted)
                a.words += "; deletes " + n + " (" + find_modelled(n)->model +
                           "), which matters only where it was called: there the code is read";
        } else if (has_rules(hm)) {
            a.what = HunkAccount::What::rule;
            a.words = rule_words(hm);
        } else if (!modelled.empty()) {
            a.what = HunkAccount::What::modelled_unread;
            if (lifted)
                for (const auto& n : modelled)
                    if (auto it = lifted->find(without_noprof(n)); it != lifted->end() && !it->second.empty()) {
                        a.words = "changes " + n + ", which the model reads from the tree, but " + it->second;
                        break;
                    }
            if (!a.words.empty()) {
                acc.hunks.push_back(a);
                continue;
            }
            std::vector<std::string> m;
            for (const auto& n : modelled) m.push_back(n + " (" + find_modelled(n)->model + ")");
            a.words = "changes " + join(m, "; ") + ", which the model has by hand and does not read from the tree yet";
        } else if (const std::string calls = call_changes(before.calls_in(first_old, last_old),
                                                          after.calls_in(first_new, last_new));
                   !calls.empty()) {
            a.what = HunkAccount::What::call_site;
            a.words = "a call site of the model's entry points, in " + (where.empty() ? fd.path : join(where)) + ": " +
                      calls + "; what this caller needs of the memory is not in the model's requirements, so the change is "
                              "not checked";
        } else {
            a.what = HunkAccount::What::outside;
            a.words = "outside the model: " + (where.empty() ? "no definition, in " + fd.path : "changes " + join(where));
        }
        if (!mv.changed.empty() && a.what != HunkAccount::What::no_change)
            a.words += "; the tree's preprocessor: " + mv.changed;
        acc.hunks.push_back(a);
    }
    return acc;
}

}  // namespace tagproof::tree
