// sites.cpp — the places in the kernel the model's rules stand for, and how a
// hunk's change at each becomes a rule line (sites.hpp). Three kinds:
//   a #define of a GFP constant   the new definition, or (when the hunk shows
//                                 only part of it) the base's with the flags
//                                 the hunk adds and drops
//   an allocation call's GFP mask  the base's rule with the flags added/dropped;
//                                 any other change to the call is not mapped
//   a condition                   the `if (...)` guarding a call, the `if` a
//                                 block sits in, or a local's initialiser, as
//                                 the new side writes it, with the hunk's own
//                                 locals put in and the kernel's parameter
//                                 names (gfp_mask, gfp_flags) made the rule's
// Nothing here knows a patch: the tables are the model's rules and where the
// kernel keeps them.
#include "sites.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace tagproof::patch {

namespace {

// ---- the tables ------------------------------------------------------------

// #define NAME: the GFP constants the model has a rule for.
const std::vector<std::string>& define_rules() {
    static const std::vector<std::string> d = {"THREADINFO_GFP", "GFP_VMAP_STACK", "GFP_PGTABLE_KERNEL",
                                               "GFP_PGTABLE_USER", "GFP_VMALLOC_SUPPORTED"};
    return d;
}
// A hunk that starts inside a multi-line #define: the one modelled define of that file.
std::string headless_define(const std::string& path) {
    if (path == "mm/vmalloc.c") return "GFP_VMALLOC_SUPPORTED";
    return "";  // (include/asm-generic/pgalloc.h has two: not guessed)
}

struct CallSite {
    const char* path;
    const char* function;
    const char* start;         // the statement starts at the line with this
    const char* must_contain;  // and contains this ("" for nothing)
    const char* rule;
    std::vector<std::string> params;
};
const std::vector<CallSite>& call_sites() {
    static const std::vector<CallSite> c = {
        {"net/core/skbuff.c", "alloc_skb_with_frags", "alloc_pages(", "", "alloc_skb_frags_gfp", {"gfp"}},
        {"net/core/sock.c", "skb_page_frag_refill", "alloc_pages(", "SKB_FRAG_PAGE_ORDER", "skb_frag_gfp", {}},
        {"net/core/sock.c", "skb_page_frag_refill", "alloc_page(", "", "skb_frag_fallback_gfp", {}},
        {"mm/vmalloc.c", "__vmalloc_node_range", "__get_vm_area_node(", "", "vmalloc_meta_gfp", {"gfp"}},
        {"arch/arm64/mm/fault.c", "vma_alloc_zeroed_movable_folio", "GFP_HIGHUSER_MOVABLE", "", "user_page_gfp", {"vm_mte"}},
        // include/asm-generic/pgalloc.h: pagetable_alloc() from v6.5 (_noprof from v6.10), __get_free_page() before
        {"include/asm-generic/pgalloc.h", "__pte_alloc_one_kernel", "pagetable_alloc", "", "pte_alloc_one_kernel_gfp", {}},
        {"include/asm-generic/pgalloc.h", "__pte_alloc_one_kernel", "__get_free_page(", "", "pte_alloc_one_kernel_gfp", {}},
        {"include/asm-generic/pgalloc.h", "pte_alloc_one", "__pte_alloc_one", "", "pte_alloc_one_gfp", {}},
    };
    return c;
}

enum class CondKind { guard, enclosing_if, local };
struct CondSite {
    const char* path;
    const char* function;
    std::vector<const char*> anchors;  // any of these marks the line (for `local`: the local's name)
    const char* must_contain;
    CondKind kind;
    const char* rule;
    std::vector<std::string> params;
    const char* doing;  // what the condition decides, for the reader
    // After the tagged-prot block, the kernel's gfp_mask holds the pages' skip
    // flags too: `gfp_mask` there is the rule's gfp_mask, and a local
    // computed before the block saw the caller's mask (gfp).
    bool mask_after_block = false;
};
const std::vector<CondSite>& cond_sites() {
    static const std::vector<CondSite> c = {
        {"mm/vmalloc.c", "__vmalloc_node_range", {"Modify protection bits to allow tagging", "arch_vmap_pgprot_tagged"}, "",
         CondKind::enclosing_if, "vmalloc_tagged_prot", {"gfp"}, "the mapping is made tagged (arch_vmap_pgprot_tagged())"},
        {"mm/vmalloc.c", "__vmalloc_node_range", {"KASAN_VMALLOC_PROT_NORMAL"}, "kasan_flags |=", CondKind::guard,
         "vmalloc_prot_normal", {"gfp", "gfp_mask"}, "KASAN_VMALLOC_PROT_NORMAL is set", true},
        {"mm/vmalloc.c", "__vmalloc_node_range", {"kasan_unpoison_vmalloc("}, "", CondKind::guard, "vmalloc_calls_unpoison", {"gfp", "gfp_mask"}, "kasan_unpoison_vmalloc() is called", true},
        {"kernel/fork.c", "alloc_thread_stack_node", {"kasan_unpoison_range("}, "", CondKind::guard, "cached_stack_unpoison", {}, "a cached stack gets kasan_unpoison_range()"},
        {"mm/page_alloc.c", "post_alloc_hook", {"zero_tags"}, "", CondKind::local, "zero_tags", {"gfp", "init"}, "zero_tags is"},
        {"mm/page_alloc.c", "post_alloc_hook", {"reset_tags"}, "", CondKind::local, "reset_tags_initially", {"zero_tags"}, "reset_tags starts as"},
    };
    return c;
}
// The kernel's names for a rule's parameters.
std::string param_for(const std::string& kernel_name, const std::vector<std::string>& params) {
    if (std::find(params.begin(), params.end(), kernel_name) != params.end()) return kernel_name;
    static const std::map<std::string, std::string> alias = {{"gfp_mask", "gfp"}, {"gfp_flags", "gfp"}, {"gfp", "gfp"},
                                                             {"init", "init"}, {"zero_tags", "zero_tags"}, {"order", "order"}};
    auto it = alias.find(kernel_name);
    if (it == alias.end()) return "";
    return std::find(params.begin(), params.end(), it->second) == params.end() ? "" : it->second;
}
// The rules the model has in a file, for the why of an unmapped hunk there.
std::vector<std::string> rules_in(const std::string& path) {
    std::set<std::string> r;
    static const std::map<std::string, std::vector<std::string>> defines = {
        {"include/linux/thread_info.h", {"THREADINFO_GFP"}},
        {"kernel/fork.c", {"GFP_VMAP_STACK"}},
        {"include/asm-generic/pgalloc.h", {"GFP_PGTABLE_KERNEL", "GFP_PGTABLE_USER"}},
        {"mm/vmalloc.c", {"GFP_VMALLOC_SUPPORTED"}}};
    if (auto it = defines.find(path); it != defines.end()) r.insert(it->second.begin(), it->second.end());
    for (const auto& c : call_sites())
        if (path == c.path) r.insert(std::string(c.rule) + " (" + c.function + ")");
    for (const auto& c : cond_sites())
        if (path == c.path) r.insert(std::string(c.rule) + " (" + c.function + ")");
    return {r.begin(), r.end()};
}

// ---- text helpers ----------------------------------------------------------

std::string trim(const std::string& s) {
    std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}
std::string squash(const std::string& s) {  // whitespace runs to one space
    std::string o;
    bool sp = false;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\n') {
            sp = !o.empty();
            continue;
        }
        if (sp) o += ' ';
        sp = false;
        o += c;
    }
    return o;
}
bool comment_or_blank(const std::string& t) {
    std::string s = trim(t);
    return s.empty() || s.rfind("/*", 0) == 0 || s.rfind("*", 0) == 0 || s.rfind("//", 0) == 0;
}
int indent(const std::string& t) {
    int n = 0;
    for (char c : t) {
        if (c == '\t') n = (n / 8 + 1) * 8;
        else if (c == ' ') ++n;
        else break;
    }
    return n;
}
bool ends_backslash(const std::string& t) {
    std::string s = trim(t);
    return !s.empty() && s.back() == '\\';
}
bool is_ident(char c) { return std::isalnum((unsigned char)c) || c == '_'; }
// Replaces the identifier `from` (whole words only).
std::string replace_ident(const std::string& s, const std::string& from, const std::string& to) {
    std::string o;
    for (std::size_t i = 0; i < s.size();) {
        if (s.compare(i, from.size(), from) == 0 && (i == 0 || !is_ident(s[i - 1])) &&
            (i + from.size() >= s.size() || !is_ident(s[i + from.size()]))) {
            o += to;
            i += from.size();
        } else {
            o += s[i++];
        }
    }
    return o;
}
std::vector<std::string> identifiers(const std::string& s) {
    std::vector<std::string> v;
    for (std::size_t i = 0; i < s.size();) {
        if (std::isalpha((unsigned char)s[i]) || s[i] == '_') {
            std::size_t b = i;
            while (i < s.size() && is_ident(s[i])) ++i;
            v.push_back(s.substr(b, i - b));
        } else {
            ++i;
        }
    }
    return v;
}
bool gfp_name(const std::string& id) { return id.rfind("__GFP_", 0) == 0 || id.rfind("GFP_", 0) == 0; }

