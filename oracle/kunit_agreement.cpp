// kunit_agreement.cpp — see kunit_agreement.hpp.
#include "kunit_agreement.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "error.hpp"
#include "kunit_writer.hpp"
#include "runner.hpp"
#include "variant.hpp"
#include "version.hpp"

namespace tagproof::oracle {

namespace {

// "6.12.117" -> {6, 12}; "linux-6.4" -> {6, 4}; {-1, -1} when not a version
std::pair<int, int> major_minor_pair(const std::string& s) {
    const auto n = version_parts(s);
    if (n.size() < 2) return {-1, -1};
    return {int(n[0]), int(n[1])};
}

std::string reports_text(const std::vector<KasanReport>& rs) {
    if (rs.empty()) return "0";
    std::string out = std::to_string(rs.size()) + ":";
    for (std::size_t i = 0; i < rs.size(); ++i) out += (i ? ", " : " ") + rs[i].bug_type;
    return out;
}

}  // namespace

std::size_t Agreement::count(CaseAgreement::Kind k) const {
    return std::size_t(std::count_if(rows.begin(), rows.end(), [k](const CaseAgreement& r) { return r.kind == k; }));
}

std::vector<std::string> era_variants(const std::string& version) {
    const auto want = major_minor_pair(version);
    if (want.first < 0) throw InputError("kernel log", "no kernel version to choose the era by ('" + version + "')");
    // the model's releases (linux-X.Y), oldest first
    std::map<std::pair<int, int>, std::string> releases;
    for (const kernel::Variant* v : kernel::all_variants())
        if (v->name().rfind("linux-", 0) == 0)
            if (const auto mv = major_minor_pair(v->name().substr(6)); mv.first >= 0) releases[mv] = v->name();
    auto above = releases.upper_bound(want);  // the oldest release after the kernel
    if (above == releases.begin())
        throw InputError("kernel log", "kernel " + version + " is older than every release the model has");
    auto below = std::prev(above);  // the newest not after it
    std::vector<std::string> out{below->second};
    if (below->first != want && above != releases.end()) out.push_back(above->second);
    return out;
}

namespace {

// A path as a report shows it: relative to where the tool ran, so that a
// report written on one machine names none of its directories.
std::string shown_path(const std::string& p) {
    std::error_code ec;
    const std::filesystem::path rel = std::filesystem::relative(p, std::filesystem::current_path(), ec);
    return ec || rel.empty() ? p : rel.string();
}

// `what` with the scenario file's path as a report shows it.
std::string with_shown_path(std::string what, const std::string& file) {
    const std::string shown = shown_path(file);
    for (std::size_t at = what.find(file); !file.empty() && at != std::string::npos; at = what.find(file, at + shown.size()))
        what.replace(at, file.size(), shown);
    return what;
}

// The model's verdict on a port under one variant: (passes, "PASS Always reports=2", min, max reports).
struct ModelRun {
    bool ran = false, pass = false;
    std::string text;
    std::uint64_t min_reports = 0, max_reports = 0;
};

ModelRun run_port(scenario::Scenario sc, const std::string& variant) {
    ModelRun m;
    sc.modes = {Mode::hw_tags};
    scenario::RunOptions ro;
    ro.variant_override = variant;
    try {
        const scenario::ModeResult mr = scenario::run_scenario(sc, ro).at(0);
        m.ran = true;
        m.pass = mr.pass;
        m.min_reports = mr.min_reports;
        m.max_reports = mr.max_reports;
        m.text = std::string(mr.pass ? "PASS " : "FAIL ") + mr.observation + " reports=" + std::to_string(mr.min_reports) +
                 (mr.max_reports != mr.min_reports ? ".." + std::to_string(mr.max_reports) : "");
    } catch (const InputError& e) {
        // a port the era cannot run (a flag, config key or entry point it lacks)
        m.text = std::string("cannot run: ") + with_shown_path(e.what(), sc.file);
    }
    return m;
}

}  // namespace

Agreement compare_kunit(const KernelLog& log, const std::string& suite, const std::string& corpus_dir,
                        const std::vector<std::string>& variants) {
    Agreement a;
    a.kernel_version = log.version;
    a.kasan_line = log.kasan_line;
    a.variants = variants.empty() ? era_variants(log.version) : variants;
    for (const KtapCase* c : suite_cases(log, suite)) {
        CaseAgreement row;
        row.name = c->name;
        row.kernel = c->result == KtapCase::ok ? "ok" : c->result == KtapCase::not_ok ? "not ok" : "skip: " + c->directive;
        row.kernel_reports = reports_text(c->reports);
        const std::filesystem::path file = std::filesystem::path(corpus_dir) / (c->name + ".litmus");
        if (!std::filesystem::exists(file)) {
            row.kind = c->result == KtapCase::skip ? CaseAgreement::skipped : CaseAgreement::not_ported;
            row.note = "no " + file.filename().string() + " in " + shown_path(corpus_dir);
            a.rows.push_back(row);
            continue;
        }
        row.scenario = file.string();
        scenario::Scenario sc = scenario::load_scenario(file.string());
        if (std::find(sc.modes.begin(), sc.modes.end(), Mode::hw_tags) == sc.modes.end()) {
            row.model = {"no HW_TAGS port"};
            row.kind = c->result == KtapCase::skip ? CaseAgreement::skipped : CaseAgreement::not_ported;
            row.note = c->result == KtapCase::skip ? "both leave HW_TAGS out" : "the port has no hw_tags mode";
            a.rows.push_back(row);
            continue;
        }
        if (c->result == KtapCase::skip) {
            row.kind = CaseAgreement::skipped;
            row.note = "the kernel skipped it; the port expects HW_TAGS behaviour";
        }
        std::vector<std::string> agreeing;
        std::size_t ran = 0;
        for (const auto& v : a.variants) {
            const ModelRun m = run_port(sc, v);
            row.model.push_back(m.text);
            if (!m.ran) continue;
            ++ran;
            const bool agrees = (c->result == KtapCase::ok) == m.pass;
            if (agrees) agreeing.push_back(v);
            const std::size_t kr = c->reports.size();
            if (agrees && c->result != KtapCase::skip && (kr < m.min_reports || kr > m.max_reports) && row.note.empty())
                row.note = "reports: kernel " + std::to_string(kr) + ", model " + std::to_string(m.min_reports) +
                           (m.max_reports != m.min_reports ? ".." + std::to_string(m.max_reports) : "") + " under " + v;
        }
        if (c->result != KtapCase::skip) {
            if (ran == 0) {
                row.kind = CaseAgreement::not_ported;
                row.note = "no variant can run the port";
            } else if (agreeing.size() == ran) {
                row.kind = CaseAgreement::agree;
            } else if (!agreeing.empty()) {
                row.kind = CaseAgreement::era;
                row.note = "agrees under " + agreeing.front() + " only" + (row.note.empty() ? "" : "; " + row.note);
            } else {
                row.kind = CaseAgreement::disagree;
                row.note = c->result == KtapCase::ok ? "the kernel passes the case, the model's port fails"
                                                     : "the kernel fails the case, the model's port passes";
            }
        }
        a.rows.push_back(row);
    }
    return a;
}

std::string agreement_markdown(const Agreement& a) {
    std::ostringstream o;
    auto cell = [](std::string s) {
        for (auto& ch : s)
            if (ch == '|') ch = '/';
        return s;
    };
    o << "| KUnit case | kernel | KASAN reports |";
    for (const auto& v : a.variants) o << " model, " << v << " (hw_tags) |";
    o << " agreement | note |\n|---|---|---|";
    for (std::size_t i = 0; i < a.variants.size(); ++i) o << "---|";
    o << "---|---|\n";
    for (const auto& r : a.rows) {
        const char* k = r.kind == CaseAgreement::agree      ? "agree"
                        : r.kind == CaseAgreement::era      ? "agree (one era)"
                        : r.kind == CaseAgreement::disagree ? "**disagree**"
                        : r.kind == CaseAgreement::skipped  ? "skipped"
                                                            : "not ported";
        o << "| " << r.name << " | " << cell(r.kernel) << " | " << cell(r.kernel_reports) << " |";
        for (std::size_t i = 0; i < a.variants.size(); ++i)
            o << " " << (r.scenario.empty() ? "-" : cell(i < r.model.size() ? r.model[i] : r.model.front())) << " |";
        o << " " << k << " | " << cell(r.note) << " |\n";
    }
    o << "\n" << a.count(CaseAgreement::agree) << " agree, " << a.count(CaseAgreement::era)
      << " agree under one of the bracketing eras only, " << a.count(CaseAgreement::disagree) << " disagree, "
      << a.count(CaseAgreement::skipped) << " skipped by the kernel, " << a.count(CaseAgreement::not_ported)
      << " not ported, of " << a.rows.size() << " cases.\n";
    return o.str();
}

}  // namespace tagproof::oracle

