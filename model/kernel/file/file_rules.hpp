// file_rules.hpp — the rules of a variant file: a base era's rules, with the
// leaf rules a file may override (rule_expr.cpp, overridable_rules()) looking
// first in the environment's overrides. The base's composite rules call them
// through Self::, so an override reaches every decision that uses the rule
// (GFP_PGTABLE_USER is GFP_PGTABLE_KERNEL | __GFP_ACCOUNT in the base, and
// stays so when only GFP_PGTABLE_KERNEL is overridden).
#pragma once
#include "../variant_list.hpp"
#include "rule_expr.hpp"

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
        return e.overrides ? e.overrides->find(rule) : nullptr;
    }
    template <class D>
    static typename D::Word word0(const KasanEnv<D>& e, const RuleExpr& x) {
        return as_word<D>(eval_rule_expr<D>(x, e, {}));
    }

#define TAGPROOF_FILE_WORD_RULE(R)                                                          \
    template <class D>                                                                      \
    static typename D::Word R(const KasanEnv<D>& e) {                                       \
        if (const RuleExpr* x = over(e, #R)) return word0<D>(e, *x);                        \
        return B::template R<D>(e);                                                         \
    }
    TAGPROOF_FILE_WORD_RULE(THREADINFO_GFP)
    TAGPROOF_FILE_WORD_RULE(GFP_VMAP_STACK)
    TAGPROOF_FILE_WORD_RULE(GFP_PGTABLE_KERNEL)
    TAGPROOF_FILE_WORD_RULE(GFP_PGTABLE_USER)
    TAGPROOF_FILE_WORD_RULE(GFP_VMALLOC_SUPPORTED)
    TAGPROOF_FILE_WORD_RULE(skb_frag_gfp)
    TAGPROOF_FILE_WORD_RULE(skb_frag_fallback_gfp)
    TAGPROOF_FILE_WORD_RULE(vmalloc_page_skip_flags)
#undef TAGPROOF_FILE_WORD_RULE

    template <class D>
    static typename D::Word user_page_gfp(const KasanEnv<D>& e, typename D::Bool vm_mte) {
        if (const RuleExpr* x = over(e, "user_page_gfp")) {
            RuleVal<D> m;
            m.is_bool = true;
            m.b = vm_mte;
            return as_word<D>(eval_rule_expr<D>(*x, e, {{"vm_mte", m}}));
        }
        return B::template user_page_gfp<D>(e, vm_mte);
    }
    template <class D>
    static typename D::Word alloc_skb_frags_gfp(const KasanEnv<D>& e, typename D::Word gfp) {
        if (const RuleExpr* x = over(e, "alloc_skb_frags_gfp")) {
            RuleVal<D> g;
            g.w = gfp;
            return as_word<D>(eval_rule_expr<D>(*x, e, {{"gfp", g}}));
        }
        return B::template alloc_skb_frags_gfp<D>(e, gfp);
    }
};

// The base eras a variant file may name, by the built-in variant's name.
#define TAGPROOF_FILE_BASES(X) \
    X("linux-6.1", rules_6_1) X("linux-6.3", rules_6_3) X("linux-6.4", rules_6_4) X("linux-7.0", rules_7_0)

}  // namespace tagproof::kernel
