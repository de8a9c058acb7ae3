// runner.cpp — executes a Scenario on the model, once per path of tag
// choices, and judges outcomes, checks, invariants and the verdict.
#include "runner.hpp"

#include "config_keys.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "error.hpp"
#include "interpreter.hpp"
#include "model.hpp"
#include "observe.hpp"
#include "variant.hpp"

namespace tagproof::scenario {

using spec::Model;
using spec::Ptr;

namespace {

// What one run produced.
struct RunRecord {
    bool pruned = false;
    std::vector<std::string> failures;
    std::set<std::string> violated;
    std::vector<std::string> violation_text;
    std::vector<std::string> trace;
    std::vector<std::string> observed;  // per event: what a reviewer could see (mode-isolation)
    std::uint64_t reports = 0;
    std::set<int> zeroing_lines;  // the events after which the oracle held memory to its zeroing requirement
    std::set<int> match_all_lines;  // ... and a pointer to KASAN_TAG_KERNEL
};

std::string at(const Scenario& sc, int line) { return sc.file + ":" + std::to_string(line); }

bool mode_applies(const std::vector<Mode>& ms, Mode m) { return ms.empty() || std::count(ms.begin(), ms.end(), m); }

}  // namespace

spec::ModelConfig model_config(const Scenario& sc, Mode mode, const kernel::Variant& v) {
    spec::ModelConfig c;
    c.build.mode = mode;
    std::string where = at(sc, sc.config_line);
    for (const auto& kv : sc.config) {
        // named copies, not structured bindings: clang before 16 cannot capture those in a lambda
        const std::string& k = kv.first;
        const std::string& val = kv.second;
        const std::string w = sc.config_lines.count(k) ? at(sc, sc.config_lines.at(k)) : where;
        check_config(k, val, w);  // the parser did; a Scenario built in code gets the same check
        auto yes = [&] { return config_yes(k, val, w); };
        auto num = [&] { return config_number(k, val, w); };
        if (k == "kasan_vmalloc") c.build.kasan_vmalloc = yes();
        else if (k == "vmap_stack") c.build.vmap_stack = yes();
        else if (k == "lockdep") c.build.lockdep = yes();
        else if (k == "slub_rcu_debug") {
            if (!v.features().slub_rcu_debug)
                throw InputError(w, "config slub_rcu_debug: CONFIG_SLUB_RCU_DEBUG does not exist in " + v.name() +
                                        " (v6.12+)");
            c.build.slub_rcu_debug = yes();
        }
        else if (k == "kfence") c.build.kfence = yes();
        else if (k == "deferred_struct_page_init") c.build.deferred_struct_page_init = yes();
        else if (k == "mte") c.machine.mte = yes();
        else if (k == "mte_asymm") c.machine.mte_asymm = yes();
        else if (k == "mte_store_only") c.machine.mte_store_only = yes();
        else if (k == "cpus") c.machine.cpus = int(num());
        else if (k == "nodes") c.machine.nodes = int(num());
        else if (k == "pages") c.pages = unsigned(num());
        else if (k == "initial_mem_tag") c.initial_mem_tag = Tag(num());
        else if (k == "check_style") c.build.check_style = parse_check_style(val, w);
        else if (k == "sample_phase") c.sample_phase_any = val == "any";
    }
    // arch/arm64/Kconfig: select KASAN_VMALLOC if KASAN (since v5.18, "arm64:
    // select KASAN_VMALLOC for SW/HW_TAGS modes"); the tag-based modes exist only on arm64
    if (!c.build.kasan_vmalloc && (mode == Mode::hw_tags || mode == Mode::sw_tags))
        throw InputError(where, std::string("config kasan_vmalloc=n cannot be built with ") +
                                    (mode == Mode::hw_tags ? "KASAN_HW_TAGS" : "KASAN_SW_TAGS") +
                                    ": arm64 selects KASAN_VMALLOC if KASAN (use 'modes generic' for a build without it)");
    std::string cmdline = sc.boot_by_mode.count(mode) ? sc.boot_by_mode.at(mode) : sc.boot;
    c.boot = parse_boot_params_strict(cmdline, at(sc, sc.boot_line), v.boot_syntax());
    c.kunit_harness = sc.kunit_harness;
    // every number a tag could be compared with: tag arguments and check/assume constants
    auto add = [&](std::uint64_t n) {
        if (n <= 0xFF) c.distinguished_tags.push_back(Tag(n));
    };
    for (const auto& st : sc.statements) {
        if (!mode_applies(st.modes, mode)) continue;
        if (st.kind == Statement::event) {
            if (st.call == "set_tag" || st.call == "set_mem_tag") add(st.args.back().number);
            if (st.call == "user_set_tag") add(0xF0 | (st.args.back().number & 0xF));
        } else {
            for (const Term* t : {&st.cond.lhs, &st.cond.rhs, &st.cond.rhs_hi})
                if (t->kind == Term::number) add(t->value);
        }
    }
    return c;
}

namespace {

class Execution {
public:
    Execution(const Scenario& sc, Mode mode, const kernel::Variant& v, const spec::ModelConfig& cfg,
              spec::Chooser& ch, bool state_trace = false)
        : sc_(sc), mode_(mode), m_(v, cfg, ch), state_trace_(state_trace) {}

