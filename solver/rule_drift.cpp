// rule_drift.cpp — see rule_drift.hpp.
#include "rule_drift.hpp"

#include "sym_env.hpp"
#include "variant.hpp"
#include "file/file_rules.hpp"

namespace tagproof::solver {

namespace {

using S = Symbolic;

struct Compare {
    z3::context& c;
    const SymInputs& in;
    const kernel::Variant& hand;
    std::vector<RuleDriftRow>& rows;
    z3::expr gfp, order, skip;

    std::string show(const z3::model& m, const z3::expr& x) const {
        z3::expr v = m.eval(x, true);
        if (v.is_bool()) return v.is_true() ? "true" : "false";
        return std::to_string(v.get_numeral_uint64());
    }
    // a rule's argument: gfp and order are shared by every row, the rest fresh;
    // the sampling counter's `left` is what kasan_sample_page_alloc() passes,
    // the counter less one (a free word would tell `left + 1 <= 0` from
    // `left < 0` at LONG_MAX, which no counter holds)
    z3::expr arg(const char* name, const char* type) {
        if (std::string(type) == "Bool") return c.bool_const(name);
        if (std::string(name) == "gfp") return gfp;
        if (std::string(name) == "order") return order;
        if (std::string(name) == "left") return skip - c.bv_val(1, 64);
        return word(c, name);
    }
    void add(const std::string& rule, const std::string& field, const z3::expr& lifted, const z3::expr& handv,
             const std::vector<std::pair<std::string, z3::expr>>& args) {
        RuleDriftRow r;
        r.rule = rule;
        r.field = field;
        z3::solver s(c);
        for (const auto& d : in.domain) s.add(d);
        s.add(lifted != handv);
        if (s.check() == z3::unsat) {
            r.equal = true;
        } else {
            // the witness with the boot defaults where they do not matter, so what is named matters
            s.push();
            s.add(in.sample == c.bv_val(1, 64) && in.sample_order == c.bv_val(3, 64) && in.rt.vmalloc_param &&
                  !in.rt.kasan_off && in.rt.config_kasan_vmalloc && !in.init_on_free && !in.kfence);
            if (s.check() != z3::sat) {
                s.pop();
                // else a small sampling interval, as a person would boot it
                s.push();
                s.add(z3::ule(in.sample, c.bv_val(16, 64)) && !in.kfence);
                if (s.check() != z3::sat) {
                    s.pop();
                    (void)s.check();
                }
            }
            z3::model m = s.get_model();
            ConcreteConfig cfg = read_config(m, in);
            r.witness = cfg.describe();
            if (cfg.mode != Mode::hw_tags) r.witness += cfg.mte ? ", MTE" : ", no MTE";
            for (const auto& [n, x] : args) {
                if (n == "gfp") {
                    BuildConfig b;
                    b.mode = cfg.mode;
                    r.witness += ", gfp " + hand.gfp_layout(b).print(gfp_t(m.eval(x, true).get_numeral_uint64()));
                } else {
                    r.witness += ", " + n + " " + show(m, x);
                }
            }
            r.lifted_value = show(m, lifted);
            r.hand_value = show(m, handv);
        }
        rows.push_back(r);
    }
};

template <template <class> class Base>
void drift_on(const kernel::RuleOverrides& lifted, const std::string& release, std::vector<RuleDriftRow>& rows) {
    using R = kernel::file_rules<Base>;
    z3::context c;
    ContextScope scope(c);
    const SymVariant& hv = find_sym_variant(release, "--variant");
    SymInputs in = make_inputs(c);
    SEnv he = make_env(hv, in);
    SEnv le = he;
    he.overrides = nullptr;  // the era's hand rules
    le.overrides = &lifted;  // the same rules, with the lifted ones in their place
    Compare cmp{c, in, hv.concrete(), rows, word(c, "gfp"), word(c, "order"), word(c, "kasan_page_alloc_skip")};
    // the model's orders are those of the buddy allocator (MAX_ORDER is at most 10 on arm64 4K)
    in.domain.push_back(z3::ule(cmp.order, c.bv_val(10, 64)));
    // the per-CPU counter is always in [0, N-1] (sampling-accounting/induction)
    in.domain.push_back(z3::sge(cmp.skip, c.bv_val(0, 64)) && z3::slt(cmp.skip, he.sample));
    auto defined = [&](const char* n) { return lifted.find(n) || lifted.find_body(n); };
#define TAGPROOF_DRIFT0(N, T) \
    if (defined(#N)) cmp.add(#N, "", R::template N<S>(le), R::template N<S>(he), {});
#define TAGPROOF_DRIFT1(N, T, P, PT)                                               \
    if (defined(#N)) {                                                             \
        z3::expr p = cmp.arg(#P, #PT);                                             \
        cmp.add(#N, "", R::template N<S>(le, p), R::template N<S>(he, p), {{#P, p}}); \
    }
#define TAGPROOF_DRIFT2(N, T, P, PT, Q, QT)                                                                  \
    if (defined(#N)) {                                                                                       \
        z3::expr p = cmp.arg(#P, #PT), q = cmp.arg(#Q, #QT);                                                 \
        cmp.add(#N, "", R::template N<S>(le, p, q), R::template N<S>(he, p, q), {{#P, p}, {#Q, q}});         \
    }
    TAGPROOF_FILE_RULES(TAGPROOF_DRIFT0, TAGPROOF_DRIFT1, TAGPROOF_DRIFT2)
#undef TAGPROOF_DRIFT0
#undef TAGPROOF_DRIFT1
#undef TAGPROOF_DRIFT2
    if (lifted.find_body("post_alloc_hook")) {
        auto a = R::template post_alloc_hook<S>(le, cmp.gfp, cmp.order, cmp.skip);
        auto h = R::template post_alloc_hook<S>(he, cmp.gfp, cmp.order, cmp.skip);
#define TAGPROOF_FIELD(F) \
    cmp.add("post_alloc_hook", #F, a.F, h.F, {{"gfp", cmp.gfp}, {"order", cmp.order}, {"skip", cmp.skip}});
        TAGPROOF_FIELD(tag_clear)
        TAGPROOF_FIELD(tag_clear_data)
        TAGPROOF_FIELD(unpoison)
        TAGPROOF_FIELD(unpoison_init)
        TAGPROOF_FIELD(sampled_out)
        TAGPROOF_FIELD(sample_skip_next)
        TAGPROOF_FIELD(reset_page_tag)
        TAGPROOF_FIELD(kernel_init)
        TAGPROOF_FIELD(set_skip_poison_flag)
#undef TAGPROOF_FIELD
    }
    // the free path: free_pages_prepare's plan over every state of the freed page
    if (lifted.find_body("should_skip_kasan_poison") || defined("free_reads_skip_flag") || defined("free_poison_init") ||
        defined("kasan_poison_pages_init") || defined("free_init_after_poison") || defined("free_kernel_init")) {
        kernel::FreeInput<S> fin;
        fin.page_tag = word(c, "page_tag");
        fin.pg_skip_kasan_poison = c.bool_const("PG_skip_kasan_poison");
        fin.fpi_skip_kasan_poison = c.bool_const("FPI_SKIP_KASAN_POISON");
        in.domain.push_back(z3::ule(fin.page_tag, c.bv_val(0xFF, 64)));
        auto a = R::template free_pages_prepare<S>(le, fin);
        auto h = R::template free_pages_prepare<S>(he, fin);
        const std::vector<std::pair<std::string, z3::expr>> args = {{"page_tag", fin.page_tag},
                                                                    {"PG_skip_kasan_poison", fin.pg_skip_kasan_poison},
                                                                    {"FPI_SKIP_KASAN_POISON", fin.fpi_skip_kasan_poison}};
        cmp.add("free_pages_prepare", "skip_poison", a.skip_poison, h.skip_poison, args);
        cmp.add("free_pages_prepare", "poison", a.poison, h.poison, args);
        cmp.add("free_pages_prepare", "poison_init", a.poison_init, h.poison_init, args);
        cmp.add("free_pages_prepare", "kernel_init", a.kernel_init, h.kernel_init, args);
    }
}

}  // namespace

std::vector<RuleDriftRow> rule_drift(const kernel::RuleOverrides& lifted, const std::string& release) {
    std::vector<RuleDriftRow> rows;
#define TAGPROOF_DRIFT_BASE(N, R) \
    if (release == N) drift_on<kernel::R>(lifted, release, rows);
    TAGPROOF_FILE_BASES(TAGPROOF_DRIFT_BASE)
#undef TAGPROOF_DRIFT_BASE
    return rows;
}

}  // namespace tagproof::solver