// GFP names in a text, each with whether a `~` negates it.
struct GfpTokens {
    std::multiset<std::string> pos, neg;
};
GfpTokens gfp_tokens(const std::string& s) {
    GfpTokens t;
    for (std::size_t i = 0; i < s.size();) {
        if ((std::isalpha((unsigned char)s[i]) || s[i] == '_') && (i == 0 || !is_ident(s[i - 1]))) {
            std::size_t b = i;
            while (i < s.size() && is_ident(s[i])) ++i;
            std::string id = s.substr(b, i - b);
            if (!gfp_name(id)) continue;
            std::size_t k = b;
            while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '(')) --k;
            (k > 0 && s[k - 1] == '~' ? t.neg : t.pos).insert(id);
        } else {
            ++i;
        }
    }
    return t;
}
std::vector<std::string> minus(const std::multiset<std::string>& a, const std::multiset<std::string>& b) {
    std::vector<std::string> v;
    std::set<std::string> seen;
    for (const auto& x : a)
        if (!b.count(x) && seen.insert(x).second) v.push_back(x);
    return v;
}
std::string join(const std::vector<std::string>& v, const std::string& sep) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}
// What is left of a statement without its GFP names and operators: two
// statements with the same skeleton differ only in GFP flags.
std::string skeleton(const std::string& s) {
    std::string o;
    for (const auto& id : identifiers(s))
        if (!gfp_name(id)) o += id + " ";
    for (char c : s)
        if (std::isdigit((unsigned char)c)) o += c;
    return o;
}
// The balanced text inside the first '(' at or after `from`.
std::string paren_text(const std::string& s, std::size_t from, std::size_t* end = nullptr) {
    std::size_t b = s.find('(', from);
    if (b == std::string::npos) return "";
    int depth = 0;
    for (std::size_t i = b; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0) {
            if (end) *end = i;
            return s.substr(b + 1, i - b - 1);
        }
    }
    return "";
}