    RunRecord run() {
        for (const auto& st : sc_.statements) {
            if (!mode_applies(st.modes, mode_)) continue;
            if (m_.panicked()) break;
            where_ = at(sc_, st.line);
            if (st.kind == Statement::event) {
                event(st);
            } else {
                bool holds = cond(st.cond);
                if (st.kind == Statement::assume && !holds) {
                    rec_.pruned = true;
                    return rec_;
                }
                if (st.kind == Statement::check && !holds)
                    rec_.failures.push_back(where_ + ": check " + st.cond.text + " failed (" + show(st.cond.lhs) +
                                            " vs " + show(st.cond.rhs) + ")");
                // what a check saw is visible too (a build constant, a tag compared)
                if (st.kind == Statement::check || st.kind == Statement::observe) {
                    const std::string saw = st.cond.text + ": " + (holds ? "holds" : "fails") + " (" +
                                            show(st.cond.lhs) + ")";
                    rec_.observed.push_back("check " + saw);
                    rec_.trace.push_back("  " + std::string(st.kind == Statement::check ? "check " : "observe ") + saw);
                }
            }
        }
        for (const auto& vi : m_.violations()) {
            if (rec_.violated.insert(vi.invariant).second) rec_.violation_text.push_back(vi.invariant + ": " + vi.message);
        }
        for (const auto& r : m_.reports()) rec_.reports += r.kasan;
        return rec_;
    }

private:
    const Scenario& sc_;
    Mode mode_;
    Model m_;
    bool state_trace_ = false;
    Vars vars_;
    RunRecord rec_;
    std::string where_;

    Interpreter in_{m_, vars_, where_};

    [[noreturn]] void fail(const std::string& msg) const { in_.fail(msg); }
    Ptr ptr(const Arg& a) const { return in_.ptr(a); }
    int page(const Arg& a) const { return in_.page(a); }
    std::uint64_t num(const Arg& a) const { return in_.num(a); }
    void call(const Statement& st) { in_.call(st); }

