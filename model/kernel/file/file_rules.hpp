// file_rules.hpp — the rules of a variant file: a base era's rules, with the
// leaf rules a file may override (variant_file.cpp, overridable_rules())
// looking first in the environment's overrides. The base's composite rules
// call them through Self::, so an override reaches every decision that uses
// the rule (GFP_PGTABLE_USER is GFP_PGTABLE_KERNEL | __GFP_ACCOUNT in the
// base, and stays so when only GFP_PGTABLE_KERNEL is overridden).
//
// An expression may call a rule (call_rule): the variant's own, or, when the
// rule being defined names itself, the base's, as in
// `rule GFP_VMALLOC_SUPPORTED = GFP_VMALLOC_SUPPORTED | __GFP_SKIP_KASAN`.
#pragma once
#include "../variant_list.hpp"
#include "rule_body.hpp"
#include "rule_list.hpp"
#include "rule_use.hpp"

namespace tagproof::kernel {

template <template <class> class Base>
struct file_rules final : Base<file_rules<Base>> {
    using B = Base<file_rules<Base>>;
    // VariantOf's statics; FileVariantOf gives the file's own.
    static constexpr const char* name = "(variant file)";
    static constexpr const char* baseline = "";
    static constexpr const char* summary = "";
    static constexpr bool mutant = false;
    static constexpr const char* next_version = "";