std::string function_of_line(const std::string& t) {
    // a definition's first line: at column 0, a name followed by '(' and no ';'
    if (t.empty() || !(std::isalpha((unsigned char)t[0]) || t[0] == '_')) return "";
    if (t.find(';') != std::string::npos || t.rfind("#", 0) == 0) return "";
    std::size_t p = t.find('(');
    if (p == std::string::npos) return "";
    std::size_t e = p;
    while (e > 0 && t[e - 1] == ' ') --e;
    std::size_t b = e;
    while (b > 0 && is_ident(t[b - 1])) --b;
    std::string name = t.substr(b, e - b);
    static const std::set<std::string> kw = {"if", "for", "while", "switch", "return", "sizeof", "defined"};
    return name.empty() || kw.count(name) ? "" : name;
}

// The lines of one side of a hunk (old: context and '-'; new: context and '+').
struct Side {
    const Hunk* h;
    std::vector<int> idx;
    int start = 0;  // the file's line number of position 0
    int line(int k) const { return start + k; }
    const std::string& text(int k) const { return h->lines[idx[k]].text; }
    bool changed(int k) const { return h->lines[idx[k]].kind != ' '; }
    int size() const { return int(idx.size()); }
};

bool function_matches(const std::string& fn, const char* want) {
    return fn == want || fn == std::string(want) + "_noprof";
}

// The positions of the statement that starts at the line containing `start`.
std::vector<int> statement_at(const Side& s, const char* start, const char* must) {
    for (int k = 0; k < s.size(); ++k) {
        if (s.text(k).find(start) == std::string::npos) continue;
        std::vector<int> pos;
        int depth = 0;
        bool opened = false;
        std::string all;
        for (int j = k; j < s.size() && j < k + 12; ++j) {
            pos.push_back(j);
            const std::string& t = s.text(j);
            all += t + "\n";
            for (char c : t) {
                if (c == '(') ++depth, opened = true;
                if (c == ')') --depth;
            }
            if (t.find(';') != std::string::npos && (!opened || depth <= 0)) break;
        }
        if (*must && all.find(must) == std::string::npos) continue;
        return pos;
    }
    return {};
}
std::string joined(const Side& s, const std::vector<int>& pos) {
    std::string t;
    for (int k : pos) t += s.text(k) + "\n";
    return t;
}

// Locals an earlier hunk of the same function declares (a condition in one
// hunk may use a local the hunk before declares), by side ('-' old, '+' new).
struct Local {
    std::string expr;
    int line = 0;  // the file's line
};
using Locals = std::map<std::string, Local>;
struct FunctionLocals {
    std::map<std::string, Locals> old_side, new_side;  // function -> locals
    std::map<std::string, int> old_block, new_block;   // function -> the tagged-prot `if` line
};

// The hunk's locals on a side: `bool skip_kasan = gfp_mask & __GFP_SKIP_KASAN;`
std::map<std::string, std::pair<std::string, int>> locals(const Side& s) {
    static const std::regex decl(R"(^\s*(?:const\s+)?(?:bool|gfp_t|int|long|unsigned(?:\s+int|\s+long)?)\s+(\w+)\s*=\s*(.+);\s*$)");
    std::map<std::string, std::pair<std::string, int>> m;
    for (int k = 0; k < s.size(); ++k) {
        std::smatch x;
        if (std::regex_match(s.text(k), x, decl)) m[x[1]] = {trim(x[2]), k};
    }
    return m;
}

// The condition as the rule's expression: locals put in (in parentheses),
// the kernel's parameter names made the rule's.
// `block` is the file's line of the tagged-prot `if` on this side (0: not
// seen); `why` is set when a local's place against it cannot be told.
std::string as_rule_expr(std::string c, const Side& s, const CondSite& site, std::vector<int>* used, const Locals& earlier,
                         int block, std::string* why) {
    auto here = locals(s);
    // a local's initialiser, with gfp_mask made the caller's mask if it was computed before the block
    auto init_of = [&](const std::string& name, std::string e, int line) {
        if (!site.mask_after_block) return e;
        bool names_mask = false;
        for (const auto& id : identifiers(e)) names_mask |= id == "gfp_mask";
        if (!names_mask) return e;
        if (block == 0) {
            if (why) *why = "cannot tell whether " + name + " is computed before or after the block that adds the pages' skip flags to gfp_mask (the hunks do not show its `if`)";
            return e;
        }
        return line < block ? replace_ident(e, "gfp_mask", "gfp") : e;
    };
    for (int round = 0; round < 4; ++round) {
        bool any = false;
        for (const auto& id : identifiers(c)) {
            if (!param_for(id, site.params).empty()) continue;
            if (auto it = here.find(id); it != here.end()) {
                c = replace_ident(c, id, "(" + init_of(id, it->second.first, s.line(it->second.second)) + ")");
                if (used) used->push_back(it->second.second);
                any = true;
            } else if (auto e = earlier.find(id); e != earlier.end()) {
                c = replace_ident(c, id, "(" + init_of(id, e->second.expr, e->second.line) + ")");
                any = true;
            }
        }
        if (!any) break;
    }
    for (const auto& id : identifiers(c))
        if (std::string p = param_for(id, site.params); !p.empty() && p != id) c = replace_ident(c, id, p);
    return squash(c);
}