    void event(const Statement& st) {
        std::size_t before = m_.reports().size(), warnings_before = m_.warnings(), notes_before = m_.notes().size();
        const std::size_t zeroing_before = m_.zeroing_checks(), match_all_before = m_.match_all_checks();
        rec_.trace.push_back("  " + st.text);
        std::size_t trace_at = rec_.trace.size() - 1;
        m_.begin_event(st.text);
        try {
            call(st);
        } catch (const InputError& e) {
            if (e.where().empty()) throw InputError(where_, e.what());
            throw;
        }
        m_.end_event();
        if (m_.zeroing_checks() != zeroing_before) rec_.zeroing_lines.insert(st.line);
        if (m_.match_all_checks() != match_all_before) rec_.match_all_lines.insert(st.line);
        std::uint64_t kasan = 0, faults = 0;
        std::string first_type;
        for (std::size_t i = before; i < m_.reports().size(); ++i) {
            const auto& r = m_.reports()[i];
            if (r.kasan) {
                if (!kasan) first_type = r.bug_type;
                ++kasan;
            } else if (r.bug_type == "page-fault") {
                ++faults;
            }
            std::string txt = m_.format_report(r);
            std::istringstream in(txt);
            std::string l;
            while (std::getline(in, l)) rec_.trace.push_back("    " + l);
        }
        // what else the kernel printed at this event (a WARN, an allocation failure), without its label
        for (std::size_t i = notes_before; i < m_.notes().size(); ++i) {
            const std::string& n = m_.notes()[i];
            rec_.trace.push_back("    " + (n.rfind(st.text + ": ", 0) == 0 ? n.substr(st.text.size() + 2) : n));
        }
        rec_.trace[trace_at] += describe_result(st);
        if (state_trace_) state_lines(st);
        Outcome o = st.outcome_by_mode.count(mode_) ? st.outcome_by_mode.at(mode_) : st.outcome;
        if (o.kind == Outcome::none && sc_.kunit_harness) o.kind = Outcome::ok;
        std::string got = kasan ? std::to_string(kasan) + " report(s), first " + first_type
                                : faults ? "an MMU fault" : "no report";
        rec_.observed.push_back("line " + std::to_string(st.line) + " " +
                                observe_event(m_, st, vars_, before, warnings_before));
        bool okk = true;
        switch (o.kind) {
            case Outcome::none:
            case Outcome::any: break;
            case Outcome::ok: okk = kasan == 0 && faults == 0; break;
            case Outcome::report: okk = kasan > 0 && (o.bug_type.empty() || o.bug_type == first_type); break;
            case Outcome::reports: okk = kasan == o.count; break;
            case Outcome::fault: okk = faults > 0; break;
        }
        if (!okk) {
            std::string want = o.kind == Outcome::ok ? "no report"
                               : o.kind == Outcome::report ? "a report" + (o.bug_type.empty() ? "" : " (" + o.bug_type + ")")
                               : o.kind == Outcome::reports ? std::to_string(o.count) + " report(s)" : "an MMU fault";
            rec_.failures.push_back(where_ + ": " + st.text + ": expected " + want + ", got " + got);
        }
    }

    // The pointers an event used or returned, as a review report shows them.
    void state_lines(const Statement& st) {
        std::vector<std::string> names;
        if (!st.result.empty()) names.push_back(st.result);
        for (const auto& a : st.args)
            if (!a.is_number && vars_.count(a.name) && std::find(names.begin(), names.end(), a.name) == names.end())
                names.push_back(a.name);
        for (const auto& n : names) {
            const Value& v = vars_.at(n);
            if (v.kind != Value::ptr && v.kind != Value::page) continue;
            Ptr p = v.kind == Value::ptr ? v.p : m_.page_address(v.id);
            if (p.null) continue;
            char b[160];
            auto mt = m_.mem_tag(p);
            int page = m_.page_object(p);
            std::string pt = page >= 0 ? tag_hex(m_.page_tag_of(page)) : std::string("-");
            std::snprintf(b, sizeof b, "      %s: pointer tag %02x, memory tag %s, page tag %s, data %s", n.c_str(), p.tag,
                          mt ? tag_hex(*mt).c_str() : "unmapped", pt.c_str(),
                          mt ? (m_.data_zero(p, 1) ? "zero" : "not zero") : "-");
            std::string line = b;
            // Outside HW_TAGS "memory tag" is KASAN's shadow; user space's MTE tags are apart.
            if (m_.config().build.mode != Mode::hw_tags)
                if (auto ut = m_.mte_allocation_tag(p)) line += ", MTE tag " + tag_hex(*ut);
            rec_.trace.push_back(line);
        }
    }

