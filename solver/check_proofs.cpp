// check_proofs.cpp — see check_proofs.hpp; the symbolic memory and the
// premises are in check_ctx.hpp.
#include "check_proofs.hpp"

#include <chrono>
#include <cstdio>
#include <functional>

#include "proof_cache.hpp"
#include "checks/accessinfo.hpp"
#include "check_ctx.hpp"
#include "checks/sw_checks.hpp"
#include "runner.hpp"
#include "scenario.hpp"
#include "z3_domain.hpp"

namespace tagproof::solver {

using namespace kernel::checks;
using namespace checkctx;

namespace {
using Body = std::function<z3::expr(Ctx&, const ShadowEra&, unsigned k)>;
}  // namespace

std::vector<CheckStatement> prove_check_statements(unsigned timeout_ms, const std::vector<std::string>& only) {
    struct Def {
        std::string id, text, styles, expected;
        Body violation;  // the negation, for one era and one k
        // builds the replay scenario from p, k, the pointer tag and the granule's memory tag
        std::function<std::string(std::uint64_t p, unsigned k, std::uint64_t M)> scenario = nullptr;
        std::string not_replayable = "";
    };
    std::vector<Def> defs = {
        {"9.1 shadow-agreement", "bit 55 = 1: the compiler's, the outlined routine's and the kernel's shadow addresses agree in bits 55..0",
         "all", "proved",
         [](Ctx& x, const ShadowEra& e, unsigned) {
             auto a = Sh::low56(Sh::inline_addr(e, x.p)), b = Sh::low56(Sh::outlined_addr(e, x.p)),
                  c = Sh::low56(Sh::kernel_addr(e, x.p));
             return (x.p & S::lit(std::uint64_t(1) << 55)) != S::lit(0) && !(a == b && b == c);
         }},
        {"9.1' shadow-agreement without bit 55", "the same for NULL and user pointers (the premise is needed)", "I vs O",
         "counterexample",
         [](Ctx& x, const ShadowEra& e, unsigned) {
             return Sh::low56(Sh::inline_addr(e, x.p)) != Sh::low56(Sh::outlined_addr(e, x.p));
         },
         [](std::uint64_t p, unsigned k, std::uint64_t) {
             // the access outcome it leads to (row 7): the call reports, the outlined check oopses
             std::uint64_t base = 0x00ff000000001000ull, off = ((p & 0x00ffffffffffffffull) - base) & 0x00ffffffffffffffull;
             std::string ptr = "q = set_tag(p + " + hex(off) + ", " + hex(p >> 56) + ")\n";
             (void)k;
             return "modes sw_tags\nconfig check_style=calls\np = kmalloc(16)\n" + ptr + "read(q, 1, insn) => report\n";
         }},
        {"9.2 fast-path-transparent", "the inline fast path + outlined slow path decides as the outlined check", "F vs O",
         "proved",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return kern(x, e) && shadow_mapped(x, e, k) &&
                    fastpath_check<S>(e, x.mem, x.p, k).report != outlined_check<S>(e, x.mem, x.p, k).report;
         }},
        {"9.2' fast-path-race", "with a retag by another CPU between the fast path's and the slow path's shadow loads (row 9)",
         "F vs O", "counterexample",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             SymMem later{x.c.constant("shadow_later", x.c.array_sort(x.c.bv_sort(64), x.c.bv_sort(64))), x.mem.dt, x.mem.mp};
             return kern(x, e) && shadow_mapped(x, e, k) &&
                    fastpath_check<S>(e, x.mem, later, x.p, k).report != outlined_check<S>(e, x.mem, x.p, k).report;
         },
         [](std::uint64_t p, unsigned k, std::uint64_t M) {
             // a load through the object's own tag; another CPU frees (retags) the granule in the window:
             // the fast path saw a match, so the report the outlined check would now give is lost, or the
             // other way round
             (void)p;
             (void)M;
             return "modes sw_tags\nconfig check_style=fastpath cpus=2\np = kmalloc(16)\n"
                    "q = set_tag(p, 0x12)\nracing_read(q, " + std::to_string(1u << k) + ", 0x12) => ok\n"
                    "expect violation mismatch-faults\n";
         }},
        {"9.3 outlined-equals-call", "eligible, truly aligned kernel accesses: outlined reports iff the call reports", "O vs C",
         "proved",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return kern(x, e) && aligned(x, k) && nowrap(x.p, k) && shadow_mapped(x, e, k) &&
                    outlined_check<S>(e, x.mem, x.p, k).report != call_check<S>(e, x.mem, x.p, S::lit(1u << k)).report;
         }},
        {"9.4 call-refines-outlined", "any alignment: whatever outlined reports, the call reports", "O vs C", "proved",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return kern(x, e) && nowrap(x.p, k) && nowrap(Sh::U(x.p), k) && shadow_mapped(x, e, k) &&
                    outlined_check<S>(e, x.mem, x.p, k).report &&
                    !call_check<S>(e, x.mem, x.p, S::lit(1u << k)).report;
         }},
        {"9.4' outlined-refines-call", "the converse: a misaligned access crossing into a mismatching granule (row 2)",
         "O vs C", "counterexample",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return kern(x, e) && nowrap(x.p, k) && nowrap(Sh::U(x.p), k) && shadow_mapped(x, e, k) &&
                    call_check<S>(e, x.mem, x.p, S::lit(1u << k)).report && !outlined_check<S>(e, x.mem, x.p, k).report;
         },
         [](std::uint64_t p, unsigned k, std::uint64_t) {
             // the first granule is the object's own (outlined passed), the next one is not (the call reported):
             // a 16-byte kmalloc object and the free slot after it
             return "modes sw_tags\nconfig check_style=outlined\np = kmalloc(16)\nread(p + " + std::to_string(p & 15) +
                    ", " + std::to_string(1u << k) + ", insn) => ok\nexpect violation mismatch-faults\n";
         }},
        {"9.5 match-all", "a 0xFF pointer: inline, outlined and fast path never report", "I, O, F", "proved",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return Sh::tag(x.p) == S::lit(0xFF) &&
                    (inline_check<S>(e, x.mem, x.p, k).report || outlined_check<S>(e, x.mem, x.p, k).report ||
                     fastpath_check<S>(e, x.mem, x.p, k).report);
         }},
        {"9.5c match-all-call", "a 0xFF pointer, access not wrapping: the call never reports", "C", "proved",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return Sh::tag(x.p) == S::lit(0xFF) && nowrap(x.p, k) && call_check<S>(e, x.mem, x.p, S::lit(1u << k)).report;
         }},
        {"9.5' match-all-call-wrap", "without the no-wrap premise (row 4: the wrap test comes first)", "C",
         "counterexample",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return Sh::tag(x.p) == S::lit(0xFF) && call_check<S>(e, x.mem, x.p, S::lit(1u << k)).report;
         },
         [](std::uint64_t p, unsigned k, std::uint64_t) {
             // the same pointer value, reached from a kmalloc object (row 4)
             std::uint64_t base = 0x00ff000000001000ull, off = ((p & 0x00ffffffffffffffull) - base) & 0x00ffffffffffffffull;
             return "modes sw_tags\nconfig check_style=calls\np = kmalloc(16)\nq = set_tag(p + " + hex(off) +
                    ", 0xff)\nread(q, " + std::to_string(1u << k) + ", insn) => report\n"
                    "expect violation match-all-never-faults\n";
         }},
        {"9.6 inline-only-removes-reports", "bit 55 = 1: whatever the inline check reports, outlined reports", "I vs O",
         "proved",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return (x.p & S::lit(std::uint64_t(1) << 55)) != S::lit(0) && shadow_mapped(x, e, k) &&
                    inline_check<S>(e, x.mem, x.p, k).report && !outlined_check<S>(e, x.mem, x.p, k).report;
         }},
        {"9.6' inline-short-granule-false-negative", "the converse: memory tag <= 0x0F and the granule's last byte equal to the tag (row 5)",
         "I vs O", "counterexample",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             // data bytes the model can hold: 0x00 (zeroed) or 0xAA (anything else)
             auto last = x.mem.data(Sh::low56(Sh::K(x.p) | S::lit(15)));
             return kern(x, e) && shadow_mapped(x, e, k) && (last == S::lit(0) || last == S::lit(0xAA)) &&
                    outlined_check<S>(e, x.mem, x.p, k).report && !inline_check<S>(e, x.mem, x.p, k).report;
         },
         [](std::uint64_t p, unsigned k, std::uint64_t M) {
             std::uint64_t T = p >> 56;
             char b[160];
             std::snprintf(b, sizeof b,
                           "modes sw_tags\nconfig check_style=inline\np = %s(16)\nq = set_tag(p, 0x%02llx)\n"
                           "set_mem_tag(p, 16, 0x%02llx)\n",
                           T == 0 ? "kzalloc" : "kmalloc", (unsigned long long)T, (unsigned long long)M);
             return std::string(b) + "read(q + " + std::to_string(p & 15) + ", " + std::to_string(1u << k) +
                    ", insn) => ok\nexpect violation mismatch-faults\n";
         }},
        {"9.8 single-granule-routing", "an aligned eligible access stays in one granule", "all", "proved",
         [](Ctx& x, const ShadowEra&, unsigned k) {
             return aligned(x, k) && S::lshr(x.p, 4) != S::lshr(x.p + S::lit((1u << k) - 1), 4) && nowrap(x.p, k);
         }},
        {"9.9 accessinfo-round-trip", "the kernel reads back size 2^k and the write bit from the runtime part", "AccessInfo",
         "proved",
         [](Ctx& x, const ShadowEra&, unsigned k) {
             z3::expr w = x.c.bool_const("is_write");
             auto v = kernel::accessinfo_encode<S>(S::lit(k), w, S::boolean(true), S::lit(0xFF), S::boolean(true),
                                                   S::boolean(true));
             auto rt = v & S::lit(kernel::kAccessInfoRuntimeMask);
             return kernel::accessinfo_runtime_size<S>(rt) != S::lit(1u << k) || ((rt & S::lit(0x10)) != S::lit(0)) != w ||
                    ((S::lit(kernel::kKasanBrkImm) + rt) & ~S::lit(kernel::kKasanBrkMask)) != S::lit(kernel::kKasanBrkImm);
         }},
        {"9.11 report-parameters-equal", "eligible aligned kernel accesses: outlined and call report the same size and address",
         "O vs C", "proved",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             auto o = outlined_check<S>(e, x.mem, x.p, k);
             auto c = call_check<S>(e, x.mem, x.p, S::lit(1u << k));
             return kern(x, e) && aligned(x, k) && nowrap(x.p, k) && shadow_mapped(x, e, k) && o.report &&
                    !(c.report && c.size == o.size);
         }},
        {"9.10 no-metadata-call-reports", "bit 55 = 1 below the shadowed range, tag not 0xFF: the call reports", "C", "proved",
         [](Ctx& x, const ShadowEra& e, unsigned k) {
             return (x.p & S::lit(std::uint64_t(1) << 55)) != S::lit(0) && S::ult(Sh::U(x.p), S::lit(e.mem_start)) &&
                    Sh::tag(x.p) != S::lit(0xFF) && nowrap(x.p, k) &&
                    !call_check<S>(e, x.mem, x.p, S::lit(1u << k)).report;
         }},
    };

    std::vector<CheckStatement> out;
    for (const auto& d : defs) {
        std::string first = d.id.substr(0, d.id.find(' '));
        bool selected = only.empty();
        for (const auto& o : only) selected |= o == first;
        if (!selected) continue;
        CheckStatement st;
        st.id = d.id;
        st.text = d.text;
        st.styles = d.styles;
        st.expected = d.expected;
        auto t0 = std::chrono::steady_clock::now();
        z3::context c;
        ContextScope scope(c);
        Ctx x = make_ctx(c);
        z3::expr bad = c.bool_val(false);
        std::vector<std::pair<z3::expr, std::string>> cases;
        for (const ShadowEra* e : {&kShadowBefore, &kShadowAfter})
            for (unsigned k = 0; k <= 4; ++k) {
                z3::expr v = d.violation(x, *e, k);
                bad = bad || v;
                cases.push_back({v, std::string(e == &kShadowBefore ? "logical-shift era" : "arithmetic-shift era ([AS])") +
                                        ", size " + std::to_string(1u << k)});
            }
        z3::solver s(c, "QF_BV");
        z3::params prm(c);
        prm.set("timeout", timeout_ms);
        s.set(prm);
        s.add(bad);
        z3::check_result r = check_kept(s, "QF_BV timeout=" + std::to_string(timeout_ms));
        if (r == z3::unsat) st.verdict = "proved";
        else if (r == z3::unknown) st.verdict = "unknown";
        else {
            st.verdict = "counterexample";
            z3::model m = s.get_model();
            std::uint64_t p = m.eval(x.p, true).get_numeral_uint64();
            std::string where;
            for (const auto& [v, name] : cases)
                if (m.eval(v, true).is_true()) {
                    where = name;
                    break;
                }
            Sh::W pw = S::lit(p);
            std::uint64_t M = m.eval(x.mem.shadow(Sh::low56(Sh::outlined_addr(kShadowBefore, pw))), true).get_numeral_uint64();
            st.witness = "p = " + hex(p) + " (tag " + hex(p >> 56) + ", offset in granule " + std::to_string(p & 15) +
                         "), memory tag of its granule " + hex(M) + "; " + where;
            unsigned k = 0;
            for (std::size_t i = 0; i < cases.size(); ++i)
                if (m.eval(cases[i].first, true).is_true()) {
                    k = unsigned(i % 5);
                    break;
                }
            if (d.scenario) {
                st.scenario = "# written by tagproof prove --checks: " + d.id + "\nname " + d.id.substr(0, d.id.find(' ')) +
                              "_replay\ndoc " + d.text + "\n" + d.scenario(p, k, M);
                try {
                    auto sc = scenario::parse_scenario(st.scenario, "check.litmus");
                    auto res = scenario::run_scenario(sc, scenario::RunOptions{});
                    st.replay_ok = !res.empty() && res.front().pass;
                    st.replay = st.replay_ok ? "confirmed in the model (" + res.front().line() + ")"
                                             : "NOT reproduced by the model: " +
                                                   (res.front().failures.empty() ? res.front().observation
                                                                                 : res.front().failures.front());
                } catch (const std::exception& ex) {
                    st.replay_ok = false;
                    st.replay = std::string("NOT reproduced: ") + ex.what();
                }
            } else {
                st.replay = "not replayed: " + d.not_replayable;
            }
        }
        st.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        out.push_back(st);
    }
    return out;
}

}  // namespace tagproof::solver