    template <class D>
    static const RuleExpr* over(const KasanEnv<D>& e, const char* rule) {
        const RuleExpr* x = e.overrides ? e.overrides->find(rule) : nullptr;
        if (x) note_rule_use(rule);
        return x;
    }
    template <class D>
    static const RuleBody* body(const KasanEnv<D>& e, const char* rule) {
        const RuleBody* y = e.overrides ? e.overrides->find_body(rule) : nullptr;
        if (y) note_rule_use(rule);
        return y;
    }
    template <class D>
    static RuleVal<D> val_Word(typename D::Word w) {
        RuleVal<D> v;
        v.w = w;
        return v;
    }
    template <class D>
    static RuleVal<D> val_Bool(typename D::Bool b) {
        RuleVal<D> v;
        v.is_bool = true;
        v.b = b;
        return v;
    }
    template <class D>
    static RuleVal<D> val_Long(typename D::Long w) {
        RuleVal<D> v;
        v.w = w;
        v.is_signed = true;  // compared signed, as C compares a long
        return v;
    }
    template <class D>
    static typename D::Word result_Word(const RuleVal<D>& v) { return as_word<D>(v); }
    template <class D>
    static typename D::Long result_Long(const RuleVal<D>& v) { return as_word<D>(v); }
    template <class D>
    static typename D::Bool result_Bool(const RuleVal<D>& v) { return as_bool<D>(v); }
    template <class D>
    static RuleVal<D> eval(const KasanEnv<D>& e, const RuleExpr& x, const std::map<std::string, RuleVal<D>>& args) {
        return eval_rule_expr<D, file_rules>(x, e, args);
    }

#define TAGPROOF_FILE_RULE0(R, T)                                                  \
    template <class D>                                                             \
    static typename D::T R(const KasanEnv<D>& e) {                                 \
        if (const RuleExpr* x = over(e, #R)) return result_##T<D>(eval<D>(e, *x, {})); \
        if (const RuleBody* y = body(e, #R))                                       \
            return result_##T<D>(run_value_body<D, file_rules>(*y, e, {}));        \
        return B::template R<D>(e);                                                \
    }
#define TAGPROOF_FILE_RULE1(R, T, P, PT)                                           \
    template <class D>                                                             \
    static typename D::T R(const KasanEnv<D>& e, typename D::PT P) {               \
        if (const RuleExpr* x = over(e, #R))                                       \
            return result_##T<D>(eval<D>(e, *x, {{#P, val_##PT<D>(P)}}));          \
        if (const RuleBody* y = body(e, #R))                                       \
            return result_##T<D>(run_value_body<D, file_rules>(*y, e, {val_##PT<D>(P)})); \
        return B::template R<D>(e, P);                                             \
    }
#define TAGPROOF_FILE_RULE2(R, T, P, PT, Q, QT)                                             \
    template <class D>                                                                      \
    static typename D::T R(const KasanEnv<D>& e, typename D::PT P, typename D::QT Q) {      \
        if (const RuleExpr* x = over(e, #R))                                                \
            return result_##T<D>(eval<D>(e, *x, {{#P, val_##PT<D>(P)}, {#Q, val_##QT<D>(Q)}})); \
        if (const RuleBody* y = body(e, #R))                                                \
            return result_##T<D>(run_value_body<D, file_rules>(*y, e, {val_##PT<D>(P), val_##QT<D>(Q)})); \
        return B::template R<D>(e, P, Q);                                                   \
    }
    TAGPROOF_FILE_RULES(TAGPROOF_FILE_RULE0, TAGPROOF_FILE_RULE1, TAGPROOF_FILE_RULE2)
#undef TAGPROOF_FILE_RULE0
#undef TAGPROOF_FILE_RULE1
#undef TAGPROOF_FILE_RULE2

    // mm/page_alloc.c post_alloc_hook: a body (lifted, or the file's) makes the
    // plan with the primitives it calls; else the base era's hand rule.
    template <class D>
    static PostAllocPlan<D> post_alloc_hook(const KasanEnv<D>& e, typename D::Word gfp, typename D::Word order,
                                            typename D::Word skip) {
        if (const RuleBody* y = body(e, "post_alloc_hook"))
            return run_post_alloc_body<D, file_rules>(*y, e, gfp, order, skip);
        return B::template post_alloc_hook<D>(e, gfp, order, skip);
    }

    // mm/page_alloc.c should_skip_kasan_poison: a body (lifted, or the file's)
    // reads the page through its primitives; else the base era's hand rule.
    template <class D>
    static typename D::Bool should_skip_kasan_poison(const KasanEnv<D>& e, const FreeInput<D>& in) {
        if (const RuleBody* y = body(e, "should_skip_kasan_poison"))
            return run_skip_poison_body<D, file_rules>(*y, e, in);
        return B::template should_skip_kasan_poison<D>(e, in);
    }

    // A rule named in an expression; the reader checked the name and arity.
    template <class D>
    static RuleVal<D> call_rule(const KasanEnv<D>& e, const RuleExpr& call, const std::vector<RuleVal<D>>& a) {
        const bool base = call.base_ref;
        switch (rule_of(call)) {
#define TAGPROOF_CALL0(R, T) \
    case FileRule::R: return val_##T<D>(base ? B::template R<D>(e) : file_rules::template R<D>(e));
#define TAGPROOF_CALL1(R, T, P, PT)                                                          \
    case FileRule::R:                                                                        \
        return val_##T<D>(base ? B::template R<D>(e, result_##PT<D>(a.at(0)))                \
                               : file_rules::template R<D>(e, result_##PT<D>(a.at(0))));
#define TAGPROOF_CALL2(R, T, P, PT, Q, QT)                                                           \
    case FileRule::R:                                                                                \
        return val_##T<D>(base ? B::template R<D>(e, result_##PT<D>(a.at(0)), result_##QT<D>(a.at(1))) \
                               : file_rules::template R<D>(e, result_##PT<D>(a.at(0)), result_##QT<D>(a.at(1))));
            TAGPROOF_FILE_RULES(TAGPROOF_CALL0, TAGPROOF_CALL1, TAGPROOF_CALL2)
#undef TAGPROOF_CALL0
#undef TAGPROOF_CALL1
#undef TAGPROOF_CALL2
            case FileRule::none: break;
        }
        throw std::logic_error("no rule " + call.name);
    }
};

// The base eras a variant file may name, by the built-in variant's name.
#define TAGPROOF_FILE_BASES(X) \
    X("linux-6.1", rules_6_1) X("linux-6.3", rules_6_3) X("linux-6.4", rules_6_4) X("linux-7.0", rules_7_0)

}  // namespace tagproof::kernel