    std::string describe_result(const Statement& st) const {
        if (st.result.empty() || !vars_.count(st.result)) return "";
        const Value& v = vars_.at(st.result);
        char buf[64];
        if (v.kind == Value::ptr) {
            if (v.p.null) return "  -> NULL";
            std::snprintf(buf, sizeof buf, "  -> %016llx (tag %02x)", (unsigned long long)v.p.value(), v.p.tag);
            return buf;
        }
        if (v.kind == Value::page) {
            Ptr p = m_.page_address(v.id);
            std::snprintf(buf, sizeof buf, "  -> page, page_address %016llx (page tag %02x)",
                          (unsigned long long)p.value(), p.tag);
            return buf;
        }
        if (v.kind == Value::number) return "  -> " + std::to_string(v.n);
        return "";
    }

    std::uint64_t eval(const Term& t) const {
        switch (t.kind) {
            case Term::number: return t.value;
            case Term::reports: {
                std::uint64_t n = 0;
                for (const auto& r : m_.reports()) n += r.kasan;
                return n;
            }
            case Term::faults: {
                std::uint64_t n = 0;
                for (const auto& r : m_.reports()) n += !r.kasan;
                return n;
            }
            case Term::warnings: return m_.warnings();  // WARN()s the kernel printed so far
            case Term::gfp_bits_shift: return std::uint64_t(m_.gfp().bits_shift());  // this build's
            case Term::gfp_mask: return m_.gfp().parse(t.gfp, where_);  // this build's bits; an unknown name is an error
            case Term::tag: return ptr(t.arg).tag;
            case Term::memtag: {
                auto m = m_.mem_tag(ptr(t.arg));
                if (!m) fail("memtag(" + t.arg.text + "): address not mapped");
                return *m;
            }
            case Term::mtetag: {
                auto m = m_.mte_allocation_tag(ptr(t.arg));
                if (!m) fail("mtetag(" + t.arg.text + "): address not mapped, or the machine has no MTE (config mte=y)");
                return *m;
            }
            case Term::pagetag: return m_.page_tag_of(page(t.arg));
            case Term::order: return m_.object(page(t.arg)).order;
            case Term::zero: return m_.data_zero(ptr(t.arg), t.len) ? 1 : 0;
            case Term::null: {
                // what a call returned NULL for: a pointer (kmalloc above KMALLOC_MAX_SIZE) or an skb
                const Value& v = in_.var(t.arg.name);
                return (v.kind == Value::ptr && v.p.null) || (v.kind == Value::skb && v.id < 0) ? 1 : 0;
            }
            case Term::var: return num(t.arg);
        }
        return 0;
    }
    std::string show(const Term& t) const {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%#llx", (unsigned long long)eval(t));
        return t.text + "=" + buf;
    }
    bool cond(const Condition& c) const {
        std::uint64_t a = eval(c.lhs), b = eval(c.rhs);
        if (c.op == "in") return a >= b && a <= eval(c.rhs_hi);
        if (c.op == "==") return a == b;
        if (c.op == "!=") return a != b;
        if (c.op == "<") return a < b;
        if (c.op == "<=") return a <= b;
        if (c.op == ">") return a > b;
        return a >= b;
    }
};

}  // namespace

std::string ModeResult::line() const {
    std::ostringstream o;
    o << observation << " " << ok_weight.str() << " runs=" << runs;
    if (pruned) o << " pruned=" << pruned;
    if (sampled) o << " (sampled)";
    o << " reports=" << min_reports;
    if (max_reports != min_reports) o << ".." << max_reports;
    return o.str();
}

std::vector<ModeResult> run_scenario(const Scenario& sc, const RunOptions& opt) {
    std::vector<ModeResult> out;
    const kernel::Variant& v = opt.variant && !opt.variant_override.empty()
                                   ? *opt.variant
                                   : kernel::find_variant(opt.variant_override.empty() ? sc.variant : opt.variant_override, sc.file);
    for (Mode mode : sc.modes) {
        ModeResult res;
        res.mode = mode;
        // the name it was asked by: a recording variant's transcript then holds
        // name() only where a run printed it
        res.variant = opt.variant && !opt.variant_override.empty() ? opt.variant_override : v.name();
        spec::ModelConfig cfg = model_config(sc, mode, v);
        res.hw_tags_active = derive_runtime(cfg.build, cfg.machine, cfg.boot).hw_tags_enabled;
        if (!opt.check_style_override.empty())
            cfg.build.check_style = parse_check_style(opt.check_style_override, "--check-style");
        std::set<std::string> expected_violations;
        for (const auto& e : sc.expects)
            if (e.kind == Expect::violation && mode_applies(e.modes, mode)) expected_violations.insert(e.value);

        spec::Prob total{0, 1}, ok{0, 1};
        std::map<std::string, std::string> seen_violations;
        bool first = true;
        auto judge = [&](RunRecord& r, const spec::Prob& w) {
            if (r.pruned) {
                ++res.pruned;
                return;
            }
            total = total.plus(w);
            res.zeroing_lines.insert(r.zeroing_lines.begin(), r.zeroing_lines.end());
            res.match_all_lines.insert(r.match_all_lines.begin(), r.match_all_lines.end());
            bool holds = r.failures.empty();
            for (const auto& inv : r.violated)
                if (!expected_violations.count(inv)) holds = false;
            for (std::size_t i = 0; i < r.violation_text.size(); ++i) {
                std::string inv = r.violation_text[i].substr(0, r.violation_text[i].find(':'));
                seen_violations.emplace(inv, r.violation_text[i]);
            }
            if (holds) ok = ok.plus(w);
            if (first) {
                res.min_reports = res.max_reports = r.reports;
                first = false;
            }
            res.min_reports = std::min(res.min_reports, r.reports);
            res.max_reports = std::max(res.max_reports, r.reports);
            if (!holds && res.trace.empty()) {
                res.trace = r.trace;
                for (const auto& f : r.failures) res.failures.push_back(f);
                for (const auto& vt : r.violation_text)
                    if (!expected_violations.count(vt.substr(0, vt.find(':'))))
                        res.failures.push_back("unexpected violation of " + vt);
            }
        };
        const kernel::Variant* base = sc.baseline.empty() ? nullptr : &kernel::find_variant(sc.baseline, at(sc, sc.baseline_line));
        spec::ModelConfig base_cfg = base ? model_config(sc, mode, *base) : cfg;
        // 9 mode-isolation: the baseline, replaying the same tag choices, must show the same outcomes.
        auto isolate = [&](RunRecord& r, const std::vector<std::pair<std::size_t, std::size_t>>& path) {
            if (!base || r.pruned) return;
            spec::Replayer rp(path);
            Execution bx(sc, mode, *base, base_cfg, rp);
            RunRecord b = bx.run();
            std::string diff;
            for (std::size_t i = 0; i < std::max(r.observed.size(), b.observed.size()) && diff.empty(); ++i) {
                std::string a = i < r.observed.size() ? r.observed[i] : "(nothing)";
                std::string c = i < b.observed.size() ? b.observed[i] : "(nothing)";
                if (a != c) diff = v.name() + ": " + a + "; " + base->name() + ": " + c;
            }
            if (diff.empty() && rp.diverged())
                diff = v.name() + " and " + base->name() + " draw different random tags";
            // An invariant one side breaks and the other keeps is an outcome a
            // reviewer sees too (the huge zero folio's stale tags under one
            // variant, cleared under the other): the corpus compares outcomes,
            // so the replay of its mode-isolation finding must as well.
            if (diff.empty()) {
                diff = broken_difference(v.name(), r.violated, base->name(), b.violated);
            }
            if (!diff.empty() && r.violated.insert("mode-isolation").second)
                r.violation_text.push_back("mode-isolation: " + std::string(mode_name(mode)) + ": " + diff);
        };
        spec::Enumerator en;
        bool exhausted = true;
        do {
            if (res.runs >= opt.max_runs) {
                exhausted = false;
                break;
            }
            Execution ex(sc, mode, v, cfg, en, opt.state_trace);
            RunRecord r = ex.run();
            isolate(r, en.path());
            ++res.runs;
            judge(r, en.weight());
        } while (en.next());
        if (!exhausted) {
            // too many paths: a seeded sample, each run weighted equally
            res.sampled = true;
            res.runs = res.pruned = 0;
            total = {0, 1};
            ok = {0, 1};
            first = true;
            res.trace.clear();
            res.failures.clear();
            std::uint64_t seed = std::hash<std::string>{}(sc.name);
            for (std::size_t i = 0; i < opt.samples; ++i) {
                spec::Sampler s(seed + i);
                Execution ex(sc, mode, v, cfg, s, opt.state_trace);
                RunRecord r = ex.run();
                isolate(r, s.path());
                ++res.runs;
                judge(r, spec::Prob{1, 1});
            }
        }
        // verdict
        bool none_ok = ok.exact ? ok.num == 0 : ok.approx <= 0;
        bool all_ok = ok.exact && total.exact ? (ok.num == total.num && ok.den == total.den) : ok.approx >= total.approx;
        if (total.exact && total.num == 0) {
            res.observation = "Never";  // every run was pruned
            res.failures.push_back("every run was excluded by an assume");
        } else {
            res.observation = all_ok ? "Always" : none_ok ? "Never" : "Sometimes";
        }
        // ok_weight as a conditional probability over counted runs
        if (total.exact && ok.exact && total.num) {
            spec::Prob p = ok.times(total.den, total.num);
            res.ok_weight = p;
        } else {
            res.ok_weight = spec::Prob{0, 1, false, total.approx > 0 ? ok.approx / total.approx : 0};
        }
        for (const auto& [inv, txt] : seen_violations) res.violations.push_back(txt);

        // judge the expectations
        std::string want = "Always";
        std::vector<std::string> problems;
        for (const auto& e : sc.expects) {
            if (!mode_applies(e.modes, mode)) continue;
            std::string where = at(sc, e.line);
            if (e.kind == Expect::verdict) want = e.value;
            if (e.kind == Expect::probability && res.ok_weight.str() != e.value)
                problems.push_back(where + ": expected probability " + e.value + ", got " + res.ok_weight.str());
            if (e.kind == Expect::violation && !seen_violations.count(e.value))
                problems.push_back(where + ": expected a violation of " + e.value + ", but the invariant held in every run");
            if (e.kind == Expect::reports &&
                !(res.min_reports == e.count && res.max_reports == res.min_reports))
                problems.push_back(where + ": expected " + e.value + " report(s) in every run, got " +
                                   std::to_string(res.min_reports) +
                                   (res.max_reports != res.min_reports ? ".." + std::to_string(res.max_reports) : ""));
        }
        if (res.observation != want)
            problems.insert(problems.begin(), "expected " + want + ", observed " + res.observation + " (" +
                                                  res.ok_weight.str() + " of runs hold)");
        res.pass = problems.empty();
        if (!res.pass) {
            // failures of the first failing run explain a wrong verdict
            for (auto& f : res.failures) problems.push_back(f);
        }
        res.failures = problems;
        out.push_back(res);
    }
    return out;
}

RequiredLines required_lines(const std::string& text, Mode mode) {
    RequiredLines out;
    try {
        for (const auto& r : run_scenario(parse_scenario(text, "replay.litmus"), RunOptions{}))
            if (r.mode == mode) {
                out.zeroing.insert(r.zeroing_lines.begin(), r.zeroing_lines.end());
                out.match_all.insert(r.match_all_lines.begin(), r.match_all_lines.end());
            }
    } catch (const std::exception&) {
        // a scenario that does not run owes nothing
    }
    return out;
}

std::vector<std::string> violations_shown(const std::string& text, const std::string& invariant,
                                          std::optional<Mode> mode, std::size_t max_runs, std::size_t samples) {
    std::vector<std::string> out;
    try {
        Scenario sc = parse_scenario(text, "replay.litmus");
        RunOptions ro;
        ro.max_runs = max_runs;
        ro.samples = samples;
        for (const auto& r : run_scenario(sc, ro))
            if (!mode || r.mode == *mode)
                for (const auto& v : r.violations)
                    if (v.rfind(invariant + ":", 0) == 0) out.push_back(v);
    } catch (const std::exception&) {
        // a scenario that does not run shows nothing
    }
    return out;
}

}  // namespace tagproof::scenario
