// expr_reader.hpp — reads a C expression of a variant file (a rule's
// expression, or one inside a rule body: rule_body.hpp) into a RuleExpr,
// binding each name where it is read (scenario/variant-files.md, "Expressions").
// Shared by the variant-file reader and the body reader; not an interface of
// the model.
#pragma once
#include <cctype>
#include <string>
#include <vector>

#include "error.hpp"
#include "gfp.hpp"
#include "rule_expr.hpp"

namespace tagproof::kernel::detail {

inline std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

// What a body adds to the names an expression may use (rule_body.hpp): its
// locals, and the functions a body may call for their value.
struct BodyNames {
    std::vector<std::string> locals;
    // the primitive table (primitives.hpp): calls with an effect, read with their arguments
    bool (*is_primitive)(const std::string&) = nullptr;
};

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
    std::string defining;        // the rule this expression defines: naming it means the base's
    // __GFP_BITS_SHIFT: a number fixed when the kernel is built, so
    // IS_ENABLED(CONFIG_LOCKDEP) is known there and no runtime predicate is
    bool build_time = false;
    // In a rule body (rule_body.hpp): its locals and primitives, and where each
    // of its lines starts in `s` (first_line is the line of s[0]).
    const BodyNames* body = nullptr;
    const std::vector<std::size_t>* line_starts = nullptr;
    int first_line = 0;
    // The reader, the evaluator and the printer recurse over the expression:
    // a rule is a few terms of the kernel's C, so a hostile one (1500 '(' or
    // '!', ten thousand '|') is refused before it can overflow the stack.
    static constexpr int kMaxNesting = 64;
    static constexpr int kMaxTerms = 512;
    int nesting = 0, terms = 0;
    struct Nest {
        ExprParser& e;
        Nest(ExprParser& e, std::size_t at) : e(e) {
            if (++e.nesting > kMaxNesting)
                e.fail(at, "brackets, '!', '~' or '?:' nested more than " + std::to_string(kMaxNesting) + " deep");
        }
        ~Nest() { --e.nesting; }
    };