// ---- item 4: scenarios run in the kernel ----


namespace tagproof::oracle {

std::vector<ScenarioAgreement> compare_scenarios(const KernelLog& log, const std::string& suite,
                                                 const std::vector<std::string>& files,
                                                 const std::vector<std::string>& variants,
                                                 const std::map<std::string, std::string>& excluded,
                                                 const std::vector<std::string>& eras) {
    std::vector<ScenarioAgreement> rows;
    const KernelTarget target{eras.empty() ? era_variants(log.version) : eras, excluded};
    const std::vector<const KtapCase*> cases = suite_cases(log, suite);
    for (const auto& f : files) {
        scenario::Scenario sc = scenario::load_scenario(f);
        ScenarioAgreement row;
        row.file = f;
        row.name = sc.name;
        const Expressible ex = expressible(sc, target);
        if (!ex.ok) {
            row.kernel = "not written: " + ex.why;
            rows.push_back(row);
            continue;
        }
        const std::string id = kunit_case_name(sc);
        const KtapCase* kc = nullptr;
        for (const KtapCase* c : cases)
            if (c->name == id) kc = c;
        if (!kc) {
            row.kernel = "not run (no result line for case " + id + ")";
            rows.push_back(row);
            continue;
        }
        row.kernel = kc->result == KtapCase::ok ? "ok" : kc->result == KtapCase::not_ok ? "not ok" : "skip: " + kc->directive;
        // the file's outcomes are what the kernel is held to; the model's
        // verdict on them under each bracketing release is shown beside
        std::set<bool> passes;  // the model's verdict per bracketing release
        for (const auto& v : variants) {
            const ModelRun m = run_port(sc, v);
            row.model += (row.model.empty() ? "" : "; ") + v + ": " + m.text;
            if (m.ran) passes.insert(m.pass);
        }
        bool all = true;
        for (const auto& st : sc.statements) {
            if (st.kind == scenario::Statement::check && !kernel_check(sc, st).empty()) {
                // a check the kernel evaluated: the file says it holds in every run
                StatementAgreement sa;
                sa.line = st.line;
                sa.statement = "check " + st.cond.text;
                sa.expected = "holds";
                sa.observed = "not reached";
                for (const auto& s : kc->statements)
                    if (s.scenario_line == st.line && s.check != StatementResult::Check::none)
                        sa.observed = s.check == StatementResult::Check::holds ? "holds" : "fails";
                if (sa.observed == "not reached") ++row.not_reached;
                sa.agree = sa.observed == "holds";
                all &= sa.agree;
                row.statements.push_back(sa);
                continue;
            }
            if (st.kind != scenario::Statement::event) continue;
            if (!st.modes.empty() && std::find(st.modes.begin(), st.modes.end(), Mode::hw_tags) == st.modes.end()) continue;
            StatementAgreement sa;
            sa.line = st.line;
            sa.expected = expected_outcome(sc, st);
            const StatementResult* seen = nullptr;
            for (const auto& s : kc->statements)
                if (s.scenario_line == st.line) seen = &s;
            if (!seen) {
                ++row.not_reached;
                sa.observed = "not reached";
                sa.agree = sa.expected.empty();
                all &= sa.agree;
                row.statements.push_back(sa);
                continue;
            }
            sa.statement = seen->call;
            sa.observed = seen->reported ? "report" : "no report";
            if (seen->reported && !seen->reports.empty()) sa.observed = "report(" + seen->reports.front().bug_type + ")";
            if (sa.expected.empty()) {
                sa.agree = true;
            } else if (sa.expected == "no report") {
                sa.agree = !seen->reported;
            } else if (sa.expected == "report") {
                sa.agree = seen->reported;
            } else {  // report(TYPE): the type the kernel printed too
                sa.agree = seen->reported && sa.observed == sa.expected;
            }
            all &= sa.agree;
            row.statements.push_back(sa);
        }
        // the file's outcomes are the model's only where the model passes it:
        // where every bracketing release fails it, the kernel doing what the
        // file says is the kernel disagreeing with the model
        const bool model_fails = passes.size() == 1 && !*passes.begin();
        row.kind = passes.size() > 1                ? (all ? ScenarioAgreement::agree : ScenarioAgreement::era)
                   : all && !model_fails             ? ScenarioAgreement::agree
                                                     : ScenarioAgreement::disagree;
        if (model_fails) row.note = "the model fails the file under every bracketing release";
        rows.push_back(row);
    }
    return rows;
}

std::string scenario_agreement_markdown(const std::vector<ScenarioAgreement>& rows,
                                        const std::vector<std::string>& variants) {
    std::ostringstream o;
    std::string vs;
    for (const auto& v : variants) vs += (vs.empty() ? "" : ", ") + v;
    o << "| scenario | KUnit case | model (" << vs << ", hw_tags) | statements agreeing | agreement | where they differ |\n";
    o << "|---|---|---|---|---|---|\n";
    std::size_t agree = 0, era = 0, disagree = 0, not_run = 0, not_written = 0;
    for (const auto& r : rows) {
        std::size_t ok = 0;
        std::string diff;
        for (const auto& s : r.statements) {
            ok += s.agree;
            if (!s.agree)
                diff += (diff.empty() ? "" : "; ") + std::string("L") + std::to_string(s.line) + " " + s.statement +
                        ": model " + s.expected + ", kernel " + s.observed;
        }
        const bool written = r.kernel.rfind("not written", 0) != 0;
        const char* k = r.kind == ScenarioAgreement::agree      ? "agree"
                         : r.kind == ScenarioAgreement::era      ? "differs; the model's releases differ too"
                         : r.kind == ScenarioAgreement::disagree ? "**disagree**"
                         : written                               ? "not run"
                                                                 : "not written";
        (r.kind == ScenarioAgreement::agree ? agree
         : r.kind == ScenarioAgreement::era ? era
         : r.kind == ScenarioAgreement::disagree ? disagree
         : written                              ? not_run
                                                : not_written)++;
        if (!r.note.empty()) diff = r.note + (diff.empty() ? "" : "; " + diff);
        std::string kern = r.kernel, d = diff;
        for (auto* s : {&kern, &d})
            for (auto& ch : *s)
                if (ch == '|') ch = '/';
        o << "| " << std::filesystem::path(r.file).filename().string() << " | " << kern << " | "
          << (r.model.empty() ? "-" : r.model) << " | "
          << (r.statements.empty() ? std::string("-") : std::to_string(ok) + "/" + std::to_string(r.statements.size()))
          << " | " << k << " | " << (d.empty() ? "" : d) << " |\n";
    }
    o << "\n" << agree << " agree, " << era << " differ where the model's bracketing releases differ too, " << disagree
      << " disagree, " << not_run << " written but not run, " << not_written
      << " not written (not expressible in kernel C, another era, or excluded), of " << rows.size() << " scenarios.\n";
    return o.str();
}

}  // namespace tagproof::oracle
