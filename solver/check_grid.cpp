// check_grid.cpp — see check_grid.hpp. Each cell asks Z3 for an access that
// breaks the column's property under the row's check; sizes are tried from 1
// byte up, so a counterexample shows the smallest access size that breaks it.
//
// The ground truth is style independent. Tag modes: the access's bytes lie in
// the granule of its first byte and the granule of its last byte; it is bad
// when the pointer is not match-all (0xFF) and one of those granules' memory
// tags (read where the kernel keeps it, kasan_mem_to_shadow) differs from the
// pointer tag. Generic: a byte at offset o of an 8-byte granule with shadow s
// is accessible iff s == 0 or 0 < s < 0x80 and o < s.
#include "check_grid.hpp"

#include <functional>

#include "check_ctx.hpp"
#include "checks/generic_check.hpp"
#include "checks/sw_checks.hpp"
#include "plans.hpp"
#include "proof_cache.hpp"
#include "sym_env.hpp"

namespace tagproof::solver {

using namespace kernel::checks;
using namespace checkctx;

namespace {

// One access: 2^k bytes at x.p, under one era's shadow layout.
struct Access {
    Ctx& x;
    const ShadowEra& e;
    unsigned k;
    z3::expr n() const { return S::lit(1u << k); }
    z3::expr T() const { return Sh::tag(x.p); }
    z3::expr M0() const { return x.mem.shadow(Sh::low56(Sh::kernel_addr(e, Sh::U(x.p)))); }
    z3::expr M1() const { return x.mem.shadow(Sh::low56(Sh::kernel_addr(e, Sh::U(x.p) + n() - S::lit(1)))); }
    // tag modes: a touched granule's memory tag differs from a non-match-all pointer tag
    z3::expr tag_bad() const { return T() != S::lit(0xFF) && (M0() != T() || M1() != T()); }
    // Generic: the shadow of the granule holding address a (the array is indexed by granule)
    z3::expr gshadow(const z3::expr& a) const { return x.mem.shadow(a & ~S::lit(7)); }
    // Byte p + i lies in granule (p + i) & ~7, which is g0 + 8 * j for
    // g0 = p & ~7 and j = ((p & 7) + i) >> 3 (adding a multiple of 8 commutes
    // with the mask, in 64-bit arithmetic too), and j is 0, 1 or 2 for the
    // 16 bytes at most an access reads. So the bytes read the shadow through
    // those three granules: the same value as one read a byte, without
    // sixteen reads for Z3 to tell apart (a 16-byte cell took 2.4 s).
    z3::expr generic_bad() const {
        const z3::expr g0 = x.p & ~S::lit(7), in_g0 = x.p & S::lit(7);
        const z3::expr sh[3] = {gshadow(g0), gshadow(g0 + S::lit(8)), gshadow(g0 + S::lit(16))};
        z3::expr bad = x.c.bool_val(false);
        for (unsigned i = 0; i < (1u << k); ++i) {
            z3::expr b = x.p + S::lit(i);
            const z3::expr j = z3::lshr(in_g0 + S::lit(i), S::lit(3));
            z3::expr s = z3::ite(j == S::lit(0), sh[0], z3::ite(j == S::lit(1), sh[1], sh[2]));
            z3::expr ok = s == S::lit(0) || (S::ult(s, S::lit(0x80)) && S::ult(b & S::lit(7), s));
            bad = bad || !ok;
        }
        return bad;
    }
};

struct GMem {
    const Access& a;
    z3::expr shadow(const z3::expr& g) const { return a.gshadow(g); }
};

// What a style does with one access: reports (or oopses), and what it
// assumes of the access beyond the common premises.
struct Style {
    std::string name;
    bool mutant, tags;  // tags: a tag mode (else Generic: the match-all column is n/a)
    std::function<z3::expr(const Access&)> detects;
    std::function<z3::expr(const Access&)> assumes = nullptr;
    std::vector<std::string> expected;  // per property
};

struct Property {
    std::string title;
    bool aligned;
    enum { match_all, bad_reports, valid_silent } kind;
};

}  // namespace

Grid prove_check_grid(const std::string& variant, unsigned timeout_ms) {
    const SymVariant& v = find_sym_variant(variant, "--variant");
    Grid g;
    const std::vector<Property> props = {
        {"match-all never reports", true, Property::match_all},
        {"mismatch reports", true, Property::bad_reports},
        {"valid never reports", true, Property::valid_silent},
        {"misaligned mismatch reports", false, Property::bad_reports},
    };
    for (const auto& p : props) g.properties.push_back(p.title);
    g.premises = {
        "a kernel pointer (bit 55 set, at or above the lowest address with metadata), every shadow byte read mapped",
        "an access of 1, 2, 4, 8 or 16 bytes ending below the top of the address space (9.5' shows the wrap test there)",
        "aligned columns: the address is a multiple of the size (an eligible access, §4.0, that tells the truth)",
        "Generic: 'mismatch' is an inaccessible byte, 'valid' that every byte is accessible; shadow bytes 0..7 or negative",
        "HW_TAGS: tags of the form 0xFx (arch_get_random_tag), TCF on, Normal-Tagged mapping",
    };

    // the hardware check of one granule, from the variant (rules_6_1.hpp granule_check_faults)
    auto hw = [&v](bool write_only) {
        return [&v, write_only](const Access& a) {
            SymInputs in = make_inputs(a.x.c, "hw_");
            SEnv env = make_env(v, in);
            for (const auto& d : in.domain) a.x.facts.push_back(d);
            a.x.facts.push_back(env.kasan_hw_tags_enabled());
            auto granule = [&](const z3::expr& M) {
                kernel::TagCheckInput<S> t;
                t.tcf_on = a.x.c.bool_val(true);
                t.tagged_mapping = a.x.c.bool_val(true);
                t.write_only = a.x.c.bool_val(write_only);
                t.is_write = a.x.c.bool_const("is_write");
                t.ptr_tag = a.T();
                t.mem_tag = M;
                return v.granule_check_faults(env, t);
            };
            return granule(a.M0()) || granule(a.M1());
        };
    };
    auto hw_tags_form = [](const Access& a) {
        auto fx = [](const z3::expr& t) { return (t & S::lit(0xF0)) == S::lit(0xF0); };
        return fx(a.T()) && fx(a.M0()) && fx(a.M1());
    };
    auto sw = [](auto check) {
        return [check](const Access& a) {
            CheckResult<S> r = check(a);
            return r.report || r.fault;
        };
    };
    const std::string P = "proved", C = "counterexample", NA = "n/a";
    std::vector<Style> styles = {
        {"HW_TAGS (kasan.mode=sync, async or asymm)", false, true, hw(false), hw_tags_form, {P, P, P, P}},
        {"HW_TAGS kasan.write_only=on", false, true, hw(true), hw_tags_form, {P, C, P, C}},
        {"SW_TAGS inline (clang < 12)", false, true,
         sw([](const Access& a) { return inline_check<S>(a.e, a.x.mem, a.x.p, a.k); }), nullptr, {P, C, P, C}},
        {"SW_TAGS outlined (__hwasan_check_x<R>_<AI>)", false, true,
         sw([](const Access& a) { return outlined_check<S>(a.e, a.x.mem, a.x.p, a.k); }), nullptr, {P, P, P, C}},
        {"SW_TAGS fast path + outlined (LLVM >= 18)", false, true,
         sw([](const Access& a) { return fastpath_check<S>(a.e, a.x.mem, a.x.p, a.k); }), nullptr, {P, P, P, C}},
        {"SW_TAGS outline calls (__hwasan_loadN_noabort)", false, true,
         sw([](const Access& a) { return call_check<S>(a.e, a.x.mem, a.x.p, a.n()); }), nullptr, {P, P, P, P}},
        {"Generic (kasan_check_range)", false, false,
         [](const Access& a) { return generic_check<S>(GMem{a}, a.x.p, a.n()); }, nullptr, {NA, P, P, P}},
        // negative controls: each column has a row that must give a counterexample
        {"mutant: outlined without the 0xFF skip", true, true,
         [](const Access& a) {
             auto M = a.x.mem.shadow(Sh::low56(Sh::outlined_addr(a.e, a.x.p)));
             return M != a.T();
         },
         nullptr, {C, P, C, C}},
        {"mutant: Generic checking the last granule only", true, false,
         [](const Access& a) {
             auto last = a.x.p + a.n() - S::lit(1);
             return generic_granule_poisons<S>(a.gshadow(last), last & S::lit(7), S::boolean(false));
         },
         nullptr, {NA, C, P, C}},
    };

    for (const auto& st : styles) {
        GridRow row;
        row.style = st.name;
        row.mutant = st.mutant;
        for (std::size_t pi = 0; pi < props.size(); ++pi) {
            const Property& pr = props[pi];
            GridCell cell;
            cell.expected = st.expected[pi];
            if (pr.kind == Property::match_all && !st.tags) {
                cell.verdict = NA;
                row.cells.push_back(cell);
                continue;
            }
            cell.verdict = P;
            for (unsigned k = 0; k <= 4 && cell.verdict == P; ++k)
                for (const ShadowEra* e : {&kShadowBefore, &kShadowAfter}) {
                    if (!st.tags && e != &kShadowBefore) continue;  // Generic has one layout
                    z3::context c;
                    ContextScope scope(c);
                    Ctx x = make_ctx(c);
                    Access a{x, *e, k};
                    z3::solver s(c, "QF_BV");
                    z3::params prm(c);
                    prm.set("timeout", timeout_ms);
                    s.set(prm);
                    s.add(nowrap(x.p, k));
                    if (pr.aligned) s.add(aligned(x, k));
                    if (st.tags) s.add(kern(x, *e) && shadow_mapped(x, *e, k));
                    else
                        for (unsigned i = 0; i < 3; ++i) {  // shadow values the kernel writes: 0..7 or negative
                            z3::expr sv = a.gshadow(x.p + S::lit(8u * i));
                            s.add(S::ult(sv, S::lit(8)) || !S::ult(sv, S::lit(0x80)));
                        }
                    if (st.assumes) s.add(st.assumes(a));
                    z3::expr det = st.detects(a);
                    for (const auto& f : x.facts) s.add(f);
                    z3::expr bad = st.tags ? a.tag_bad() : a.generic_bad();
                    switch (pr.kind) {
                        case Property::match_all: s.add(a.T() == S::lit(0xFF) && det); break;
                        case Property::bad_reports: s.add(bad && !det); break;
                        case Property::valid_silent: s.add(!bad && det); break;
                    }
                    z3::check_result r = check_kept(s, "QF_BV timeout=" + std::to_string(timeout_ms));
                    if (r == z3::unsat) continue;
                    if (r == z3::unknown) {
                        cell.verdict = "unknown";
                        break;
                    }
                    cell.verdict = C;
                    z3::model m = s.get_model();
                    auto num = [&m](const z3::expr& ex) { return m.eval(ex, true).get_numeral_uint64(); };
                    std::uint64_t p = num(x.p);
                    cell.witness = std::to_string(1u << k) + "-byte access at p = " + hex(p);
                    if (st.tags) {
                        cell.witness += " (pointer tag " + hex(p >> 56) + ", offset in granule " + std::to_string(p & 15) +
                                        "), memory tags " + hex(num(a.M0())) + " / " + hex(num(a.M1())) +
                                        " (first / last granule)";
                        if (st.name.find("inline") != std::string::npos)
                            cell.witness += ", last byte of the granule " +
                                            hex(num(x.mem.data(Sh::low56(Sh::K(x.p) | S::lit(15)))));
                        cell.witness += std::string("; ") +
                                        (e == &kShadowBefore ? "logical-shift era" : "arithmetic-shift era ([AS])");
                        if (st.name.find("write_only") != std::string::npos)
                            cell.witness += m.eval(c.bool_const("is_write"), true).is_true() ? ", a store" : ", a load";
                    } else {
                        cell.witness += " (offset in granule " + std::to_string(p & 7) + "), shadow bytes";
                        std::uint64_t g0 = p & ~7ull, gl = (p + (1u << k) - 1) & ~7ull;
                        for (std::uint64_t gg = g0;; gg += 8) {
                            cell.witness += " " + hex(num(a.gshadow(S::lit(gg))));
                            if (gg == gl) break;
                        }
                    }
                    break;
                }
            row.cells.push_back(cell);
        }
        g.rows.push_back(row);
    }
    return g;
}

}  // namespace tagproof::solver