struct CondFound {
    bool found = false;   // the site is in this side
    std::string cond;     // "1" when unguarded
    std::vector<int> lines;  // the positions the condition is read from
};
CondFound find_condition(const Side& s, const CondSite& site) {
    CondFound r;
    int a = -1;
    for (int k = 0; k < s.size() && a < 0; ++k) {
        const std::string& t = s.text(k);
        if (site.kind == CondKind::local) {
            static const std::regex decl(R"(^\s*(?:const\s+)?bool\s+(\w+)\s*=\s*(.+);\s*$)");
            std::smatch x;
            if (std::regex_match(t, x, decl) && x[1] == site.anchors[0]) {
                r.found = true;
                r.cond = trim(x[2]);
                r.lines = {k};
                return r;
            }
            continue;
        }
        // a guard's anchor is a call: a comment naming it is not the call
        if (site.kind == CondKind::guard && comment_or_blank(t)) continue;
        bool hit = false;
        for (const char* an : site.anchors) hit |= t.find(an) != std::string::npos;
        if (hit && (!*site.must_contain || t.find(site.must_contain) != std::string::npos)) a = k;
    }
    if (a < 0) return r;
    r.found = true;
    r.lines = {a};
    const std::string& t = s.text(a);
    static const std::regex if_line(R"(^\s*(?:\}\s*else\s+)?if\s*\(.*$)");
    if (site.kind == CondKind::guard) {
        // `if (C) call();` on the line itself
        std::string tt = trim(t);
        if (tt.rfind("if", 0) == 0 && std::regex_match(t, if_line)) {
            r.cond = paren_text(t, t.find("if"));
            return r;
        }
        for (int p = a - 1; p >= 0; --p) {
            const std::string& q = s.text(p);
            if (comment_or_blank(q)) continue;
            if (std::regex_match(q, if_line) && (q.find('{') == std::string::npos || indent(q) < indent(t))) {
                std::string qq = trim(q);
                if (qq.back() == ')' || qq.back() == '{') {
                    r.cond = paren_text(q, q.find("if"));
                    r.lines.push_back(p);
                    return r;
                }
            }
            break;
        }
        r.cond = "1";
        return r;
    }
    // enclosing if: the nearest `if (...) {` less indented than the anchor
    for (int p = a - 1; p >= 0; --p) {
        const std::string& q = s.text(p);
        if (comment_or_blank(q) || indent(q) >= indent(t)) continue;
        if (std::regex_match(q, if_line) && trim(q).back() == '{') {
            r.cond = paren_text(q, q.find("if"));
            r.lines.push_back(p);
            return r;
        }
        break;
    }
    r.found = false;  // the block's condition is above the hunk
    r.cond = "";
    return r;
}

struct Define {
    std::string name;
    std::vector<int> pos;  // its lines on the side
    bool headed = false;   // the #define line itself is in the hunk
};
std::vector<Define> defines(const Side& s, const std::string& path) {
    std::vector<Define> d;
    static const std::regex def(R"(^\s*#\s*define\s+(\w+).*$)");
    int k = 0;
    // a hunk that starts inside a multi-line #define
    if (s.size() > 0 && ends_backslash(s.text(0))) {
        Define x;
        x.name = headless_define(path);
        for (; k < s.size(); ++k) {
            x.pos.push_back(k);
            if (!ends_backslash(s.text(k))) {
                ++k;
                break;
            }
        }
        d.push_back(x);
    }
    for (; k < s.size(); ++k) {
        std::smatch m;
        const std::string& t = s.text(k);
        if (!std::regex_match(t, m, def)) continue;
        Define x;
        x.name = m[1];
        x.headed = true;
        for (; k < s.size(); ++k) {
            x.pos.push_back(k);
            if (!ends_backslash(s.text(k))) break;
        }
        d.push_back(x);
    }
    return d;
}
// "#define NAME (A | B) \" ... -> "(A | B)"
std::string define_value(const Side& s, const Define& d) {
    std::string t;
    for (int k : d.pos) {
        std::string l = s.text(k);
        if (ends_backslash(l)) l = trim(l).substr(0, trim(l).size() - 1);
        t += l + " ";
    }
    std::size_t p = t.find(d.name);
    return squash(p == std::string::npos ? t : t.substr(p + d.name.size()));
}

