// rule_expr.hpp — a rule override from a variant file (scenario/variant-files.md):
// a C expression over the kernel's names, parsed once and evaluated over the
// value domain D, so the model, the solver, RapidCheck and the explorer run
// the same override (no second encoding).
//
// Names are bound when the file is read: GFP flags and constants to their
// masks in the base era's HW_TAGS and other builds, rule parameters (a rule's
// own arguments: `gfp`, `vm_mte`) and the runtime predicates
// (`kasan_hw_tags_enabled()`, `init_on_free`, ...) to what eval reads.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "../env.hpp"
#include "rule_codes.hpp"

namespace tagproof::kernel {

struct RuleExpr {
    // prim: a primitive a rule body calls for its effect (rule_body.hpp evaluates it)
    enum Kind { number, gfp, param, pred, unary, binary, cond, call, prim } kind = number;
    std::uint64_t value = 0;          // number
    std::uint64_t hw = 0, other = 0;  // gfp: the mask in HW_TAGS builds and in the others
    std::string name;                 // gfp / param / pred / rule name, operator spelling
    bool base_ref = false;            // call: the rule being defined names itself, i.e. the base's
    std::vector<RuleExpr> kids;
    int line = 0, col = 0;
    // Fixed by resolve_codes when the expression is read (rule_codes.hpp):
    // the Op of a unary or binary, the Pred of a pred, the FileRule of a call;
    // -1 until then (the evaluators then go by name).
    std::int16_t code = -1;
    bool resolved = false;
    bool prim_inside = false;  // a primitive is called in it (rule_body.hpp runs its effects)
};

// Numbers the names of x and its kids, once, where the reader finishes an expression.
inline void resolve_codes(RuleExpr& x) {
    x.resolved = true;
    x.prim_inside = x.kind == RuleExpr::prim;
    for (auto& k : x.kids) {
        resolve_codes(k);
        x.prim_inside = x.prim_inside || k.prim_inside;
    }
    switch (x.kind) {
        case RuleExpr::unary:
        case RuleExpr::binary: x.code = std::int16_t(op_code(x.name)); break;
        case RuleExpr::pred: x.code = std::int16_t(pred_code(x.name)); break;
        case RuleExpr::call: x.code = std::int16_t(file_rule_code(x.name)); break;
        default: break;
    }
}
inline Op op_of(const RuleExpr& x) { return x.code >= 0 ? Op(x.code) : op_code(x.name); }
inline Pred pred_of(const RuleExpr& x) { return x.code >= 0 ? Pred(x.code) : pred_code(x.name); }
inline FileRule rule_of(const RuleExpr& x) { return x.code >= 0 ? FileRule(x.code) : file_rule_code(x.name); }

// A statement of a rule body (rule_body.hpp): the C subset a lifted function
// is read into — locals, assignments, if/else, return, calls, and the loop
// over a block's pages.
struct BodyStmt {
    enum Kind { decl, assign, if_else, ret, call, page_loop, block } kind = block;
    std::string name;  // decl / assign: the local
    std::string op;    // assign: "=", "|=", "&="
    bool has_expr = false;
    RuleExpr expr;     // decl's value, assign's value, if's condition, return's value, the call
    std::vector<BodyStmt> then_s, else_s;  // if's branches; a loop's or block's statements in then_s
    int line = 0;
};

// A rule written as a function body: `rule NAME(PARAMS) { ... }` in a variant
// file, or a function lifted from a kernel tree into that form.
struct RuleBody {
    std::string rule;
    std::vector<std::string> params;  // as the body names them, in the rule's order
    std::vector<std::string> locals;
    std::vector<BodyStmt> stmts;
    // called for no value, neither lifted nor a primitive (primitives.hpp):
    // assumed to have no effect on tags or data, and named wherever the body is used
    std::vector<std::string> unread_calls;
    std::string where;  // FILE:LINE of the rule line
};

// The overrides of one variant file, by rule name: an expression, or a body.
struct RuleOverrides {
    // std::less<>: found by the const char* the rules name themselves with, no string made
    std::map<std::string, RuleExpr, std::less<>> rules;
    std::map<std::string, RuleBody, std::less<>> bodies;
    const RuleExpr* find(const char* rule) const {
        auto it = rules.find(rule);
        return it == rules.end() ? nullptr : &it->second;
    }
    const RuleBody* find_body(const char* rule) const {
        auto it = bodies.find(rule);
        return it == bodies.end() ? nullptr : &it->second;
    }
};

// The rules a variant file may override, with their parameters and whether
// they are a GFP mask (a word) or a condition (a bool).
struct OverridableRule {
    const char* name;
    std::vector<const char*> params;
    bool is_bool;
    const char* what;  // where the kernel defines it
};
const std::vector<OverridableRule>& overridable_rules();
// The predicates an expression may call, by name.
const std::vector<const char*>& rule_predicates();

template <class D>
struct RuleVal {
    bool is_bool = false;
    typename D::Bool b{};
    typename D::Word w{};
    // C's types, as far as a comparison needs them: a Long parameter is a
    // signed long, and so is arithmetic on it with a number (an int); a
    // number meets anything else as that (a gfp_t, an order) does, unsigned.
    // (C compares a long with an unsigned int signed; the words here do not
    // say which unsigned values are 32-bit, so a Long meeting any of them is
    // compared unsigned: right for kasan_page_alloc_sample, an unsigned long,
    // and no rule with a Long parameter compares it with anything else.)
    bool is_signed = false;
    bool is_literal = false;
};

template <class D>
typename D::Word as_word(const RuleVal<D>& v) {
    if (v.is_bool) return typename D::Word(D::ite(v.b, D::lit(1), D::lit(0)));
    return v.w;
}
template <class D>
typename D::Bool as_bool(const RuleVal<D>& v) {
    if (v.is_bool) return v.b;
    return typename D::Bool(!(v.w == D::lit(0)));
}

// mm/page_alloc.c (v5.11 .. v6.3): #define FPI_SKIP_KASAN_POISON BIT(2). The
// body reader names it; should_skip_kasan_poison's fpi_flags carry the same bit.
inline constexpr std::uint64_t kFpiSkipKasanPoison = std::uint64_t(1) << 2;

template <class D>
RuleVal<D> pred_value(Pred n, const KasanEnv<D>& e) {
    RuleVal<D> r;
    r.is_bool = true;
    switch (n) {
        case Pred::kasan_hw_tags_enabled: r.b = e.kasan_hw_tags_enabled(); break;
        case Pred::kasan_enabled: r.b = e.kasan_enabled; break;
        case Pred::kasan_vmalloc_enabled: r.b = e.vmalloc_on; break;
        case Pred::system_supports_mte: r.b = e.mte; break;
        case Pred::init_on_alloc: r.b = e.init_on_alloc; break;
        case Pred::init_on_free: r.b = e.init_on_free; break;
        case Pred::want_init_on_free: r.b = e.init_on_free; break;  // include/linux/mm.h: the static key
        case Pred::kasan_has_integrated_init: r.b = e.kasan_has_integrated_init(); break;
        case Pred::deferred_pages_enabled: r.b = e.deferred_pages; break;
        case Pred::CONFIG_KASAN_HW_TAGS: r.b = e.hw_tags; break;
        case Pred::CONFIG_KASAN_SW_TAGS: r.b = e.sw_tags; break;
        case Pred::CONFIG_KASAN_GENERIC: r.b = e.generic; break;
        case Pred::CONFIG_KASAN_VMALLOC: r.b = e.config_kasan_vmalloc; break;
        case Pred::CONFIG_KFENCE: r.b = e.kfence; break;
        case Pred::KASAN_GRANULE_SIZE:
            r.is_bool = false;
            r.w = e.granule();  // 8 under Generic, 16 under the tag modes (env.hpp)
            break;
        // numbers, not conditions: the boot's sampling interval and minimum order
        case Pred::kasan_page_alloc_sample:
            r.is_bool = false;
            r.w = e.sample;
            break;
        case Pred::kasan_page_alloc_sample_order:
            r.is_bool = false;
            r.w = e.sample_order;
            break;
        // CONFIG_LOCKDEP is read in __GFP_BITS_SHIFT only (eval_gfp_bits_shift);
        // the reader accepts no other name
        case Pred::CONFIG_LOCKDEP:
        case Pred::none: r.b = D::boolean(false); break;
    }
    return r;
}

// A binary operator of C over two values (the reader admits only these).
template <class D>
RuleVal<D> bool_of(typename D::Bool b) {
    RuleVal<D> r;
    r.is_bool = true;
    r.b = b;
    return r;
}

template <class D>
RuleVal<D> apply_binary(Op op, const RuleVal<D>& a, const RuleVal<D>& b) {
    using Word = typename D::Word;
    RuleVal<D> r;
    if (op == Op::land || op == Op::lor) {
        r.is_bool = true;
        r.b = op == Op::land ? (as_bool<D>(a) && as_bool<D>(b)) : (as_bool<D>(a) || as_bool<D>(b));
        return r;
    }
    Word u = as_word<D>(a), v = as_word<D>(b);
    // the usual arithmetic conversions, reduced to the cases above: signed
    // when a signed long meets a signed long or a number, unsigned otherwise
    const bool sgn = (a.is_signed || b.is_signed) && (a.is_signed || a.is_literal) && (b.is_signed || b.is_literal);
    auto less = [sgn](Word x, Word y) { return sgn ? D::slt(x, y) : D::ult(x, y); };
    switch (op) {
        case Op::eq: return bool_of<D>(u == v);
        case Op::ne: return bool_of<D>(!(u == v));
        case Op::lt: return bool_of<D>(less(u, v));
        case Op::gt: return bool_of<D>(less(v, u));
        case Op::le: return bool_of<D>(!less(v, u));
        case Op::ge: return bool_of<D>(!less(u, v));
        case Op::bor: r.w = u | v; break;
        case Op::band: r.w = u & v; break;
        case Op::bxor: r.w = (u | v) & ~(u & v); break;
        case Op::add: r.w = D::add(u, v); break;
        case Op::mul: r.w = D::mul(u, v); break;
        case Op::shl: r.w = D::shl(u, v); break;
        case Op::shr: r.w = D::shr(u, v); break;
        // include/linux/math.h: y a power of two (__round_mask(x, y) is y - 1)
        case Op::round_up: r.w = D::add(u, D::sub(v, D::lit(1))) & ~D::sub(v, D::lit(1)); break;
        case Op::round_down: r.w = u & ~D::sub(v, D::lit(1)); break;
        default: r.w = D::sub(u, v); break;  // "-"
    }
    if (op == Op::add || op == Op::sub || op == Op::mul) {
        r.is_signed = sgn;
        r.is_literal = a.is_literal && b.is_literal;
    }
    return r;
}
template <class D>
RuleVal<D> apply_cond(const RuleVal<D>& c, const RuleVal<D>& a, const RuleVal<D>& b) {
    RuleVal<D> r;
    if (a.is_bool && b.is_bool) {
        r.is_bool = true;
        r.b = D::ite(as_bool<D>(c), a.b, b.b);
    } else {
        r.w = D::ite(as_bool<D>(c), as_word<D>(a), as_word<D>(b));
    }
    return r;
}
template <class D>
RuleVal<D> apply_unary(Op op, const RuleVal<D>& a) {
    RuleVal<D> r;
    if (op == Op::lnot) {
        r.is_bool = true;
        r.b = !as_bool<D>(a);
    } else {
        r.w = ~as_word<D>(a);
    }
    return r;
}

// An expression that calls no rule (the unit tests evaluate such).
struct NoRuleCalls {
    template <class D>
    static RuleVal<D> call_rule(const KasanEnv<D>&, const RuleExpr& call, const std::vector<RuleVal<D>>&) {
        throw std::logic_error("rule call " + call.name + " without rules");
    }
};

// Evaluates `x` with the rule's parameters `args`. A call of another rule goes
// to R::call_rule (file_rules: the variant's own rule, or the base's when the
// rule being defined names itself).
template <class D, class R = NoRuleCalls>
RuleVal<D> eval_rule_expr(const RuleExpr& x, const KasanEnv<D>& e, const std::map<std::string, RuleVal<D>>& args) {
    RuleVal<D> r;
    switch (x.kind) {
        case RuleExpr::call: {
            std::vector<RuleVal<D>> a;
            for (const auto& k : x.kids) a.push_back(eval_rule_expr<D, R>(k, e, args));
            return R::template call_rule<D>(e, x, a);
        }
        case RuleExpr::number:
            r.w = D::lit(x.value);
            r.is_literal = true;
            return r;
        case RuleExpr::gfp: r.w = x.hw == x.other ? D::lit(x.hw) : D::ite(e.hw_tags, D::lit(x.hw), D::lit(x.other)); return r;
        case RuleExpr::param: return args.at(x.name);
        case RuleExpr::pred: return pred_value<D>(pred_of(x), e);
        case RuleExpr::unary: return apply_unary<D>(op_of(x), eval_rule_expr<D, R>(x.kids[0], e, args));
        case RuleExpr::prim: throw std::logic_error("primitive " + x.name + " outside a rule body");
        case RuleExpr::cond:
            return apply_cond<D>(eval_rule_expr<D, R>(x.kids[0], e, args), eval_rule_expr<D, R>(x.kids[1], e, args),
                                 eval_rule_expr<D, R>(x.kids[2], e, args));
        case RuleExpr::binary: break;
    }
    // no operand has an effect here, so && and || need no short circuit (rule_body.hpp's do)
    return apply_binary<D>(op_of(x), eval_rule_expr<D, R>(x.kids[0], e, args), eval_rule_expr<D, R>(x.kids[1], e, args));
}

}  // namespace tagproof::kernel
