// prove.cpp — one fresh Z3 context per obligation and variant; unsat is
// "proved", sat a counterexample turned into a scenario and replayed in the
// executable model, anything else "unknown" (never shown as proved).
#include "prove.hpp"

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <fstream>
#include <sstream>

#include "error.hpp"
#include "obligation.hpp"
#include "decided_cache.hpp"
#include "proof_cache.hpp"
#include "runner.hpp"
#include "scenario.hpp"

namespace tagproof::solver {

namespace {

std::string show(const z3::model& m, const Witness& w, const Builder& b) {
    z3::expr v = m.eval(w.value, true);
    if (w.kind == Witness::boolean) return v.is_true() ? "yes" : "no";
    std::uint64_t n = v.get_numeral_uint64();
    char buf[40];
    if (w.kind == Witness::hex) {
        std::snprintf(buf, sizeof buf, "0x%02llx", (unsigned long long)n);
        return buf;
    }
    if (w.kind == Witness::gfp) {
        ConcreteConfig cc = read_config(m, b.in);
        BuildConfig bc;
        bc.mode = cc.mode;
        std::snprintf(buf, sizeof buf, "%#llx", (unsigned long long)n);
        return std::string(buf) + " (" + b.v.concrete().gfp_layout(bc).print(n) + ")";
    }
    return std::to_string(n);
}

std::string replay_once(const std::string& kept, const std::string& name, const std::string& invariant, bool& ok);

// Confirmed when the model, over its tag choices, shows the violation the
// scenario expects; other violations it shows on the way are named too.
// Negative control of "a solver result the model does not reproduce is a
// modelling gap, never a finding": TAGPROOF_PLANT_MODELLING_GAP=1 replays
// the counterexample's header without its events. (It changes a replay's
// outcome, so it is one of the options a kept decision is keyed by.)
bool modelling_gap_planted() {
    const char* plant = std::getenv("TAGPROOF_PLANT_MODELLING_GAP");
    return plant && *plant == '1';
}

std::string replay(const std::string& text, const std::string& name, const std::string& invariant, bool& ok) {
    std::string kept = text;
    if (modelling_gap_planted()) {
        kept.clear();
        std::istringstream in(text);
        for (std::string l; std::getline(in, l);) {
            std::string w = l.substr(0, l.find(' '));
            if (w == "name" || w == "doc" || w == "variant" || w == "modes" || w == "config" || w == "boot" ||
                w == "expect" || w == "baseline" || l.empty() || l[0] == '#')
                kept += l + "\n";
        }
        kept += "k = kmalloc(16)\n";
    }
    // The two scopes of an obligation often give the same counterexample: one
    // replay of each scenario text (and invariant) per process. The review
    // proves variants on worker threads: the memo is shared under a lock.
    static std::mutex lock;
    static std::map<std::pair<std::string, std::string>, std::pair<std::string, bool>> seen;
    const auto key = std::make_pair(kept, invariant);
    {
        std::lock_guard<std::mutex> g(lock);
        if (auto it = seen.find(key); it != seen.end()) {
            ok = it->second.second;
            return it->second.first;
        }
    }
    const std::string verdict = replay_once(kept, name, invariant, ok);
    std::lock_guard<std::mutex> g(lock);
    seen[key] = {verdict, ok};
    return verdict;
}

std::string replay_once(const std::string& kept, const std::string& name, const std::string& invariant, bool& ok) {
    try {
        scenario::Scenario sc = scenario::parse_scenario(kept, name);
        scenario::RunOptions ro;
        ro.max_runs = 2048;
        ro.samples = 200;
        auto res = scenario::run_scenario(sc, ro);
        std::string also;
        ok = false;
        for (const auto& r : res)
            for (const auto& v : r.violations) {
                std::string inv = v.substr(0, v.find(':'));
                if (inv == invariant) ok = true;
                else if (also.find(inv) == std::string::npos) also += (also.empty() ? "" : ", ") + inv;
            }
        if (!ok)
            return "NOT reproduced by the model (a solver bug, or a state the model cannot reach): no run violates " +
                   invariant + " (" + res.front().line() + ")";
        return "confirmed in the model (" + res.front().line() + ")" + (also.empty() ? "" : "; the trace also violates " + also);
    } catch (const InputError& e) {
        ok = false;
        return std::string("NOT reproduced: the generated scenario does not run: ") + e.what();
    }
}

// An obligation's builder and the query it built, in one context.
struct Built {
    Builder b;
    Query q;
};

std::string safe(std::string s) {
    for (char& ch : s)
        if (ch == '/' || ch == ' ') ch = '_';
    return s;
}

}  // namespace

std::vector<Verdict> prove(const ProveOptions& opt) {
    const SymVariant& v = find_sym_variant(opt.variant, "--variant");
    std::string base_name = opt.baseline.empty() ? v.concrete().baseline() : opt.baseline;
    const SymVariant* base = base_name.empty() ? nullptr : &find_sym_variant(base_name, "--baseline");
    std::vector<Verdict> out;
    for (const auto& p : opt.only) {
        bool known = false;
        for (const Obligation& ob : all_obligations()) known |= ob.id.rfind(p, 0) == 0;
        if (!known) {
            std::string ids;
            for (const Obligation& ob : all_obligations()) ids += (ids.empty() ? "" : ", ") + ob.id;
            throw InputError("--obligation", "no obligation starts with '" + p + "'; obligations: " + ids);
        }
    }
    // Proofs kept across processes (proof_cache.hpp) are looked up with the
    // query built in this one context, shared by the whole call: a context
    // costs more to make than a kept proof takes to find (2 ms each; its
    // deletion cost more until cmake/z3_move_assign.cmake mended z3++.h).
    // A query that is not kept is built again in a fresh context of its own
    // and decided there exactly as with no cache, so a counterexample's model
    // (which may depend on what else a context has seen) never depends on
    // what was kept.
    const bool use_kept = opt.smt2_dir.empty() && proof_cache_on();
    std::optional<z3::context> probe;
    if (use_kept) probe.emplace();
    // What decides a query's answer besides its assertions (make_solver's
    // logic and parameters): the key its proof is kept under beside them.
    const std::string kept_context = "QF_BV timeout=" + std::to_string(opt.timeout_ms);
    // Counterexamples are kept too (decided_cache.hpp), under what decides
    // their text besides the variants' code: these options. Not read or kept
    // by a call that writes files of its own per query.
    const bool use_decided = use_kept && opt.scenario_dir.empty();
    const std::string decided_options = kept_context + " depth=" + std::to_string(opt.depth) +
                                        " mode=" + (opt.mode ? mode_name(*opt.mode) : "any") +
                                        " raw_scope=" + std::to_string(opt.raw_scope) +
                                        " replay=" + std::to_string(opt.replay) +
                                        " shortest_trace=" + std::to_string(opt.shortest_trace) +
                                        " planted-modelling-gap=" + std::to_string(modelling_gap_planted());
    for (const Obligation& ob : all_obligations()) {
        bool selected = opt.only.empty();
        for (const auto& p : opt.only) selected |= ob.id.rfind(p, 0) == 0;
        if (!selected) continue;
        Verdict vd;
        vd.variant = v.concrete().name();
        vd.baseline = base_name;
        vd.id = ob.id;
        vd.invariant = ob.invariant;
        vd.statement = ob.statement;
        vd.informational = ob.informational;
        if (ob.id.rfind("internals/", 0) == 0 && opt.baseline.empty()) {
            vd.applicable = false;
            vd.why_not = "only for an explicit --baseline (comparing revisions)";
            out.push_back(vd);
            continue;
        }
        // A release (or a patch claiming changes in every mode) is compared
        // only on request; any other variant is held to its claims by default.
        const bool claims_any = v.concrete().claims().changes == kernel::ChangeScope::any;
        if (ob.needs_baseline && (!base || (opt.baseline.empty() && claims_any))) {
            vd.applicable = false;
            vd.why_not = !base ? "needs a baseline (--baseline)"
                               : v.concrete().name() + " claims changes in every mode; give --baseline to compare";
            out.push_back(vd);
            continue;
        }
        // The obligation's builder and query in context c (under its ContextScope).
        auto build_in = [&](z3::context& c) {
            auto built = std::make_unique<Built>(Built{Builder{c, v, ob.needs_baseline ? base : nullptr, make_inputs(c), {}, {},
                                                               c.bv_val(0, 64), opt.depth},
                                                       Query(c)});
            Builder& b = built->b;
            b.callers = base;
            b.e = make_env(v, b.in);
            if (b.base) b.be = make_env(*b.base, b.in);
            // a parameter an era does not parse keeps its default in that era,
            // an option it does not have is off
            b.in.slub_rcu_debug_exists = true;
            for (const SymVariant* w : {&v, b.base}) {
                if (!w) continue;
                BootParamSyntax syn = w->concrete().boot_syntax();
                if (!syn.page_alloc_sample) b.in.domain.push_back(b.in.sample == c.bv_val(1, 64));
                if (!syn.page_alloc_sample_order) b.in.domain.push_back(b.in.sample_order == c.bv_val(3, 64));
                if (!syn.write_only) b.in.domain.push_back(!b.in.write_only);
                if (!w->concrete().features().slub_rcu_debug) {
                    b.in.domain.push_back(!b.in.slub_rcu_debug);
                    b.in.slub_rcu_debug_exists = false;
                }
            }
            if (opt.mode) {
                switch (*opt.mode) {
                    case Mode::hw_tags: b.in.domain.push_back(b.in.rt.hw_tags); break;
                    case Mode::sw_tags: b.in.domain.push_back(b.in.rt.sw_tags); break;
                    case Mode::generic: b.in.domain.push_back(b.in.rt.generic); break;
                    default: b.in.domain.push_back(b.in.none); break;
                }
            }
            {
                BuildConfig hw, other;
                other.mode = Mode::generic;
                b.bits_mask = z3::ite(b.in.rt.hw_tags, c.bv_val(v.concrete().gfp_layout(hw).bits_mask(), 64),
                                      c.bv_val(v.concrete().gfp_layout(other).bits_mask(), 64));
            }
            built->q = ob.build(b);
            return built;
        };
        // A scope's assertions, in the order make_solver adds them; a kept proof is looked up
        // by its first check's (the raw flag space when both scopes are asked, else the one).
        auto query_assertions = [&](const Built& x, bool with_contracts) {
            z3::expr_vector a(x.b.c);
            for (const auto& d : x.b.in.domain) a.push_back(d);
            for (const auto& e : x.q.assumptions) a.push_back(e);
            if (with_contracts) a.push_back(all_hold(x.b.c, x.q.contracts));
            a.push_back(x.q.violation);
            return a;
        };
        auto scopes_of = [&](const Query& q) {
            std::vector<std::pair<std::string, bool>> scopes;
            if (q.contracts.empty()) scopes.push_back({"all inputs", false});
            else {
                scopes.push_back({"within caller contracts", true});
                if (opt.raw_scope) scopes.push_back({"raw flag space", false});
            }
            return scopes;
        };
        auto not_applicable = [&](const Query& q) {
            vd.entry = q.entry;
            vd.method = q.method;
            vd.applicable = false;
            vd.why_not = q.why_not;
            out.push_back(vd);
        };
        // the key of its first query, digested once in the probe context:
        // looked up there, and kept under it if the fresh context proves it
        std::optional<Hash128> kept_key, decided;
        if (use_kept) {
            const auto t0 = std::chrono::steady_clock::now();
            ContextScope probe_scope(*probe);
            const auto pb = build_in(*probe);
            if (!pb->q.applicable) {
                not_applicable(pb->q);
                continue;
            }
            const auto scopes = scopes_of(pb->q);
            const bool first_with_contracts = scopes.size() == 1 && scopes[0].second;
            kept_key = proof_key(query_assertions(*pb, first_with_contracts), kept_context);
            // A violation that simplifies to false is unsat whatever else the
            // query asserts: a mode-isolation obligation over rules the variant
            // shares with its baseline compares the same terms on both sides
            // (three in four of a patch's own queries). Proved without a fresh
            // context or a check, and kept like a proof Z3 gave.
            const bool kept = kept_key && proof_kept(*kept_key);
            const bool trivially_unsat = !kept && pb->q.violation.simplify().is_false();
            if (trivially_unsat && kept_key) keep_proof(*kept_key);
            if (kept || trivially_unsat) {
                vd.entry = pb->q.entry;
                vd.method = pb->q.method;
                const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                // unsat over the first query: over the raw flag space, so within the contracts too
                for (const auto& sc : scopes) {
                    ScopeVerdict sv;
                    sv.scope = sc.first;
                    sv.verdict = ob.informational ? "unchanged" : "proved";
                    sv.ms = ms;
                    vd.scopes.push_back(sv);
                }
                out.push_back(vd);
                continue;
            }
            if (kept_key && use_decided)
                decided = decided_key(vd.variant, base_name, ob.id, decided_options, *kept_key);
            if (decided) {
                if (auto scopes = decided_kept(*decided)) {
                    vd.entry = pb->q.entry;
                    vd.method = pb->q.method;
                    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                    for (auto& sv : *scopes) sv.ms = ms;
                    vd.scopes = std::move(*scopes);
                    out.push_back(vd);
                    continue;
                }
            }
        }
        z3::context c;
        ContextScope scope(c);
        const auto built = build_in(c);
        Builder& b = built->b;
        Query& q = built->q;
        if (!q.applicable) {
            not_applicable(q);
            continue;
        }
        vd.entry = q.entry;
        vd.method = q.method;
        const auto scopes = scopes_of(q);
        // A solver over the query, with or without the caller contracts.
        auto make_solver = [&](bool with_contracts, const std::string& scope_name, ScopeVerdict& sv) {
            z3::solver s(c, "QF_BV");
            z3::params p(c);
            p.set("timeout", opt.timeout_ms);
            s.set(p);
            // the very assertions a kept proof is looked up by (query_assertions)
            for (const auto& a : query_assertions(*built, with_contracts)) s.add(a);
            if (!opt.smt2_dir.empty()) {
                std::filesystem::create_directories(opt.smt2_dir);
                sv.smt2_file = opt.smt2_dir + "/" + safe(vd.variant + "." + ob.id + "." + scope_name) + ".smt2";
                std::ofstream(sv.smt2_file) << s.to_smt2();
            }
            return s;
        };
        // The verdict of a scope whose solver has answered `r`; a
        // counterexample is made readable (preferences, fewest GFP bits),
        // shown and replayed.
        auto decide = [&](z3::solver& s, z3::check_result r, const std::string& scope_name, ScopeVerdict& sv) {
            if (r == z3::unsat) {
                sv.verdict = ob.informational ? "unchanged" : "proved";
            } else if (r == z3::unknown) {
                sv.verdict = "unknown";
                sv.details.push_back("solver: " + s.reason_unknown());
            } else {
                sv.verdict = ob.informational ? "changed" : "counterexample";
                // then the defaults, so the configuration printed is the usual one
                std::vector<z3::expr> prefs = q.prefer;
                for (const z3::expr& d : {z3::expr(b.in.rt.hw_tags), z3::expr(b.in.rt.mte), z3::expr(!b.in.rt.kasan_off),
                                          z3::expr(b.in.rt.config_kasan_vmalloc), z3::expr(b.in.rt.vmalloc_param),
                                          z3::expr(!b.in.init_on_alloc), z3::expr(!b.in.init_on_free),
                                          z3::expr(z3::ule(b.in.sample, c.bv_val(16, 64))),
                                          z3::expr(b.in.sample == c.bv_val(1, 64)),
                                          z3::expr(b.in.sample_order == c.bv_val(3, 64)),
                                          z3::expr(!b.in.tcf_async && !b.in.tcf_asymm && !b.in.write_only),
                                          z3::expr(b.in.slub_rcu_debug == (b.in.rt.generic || b.in.rt.sw_tags)),
                                          z3::expr(!b.in.kfence)})
                    prefs.push_back(d);
                // After a refused preference is popped the solver holds no
                // model until it checks again; that check waits until a model
                // is read, so a run of refusals costs one re-check, not one each.
                bool stale = false;
                auto model = [&]() {
                    if (stale) s.check();
                    stale = false;
                    return s.get_model();
                };
                // A trace: the earliest step that can fail, so that the trace
                // shown is a shortest one. A step that cannot fail stays
                // asserted as such (the solver said so), which the later
                // steps' checks may use; one the solver gave up on is not.
                int last_step = int(q.violation_at.size()) - 1;
                for (int k = 0; opt.shortest_trace && k < int(q.violation_at.size()); ++k) {
                    s.push();
                    s.add(q.violation_at[k]);
                    const z3::check_result at = s.check();
                    if (at == z3::sat) {
                        last_step = k;
                        stale = false;
                        break;
                    }
                    s.pop();
                    stale = true;
                    if (at == z3::unsat) s.add(!q.violation_at[k]);
                }
                // a preference or GFP symbol of a step past the trace's end changes nothing shown
                auto past_end = [&](const std::vector<int>& step_of, std::size_t i) {
                    return i < step_of.size() && step_of[i] > last_step;
                };
                for (std::size_t i = 0; i < prefs.size(); ++i) {
                    const z3::expr& pref = prefs[i];
                    if (past_end(q.prefer_step, i)) continue;
                    s.push();
                    s.add(pref);
                    if (s.check() == z3::sat) {
                        stale = false;
                        continue;  // keep the preference
                    }
                    s.pop();
                    stale = true;
                }
                for (std::size_t i = 0; i < q.minimise_bits.size(); ++i) {
                    const z3::expr& g = q.minimise_bits[i];
                    if (past_end(q.minimise_step, i)) continue;
                    std::uint64_t val = model().eval(g, true).get_numeral_uint64();
                    for (int bit = 63; bit >= 0; --bit) {
                        if (!(val >> bit & 1)) continue;
                        s.push();
                        s.add((g & c.bv_val(std::uint64_t(1) << bit, 64)) == c.bv_val(0, 64));
                        if (s.check() == z3::sat) {
                            stale = false;
                            val = s.get_model().eval(g, true).get_numeral_uint64();
                            continue;  // keep it cleared
                        }
                        s.pop();
                        stale = true;
                    }
                }
                z3::model m = model();
                sv.details.push_back("configuration: " + read_config(m, b.in).describe());
                for (const auto& w : q.witnesses) sv.details.push_back(w.name + ": " + show(m, w, b));
                for (const auto& [name, ab] : q.fields) {
                    z3::expr x = m.eval(ab.first, true), y = m.eval(ab.second, true);
                    if (z3::eq(x, y)) continue;
                    auto txt = [](const z3::expr& e) {
                        if (e.is_bool()) return std::string(e.is_true() ? "yes" : "no");
                        char buf[24];
                        std::snprintf(buf, sizeof buf, "%#llx", (unsigned long long)e.get_numeral_uint64());
                        return std::string(buf);
                    };
                    sv.details.push_back(name + ": " + txt(x) + " (" + vd.variant + ") vs " + txt(y) + " (" +
                                         base_name + ")");
                }
                for (const auto& k : q.contracts)
                    if (k.step <= last_step && !m.eval(k.holds, true).is_true()) sv.broken.push_back(k.name + ": " + k.text);
                if (q.scenario) {
                    sv.scenario = q.scenario(m);
                    if (q.trace_from_scenario) {
                        std::istringstream in(sv.scenario);
                        std::string l;
                        while (std::getline(in, l))
                            if (l.find('(') != std::string::npos && l.rfind("doc", 0) != 0 && l.rfind("#", 0) != 0)
                                sv.details.push_back("  " + l);
                    }
                    if (!opt.scenario_dir.empty()) {
                        std::filesystem::create_directories(opt.scenario_dir);
                        std::ofstream(opt.scenario_dir + "/" + safe(vd.variant + "." + ob.id + "." + scope_name) +
                                      ".litmus")
                            << sv.scenario;
                    }
                    if (opt.replay) {
                        sv.replay = replay(sv.scenario, safe(vd.variant + "." + ob.id) + ".litmus", ob.invariant, sv.replay_ok);
                        // a change need not be visible within one event (a counter, say): no solver bug
                        if (ob.informational && !sv.replay_ok) {
                            sv.replay_ok = true;
                            sv.replay = "not visible in a one-event replay (" + sv.replay + ")";
                        }
                    }
                }
            }
        };
        auto ms_since = [](std::chrono::steady_clock::time_point t0) {
            return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        };
        if (scopes.size() == 2) {
            // The contracts only narrow the inputs: a proof over the raw flag
            // space is one within them, and a counterexample within them is
            // one over the raw flag space. So the raw space is asked first;
            // only when it has a counterexample are the contracts asked, and
            // a counterexample within them serves both scopes.
            ScopeVerdict within, raw;
            within.scope = scopes[0].first;
            raw.scope = scopes[1].first;
            auto t0 = std::chrono::steady_clock::now();
            z3::solver rs = make_solver(false, raw.scope, raw);
            const z3::check_result rr = rs.check();
            if (rr == z3::unsat && kept_key) keep_proof(*kept_key);
            if (rr == z3::unsat) {
                decide(rs, rr, raw.scope, raw);
                raw.ms = ms_since(t0);
                within.verdict = raw.verdict;
                within.ms = raw.ms;
                if (!opt.smt2_dir.empty()) make_solver(true, within.scope, within);  // --smt2 writes both queries
            } else {
                auto t1 = std::chrono::steady_clock::now();
                z3::solver ws = make_solver(true, within.scope, within);
                const z3::check_result wr = ws.check();
                decide(ws, wr, within.scope, within);
                within.ms = ms_since(t1);
                if (wr == z3::sat) {
                    const std::string smt2 = raw.smt2_file;
                    raw = within;  // the same input, outside no contract
                    raw.scope = scopes[1].first;
                    raw.smt2_file = smt2;
                    raw.ms = ms_since(t0);
                    if (!opt.scenario_dir.empty() && !raw.scenario.empty())
                        std::ofstream(opt.scenario_dir + "/" + safe(vd.variant + "." + ob.id + "." + raw.scope) + ".litmus")
                            << raw.scenario;
                } else {
                    decide(rs, rr, raw.scope, raw);
                    raw.ms = ms_since(t0);
                }
            }
            vd.scopes.push_back(within);
            vd.scopes.push_back(raw);
        } else {
            ScopeVerdict sv;
            sv.scope = scopes[0].first;
            auto t0 = std::chrono::steady_clock::now();
            z3::solver s = make_solver(scopes[0].second, sv.scope, sv);
            const z3::check_result r = s.check();
            if (r == z3::unsat && kept_key) keep_proof(*kept_key);
            decide(s, r, sv.scope, sv);
            sv.ms = ms_since(t0);
            vd.scopes.push_back(sv);
        }
        if (decided) keep_decided(*decided, vd.scopes);
        out.push_back(vd);
    }
    return out;
}

}  // namespace tagproof::solver