std::string call_of(const std::string& rule, const std::vector<std::string>& params) {
    return params.empty() ? rule : rule + "(" + join(params, ", ") + ")";
}
std::string lhs_of(const std::string& rule, const std::vector<std::string>& params) {
    return "rule " + call_of(rule, params) + " = ";
}

// The base's rule with flags added and dropped.
bool flag_delta_expr(const std::string& rule, const std::vector<std::string>& params, const GfpTokens& o,
                     const GfpTokens& n, MappedRule& m, std::string& why) {
    std::vector<std::string> add = minus(n.pos, o.pos), drop = minus(o.pos, n.pos);
    std::vector<std::string> add_neg = minus(n.neg, o.neg), drop_neg = minus(o.neg, n.neg);
    std::string e = call_of(rule, params);
    if (!add.empty()) e += " | " + join(add, " | ");
    std::vector<std::string> clear = drop;
    clear.insert(clear.end(), add_neg.begin(), add_neg.end());
    if (!clear.empty()) e = "(" + e + ") & ~(" + join(clear, " | ") + ")";
    if (!drop_neg.empty()) {
        if (std::find(params.begin(), params.end(), "gfp") == params.end()) {
            why = "it stops masking out " + join(drop_neg, ", ") + ", which " + rule + " has no caller's gfp to let through";
            return false;
        }
        e = "(" + e + ") | (gfp & (" + join(drop_neg, " | ") + "))";
    }
    m.added = add;
    m.removed = drop;
    m.removed.insert(m.removed.end(), add_neg.begin(), add_neg.end());
    std::string what;
    if (!add.empty()) what += "gains " + join(add, ", ");
    if (!m.removed.empty()) what += std::string(what.empty() ? "" : " and ") + "loses " + join(m.removed, ", ");
    if (!drop_neg.empty()) what += std::string(what.empty() ? "" : " and ") + "lets the caller's " + join(drop_neg, ", ") + " through";
    m.what = rule + " " + (what.empty() ? "is rewritten with the same flags" : what);
    m.line = lhs_of(rule, params) + e;
    return true;
}

// A GFP bit the patch adds, `flag __GFP_NAME [every_build]`: its
// `#define __GFP_NAME ((__force gfp_t)___GFP_NAME)`, with the ___GFP_NAME
// lines (a hex #define or an enum entry ___GFP_NAME_BIT) and the #ifdef
// around them taken with it. HW_TAGS-only when any of its lines sits under
// `#ifdef CONFIG_KASAN_HW_TAGS`. The model numbers the bits itself (enum
// eras: ___GFP_LAST_BIT follows); a pre-enum era's __GFP_BITS_SHIFT is a rule.
void map_gfp_bits(const FileDiff& f, const Hunk& h, const Side& o, const Side& n, HunkMap& hm, std::set<int>& done) {
    static const std::regex user(R"(^\s*#\s*define\s+__GFP_(\w+)\s+\(\(__force\s+gfp_t\)\s*___GFP_(\w+)\)\s*$)");
    static const std::regex shift(R"(^\s*#\s*define\s+__GFP_BITS_SHIFT\s+(.+?)\s*$)");
    auto under_hw_tags = [&](const std::string& name) {
        for (const auto& hk : f.hunks) {
            const std::vector<int> side = hk.side('-');
            for (std::size_t k = 0; k < side.size(); ++k) {
                const std::string& t = hk.lines[side[k]].text;
                if (t.find("___GFP_" + name) == std::string::npos || t.find("__force") != std::string::npos) continue;
                for (std::size_t p = k; p-- > 0;) {
                    const std::string q = trim(hk.lines[side[p]].text);
                    if (q.rfind("#endif", 0) == 0) break;
                    if (q.rfind("#if", 0) == 0 || q.rfind("#else", 0) == 0) {
                        if (q.find("CONFIG_KASAN_HW_TAGS") != std::string::npos) return true;
                        if (q.rfind("#else", 0) == 0) continue;  // the #else of an #ifdef above
                        break;
                    }
                }
            }
        }
        return false;
    };
    // the bits the file adds (their ___GFP_ lines may sit in another hunk)
    std::set<std::string> added;
    for (const auto& hk : f.hunks)
        for (const auto& l : hk.lines)
            if (std::smatch m; l.kind == '+' && std::regex_match(l.text, m, user) && m[1] == m[2]) added.insert(m[1]);
    for (int k = 0; k < n.size(); ++k) {
        if (!n.changed(k)) continue;
        const std::string q = trim(n.text(k));
        bool conditional = q.rfind("#if", 0) == 0 || q.rfind("#else", 0) == 0 || q.rfind("#endif", 0) == 0;
        for (const auto& a : added)
            if (q.find("___GFP_" + a) != std::string::npos && q.find("__force") == std::string::npos) {
                done.insert(n.idx[k]);
                const std::string note = "___GFP_" + a + "'s value, for the new bit __GFP_" + a +
                                         " (the model numbers the bits itself)";
                if (std::find(hm.notes.begin(), hm.notes.end(), note) == hm.notes.end()) hm.notes.push_back(note);
            }
        if (conditional && !added.empty()) done.insert(n.idx[k]);
    }
    for (int k = 0; k < n.size(); ++k) {
        if (!n.changed(k)) continue;
        std::smatch m;
        const std::string& t = n.text(k);
        if (std::regex_match(t, m, user) && m[1] == m[2]) {
            bool old_has = false;
            for (int j = 0; j < o.size(); ++j) old_has |= o.text(j).find("__GFP_" + m[1].str() + " ") != std::string::npos &&
                                                         o.text(j).find("#define") != std::string::npos;
            if (old_has) continue;
            MappedRule r;
            r.rule = "__GFP_" + m[1].str();
            const bool hw = under_hw_tags(m[1]);
            r.line = "flag " + r.rule + (hw ? " hw_tags_only" : " every_build");
            r.what = r.rule + " is a new GFP bit" + (hw ? ", defined only with CONFIG_KASAN_HW_TAGS" : "");
            r.added = {r.rule};
            r.at.push_back(h.lines[n.idx[k]].at);
            done.insert(n.idx[k]);
            // its ___GFP_ lines and the conditionals around them
            for (int j = 0; j < n.size(); ++j) {
                const std::string q = trim(n.text(j));
                if (n.changed(j) && (q.find("___GFP_" + m[1].str()) != std::string::npos || q.rfind("#if", 0) == 0 ||
                                     q.rfind("#else", 0) == 0 || q.rfind("#endif", 0) == 0))
                    done.insert(n.idx[j]);
            }
            hm.rules.push_back(r);
        } else if (std::regex_match(t, m, shift)) {
            std::string old;
            for (int j = 0; j < o.size(); ++j)
                if (std::smatch x; std::regex_match(o.text(j), x, shift)) old = x[1];
            if (squash(old) == squash(m[1])) continue;
            MappedRule r;
            r.rule = "__GFP_BITS_SHIFT";
            r.line = "rule __GFP_BITS_SHIFT = " + squash(m[1]);
            r.what = "__GFP_BITS_SHIFT becomes " + squash(m[1]) + (old.empty() ? "" : " (it was " + squash(old) + ")");
            r.at.push_back(h.lines[n.idx[k]].at);
            done.insert(n.idx[k]);
            for (int j = 0; j < o.size(); ++j)
                if (o.changed(j) && std::regex_match(o.text(j), shift)) done.insert(o.idx[j]);
            hm.rules.push_back(r);
        }
    }
}

