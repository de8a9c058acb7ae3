// rule_body.hpp — runs a rule body (rule_expr.hpp RuleBody) over the value
// domain D, so a function lifted from a tree (or written in a variant file)
// is one more rule of the model, solver, RapidCheck and explorer alike.
//
// There is no `if` on a D::Bool: a body runs on every path at once. Each
// statement carries a guard (the conditions of the branches it is in, and "no
// return before it"); an assignment keeps the old value where its guard is
// false, an effect happens only under its guard, && || and ?: guard their
// right operands as C's short circuit does. A loop over a block's pages runs
// its statements once: every page of the block is treated alike, as the
// model's plans do.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "../plans.hpp"
#include "rule_expr.hpp"

namespace tagproof::kernel {

template <class D>
struct BodyRun {
    using Bool = typename D::Bool;
    using Word = typename D::Word;
    Bool live{};                       // no return yet on this path
    bool has_ret = false;
    RuleVal<D> ret;
    std::map<std::string, RuleVal<D>> vars;  // the parameters and locals
    // post_alloc_hook's effects, and its inputs the primitives read
    PostAllocPlan<D> plan;
    Word order{}, gfp{}, skip{};
    // should_skip_kasan_poison's page, as free_pages_prepare finds it
    const FreeInput<D>* free_in = nullptr;
    Bool free_reads_skip_flag{};
};

template <class D>
RuleVal<D> bool_val(typename D::Bool b) {
    RuleVal<D> v;
    v.is_bool = true;
    v.b = b;
    return v;
}

inline bool has_prim(const RuleExpr& x) {
    if (x.resolved) return x.prim_inside;
    if (x.kind == RuleExpr::prim) return true;
    for (const auto& k : x.kids)
        if (has_prim(k)) return true;
    return false;
}

// A primitive's effect under guard g, and its value (primitives.cpp has the
// words and sources of each, in this order).
template <class D, class R>
RuleVal<D> apply_primitive(const KasanEnv<D>& e, const std::string& n, const std::vector<RuleVal<D>>& a,
                           typename D::Bool g, BodyRun<D>& s) {
    PostAllocPlan<D>& p = s.plan;
    if (n == "PageSkipKASanPoison" || n == "page_kasan_tag") {
        // the reader admits these in should_skip_kasan_poison only
        if (!s.free_in) throw std::logic_error(n + "() read outside the free path");
        if (n == "page_kasan_tag") {
            RuleVal<D> v;
            v.w = s.free_in->page_tag;
            return v;
        }
        return bool_val<D>(s.free_reads_skip_flag && s.free_in->pg_skip_kasan_poison);
    }
    if (n == "kasan_unpoison_pages") {
        typename D::Bool init = a.size() > 2 ? as_bool<D>(a[2]) : D::boolean(false);
        SampleDecision<D> u = R::template kasan_unpoison_pages<D>(e, s.order, s.gfp, s.skip);
        p.unpoison = p.unpoison || (g && u.tag);
        p.sampled_out = p.sampled_out || (g && !u.tag);
        p.unpoison_init = p.unpoison_init || (g && u.tag && init && e.kasan_has_integrated_init());
        s.skip = D::ite(g, u.skip_next, s.skip);
        return bool_val<D>(u.tag);
    }
    if (n == "tag_clear_highpage" || n == "tag_clear_highpages") {
        // v6.x's tag_clear_highpage() clears whatever the machine; v7.0's
        // tag_clear_highpages() only with MTE, and says so (the era's rule)
        typename D::Bool c = n == "tag_clear_highpage" ? D::boolean(true) : R::template tag_clear_highpages_clears<D>(e);
        p.tag_clear = p.tag_clear || (g && c);
        p.tag_clear_data = p.tag_clear_data || (g && c);
        return bool_val<D>(c);
    }
    if (n == "page_kasan_tag_reset") p.reset_page_tag = p.reset_page_tag || g;
    else if (n == "kernel_init_pages") p.kernel_init = p.kernel_init || g;
    else if (n == "SetPageSkipKASanPoison") p.set_skip_poison_flag = p.set_skip_poison_flag || g;
    else throw std::logic_error("no primitive " + n);
    return bool_val<D>(D::boolean(false));  // void
}

// An expression of a body under guard g: its primitives take effect there.
template <class D, class R>
RuleVal<D> eval_body_expr(const RuleExpr& x, const KasanEnv<D>& e, typename D::Bool g, BodyRun<D>& s) {
    if (!has_prim(x)) return eval_rule_expr<D, R>(x, e, s.vars);
    switch (x.kind) {
        case RuleExpr::prim: {
            std::vector<RuleVal<D>> a;
            for (const auto& k : x.kids) a.push_back(eval_body_expr<D, R>(k, e, g, s));
            return apply_primitive<D, R>(e, x.name, a, g, s);
        }
        case RuleExpr::call: {
            std::vector<RuleVal<D>> a;
            for (const auto& k : x.kids) a.push_back(eval_body_expr<D, R>(k, e, g, s));
            return R::template call_rule<D>(e, x, a);
        }
        case RuleExpr::unary: return apply_unary<D>(op_of(x), eval_body_expr<D, R>(x.kids[0], e, g, s));
        case RuleExpr::cond: {
            RuleVal<D> c = eval_body_expr<D, R>(x.kids[0], e, g, s);
            typename D::Bool cb = as_bool<D>(c);
            RuleVal<D> a = eval_body_expr<D, R>(x.kids[1], e, g && cb, s);
            return apply_cond<D>(c, a, eval_body_expr<D, R>(x.kids[2], e, g && !cb, s));
        }
        case RuleExpr::binary: {
            RuleVal<D> a = eval_body_expr<D, R>(x.kids[0], e, g, s);
            typename D::Bool rg = g;
            const Op op = op_of(x);
            if (op == Op::land) rg = g && as_bool<D>(a);
            if (op == Op::lor) rg = g && !as_bool<D>(a);
            return apply_binary<D>(op, a, eval_body_expr<D, R>(x.kids[1], e, rg, s));
        }
        default: return eval_rule_expr<D, R>(x, e, s.vars);
    }
}

template <class D>
RuleVal<D> keep_where(typename D::Bool g, const RuleVal<D>& now, const RuleVal<D>& old) {
    return apply_cond<D>(bool_val<D>(g), now, old);
}

template <class D, class R>
void exec_body(const std::vector<BodyStmt>& stmts, const KasanEnv<D>& e, typename D::Bool guard, BodyRun<D>& s) {
    for (const BodyStmt& st : stmts) {
        typename D::Bool g = guard && s.live;
        switch (st.kind) {
            case BodyStmt::decl: {
                RuleVal<D> v;
                v.w = D::lit(0);
                if (st.has_expr) v = eval_body_expr<D, R>(st.expr, e, g, s);
                if (st.op == "bool") v = bool_val<D>(as_bool<D>(v));  // C's bool holds 0 or 1
                s.vars[st.name] = v;
                break;
            }
            case BodyStmt::assign: {
                RuleVal<D> v = eval_body_expr<D, R>(st.expr, e, g, s);
                const RuleVal<D> old = s.vars.at(st.name);
                if (st.op == "|=") v = apply_binary<D>(Op::bor, old, v);
                else if (st.op == "&=") v = apply_binary<D>(Op::band, old, v);
                if (old.is_bool && !v.is_bool) v = bool_val<D>(as_bool<D>(v));  // C's bool keeps 0 / 1
                s.vars[st.name] = keep_where<D>(g, v, old);
                break;
            }
            case BodyStmt::if_else: {
                typename D::Bool c = as_bool<D>(eval_body_expr<D, R>(st.expr, e, g, s));
                exec_body<D, R>(st.then_s, e, g && c, s);
                exec_body<D, R>(st.else_s, e, g && !c, s);
                break;
            }
            case BodyStmt::ret: {
                if (st.has_expr) {
                    RuleVal<D> v = eval_body_expr<D, R>(st.expr, e, g, s);
                    s.ret = s.has_ret ? keep_where<D>(g, v, s.ret) : v;
                    s.has_ret = true;
                }
                s.live = s.live && !guard;
                break;
            }
            case BodyStmt::call: (void)eval_body_expr<D, R>(st.expr, e, g, s); break;
            case BodyStmt::page_loop:
            case BodyStmt::block: exec_body<D, R>(st.then_s, e, g, s); break;
        }
    }
}

template <class D>
void bind_params(const RuleBody& b, const std::vector<RuleVal<D>>& args, BodyRun<D>& s) {
    for (std::size_t i = 0; i < b.params.size() && i < args.size(); ++i) s.vars[b.params[i]] = args[i];
    s.live = D::boolean(true);
    s.plan.tag_clear = s.plan.tag_clear_data = s.plan.unpoison = s.plan.unpoison_init = s.plan.sampled_out =
        s.plan.reset_page_tag = s.plan.kernel_init = s.plan.set_skip_poison_flag = D::boolean(false);
}

// A value rule's body (should_skip_init(gfp), ...): what it returns.
template <class D, class R>
RuleVal<D> run_value_body(const RuleBody& b, const KasanEnv<D>& e, const std::vector<RuleVal<D>>& args) {
    BodyRun<D> s;
    bind_params<D>(b, args, s);
    s.order = s.gfp = s.skip = D::lit(0);
    exec_body<D, R>(b.stmts, e, D::boolean(true), s);
    if (!s.has_ret) return bool_val<D>(D::boolean(false));
    return s.ret;
}

// should_skip_kasan_poison(page[, fpi_flags])'s body (v6.1 .. v6.3 take the
// fpi flags; FPI_SKIP_KASAN_POISON is the one the model has): what it returns.
template <class D, class R>
typename D::Bool run_skip_poison_body(const RuleBody& b, const KasanEnv<D>& e, const FreeInput<D>& in) {
    BodyRun<D> s;
    RuleVal<D> page, fpi;
    page.w = D::lit(0);  // a struct page *: only page_kasan_tag() and PageSkipKASanPoison() read it
    fpi.w = D::ite(in.fpi_skip_kasan_poison, D::lit(kFpiSkipKasanPoison), D::lit(0));
    bind_params<D>(b, {page, fpi}, s);
    s.order = s.gfp = s.skip = D::lit(0);
    s.free_in = &in;
    s.free_reads_skip_flag = R::template free_reads_skip_flag<D>(e);
    exec_body<D, R>(b.stmts, e, D::boolean(true), s);
    return s.has_ret ? as_bool<D>(s.ret) : D::boolean(false);
}

// post_alloc_hook(page, order, gfp_flags)'s body: the plan its primitives make.
template <class D, class R>
PostAllocPlan<D> run_post_alloc_body(const RuleBody& b, const KasanEnv<D>& e, typename D::Word gfp,
                                     typename D::Word order, typename D::Word skip) {
    BodyRun<D> s;
    RuleVal<D> page, o, g;
    page.w = D::lit(0);  // a struct page *: only primitives take it, and they ignore its value
    o.w = order;
    g.w = gfp;
    bind_params<D>(b, {page, o, g}, s);
    s.order = order;
    s.gfp = gfp;
    s.skip = skip;
    exec_body<D, R>(b.stmts, e, D::boolean(true), s);
    s.plan.sample_skip_next = s.skip;
    return s.plan;
}

}  // namespace tagproof::kernel