    // FILE:LINE:COLUMN of s[at]
    std::string where(std::size_t at) const {
        if (!line_starts) return path + ":" + std::to_string(line) + ":" + std::to_string(col0 + int(at) + 1);
        std::size_t k = 0;
        while (k + 1 < line_starts->size() && (*line_starts)[k + 1] <= at) ++k;
        return path + ":" + std::to_string(first_line + int(k)) + ":" + std::to_string(int(at - (*line_starts)[k]) + 1);
    }
    int line_of(std::size_t at) const {
        if (!line_starts) return line;
        int k = 0;
        while (k + 1 < int(line_starts->size()) && (*line_starts)[k + 1] <= at) ++k;
        return first_line + k;
    }
    int col_of(std::size_t at) const {
        if (!line_starts) return col0 + int(at) + 1;
        return int(at - (*line_starts)[line_of(at) - first_line]) + 1;
    }
    [[noreturn]] void fail(std::size_t at, const std::string& msg) const { throw InputError(where(at), msg); }
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
        // "<" must not eat "<<", nor "<<" the "<<=" of an assignment
        if (n == 1 && i + 1 < s.size() && (t[0] == '<' || t[0] == '>') && s[i + 1] == t[0]) return false;
        if (n == 2 && i + 2 < s.size() && (t[0] == '<' || t[0] == '>') && t[1] == t[0] && s[i + 2] == '=') return false;
        // "=" of an assignment ends an expression; "|" must not eat "|=" either
        if (n == 1 && i + 1 < s.size() && (t[0] == '|' || t[0] == '&' || t[0] == '^' || t[0] == '+' || t[0] == '-' || t[0] == '*') && s[i + 1] == '=')
            return false;
        i += n;
        return true;
    }
    RuleExpr node(RuleExpr::Kind k, std::size_t at) {
        if (++terms > kMaxTerms) fail(at, "more than " + std::to_string(kMaxTerms) + " terms in one expression");
        RuleExpr x;
        x.kind = k;
        x.line = line_of(at);
        x.col = col_of(at);
        return x;
    }
    RuleExpr bin(const std::string& op, RuleExpr a, RuleExpr b, std::size_t at) {
        RuleExpr x = node(RuleExpr::binary, at);
        x.name = op;
        x.kids = {std::move(a), std::move(b)};
        return x;
    }
    RuleExpr parse() {
        RuleExpr x = cond();
        skip_ws();
        if (i != s.size()) fail(i, "unexpected '" + s.substr(i, 8) + "' after the expression");
        resolve_codes(x);
        return x;
    }
    RuleExpr cond() {
        std::size_t at = (skip_ws(), i);
        Nest guard(*this, at);
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
            {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*"}};
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
            Nest guard(*this, at);
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
            } catch (const std::out_of_range&) {
                std::size_t e = i;
                while (e < s.size() && (std::isxdigit((unsigned char)s[e]) || s[e] == 'x' || s[e] == 'X')) ++e;
                fail(at, "the number '" + s.substr(i, e - i) + "' is beyond 2^64-1");
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
    // A rule named in an expression: NAME, NAME() or NAME(ARG, ...), as many
    // arguments as it has parameters.
    RuleExpr call(const OverridableRule& r, std::size_t at) {
        RuleExpr x = node(RuleExpr::call, at);
        x.name = r.name;
        x.base_ref = defining == r.name;
        std::size_t save = i;
        if (eat("(")) {
            if (!eat(")")) {
                do x.kids.push_back(cond());
                while (eat(","));
                if (!eat(")")) fail(i, "expected ')' or ',' in the call of " + x.name);
            }
        } else {
            i = save;
        }
        if (x.kids.size() != r.params.size()) {
            std::string want;
            for (const char* p : r.params) want += std::string(want.empty() ? "" : ", ") + p;
            fail(at, x.name + " takes " + std::to_string(r.params.size()) + " argument" +
                         (r.params.size() == 1 ? "" : "s") + (want.empty() ? "" : " (" + want + ")") + ", not " +
                         std::to_string(x.kids.size()));
        }
        return x;
    }
    // A primitive called in a body: NAME(ARG, ...), each argument an expression.
    RuleExpr prim(const std::string& id, std::size_t at) {
        RuleExpr x = node(RuleExpr::prim, at);
        x.name = id;
        if (!eat("(")) fail(i, "expected '(' after " + id + ", a primitive called for its effect");
        if (!eat(")")) {
            do x.kids.push_back(cond());
            while (eat(","));
            if (!eat(")")) fail(i, "expected ')' or ',' in the call of " + id);
        }
        return x;
    }
    // A static key the kernel tests, as the predicate it stands for:
    // static_branch_maybe(CONFIG_X, &init_on_alloc) is init_on_alloc (the
    // config only picks the key's default, which the boot state sets anyway).
    RuleExpr static_key(const std::string& id, std::size_t at) {
        if (!eat("(")) fail(i, "expected '(' after " + id);
        if (id == "static_branch_maybe") {
            skip_ws();
            while (i < s.size() && (std::isalnum((unsigned char)s[i]) || s[i] == '_')) ++i;
            if (!eat(",")) fail(i, "static_branch_maybe(CONFIG_..., &key)");
        }
        if (!eat("&")) fail(i, "expected '&' and the static key");
        skip_ws();
        std::size_t b = i;
        while (i < s.size() && (std::isalnum((unsigned char)s[i]) || s[i] == '_')) ++i;
        const std::string key = s.substr(b, i - b);
        if (!eat(")")) fail(i, "expected ')' after the static key");
        static const std::vector<std::pair<std::string, std::string>> keys = {
            {"init_on_alloc", "init_on_alloc"}, {"init_on_free", "init_on_free"}, {"kasan_flag_enabled", "kasan_enabled"}};
        for (const auto& [k, pred] : keys)
            if (key == k) {
                RuleExpr x = node(RuleExpr::pred, at);
                x.name = pred;
                return x;
            }
        fail(b, "the static key '" + key + "' is none the model has (init_on_alloc, init_on_free, kasan_flag_enabled)");
    }
    RuleExpr name(const std::string& id, std::size_t at) {
        if (id == "true" || id == "false") {
            RuleExpr x = node(RuleExpr::number, at);
            x.value = id == "true";
            return x;
        }
        if (body) {
            for (const auto& l : body->locals)
                if (id == l) {
                    RuleExpr x = node(RuleExpr::param, at);
                    x.name = id;
                    return x;
                }
            if (body->is_primitive && body->is_primitive(id)) return prim(id, at);
        }
        if (id == "IS_ENABLED") {
            if (!eat("(")) fail(i, "expected '(' after IS_ENABLED");
            skip_ws();
            std::size_t b = i;
            while (i < s.size() && (std::isalnum((unsigned char)s[i]) || s[i] == '_')) ++i;
            std::string cfg = s.substr(b, i - b);
            if (!eat(")")) fail(i, "expected ')'");
            std::vector<std::string> known = {"CONFIG_KASAN_HW_TAGS", "CONFIG_KASAN_SW_TAGS",
                                              "CONFIG_KASAN_GENERIC", "CONFIG_KASAN_VMALLOC", "CONFIG_KFENCE"};
            if (build_time) known.push_back("CONFIG_LOCKDEP");
            for (const auto& k : known)
                if (cfg == k) {
                    RuleExpr x = node(RuleExpr::pred, at);
                    x.name = cfg;
                    return x;
                }
            fail(b, "IS_ENABLED(" + cfg + "): the configuration options known here are " + join(known));
        }
        if (id == "static_branch_maybe" || id == "static_branch_unlikely" || id == "static_branch_likely")
            return static_key(id, at);
        // include/linux/math.h round_up / round_down (to a power of two), as
        // mm/kasan/common.c rounds to KASAN_GRANULE_SIZE
        if (id == "round_up" || id == "round_down") {
            if (!eat("(")) fail(i, "expected '(' after " + id);
            RuleExpr x = node(RuleExpr::binary, at);
            x.name = id;
            x.kids.push_back(cond());
            if (!eat(",")) fail(i, id + "(x, y) takes two arguments");
            x.kids.push_back(cond());
            if (!eat(")")) fail(i, "expected ')' after " + id + "'s two arguments");
            return x;
        }
        // mm/kasan/kasan.h: the bytes a shadow byte or tag covers, 8 under
        // Generic (KASAN_SHADOW_SCALE_SIZE) and 16 under the tag modes
        // (MTE_GRANULE_SIZE, 1 << KASAN_SHADOW_SCALE_SHIFT): the build decides
        if (id == "KASAN_GRANULE_SIZE") {
            if (build_time) fail(at, "KASAN_GRANULE_SIZE is the KASAN mode's: numbers and IS_ENABLED(CONFIG_...) only");
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
        for (const auto& r : overridable_rules())
            if (id == r.name) return call(r, at);
        for (const char* p : rule_predicates())
            if (id == p) {
                if (build_time)
                    fail(at, id + " is decided at run time, and __GFP_BITS_SHIFT when the kernel is built: "
                                  "numbers and IS_ENABLED(CONFIG_...) only");
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
        if (hw.defines(id) || other.defines(id)) {
            RuleExpr x = node(RuleExpr::gfp, at);
            x.name = id;
            x.hw = hw.defines(id) ? hw.mask(id) : 0;
            x.other = other.defines(id) ? other.mask(id) : 0;
            return x;
        }
        // constants the kernel's own code compares with, each as its header defines it
        static const std::vector<std::pair<const char*, std::uint64_t>> constants = {
            {"KASAN_TAG_KERNEL", 0xFF},   // include/linux/kasan-tags.h (mm/kasan/kasan.h before v6.13)
            {"KASAN_TAG_INVALID", 0xFE},  // ibid.
            {"FPI_SKIP_KASAN_POISON", kFpiSkipKasanPoison}};
        for (const auto& [n, v] : constants)
            if (id == n) {
                RuleExpr x = node(RuleExpr::number, at);
                x.value = v;
                return x;
            }
        if (body) {
            std::size_t save = i;
            if (eat("("))
                fail(at, "the value of " + id + "() is used, and " + id +
                             " is neither a rule the model lifts nor a primitive (tagproof lift --primitives)");
            i = save;
        }
        std::vector<std::string> allowed;
        for (const char* p : params) allowed.push_back(p);
        if (body)
            for (const auto& l : body->locals) allowed.push_back(l);
        for (const char* p : rule_predicates()) allowed.push_back(std::string(p) + "()");
        allowed.push_back("IS_ENABLED(CONFIG_...)");
        allowed.push_back("round_up(x, y), round_down(x, y), KASAN_GRANULE_SIZE");
        allowed.push_back("the overridable rules (tagproof review --explain rules)");
        const bool gfp_like = id.rfind("__GFP_", 0) == 0 || id.rfind("GFP_", 0) == 0;
        fail(at, "unknown name '" + id + "'" +
                     (gfp_like ? ": " + base_name + " defines no such GFP flag or constant" : std::string()) +
                     "; names allowed here: " + base_name + "'s GFP flags and constants (GFP_KERNEL, __GFP_ZERO, ...), " +
                     join(allowed));
    }
};


}  // namespace tagproof::kernel::detail