void map_hunk(const FileDiff& f, const Hunk& h, HunkMap& hm, FunctionLocals& fl) {
    Side o{&h, h.side('+'), h.old_start}, n{&h, h.side('-'), h.new_start};
    std::set<int> done;  // indices into h.lines accounted for
    auto take = [&](const Side& s, const std::vector<int>& pos) {
        for (int k : pos)
            if (s.changed(k)) done.insert(s.idx[k]);
    };
    auto any_changed = [&](const Side& s, const std::vector<int>& pos) {
        for (int k : pos)
            if (s.changed(k)) return true;
        return false;
    };
    auto fail = [&](const Side& s, const std::vector<int>& pos, const std::string& why) {
        int first = 0;
        for (int k : pos)
            if (s.changed(k)) {
                first = h.lines[s.idx[k]].at;
                break;
            }
        hm.unmapped.push_back({first ? first : h.at, why});
        take(s, pos);
    };
    auto at_lines = [&](const Side& s, const std::vector<int>& pos, MappedRule& m) {
        for (int k : pos)
            if (s.changed(k)) m.at.push_back(h.lines[s.idx[k]].at);
    };

    // 0. include/linux/gfp_types.h: a new GFP bit, and __GFP_BITS_SHIFT
    if (f.path == "include/linux/gfp_types.h" || f.path == "include/linux/gfp.h") map_gfp_bits(f, h, o, n, hm, done);

    // 1. #define NAME
    std::vector<Define> od = defines(o, f.path), nd = defines(n, f.path);
    auto all_done = [&](const Side& sd, const std::vector<int>& pos) {
        for (int k : pos)
            if (sd.changed(k) && !done.count(sd.idx[k])) return false;
        return true;
    };
    for (const Define& d : nd) {
        const Define* old = nullptr;
        for (const Define& x : od)
            if (x.name == d.name) old = &x;
        if (!any_changed(n, d.pos) && !(old && any_changed(o, old->pos))) continue;
        if (all_done(n, d.pos) && (!old || all_done(o, old->pos))) continue;  // taken by step 0
        const bool modelled = std::find(define_rules().begin(), define_rules().end(), d.name) != define_rules().end();
        if (!modelled) {
            std::string why = d.name.empty()
                                  ? "a multi-line #define that starts above the hunk, in a file where the model does not know which it is"
                                  : d.name.rfind("__GFP_", 0) == 0 || d.name.rfind("___GFP_", 0) == 0
                                        ? "#define " + d.name + ": a GFP bit; a variant file says so with a `flag` line (--base FILE.variant)"
                                        : "#define " + d.name + " is not a constant the model has a rule for (those are " +
                                              join(define_rules(), ", ") + ")";
            fail(n, d.pos, why);
            if (old) take(o, old->pos);
            continue;
        }
        MappedRule m;
        m.rule = d.name;
        std::string why;
        GfpTokens ot = old ? gfp_tokens(joined(o, old->pos)) : GfpTokens{}, nt = gfp_tokens(joined(n, d.pos));
        if (d.headed) {
            m.line = "rule " + d.name + " = " + define_value(n, d);
            m.added = minus(nt.pos, ot.pos);
            m.removed = minus(ot.pos, nt.pos);
            std::string what;
            if (!m.added.empty()) what += "gains " + join(m.added, ", ");
            if (!m.removed.empty()) what += std::string(what.empty() ? "" : " and ") + "loses " + join(m.removed, ", ");
            m.what = d.name + " " + (what.empty() ? "is redefined" : what);
            if (!old) m.what = d.name + " is defined here";
        } else if (!old || skeleton(joined(o, old->pos)) != skeleton(joined(n, d.pos))) {
            fail(n, d.pos, "part of #define " + d.name + " changes in more than its GFP flags, and the hunk does not show the whole definition");
            if (old) take(o, old->pos);
            continue;
        } else if (!flag_delta_expr(d.name, {}, ot, nt, m, why)) {
            fail(n, d.pos, why);
            take(o, old->pos);
            continue;
        }
        at_lines(n, d.pos, m);
        if (old) at_lines(o, old->pos, m);
        take(n, d.pos);
        if (old) take(o, old->pos);
        hm.rules.push_back(m);
    }
    for (const Define& d : od) {  // a definition the hunk removes
        bool kept = false;
        for (const Define& x : nd) kept |= x.name == d.name;
        if (!kept && any_changed(o, d.pos) && !all_done(o, d.pos)) fail(o, d.pos, "#define " + (d.name.empty() ? std::string("(above the hunk)") : d.name) + " is removed");
    }

    const std::string fn = hunk_function(h);
    // 2. an allocation call's GFP mask
    for (const CallSite& c : call_sites()) {
        if (f.path != c.path || !function_matches(fn, c.function)) continue;
        std::vector<int> op = statement_at(o, c.start, c.must_contain), np = statement_at(n, c.start, c.must_contain);
        bool oc = !op.empty() && any_changed(o, op), nc = !np.empty() && any_changed(n, np);
        if (!oc && !nc) continue;
        if (op.empty() || np.empty()) {
            fail(np.empty() ? o : n, np.empty() ? op : np,
                 std::string("the ") + c.start + "...) call " + (np.empty() ? "is removed" : "is added") + " in " + fn +
                     "(): the model has one call there, rule " + c.rule);
            continue;
        }
        const std::string os = joined(o, op), ns = joined(n, np);
        if (skeleton(os) != skeleton(ns)) {
            fail(n, np, std::string("the ") + c.start + "...) call in " + fn + "() changes in more than its GFP flags (rule " + c.rule + " is its GFP mask)");
            take(o, op);
            continue;
        }
        MappedRule m;
        m.rule = c.rule;
        std::string why;
        if (!flag_delta_expr(c.rule, c.params, gfp_tokens(os), gfp_tokens(ns), m, why)) {
            fail(n, np, why);
            take(o, op);
            continue;
        }
        at_lines(o, op, m);
        at_lines(n, np, m);
        take(o, op);
        take(n, np);
        hm.rules.push_back(m);
    }
    // 3. conditions
    for (const CondSite& c : cond_sites()) {
        if (f.path != c.path || !function_matches(fn, c.function)) continue;
        CondFound oc = find_condition(o, c), nc = find_condition(n, c);
        if (!oc.found && !nc.found) continue;
        bool touched = (oc.found && any_changed(o, oc.lines)) || (nc.found && any_changed(n, nc.lines));
        std::vector<int> o_used, n_used;
        if (std::string(c.rule) == "vmalloc_tagged_prot") {  // where the later sites' gfp_mask changes
            if (oc.found && oc.lines.size() > 1) fl.old_block[fn] = o.line(oc.lines[1]);
            if (nc.found && nc.lines.size() > 1) fl.new_block[fn] = n.line(nc.lines[1]);
        }
        std::string o_why, n_why;
        std::string oe = oc.found ? as_rule_expr(oc.cond, o, c, &o_used, fl.old_side[fn], fl.old_block[fn], &o_why) : "";
        std::string ne = nc.found ? as_rule_expr(nc.cond, n, c, &n_used, fl.new_side[fn], fl.new_block[fn], &n_why) : "";
        touched |= (any_changed(o, o_used) || any_changed(n, n_used)) && oe != ne;
        if (!touched) continue;
        if (!oc.found || !nc.found) {
            fail(nc.found ? n : o, nc.found ? nc.lines : oc.lines,
                 std::string("the code rule ") + c.rule + " stands for (" + c.anchors[0] + ") is " +
                     (nc.found ? "added" : "removed") + " in " + fn + "()");
            continue;
        }
        if (oe != ne && !(o_why + n_why).empty()) {
            fail(n, nc.lines, std::string("in ") + fn + "(), " + c.rule + ": " + (n_why.empty() ? o_why : n_why));
            take(o, oc.lines);
            continue;
        }
        if (oe != ne) {
            MappedRule m;
            m.rule = c.rule;
            m.line = lhs_of(c.rule, c.params) + ne;
            GfpTokens ot = gfp_tokens(oe), nt = gfp_tokens(ne);
            m.added = minus(nt.pos, ot.pos);
            m.removed = minus(ot.pos, nt.pos);
            const std::string in = std::string("in ") + fn + "(), " + c.doing;
            if (c.kind == CondKind::local)
                m.what = in + " `" + squash(nc.cond) + "` (it was `" + squash(oc.cond) + "`)";
            else if (squash(oc.cond) == "1")
                m.what = in + " only if `" + squash(nc.cond) + "` (it was always)";
            else if (squash(nc.cond) == "1")
                m.what = in + " always (it was only if `" + squash(oc.cond) + "`)";
            else
                m.what = in + " only if `" + squash(nc.cond) + "` (it was `" + squash(oc.cond) + "`)";
            std::vector<int> ol = oc.lines, nl = nc.lines;
            ol.insert(ol.end(), o_used.begin(), o_used.end());
            nl.insert(nl.end(), n_used.begin(), n_used.end());
            at_lines(o, ol, m);
            at_lines(n, nl, m);
            take(o, ol);
            take(n, nl);
            hm.rules.push_back(m);
        } else {
            take(o, oc.lines);
            take(n, nc.lines);
        }
    }

    for (const auto& [k, v] : locals(o)) fl.old_side[fn][k] = {v.first, o.line(v.second)};
    for (const auto& [k, v] : locals(n)) fl.new_side[fn][k] = {v.first, n.line(v.second)};

    // 4. comments and blank lines; the rest is not mapped
    bool only_comments = true;
    std::vector<int> rest;
    for (int i = 0; i < int(h.lines.size()); ++i) {
        if (h.lines[i].kind == ' ' || done.count(i)) continue;
        if (comment_or_blank(h.lines[i].text)) continue;
        only_comments = false;
        rest.push_back(i);
    }
    hm.comments_only = only_comments && hm.rules.empty() && hm.unmapped.empty() && hm.notes.empty();
    if (!rest.empty()) {
        std::vector<std::string> here = rules_in(f.path);
        std::string where = fn.empty() ? f.path : fn + "() in " + f.path;
        // (this layer knows the site table only: the functions a tree review
        // reads from the kernel are named by the tree's own lines)
        std::string why = where + ": the model has no rule for this code" +
                          (here.empty() ? " (the site table reads none from this file)"
                                        : " (the site table's rules in this file: " + join(here, ", ") + ")");
        // one entry per run of lines
        int prev = -2;
        for (int i : rest) {
            if (i != prev + 1) hm.unmapped.push_back({h.lines[i].at, why});
            prev = i;
        }
    }
}

}  // namespace

