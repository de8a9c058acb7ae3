// variant_file.cpp — the variant-file reader (scenario/variant-files.md) and the
// variants it makes: file_rules over the base era, with the file's name,
// claims and overrides.
#include "variant_file.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

#include "error.hpp"
#include "file_rules.hpp"

namespace tagproof::kernel {

const std::vector<OverridableRule>& overridable_rules() {
    static const std::vector<OverridableRule> r = {
        {"THREADINFO_GFP", {}, false, "kernel/fork.c / include/linux/thread_info.h"},
        {"GFP_VMAP_STACK", {}, false, "kernel/fork.c"},
        {"GFP_PGTABLE_KERNEL", {}, false, "include/asm-generic/pgalloc.h"},
        {"GFP_PGTABLE_USER", {}, false, "include/asm-generic/pgalloc.h (GFP_PGTABLE_KERNEL | __GFP_ACCOUNT)"},
        {"GFP_VMALLOC_SUPPORTED", {}, false, "mm/vmalloc.c"},
        {"user_page_gfp", {"vm_mte"}, false, "arch/arm64/mm/fault.c vma_alloc_zeroed_movable_folio"},
        {"skb_frag_gfp", {}, false, "net/core/sock.c skb_page_frag_refill (the order-3 attempt)"},
        {"skb_frag_fallback_gfp", {}, false, "net/core/sock.c skb_page_frag_refill (the order-0 fallback)"},
        {"alloc_skb_frags_gfp", {"gfp"}, false, "net/core/skbuff.c alloc_skb_with_frags"},
        {"vmalloc_page_skip_flags", {}, false, "mm/vmalloc.c __vmalloc_node_range (the backing pages' skip flags)"},
    };
    return r;
}

const std::vector<const char*>& rule_predicates() {
    static const std::vector<const char*> p = {"kasan_hw_tags_enabled", "kasan_enabled", "kasan_vmalloc_enabled",
                                               "system_supports_mte",   "init_on_alloc", "init_on_free"};
    return p;
}

namespace {

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

// Tokens and a precedence-climbing parser for the C subset of rule_expr.hpp.
struct ExprParser {
    const std::string& s;
    std::size_t i = 0;
    std::string path;
    int line, col0;  // the expression starts at column col0 + 1
    const GfpLayout& hw;
    const GfpLayout& other;
    const std::vector<const char*>& params;
    const std::string& base_name;

