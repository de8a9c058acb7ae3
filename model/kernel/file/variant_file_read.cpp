// variant_file_read.cpp — reading a variant file (scenario/variant-files.md)
// into a VariantFile: its lines, rule expressions and bodies, includes of a
// base file, each error with file:line:column; and printing a rule expression
// back as C. What the file's rules do is variant_file.cpp's.
#include "variant_file.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <sstream>

#include "error.hpp"
#include "expr_reader.hpp"
#include "body_reader.hpp"
#include "file_rules.hpp"


namespace tagproof::kernel {

using detail::ExprParser;
using detail::join;

namespace {


std::string trim(const std::string& s) {
    std::size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

namespace {

bool is_release(const std::string& b) {
    bool ok = false;
#define TAGPROOF_KNOWN_BASE(N, R) ok |= b == N;
    TAGPROOF_FILE_BASES(TAGPROOF_KNOWN_BASE)
#undef TAGPROOF_KNOWN_BASE
    return ok;
}


// A parent's override put where the child's names the base's rule.
void inline_base(RuleExpr& x, const std::string& rule, const RuleExpr& parent) {
    if (x.kind == RuleExpr::call && x.base_ref && x.name == rule && x.kids.empty()) {
        x = parent;
        return;
    }
    for (auto& k : x.kids) inline_base(k, rule, parent);
}
bool has_call_with_args(const RuleExpr& x, const std::string& rule) {
    if (x.kind == RuleExpr::call && x.base_ref && x.name == rule && !x.kids.empty()) return true;
    for (const auto& k : x.kids)
        if (has_call_with_args(k, rule)) return true;
    return false;
}

VariantFile parse_at_depth(const std::string& text, const std::string& path, int depth);

bool names_rule(const RuleExpr& x, const std::string& rule) {
    if (x.kind == RuleExpr::call && x.base_ref && x.name == rule) return true;
    for (const auto& k : x.kids)
        if (names_rule(k, rule)) return true;
    return false;
}
bool stmts_name_rule(const std::vector<BodyStmt>& v, const std::string& rule) {
    for (const auto& st : v)
        if ((st.has_expr && names_rule(st.expr, rule)) || stmts_name_rule(st.then_s, rule) ||
            stmts_name_rule(st.else_s, rule))
            return true;
    return false;
}
// A body calling its own rule means the base era's (as an expression does).
bool body_names_itself(const RuleBody& b) { return stmts_name_rule(b.stmts, b.rule); }

// `rule NAME(...) {`: a body, not an expression (a '{' before any '=').
bool is_body_start(const std::string& l, std::size_t after_key) {
    const std::size_t brace = l.find('{', after_key), eq = l.find('=', after_key);
    return brace != std::string::npos && (eq == std::string::npos || brace < eq);
}

// Blanks C comments in a body, line by line (a /* */ may span lines), so
// columns stay where they were written.
struct BodyComments {
    bool in_block = false;
    std::string blank(std::string l) {
        for (std::size_t k = 0; k < l.size(); ++k) {
            if (in_block) {
                if (l.compare(k, 2, "*/") == 0) {
                    l[k] = l[k + 1] = ' ';
                    ++k;
                    in_block = false;
                } else {
                    l[k] = ' ';
                }
            } else if (l.compare(k, 2, "/*") == 0) {
                l[k] = l[k + 1] = ' ';
                ++k;
                in_block = true;
            } else if (l.compare(k, 2, "//") == 0) {
                for (; k < l.size(); ++k) l[k] = ' ';
            }
        }
        return l;
    }
};

VariantFile read_at_depth(const std::string& path, int depth, const std::string& where) {
    std::ifstream in(path);
    if (!in) throw InputError(where.empty() ? path : where, where.empty() ? "cannot read the variant file" : "cannot read the base variant file " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_at_depth(ss.str(), path, depth);
}

VariantFile parse_at_depth(const std::string& text, const std::string& path, int depth) {
    VariantFile f;
    f.path = path;
    f.source = std::to_string(text.size()) + "\n" + text;
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    std::optional<VariantFile> parent;
    const Variant* release = nullptr;
    std::unique_ptr<GfpLayout> hw, other;
    auto at = [&](int col) { return path + ":" + std::to_string(line) + ":" + std::to_string(col); };
    // The GFP names an expression may use: the release's, and the flags the file adds.
    auto rebind = [&] {
        std::vector<GfpExtraFlag> extra = release->extra_gfp_flags();
        for (const auto& x : f.extra_flags) extra.push_back(x);
        BuildConfig b, o;
        o.mode = Mode::generic;
        hw = std::make_unique<GfpLayout>(release->gfp_era(), b, extra, [&](const GfpBits& g) { return release->GFP_BITS_SHIFT(g); });
        other = std::make_unique<GfpLayout>(release->gfp_era(), o, extra, [&](const GfpBits& g) { return release->GFP_BITS_SHIFT(g); });
    };
    auto need_base = [&](int col, const char* what) {
        if (!release) throw InputError(at(col), std::string("'base' must come before the first ") + what);
    };
    while (std::getline(in, raw)) {
        ++line;
        if (raw.find('\0') != std::string::npos) throw InputError(at(1), "a NUL byte: a variant file is text");
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
            if (!f.base.empty()) throw InputError(at(ks + 1), "a second 'base' line");
            if (is_release(rest)) {
                f.release = rest;
            } else if (rest.size() > 8 && rest.compare(rest.size() - 8, 8, ".variant") == 0) {
                if (depth >= 8) throw InputError(at(rest_col), "variant files based on each other more than 8 deep (a loop?)");
                std::filesystem::path bp(rest);
                if (bp.is_relative()) bp = std::filesystem::path(path).parent_path() / bp;
                f.base_path = bp.lexically_normal().string();
                parent = read_at_depth(f.base_path, depth + 1, at(rest_col));
                f.source += parent->source;
                f.release = parent->release;
                f.extra_flags = parent->extra_flags;
                f.bits_shift = parent->bits_shift;
                f.boot = parent->boot;
                f.features = parent->features;
            } else {
                throw InputError(at(rest_col), "unknown base '" + rest +
                                                   "'; a variant file builds on linux-6.1, linux-6.3, linux-6.4 or "
                                                   "linux-7.0, or on another variant file (a path ending .variant)");
            }
            f.base = rest;
            release = &find_variant(f.release);
            rebind();
        } else if (key == "baseline") {
            f.baseline = rest;
        } else if (key == "next_version") {
            f.next_version = rest;
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
            f.claims_given = true;
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
        } else if (key == "flag") {
            // flag __GFP_NAME [hw_tags_only|every_build]: a bit the patch adds to gfp_types.h
            need_base(ks + 1, "flag");
            std::istringstream w(rest);
            GfpExtraFlag x;
            std::string where;
            w >> x.name >> where;
            if (x.name.rfind("__GFP_", 0) != 0 || x.name.size() < 7)
                throw InputError(at(rest_col), "flag __GFP_NAME [hw_tags_only|every_build]");
            if (hw->defines(x.name)) throw InputError(at(rest_col), f.release + " defines " + x.name + " already");
            if (where.empty() || where == "hw_tags_only") x.hw_tags_only = true;
            else if (where == "every_build") x.hw_tags_only = false;
            else throw InputError(at(rest_col), "flag " + x.name + ": '" + where + "', expected hw_tags_only or every_build");
            f.extra_flags.push_back(x);
            try {
                rebind();  // the layout refuses a flag past gfp_t's bits (model/core/gfp.cpp)
            } catch (const InputError& e) {
                throw InputError(at(rest_col), "flag " + x.name + ": " + e.what());
            }
        } else if (key == "boot_param") {
            // boot_param NAME known|unknown: whether the patched kernel parses it
            need_base(ks + 1, "boot_param");
            std::istringstream w(rest);
            std::string n, k;
            w >> n >> k;
            if (k != "known" && k != "unknown") throw InputError(at(rest_col), "boot_param NAME known|unknown");
            BootParamSyntax b = f.boot ? *f.boot : release->boot_syntax();
            const bool on = k == "known";
            if (n == "kasan.page_alloc.sample") b.page_alloc_sample = on;
            else if (n == "kasan.page_alloc.sample.order") b.page_alloc_sample_order = on;
            else if (n == "kasan.write_only") b.write_only = on;
            else if (n == "kasan.fault=panic_on_write") b.fault_panic_on_write = on;
            else {
                std::vector<std::string> names(boot_param_names().begin(), boot_param_names().end());
                throw InputError(at(rest_col), "boot_param '" + n + "': the parameters a variant file may change are " + join(names));
            }
            f.boot = b;
        } else if (key == "feature") {
            // feature NAME yes|no: whether the kernel has an entry point (or calls it so)
            need_base(ks + 1, "feature");
            std::istringstream w(rest);
            std::string n, k, extra;
            w >> n >> k >> extra;
            if ((k != "yes" && k != "no") || !extra.empty()) throw InputError(at(rest_col), "feature NAME yes|no");
            Features x = f.features ? *f.features : release->features();
            if (!set_feature(x, n, k == "yes")) {
                std::string names;
                for (const auto& [name, what] : feature_names()) names += (names.empty() ? "" : ", ") + name;
                throw InputError(at(rest_col), "feature '" + n + "': the features a variant file may set are " + names);
            }
            f.features = x;
        } else if (key == "rule" && is_body_start(l, ke)) {
            // rule NAME(PARAMS) { C ... }: the lines up to the closing brace
            need_base(ks + 1, "rule");
            BodyText t;
            t.path = path;
            t.first_line = line;
            const std::size_t from = raw.find_first_not_of(" \t", ke);
            // "rule " blanked, so that a column in the body is the column in the file
            std::string chunk = std::string(from, ' ') + raw.substr(from);
            BodyComments cm;
            int depth = 0;
            bool opened = false;
            const int start_line = line;
            for (;;) {
                t.line_starts.push_back(t.text.size());
                std::string clean = cm.blank(chunk);
                for (char ch : clean) {
                    opened |= ch == '{';
                    depth += ch == '{' ? 1 : ch == '}' ? -1 : 0;
                }
                t.text += clean + "\n";
                if (opened && depth <= 0) break;
                if (!std::getline(in, raw))
                    throw InputError(path + ":" + std::to_string(start_line), "the body of this rule is never closed by '}'");
                ++line;
                if (raw.find('\0') != std::string::npos) throw InputError(at(1), "a NUL byte: a variant file is text");
                chunk = raw;
            }
            // the rule's name, before its '('
            std::size_t ne = t.text.find('(');
            const std::string rname = trim(t.text.substr(0, ne == std::string::npos ? 0 : ne));
            std::size_t count = 0;
            bool effects = false, found = false, reads_page = false;
            int order_param = -1;
            std::size_t min_params = 0;
            for (const auto& o : overridable_rules())
                if (rname == o.name) count = o.params.size(), found = true;
            for (const auto& o : body_only_rules())
                if (rname == o.name) {
                    count = o.params.size(), found = true, effects = o.effects, order_param = o.order_param;
                    reads_page = o.reads_page, min_params = o.min_params;
                }
            if (!found) {
                std::vector<std::string> names;
                for (const auto& o : body_only_rules()) names.push_back(o.name);
                for (const auto& o : overridable_rules()) names.push_back(o.name);
                throw InputError(path + ":" + std::to_string(start_line) + ":" + std::to_string(from + 1),
                                 "'" + rname + "' is no rule a body may define; those are " + join(names));
            }
            if (f.overrides.rules.count(rname) || f.overrides.bodies.count(rname))
                throw InputError(path + ":" + std::to_string(start_line) + ":" + std::to_string(from + 1),
                                 "rule " + rname + " is overridden twice");
            BodyContext bc{*hw, *other, f.release, count, effects, order_param, min_params, reads_page};
            RuleBody b = read_rule_body(t, rname, bc);
            f.overrides.bodies[rname] = std::move(b);
        } else if (key == "rule") {
            need_base(ks + 1, "rule");
            const std::size_t eq = l.find('=', ke);
            if (eq == std::string::npos) throw InputError(at(rest_col), "rule NAME = EXPRESSION");
            std::string lhs = trim(l.substr(ke, eq - ke));
            std::optional<std::vector<std::string>> written_params;  // rule f(x) = ...: the names as written
            if (auto p = lhs.find('('); p != std::string::npos) {
                const auto close = lhs.find(')', p);
                if (close == std::string::npos || trim(lhs.substr(close + 1)) != "")
                    throw InputError(at(rest_col), "rule NAME(PARAMS) = EXPRESSION: expected ')' after the parameters");
                std::vector<std::string> ps;
                std::string inner = lhs.substr(p + 1, close - p - 1);
                for (std::size_t b = 0; b <= inner.size();) {
                    std::size_t e = inner.find(',', b);
                    if (e == std::string::npos) e = inner.size();
                    if (std::string t = trim(inner.substr(b, e - b)); !t.empty() || e < inner.size()) ps.push_back(t);
                    b = e + 1;
                }
                written_params = ps;
                lhs = trim(lhs.substr(0, p));
            }
            const std::string expr = l.substr(eq + 1);
            if (lhs == "__GFP_BITS_SHIFT") {
                static const std::vector<const char*> none;
                ExprParser p{expr, 0, path, line, int(eq) + 1, *hw, *other, none, f.release, lhs, true};
                RuleExpr x = p.parse();
                // every build the model has: the shift of a gfp_t (unsigned int) is 1..32 in each
                for (Mode m : {Mode::none, Mode::generic, Mode::sw_tags, Mode::hw_tags})
                    for (bool lockdep : {false, true}) {
                        BuildConfig bc;
                        bc.mode = m;
                        bc.lockdep = lockdep;
                        long v = 0;
                        try {
                            v = eval_gfp_bits_shift(x, bc);
                        } catch (const InputError& e) {
                            throw InputError(at(int(eq) + 2), e.what());
                        }
                        if (v < 1 || v > 32)
                            throw InputError(at(int(eq) + 2),
                                             "__GFP_BITS_SHIFT is " + std::to_string(v) + " in a " + mode_name(m) +
                                                 (lockdep ? " build with" : " build without") +
                                                 " LOCKDEP: gfp_t is an unsigned int, so it must be 1..32");
                    }
                f.bits_shift = x;
                continue;
            }
            const OverridableRule* r = nullptr;
            for (const auto& o : overridable_rules())
                if (lhs == o.name) r = &o;
            if (!r) {
                std::vector<std::string> names;
                for (const auto& o : overridable_rules()) names.push_back(o.name);
                names.push_back("__GFP_BITS_SHIFT");
                throw InputError(at(rest_col), "'" + lhs + "' is no rule a variant file may override; those are " + join(names));
            }
            if (written_params) {
                // the parameters are the rule's, named as the rule declares them
                std::vector<std::string> want(r->params.begin(), r->params.end());
                if (*written_params != want)
                    throw InputError(at(rest_col), "rule " + lhs + " takes (" + join(want) + "), not (" +
                                                       join(*written_params) + ")");
            }
            if (lhs == "sample_eligible" && f.release == "linux-6.1")
                throw InputError(at(rest_col), "linux-6.1 has no page_alloc sampling: sample_eligible is a rule from linux-6.3 on");
            if (f.overrides.rules.count(lhs) || f.overrides.bodies.count(lhs))
                throw InputError(at(rest_col), "rule " + lhs + " is overridden twice");
            ExprParser p{expr, 0, path, line, int(eq) + 1, *hw, *other, r->params, f.release, lhs, false};
            RuleExpr x = p.parse();
            if (parent)
                if (const RuleExpr* px = parent->overrides.find(lhs.c_str())) {
                    if (has_call_with_args(x, lhs))
                        throw InputError(at(rest_col), lhs + " names itself with arguments, and the base file overrides it: write the base's expression out");
                    inline_base(x, lhs, *px);
                }
            f.overrides.rules[lhs] = x;
        } else {
            throw InputError(at(ks + 1), "unknown keyword '" + key +
                                             "'; a variant file has name, base, baseline, next_version, summary, claims, "
                                             "untag, flag, boot_param, feature and rule lines");
        }
    }
    if (f.name.empty()) throw InputError(path, "no 'name' line");
    if (f.base.empty()) throw InputError(path, "no 'base' line");
    if (parent) {
        // the parent's rules and bodies, where the file neither writes an expression nor a body
        auto own = [&](const std::string& n) { return f.overrides.rules.count(n) || f.overrides.bodies.count(n); };
        for (auto& [n, b] : f.overrides.bodies)
            if (parent->overrides.rules.count(n) || parent->overrides.bodies.count(n))
                if (body_names_itself(b))
                    throw InputError(b.where, n + "'s body names " + n + " (the base's), and the base file overrides it: "
                                              "write the base's out");
        for (auto& [n, x] : parent->overrides.rules)
            if (!own(n)) f.overrides.rules.emplace(n, x);
        for (auto& [n, b] : parent->overrides.bodies)
            if (!own(n)) f.overrides.bodies.emplace(n, b);
        if (!f.claims_given) {
            f.claims.changes = parent->claims.changes;
            f.claims.text = parent->claims.text;
        }
        std::vector<UntagClaim> u = parent->claims.untags;
        u.insert(u.end(), f.claims.untags.begin(), f.claims.untags.end());
        f.claims.untags = u;
        f.claims_given |= parent->claims_given;
        // a patch on a file is compared with that file's kernel (load_variant_file loads it too)
        if (f.baseline.empty()) f.baseline = parent->name;
    }
    if (f.baseline.empty()) f.baseline = f.release;
    for (const Variant* v : all_variants())
        if (v->name() == f.name) throw InputError(path, "name '" + f.name + "' is a built-in variant's; choose another");
    if (f.summary.empty()) f.summary = "variant file " + path + " on " + f.base;
    return f;
}

}  // namespace

VariantFile parse_variant_file(const std::string& text, const std::string& path) { return parse_at_depth(text, path, 0); }
bool is_file_base_release(const std::string& release) { return is_release(release); }

// __GFP_BITS_SHIFT's expression for one build (numbers, IS_ENABLED(CONFIG_...)
// of that build, + - * | &, ?:), as the C preprocessor gives it.
long eval_gfp_bits_shift(const RuleExpr& x, const BuildConfig& b) {
    switch (x.kind) {
        case RuleExpr::number: return long(x.value);
        case RuleExpr::pred:
            if (x.name == "CONFIG_LOCKDEP") return b.lockdep;
            if (x.name == "CONFIG_KASAN_HW_TAGS") return b.mode == Mode::hw_tags;
            if (x.name == "CONFIG_KASAN_SW_TAGS") return b.mode == Mode::sw_tags;
            if (x.name == "CONFIG_KASAN_GENERIC") return b.mode == Mode::generic;
            if (x.name == "CONFIG_KASAN_VMALLOC") return b.mode != Mode::none && b.kasan_vmalloc;
            if (x.name == "CONFIG_KFENCE") return b.kfence;
            break;
        case RuleExpr::cond: return eval_gfp_bits_shift(x.kids[0], b) ? eval_gfp_bits_shift(x.kids[1], b) : eval_gfp_bits_shift(x.kids[2], b);
        case RuleExpr::binary: {
            long u = eval_gfp_bits_shift(x.kids[0], b), v = eval_gfp_bits_shift(x.kids[1], b);
            if (x.name == "+") return u + v;
            if (x.name == "-") return u - v;
            if (x.name == "*") return u * v;
            if (x.name == "|") return u | v;
            if (x.name == "&") return u & v;
            break;
        }
        default: break;
    }
    throw InputError(":" + std::to_string(x.line) + ":" + std::to_string(x.col),
                     "__GFP_BITS_SHIFT is a number: numbers, IS_ENABLED(CONFIG_...), + - * | & and ?: only");
}


namespace {

// C precedence as ExprParser::level() reads it: '?:' lowest, then || && | ^ &
// == != < <= > >= << >> + - *, then the unary operators, then the primaries.
constexpr int kUnaryPrec = 10;
int precedence(const RuleExpr& x) {
    static const std::vector<std::vector<std::string>> ops = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*"}};
    switch (x.kind) {
        case RuleExpr::cond: return -1;
        case RuleExpr::binary:
            if (x.name == "round_up" || x.name == "round_down") return kUnaryPrec + 1;  // written as a call
            for (int l = 0; l < int(ops.size()); ++l)
                for (const auto& o : ops[l])
                    if (o == x.name) return l;
            return 0;
        case RuleExpr::unary: return kUnaryPrec;
        default: return kUnaryPrec + 1;
    }
}

// Brackets only where the precedence needs them: a chain "a | b | c | ..."
// prints flat, so what is printed reads back within the reader's nesting limit.
std::string print_at(const RuleExpr& x, int min_prec) {
    std::string s;
    const int p = precedence(x);
    switch (x.kind) {
        case RuleExpr::number: s = std::to_string(x.value); break;
        case RuleExpr::gfp:
        case RuleExpr::param: s = x.name; break;
        case RuleExpr::pred:
            s = x.name.rfind("CONFIG_", 0) == 0 ? "IS_ENABLED(" + x.name + ")"
                : x.name == "KASAN_GRANULE_SIZE" ? x.name
                                                 : x.name + "()";
            break;
        case RuleExpr::unary: s = x.name + print_at(x.kids[0], kUnaryPrec); break;
        case RuleExpr::binary:  // left-associative: the right operand of the same level needs brackets
            if (x.name == "round_up" || x.name == "round_down")
                s = x.name + "(" + print_at(x.kids[0], -1) + ", " + print_at(x.kids[1], -1) + ")";
            else
                s = print_at(x.kids[0], p) + " " + x.name + " " + print_at(x.kids[1], p + 1);
            break;
        case RuleExpr::cond:
            s = print_at(x.kids[0], 0) + " ? " + print_at(x.kids[1], -1) + " : " + print_at(x.kids[2], -1);
            break;
        case RuleExpr::call:
        case RuleExpr::prim: {
            std::string a;
            for (const auto& k : x.kids) a += (a.empty() ? "" : ", ") + print_at(k, -1);
            s = x.name + "(" + a + ")";
            break;
        }
    }
    return p < min_prec ? "(" + s + ")" : s;
}

}  // namespace

std::string print_rule_expr(const RuleExpr& x) { return print_at(x, -1); }
VariantFile read_variant_file(const std::string& path) { return read_at_depth(path, 0, ""); }

}  // namespace tagproof::kernel