std::vector<std::string> rule_callers(const std::string& rule) {
    static const std::map<std::string, std::vector<std::string>> c = {
        {"THREADINFO_GFP", {"thread_stack"}},
        {"GFP_VMAP_STACK", {"thread_stack"}},
        {"GFP_PGTABLE_KERNEL", {"pgtable_kernel", "pgtable_user"}},
        {"GFP_PGTABLE_USER", {"pgtable_user"}},
        {"pte_alloc_one_kernel_gfp", {"pgtable_kernel"}},
        {"pte_alloc_one_gfp", {"pgtable_user"}},
        {"skb_frag_gfp", {"skb_frag"}},
        {"skb_frag_fallback_gfp", {"skb_frag"}},
        {"alloc_skb_frags_gfp", {"skb_frag"}},
        {"user_page_gfp", {"user_page"}},
        {"vmalloc_tagged_prot", {"vmalloc"}},
        {"vmalloc_prot_normal", {"vmalloc"}},
        {"vmalloc_calls_unpoison", {"vmalloc"}},
    };
    auto it = c.find(rule);
    return it == c.end() ? std::vector<std::string>{} : it->second;
}

std::string hunk_function(const Hunk& h) {
    int first = 0;
    while (first < int(h.lines.size()) && h.lines[first].kind == ' ') ++first;
    for (int i = first - 1; i >= 0; --i)
        if (std::string f = function_of_line(h.lines[i].text); !f.empty()) return f;
    // git's function context: "static int alloc_thread_stack_node(struct task_struct *tsk, int node)"
    return function_of_line(h.function);
}

std::vector<HunkMap> map_series(const Series& s) {
    std::vector<HunkMap> out;
    for (std::size_t p = 0; p < s.patches.size(); ++p)
        for (std::size_t fi = 0; fi < s.patches[p].files.size(); ++fi) {
            const FileDiff& f = s.patches[p].files[fi];
            FunctionLocals fl;
            if (f.binary) {
                HunkMap hm;
                hm.patch = p;
                hm.file = fi;
                hm.path = f.path;
                hm.unmapped.push_back({f.at, f.path + ": a binary file"});
                out.push_back(hm);
                continue;
            }
            for (std::size_t hi = 0; hi < f.hunks.size(); ++hi) {
                HunkMap hm;
                hm.patch = p;
                hm.file = fi;
                hm.hunk = hi;
                hm.path = f.path;
                hm.function = hunk_function(f.hunks[hi]);
                map_hunk(f, f.hunks[hi], hm, fl);
                out.push_back(hm);
            }
        }
    return out;
}

}  // namespace tagproof::patch