    [[noreturn]] void fail(std::size_t at, const std::string& msg) const {
        throw InputError(path + ":" + std::to_string(line) + ":" + std::to_string(col0 + int(at) + 1), msg);
    }
    void skip_ws() {
        while (i < s.size() && std::isspace((unsigned char)s[i])) ++i;
    }
    bool eat(const char* t) {
        skip_ws();
        std::size_t n = std::string(t).size();
        if (s.compare(i, n, t) != 0) return false;
        // "|" must not eat "||", "&" not "&&", "<" not "<=", "!" not "!="
        if (n == 1 && i + 1 < s.size() && (t[0] == '|' || t[0] == '&') && s[i + 1] == t[0]) return false;
        if (n == 1 && i + 1 < s.size() && (t[0] == '<' || t[0] == '>' || t[0] == '!' || t[0] == '=') && s[i + 1] == '=')
            return false;
        i += n;
        return true;
    }
    RuleExpr node(RuleExpr::Kind k, std::size_t at) const {
        RuleExpr x;
        x.kind = k;
        x.line = line;
        x.col = col0 + int(at) + 1;
        return x;
    }
    RuleExpr bin(const std::string& op, RuleExpr a, RuleExpr b, std::size_t at) const {
        RuleExpr x = node(RuleExpr::binary, at);
        x.name = op;
        x.kids = {std::move(a), std::move(b)};
        return x;
    }
    RuleExpr parse() {
        RuleExpr x = cond();
        skip_ws();
        if (i != s.size()) fail(i, "unexpected '" + s.substr(i, 8) + "' after the expression");
        return x;
    }
    RuleExpr cond() {
        std::size_t at = (skip_ws(), i);
        RuleExpr c = level(0);
        if (!eat("?")) return c;
        RuleExpr a = cond();
        if (!eat(":")) fail(i, "expected ':' of the '?:'");
        RuleExpr b = cond();
        RuleExpr x = node(RuleExpr::cond, at);
        x.kids = {std::move(c), std::move(a), std::move(b)};
        return x;
    }
    // C's binary precedence, lowest first
    RuleExpr level(int lv) {
        static const std::vector<std::vector<const char*>> ops = {
            {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"+", "-"}};
        if (lv == int(ops.size())) return unary();
        RuleExpr a = level(lv + 1);
        for (;;) {
            skip_ws();
            std::size_t at = i;
            const char* found = nullptr;
            for (const char* op : ops[lv])
                if (eat(op)) {
                    found = op;
                    break;
                }
            if (!found) return a;
            a = bin(found, std::move(a), level(lv + 1), at);
        }
    }
    RuleExpr unary() {
        skip_ws();
        std::size_t at = i;
        if (eat("!") || eat("~")) {
            RuleExpr x = node(RuleExpr::unary, at);
            x.name = s.substr(at, 1);
            x.kids = {unary()};
            return x;
        }
        return primary();
    }
    RuleExpr primary() {
        skip_ws();
        std::size_t at = i;
        if (eat("(")) {
            RuleExpr x = cond();
            if (!eat(")")) fail(i, "expected ')'");
            return x;
        }
        if (i < s.size() && std::isdigit((unsigned char)s[i])) {
            std::size_t used = 0;
            RuleExpr x = node(RuleExpr::number, at);
            try {
                x.value = std::stoull(s.substr(i), &used, 0);
            } catch (...) {
                fail(at, "bad number");
            }
            i += used;
            while (i < s.size() && (s[i] == 'u' || s[i] == 'U' || s[i] == 'l' || s[i] == 'L')) ++i;  // 0x100u
            return x;
        }
        if (i < s.size() && (std::isalpha((unsigned char)s[i]) || s[i] == '_')) {
            std::size_t b = i;
            while (i < s.size() && (std::isalnum((unsigned char)s[i]) || s[i] == '_')) ++i;
            std::string id = s.substr(b, i - b);
            return name(id, at);
        }
        if (i >= s.size()) fail(i, "the expression ends too early");
        fail(at, std::string("unexpected '") + s[i] + "'");
    }
    RuleExpr name(const std::string& id, std::size_t at) {
        if (id == "IS_ENABLED") {
            if (!eat("(")) fail(i, "expected '(' after IS_ENABLED");
            skip_ws();
            std::size_t b = i;
            while (i < s.size() && (std::isalnum((unsigned char)s[i]) || s[i] == '_')) ++i;
            std::string cfg = s.substr(b, i - b);
            if (!eat(")")) fail(i, "expected ')'");
            static const std::vector<std::string> known = {"CONFIG_KASAN_HW_TAGS", "CONFIG_KASAN_SW_TAGS",
                                                           "CONFIG_KASAN_GENERIC", "CONFIG_KASAN_VMALLOC"};
            for (const auto& k : known)
                if (cfg == k) {
                    RuleExpr x = node(RuleExpr::pred, at);
                    x.name = cfg;
                    return x;
                }
            fail(b, "IS_ENABLED(" + cfg + "): the configuration options known here are " + join(known));
        }
        for (const char* p : rule_predicates())
            if (id == p) {
                // a function (kasan_hw_tags_enabled()) or a variable (init_on_free) as the kernel spells it
                std::size_t save = i;
                if (eat("(")) {
                    if (!eat(")")) fail(i, "expected ')': " + id + "() takes no arguments");
                } else {
                    i = save;
                }
                RuleExpr x = node(RuleExpr::pred, at);
                x.name = id;
                return x;
            }
        for (const char* p : params)
            if (id == p) {
                RuleExpr x = node(RuleExpr::param, at);
                x.name = id;
                return x;
            }
        if (hw.defines(id) || other.defines(id)) {
            RuleExpr x = node(RuleExpr::gfp, at);
            x.name = id;
            x.hw = hw.defines(id) ? hw.mask(id) : 0;
            x.other = other.defines(id) ? other.mask(id) : 0;
            return x;
        }
        std::vector<std::string> allowed;
        for (const char* p : params) allowed.push_back(p);
        for (const char* p : rule_predicates()) allowed.push_back(std::string(p) + "()");
        allowed.push_back("IS_ENABLED(CONFIG_...)");
        const bool gfp_like = id.rfind("__GFP_", 0) == 0 || id.rfind("GFP_", 0) == 0;
        fail(at, "unknown name '" + id + "'" +
                     (gfp_like ? ": " + base_name + " defines no such GFP flag or constant" : std::string()) +
                     "; names allowed here: " + base_name + "'s GFP flags and constants (GFP_KERNEL, __GFP_ZERO, ...), " +
                     join(allowed));
    }
};

std::string trim(const std::string& s) {
    std::size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

VariantFile parse_variant_file(const std::string& text, const std::string& path) {
    VariantFile f;
    f.path = path;
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    const Variant* base = nullptr;
    std::unique_ptr<GfpLayout> hw, other;
    auto at = [&](int col) { return path + ":" + std::to_string(line) + ":" + std::to_string(col); };
    while (std::getline(in, raw)) {
        ++line;
        std::string l = raw.substr(0, raw.find('#'));
        if (trim(l).empty()) continue;
        const std::size_t ks = l.find_first_not_of(" \t");
        const std::size_t ke = l.find_first_of(" \t", ks);
        const std::string key = l.substr(ks, ke == std::string::npos ? std::string::npos : ke - ks);
        const std::string rest = ke == std::string::npos ? "" : trim(l.substr(ke));
        const int rest_col = ke == std::string::npos ? int(l.size()) + 1 : int(l.find(rest, ke)) + 1;
        if (key == "name") {
            if (rest.empty() || rest.find_first_of(" \t") != std::string::npos)
                throw InputError(at(rest_col), "name takes one word, e.g. 'name my-pgtable-change'");
            f.name = rest;
        } else if (key == "base") {
            bool ok = false;
#define TAGPROOF_KNOWN_BASE(N, R) ok |= rest == N;
            TAGPROOF_FILE_BASES(TAGPROOF_KNOWN_BASE)
#undef TAGPROOF_KNOWN_BASE
            if (!ok) throw InputError(at(rest_col), "unknown base '" + rest + "'; a variant file may build on linux-6.1, linux-6.3, linux-6.4 or linux-7.0");
            f.base = rest;
            base = &find_variant(rest);
            BuildConfig b, o;
            o.mode = Mode::generic;
            hw = std::make_unique<GfpLayout>(base->gfp_layout(b));
            other = std::make_unique<GfpLayout>(base->gfp_layout(o));
        } else if (key == "baseline") {
            f.baseline = rest;
        } else if (key == "summary") {
            f.summary = rest;
        } else if (key == "claims") {
            std::istringstream w(rest);
            std::string scope;
            w >> scope;
            if (scope == "none") f.claims.changes = ChangeScope::none;
            else if (scope == "hw_tags_active") f.claims.changes = ChangeScope::hw_tags_active;
            else if (scope == "any") f.claims.changes = ChangeScope::any;
            else throw InputError(at(rest_col), "claims takes none, hw_tags_active or any, then the claim's words");
            std::string words;
            std::getline(w, words);
            f.claims.text = trim(words);
        } else if (key == "untag") {
            // untag CALLER [when GFP_FLAG] [when sampled] -- why
            std::string spec = rest, why;
            if (auto d = spec.find("--"); d != std::string::npos) {
                why = trim(spec.substr(d + 2));
                spec = spec.substr(0, d);
            }
            std::istringstream w(spec);
            std::string caller;
            w >> caller;
            UntagClaim u;
            u.caller = parse_caller(caller, at(rest_col));
            std::string tok;
            while (w >> tok) {
                if (tok != "when" || !(w >> tok)) throw InputError(at(rest_col), "untag CALLER [when FLAG] [when sampled] [-- why]");
                if (tok == "sampled") u.when_sampled = true;
                else {
                    GfpMasks<Concrete> g;
                    (void)claim_gfp_mask<Concrete>(g, tok);  // names the flags a claim may name
                    u.when_gfp = tok;
                }
            }
            u.why = why;
            f.claims.untags.push_back(u);
        } else if (key == "rule") {
            if (!base) throw InputError(at(ks + 1), "'base' must come before the first rule");
            const std::size_t eq = l.find('=', ke);
            if (eq == std::string::npos) throw InputError(at(rest_col), "rule NAME = EXPRESSION");
            std::string lhs = trim(l.substr(ke, eq - ke));
            if (auto p = lhs.find('('); p != std::string::npos) lhs = trim(lhs.substr(0, p));  // rule f(x) = ...
            const OverridableRule* r = nullptr;
            for (const auto& o : overridable_rules())
                if (lhs == o.name) r = &o;
            if (!r) {
                std::vector<std::string> names;
                for (const auto& o : overridable_rules()) names.push_back(o.name);
                throw InputError(at(rest_col), "'" + lhs + "' is no rule a variant file may override; those are " + join(names));
            }
            if (f.overrides.rules.count(lhs)) throw InputError(at(rest_col), "rule " + lhs + " is overridden twice");
            const std::string expr = l.substr(eq + 1);
            ExprParser p{expr, 0, path, line, int(eq) + 1, *hw, *other, r->params, f.base};
            f.overrides.rules[lhs] = p.parse();
        } else {
            throw InputError(at(ks + 1), "unknown keyword '" + key + "'; a variant file has name, base, baseline, summary, claims, untag and rule lines");
        }
    }
    if (f.name.empty()) throw InputError(path, "no 'name' line");
    if (f.base.empty()) throw InputError(path, "no 'base' line");
    if (f.baseline.empty()) f.baseline = f.base;
    for (const Variant* v : all_variants())
        if (v->name() == f.name) throw InputError(path, "name '" + f.name + "' is a built-in variant's; choose another");
    if (f.summary.empty()) f.summary = "variant file " + path + " on " + f.base;
    return f;
}

namespace {

template <template <class> class Base>
class FileVariantOf final : public VariantOf<file_rules<Base>> {
public:
    explicit FileVariantOf(VariantFile f) : f_(std::move(f)) {}
    std::string name() const override { return f_.name; }
    std::string baseline() const override { return f_.baseline; }
    std::string summary() const override { return f_.summary; }
    Claims claims() const override { return f_.claims; }
    bool is_mutant() const override { return false; }
    std::string next_version() const override { return ""; }
    const RuleOverrides* overrides() const override { return &f_.overrides; }
    const VariantFile& file() const { return f_; }

private:
    VariantFile f_;
};

struct Loaded {
    std::string path;
    std::string base;
    std::unique_ptr<Variant> v;
};
std::vector<Loaded>& loaded() {
    static std::vector<Loaded> l;
    return l;
}
std::mutex& loaded_lock() {
    static std::mutex m;
    return m;
}

}  // namespace

const Variant& load_variant_file(const std::string& path) {
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.path == path) return *l.v;
    std::ifstream in(path);
    if (!in) throw InputError(path, "cannot read the variant file");
    std::stringstream ss;
    ss << in.rdbuf();
    VariantFile f = parse_variant_file(ss.str(), path);
    for (const auto& l : loaded())
        if (l.v->name() == f.name) throw InputError(path, "a variant file named '" + f.name + "' is loaded already (" + l.path + ")");
    std::unique_ptr<Variant> v;
    const std::string base = f.base;
#define TAGPROOF_MAKE(N, R) \
    if (!v && base == N) v = std::make_unique<FileVariantOf<R>>(std::move(f));
    TAGPROOF_FILE_BASES(TAGPROOF_MAKE)
#undef TAGPROOF_MAKE
    loaded().push_back({path, base, std::move(v)});
    return *loaded().back().v;
}

std::string file_variant_base(const std::string& name) {
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.v->name() == name) return l.base;
    return "";
}

std::string variant_file_path(const std::string& name) {
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.v->name() == name) return std::filesystem::absolute(l.path).lexically_normal().string();
    return "";
}

const Variant* find_file_variant(const std::string& name) {
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.v->name() == name) return l.v.get();
    return nullptr;
}

}  // namespace tagproof::kernel
