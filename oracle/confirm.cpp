// confirm.cpp — see confirm.hpp.
#include "confirm.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "error.hpp"
#include "ktap.hpp"
#include "kunit_agreement.hpp"
#include "kunit_writer.hpp"
#include "runner.hpp"
#include "scenario.hpp"
#include "tag.hpp"

namespace tagproof::oracle {

namespace fs = std::filesystem;

namespace {

// Boots of both kernels at most, for a case a random tag may have hidden or
// shown in one boot: a tag collision does not repeat, a model defect does.
constexpr int kRounds = 3;

const char* kSuite = "tagproof_confirm";

// What the kernel shows of a property at one statement; false where the
// property is not one kernel run's to show.
bool observable(const std::string& property) {
    const auto& p = properties_one_run_shows();
    return std::find(p.begin(), p.end(), property) != p.end();
}

// The scenario's text with its variant line naming `variant`.
std::string with_variant(const std::string& text, const std::string& variant) {
    std::istringstream in(text);
    std::ostringstream out;
    std::string l;
    bool done = false;
    while (std::getline(in, l)) {
        if (!done && l.rfind("variant ", 0) == 0) {
            l = "variant " + variant;
            done = true;
        }
        out << l << "\n";
    }
    return out.str();
}

// The statement a violation's message names ("zeroing: t0 = pgtable_alloc(kernel): ..."):
// the last event whose text starts the message after the property; 0 when none does.
int named_line(const scenario::Scenario& sc, const std::string& violation, const std::string& property) {
    std::string msg = violation.substr(std::min(violation.size(), property.size() + 2));
    int line = 0;
    for (const auto& st : sc.statements)
        if (st.kind == scenario::Statement::event && msg.rfind(statement_text(st), 0) == 0) line = st.line;
    return line;
}

// The kernel's observation at a statement, in the property's terms, and
// whether it shows the violation.
struct Seen {
    bool reached = false, violation = false;
    std::string what;  // "data not zero at offset 0", "a KASAN report (invalid-access)", ...
};

// line 0: any statement (a scenario the model says holds names none): the
// first that shows the violation, else that every one reached shows none.
// `req` (scenario::required_lines): the statements after which the model
// owes the caller zeroed memory, for zeroing (data not zero elsewhere is no
// violation: vrealloc's kernel-doc promises __GFP_ZERO only when every call
// asked it); those whose pointer must be match-all, for no-false-positive
// (executable memory: the tag the kernel printed, beside its reports).
Seen seen_at(const KtapCase& kc, int line, const std::string& property, const scenario::Scenario* sc = nullptr,
             const scenario::RequiredLines* req = nullptr);

// Detection is about the accesses the file says are invalid (an outcome of
// `report`): a statement the file expects no report at is not a missed one.
bool expects_report(const scenario::Scenario* sc, int line) {
    if (!sc) return true;
    for (const auto& st : sc->statements)
        if (st.line == line && st.kind == scenario::Statement::event) return expected_outcome(*sc, st).rfind("report", 0) == 0;
    return false;
}

Seen seen_anywhere(const KtapCase& kc, const std::string& property, const scenario::Scenario* sc,
                   const scenario::RequiredLines* req) {
    const std::set<int>* owed = req && property == "zeroing" ? &req->zeroing : nullptr;
    Seen all;
    for (const auto& st : kc.statements) {
        if (st.check != StatementResult::Check::none) continue;  // a check is no access
        if (property == "detection" && !expects_report(sc, st.scenario_line)) continue;
        if (property == "zeroing" && owed && !owed->count(st.scenario_line)) continue;
        const Seen s = seen_at(kc, st.scenario_line, property, nullptr, req);
        if (!s.reached) continue;
        if (s.violation) {
            Seen v = s;
            v.what = "L" + std::to_string(st.scenario_line) + " " + s.what;
            return v;
        }
        all.reached = true;
    }
    if (all.reached)
        all.what = property == "zeroing" ? std::string("data zero at every allocation") + (owed ? " owed zeroes" : "")
                   : property == "detection" ? "a report at every access the file says is invalid"
                   : req && !req->match_all.empty() ? "no KASAN report, and a match-all pointer to each executable area"
                                             : "no KASAN report";
    else if (property == "detection") {
        all.reached = true;
        all.what = "no access the file says is invalid";
    }
    return all;
}

Seen seen_at(const KtapCase& kc, int line, const std::string& property, const scenario::Scenario* sc,
             const scenario::RequiredLines* req) {
    if (line == 0) return seen_anywhere(kc, property, sc, req);
    const bool match_all = property == "no-false-positive" && req && req->match_all.count(line);
    Seen s;
    for (const auto& st : kc.statements) {
        if (st.scenario_line != line) continue;
        s.reached = true;
        if (property == "zeroing") {
            if (st.data == StatementResult::Data::not_read) {
                s.reached = false;
                s.what = "its data not read";
            } else {
                s.violation = st.data == StatementResult::Data::not_zero;
                s.what = s.violation ? "data not zero at offset " + std::to_string(st.nonzero_offset) : "data zero";
            }
        } else if (property == "page-tag-consistency" && st.page_probe != StatementResult::Probe::none) {
            // the page handed out, read through page_address()
            s.violation = st.page_probe == StatementResult::Probe::report;
            s.what = std::string(s.violation ? "a KASAN report" : "no KASAN report") + " reading page_address() of its page";
        } else if (property == "page-tag-consistency" && st.reports.empty()) {
            // what page_address() carries shows only when something reads
            // through it: a statement without a probe and without a report
            // says nothing about it
            s.reached = false;
            s.what = "page_address() of its page not read";
        } else if (match_all && st.pointer_tag < 0) {
            // executable memory: what breaks is the tag the caller was handed,
            // which a KASAN report does not show
            s.reached = false;
            s.what = "the tag of the pointer it returned not printed";
        } else {
            const std::string type = st.reports.empty() ? "" : " (" + st.reports.front().bug_type + ")";
            s.what = st.reported ? "a KASAN report" + type : "no KASAN report";
            s.violation = property == "detection" ? !st.reported : st.reported;
            if (match_all) {
                char tag[8];
                std::snprintf(tag, sizeof tag, "%02x", st.pointer_tag);
                const bool tagged = st.pointer_tag != KASAN_TAG_KERNEL;
                s.what = std::string("pointer tag ") + tag +
                         (tagged ? " (executable memory through a tagged pointer)" : " (match-all, as executable memory must be)") +
                         (st.reported ? ", " + s.what : "");
                s.violation = s.violation || tagged;
            }
        }
    }
    return s;
}

// Runs the script; its stderr (progress, errors) goes to JOB/confirm.log and,
// line by line, to the progress callback. `tail`: its last line, with the
// compiler's first error when a kernel did not build (the series may not
// build on this tree: a part of it missing, or written for another release).
int run_script(const ConfirmJob& job, std::string& tail, int round = 1) {
    const std::string cmd = "sh '" + job.script + "' '" + job.tree + "' '" + job.work + "' '" + job.dir + "' " +
                            std::to_string(round) + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    std::array<char, 4096> buf{};
    std::ofstream log(job.dir + "/confirm.log", std::ios::app);
    std::string first_error;
    while (std::fgets(buf.data(), buf.size(), p)) {
        std::string l(buf.data());
        log << l;
        if (!l.empty() && l.back() == '\n') l.pop_back();
        if (first_error.empty() && l.find(": error: ") != std::string::npos) first_error = l;
        tail = l;
        if (job.progress) job.progress(l);
    }
    if (!first_error.empty() && first_error != tail) tail += " (first: " + first_error + ")";
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void write_file(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

// The console lines of case `kc` (after the previous case's result line).
std::vector<std::string> excerpt(const std::string& file, const KernelLog& log, const KtapCase& kc) {
    int from = 0;
    for (const auto& c : log.cases)
        if (c.line < kc.line && c.line > from) from = c.line;
    std::ifstream in(file);
    std::vector<std::string> out;
    std::string l;
    for (int n = 1; std::getline(in, l) && n <= kc.line; ++n)
        if (n > from && (l.find("# tagproof: ") != std::string::npos || l.find("BUG: KASAN: ") != std::string::npos ||
                         l.find("Pointer tag:") != std::string::npos || n == kc.line))
            out.push_back(l);
    return out;
}

std::string mode_of(const KernelLog& log) {
    const auto at = log.kasan_line.find("mode=");
    if (at == std::string::npos) return "";
    const auto end = log.kasan_line.find_first_of(",)", at);
    return log.kasan_line.substr(at + 5, end - at - 5);
}

// Writes the job (the suite, the series' files before and after, the boot
// lines) and runs the script; false with why when it fails.
bool run_job(const ConfirmJob& job, const std::string& c_source, const std::vector<std::string>& boots, std::string& why) {
    fs::remove_all(job.dir);
    for (const char* side : {"base", "patched"}) {
        write_file(job.dir + "/" + side + "/mm/kasan/tagproof_confirm.c", c_source);
        for (const auto& [path, text] : std::string(side) == "base" ? job.before : job.after)
            write_file(job.dir + "/" + side + "/" + path, text);
    }
    {
        std::ofstream b(job.dir + "/boots");
        for (const auto& l : boots) b << (l.empty() ? "-" : l) << "\n";
    }
    std::string tail;
    if (run_script(job, tail) == 0) return true;
    why = "the kernel could not be built or booted (" + tail + "; " + job.dir + "/confirm.log)";
    return false;
}

// A boot's console, as the script kept it. An empty one is a kernel that
// stopped before it printed anything (the script boots with earlycon, so
// before its first line): a crash to tell, not a log to refuse.
KernelLog read_log(const std::string& file) {
    std::error_code ec;
    if (fs::exists(file, ec) && fs::file_size(file, ec) == 0 && !ec) {
        KernelLog log;
        log.file = file;
        log.crashes.push_back(file + ": the kernel printed nothing on its console");
        return log;
    }
    std::ifstream in(file);
    return read_kernel_log(in, file);
}

// A case's statements as one comparable line: "L4 report, L6 no report".
std::string statements_of(const KtapCase& c) {
    std::string s;
    for (const auto& st : c.statements)
        s += (s.empty() ? "" : ", ") + ("L" + std::to_string(st.scenario_line)) +
             (st.check == StatementResult::Check::holds   ? " check holds"
              : st.check == StatementResult::Check::fails ? " check fails"
              : st.reported                               ? " report"
                                                          : " no report");
    return s;
}

// A crash at boot the model predicts: the function of its pc ("... (pc
// __kasan_unpoison_vmalloc+0x224/0x31c; ...)") named as the one that faults
// ("faults in __kasan_unpoison_vmalloc()") in a violation of the finding's
// property that one of its traces (its own, the other engines') shows under
// the patch's variant and not under the tree's: that violation, else "".
std::string predicted_crash(const ConfirmFinding& f, const std::string& crash, const ConfirmJob& job) {
    const auto at = crash.find(" (pc ");
    if (at == std::string::npos) return "";
    const std::string fn = crash.substr(at + 5, crash.find_first_of("+;) ", at + 5) - at - 5);
    if (fn.empty()) return "";
    const std::string says = "faults in " + fn + "()";
    std::vector<std::pair<std::string, std::string>> traces{{"the finding's own trace", f.scenario_text}};
    traces.insert(traces.end(), f.alternatives.begin(), f.alternatives.end());
    for (const auto& [whose, t] : traces) {
        for (const auto& v : scenario::violations_shown(with_variant(t, job.patched_variant), f.property, Mode::hw_tags)) {
            if (v.find(says) == std::string::npos) continue;
            bool base = false;
            for (const auto& b : scenario::violations_shown(with_variant(t, job.base_variant), f.property, Mode::hw_tags))
                base |= b.find(says) != std::string::npos;
            if (!base) return v + " (" + whose + ")";
        }
    }
    return "";
}

const char* result_of(const KtapCase& c) {
    return c.result == KtapCase::ok ? "ok" : c.result == KtapCase::not_ok ? "not ok" : "skip";
}

}  // namespace

Confirmation confirm_clean(const std::vector<std::string>& files, const std::map<std::string, std::string>& excluded,
                           const ConfirmJob& job) {
    Confirmation c;
    std::vector<scenario::Scenario> scs;
    for (const auto& f : files) scs.push_back(scenario::load_scenario(f));
    KernelTarget target;
    target.eras = era_variants(job.version);
    target.excluded = excluded;
    const KunitSuite suite = write_kunit_suite(scs, kSuite, target);
    if (suite.cases.empty()) {
        c.summary = "not run in a kernel: no scenario of the corpus can be written as kernel C for " + job.version;
        return c;
    }
    std::string why;
    if (!run_job(job, suite.c_source, {""}, why)) {
        c.summary = "not run in a kernel: " + why;
        return c;
    }
    // Round by round (boots only after the first): a case differs when it
    // differed in every round so far; a tag collision does not repeat.
    std::map<std::string, std::string> differ;  // case -> how, in the last round
    std::size_t ran = 0;
    std::string mode, crash;
    for (int round = 1; round <= kRounds; ++round) {
        if (round > 1) {
            std::string tail;
            if (run_script(job, tail, round) != 0) break;
        }
        const std::string sfx = round == 1 ? ".log" : ".r" + std::to_string(round) + ".log";
        const KernelLog base = read_log(job.dir + "/console-base-1" + sfx);
        const KernelLog patched = read_log(job.dir + "/console-patched-1" + sfx);
        mode = mode_of(patched);
        if (!patched.crashes.empty()) crash = patched.crashes.front();
        std::map<std::string, const KtapCase*> in_base;
        for (const KtapCase* k : suite_cases(base, kSuite)) in_base[k->name] = k;
        std::map<std::string, std::string> now_differ;
        std::size_t now_ran = 0;
        for (const KtapCase* k : suite_cases(patched, kSuite)) {
            auto b = in_base.find(k->name);
            if (b == in_base.end()) continue;
            ++now_ran;
            const std::string was = std::string(result_of(*b->second)) + " (" + statements_of(*b->second) + ")";
            const std::string now = std::string(result_of(*k)) + " (" + statements_of(*k) + ")";
            if (was != now && (round == 1 || differ.count(k->name)))
                now_differ[k->name] = k->name + ": unpatched " + was + ", patched " + now;
        }
        if (round == 1) ran = now_ran;
        differ = now_differ;
        if (differ.empty()) break;
        if (job.progress)
            job.progress(std::to_string(differ.size()) + " case(s) differ after round " + std::to_string(round) +
                         (round < kRounds ? ": booting both kernels again" : ""));
    }
    for (const auto& [name, how] : differ) c.excerpt.push_back(how);
    const std::string under = " under QEMU MTE (" + (mode.empty() ? std::string("?") : mode) + ")";
    if (ran == 0) {
        c.summary = "not run in a kernel: no case of the corpus ran on both kernels (" + job.dir + ")" +
                    (crash.empty() ? "" : ": " + crash);
        return c;
    }
    if (differ.empty()) {
        c.status = Confirmation::confirmed;
        c.summary = "confirmed clean in " + job.version + " + patch" + under + ": the " + std::to_string(ran) +
                    " corpus cases the kernel runs (" + std::to_string(suite.left_out.size()) +
                    " scenarios not expressible there) give the same results, report by report, with the patch "
                    "and without (a case that differed in one boot, by a tag collision, is booted again, up to " +
                    std::to_string(kRounds) + " boots)";
    } else {
        c.status = Confirmation::contradicted;
        c.summary = "not confirmed clean in " + job.version + " + patch" + under + ": " + std::to_string(differ.size()) +
                    " of " + std::to_string(ran) + " corpus cases differ with the patch in each of " +
                    std::to_string(kRounds) + " boots (" + c.excerpt.front() + (differ.size() > 1 ? "; ..." : "") + ")";
    }
    return c;
}

const std::vector<std::string>& properties_one_run_shows() {
    static const std::vector<std::string> p = {"zeroing", "no-false-positive", "page-tag-consistency", "detection"};
    return p;
}


const char* status_name(Confirmation::Status s) {
    switch (s) {
        case Confirmation::confirmed: return "confirmed";
        case Confirmation::contradicted: return "contradicted";
        default: return "not run";
    }
}

std::string kernel_work_dir(const std::string& tree) {
    std::string root;
    if (const char* k = std::getenv("TAGPROOF_KERNELS"); k && *k) {
        root = k;
    } else {
        const char* x = std::getenv("XDG_CACHE_HOME");
        const char* h = std::getenv("HOME");
        root = (x && *x ? std::string(x) : std::string(h ? h : ".") + "/.cache") + "/tagproof/kernels";
    }
    return root + "/" + fs::path(tree).lexically_normal().filename().string();
}

std::vector<Confirmation> confirm_findings(const std::vector<ConfirmFinding>& findings, const ConfirmJob& job) {
    std::vector<Confirmation> out(findings.size());
    // Each finding that one HW_TAGS kernel run can show: its case, its boot
    // line, the statement it names and the model's prediction per kernel.
    struct Case {
        std::size_t finding;
        scenario::Scenario sc;
        std::string boot;
        int line = 0;
        bool patched_violates = false, base_violates = false;
        scenario::RequiredLines required[2];  // unpatched, patched: what the model holds each statement to
        std::string used;       // another engine's trace run in the finding's stead: which, and why
    };
    std::vector<Case> cases;
    std::vector<std::string> boots;
    for (std::size_t i = 0; i < findings.size(); ++i) {
        const ConfirmFinding& f = findings[i];
        Confirmation& c = out[i];
        if (f.mode != Mode::hw_tags) {
            c.summary = std::string("not run in a kernel: the oracle's kernel is built with HW_TAGS only, this finding is ") +
                        mode_name(f.mode) + "'s";
            continue;
        }
        if (!observable(f.property)) {
            c.summary = "not run in a kernel: " + f.property + " compares builds or boots, not what one kernel run shows";
            continue;
        }
        // the finding's own trace, else the first other engine's that one kernel run can show
        Case k;
        std::string why_not;
        auto runnable = [&](const std::string& text, bool own) {
            Case t;
            t.finding = i;
            try {
                t.sc = scenario::parse_scenario(text, f.label);
            } catch (const std::exception& e) {
                why_not = std::string("its scenario does not parse: ") + e.what();
                return false;
            }
            KernelTarget target;
            target.confirm = true;
            const Expressible ex = expressible(t.sc, target);
            if (!ex.ok) {
                why_not = ex.why;
                return false;
            }
            // the model's predictions: the violation under the patch's variant, and under the tree's
            const auto patched = scenario::violations_shown(with_variant(text, job.patched_variant), f.property,
                                                            Mode::hw_tags);
            const auto base = scenario::violations_shown(with_variant(text, job.base_variant), f.property, Mode::hw_tags);
            t.patched_violates = !patched.empty();
            t.base_violates = !base.empty();
            if (!own && t.base_violates) {
                why_not = "the model shows it without the series too";
                return false;
            }
            t.required[0] = scenario::required_lines(with_variant(text, job.base_variant), Mode::hw_tags);
            t.required[1] = scenario::required_lines(with_variant(text, job.patched_variant), Mode::hw_tags);
            if (!t.patched_violates && !job.no_patch) {
                why_not = "the model does not show the finding's violation on replay";
                return false;
            }
            // a scenario the model says holds: what the kernel shows at any statement
            t.line = t.patched_violates ? named_line(t.sc, patched.front(), f.property) : 0;
            if (!t.line && t.patched_violates) {
                why_not = "the violation names no statement of its scenario (" + patched.front() + ")";
                return false;
            }
            k = std::move(t);
            return true;
        };
        bool found = runnable(f.scenario_text, true);
        const std::string own_why = why_not;
        for (std::size_t a = 0; !found && a < f.alternatives.size(); ++a)
            if (runnable(f.alternatives[a].second, false)) {
                found = true;
                k.used = f.alternatives[a].first + " in its stead (the finding's own: " + own_why + ")";
            }
        if (!found) {
            c.summary = "not run in a kernel: " + own_why +
                        (f.alternatives.empty() ? ""
                                                : "; nor any of the " + std::to_string(f.alternatives.size()) +
                                                      " other engines' traces (the last: " + why_not + ")");
            continue;
        }
        k.sc.name = "tp_confirm_" + std::to_string(i + 1);
        k.boot = hw_boot_line(k.sc);
        if (std::find(boots.begin(), boots.end(), k.boot) == boots.end()) boots.push_back(k.boot);
        cases.push_back(std::move(k));
    }
    if (cases.empty()) return out;

    // The job: the suite, the series' files before and after it, the boot lines.
    std::vector<scenario::Scenario> scs;
    for (const auto& k : cases) scs.push_back(k.sc);
    KernelTarget target;
    target.confirm = true;
    const KunitSuite suite = write_kunit_suite(scs, kSuite, target);
    std::string why;
    if (!run_job(job, suite.c_source, boots, why)) {
        for (const auto& k : cases) out[k.finding].summary = "not run in a kernel: " + why;
        return out;
    }
    // One case judged on the logs of one round (".log", ".r2.log", ...);
    // `missed` is set when a violation the model predicts did not show,
    // which a random tag that happened to match can hide in one boot.
    auto judge = [&](const Case& k, const std::string& sfx, bool& missed) {
        Confirmation c;
        missed = false;
        const std::size_t b = std::size_t(std::find(boots.begin(), boots.end(), k.boot) - boots.begin()) + 1;
        const std::string at = k.line ? "L" + std::to_string(k.line) : "";
        Seen seen[2];
        std::string mode;
        bool ran = true;
        bool base_boot_clean = false;  // the unpatched kernel booted with no KASAN report outside the cases
        int checks = 0;
        std::vector<std::string> failed_checks;
        for (int side = 0; side < 2; ++side) {
            const std::string file = job.dir + "/console-" + (side ? "patched" : "base") + "-" + std::to_string(b) + sfx;
            const KernelLog log = read_log(file);
            const KtapCase* kc = nullptr;
            for (const KtapCase* x : suite_cases(log, kSuite))
                if (x->name == k.sc.name) kc = x;
            if (!side) base_boot_clean = log.reports_outside_cases.empty();
            // A correct kernel access that faults during boot, before the case
            // runs, where the unpatched kernel boots clean and runs it: the
            // kernel shows the predicted false positive itself (a kmalloc
            // redzone over an object's own bytes faults in its first user).
            if (!kc && side && base_boot_clean && findings[k.finding].property == "no-false-positive" &&
                k.patched_violates && !k.base_violates && !log.reports_outside_cases.empty()) {
                const KasanReport& r = log.reports_outside_cases.front();
                char tags[64] = "";
                if (r.ptr_tag >= 0 && r.mem_tag >= 0)
                    std::snprintf(tags, sizeof tags, ", pointer tag %02x, memory tag %02x", r.ptr_tag, r.mem_tag);
                const std::string m = mode_of(log);
                c.status = Confirmation::confirmed;
                c.summary = "confirmed in " + job.version + " + patch under QEMU MTE (" + (m.empty() ? "?" : m) +
                            ") at boot, before case " + k.sc.name + " runs: BUG: KASAN: " + r.bug_type + " in " +
                            r.function + (r.access.empty() ? "" : " (" + r.access + tags + ")") +
                            ", a kernel access the unpatched kernel makes with no report (it boots clean and runs the "
                            "case): a correct access faults, as the model predicted" +
                            (log.crashes.empty() ? "" : "; the boot then stops: " + log.crashes.front());
                std::ifstream in(file);
                std::string l;
                for (int n = 1; std::getline(in, l); ++n)
                    if (n >= r.line && n < r.line + 4) c.excerpt.push_back(l);
                return c;
            }
            if (!kc) {
                c.summary = std::string("not run in a kernel: the ") + (side ? "patched" : "unpatched") +
                            " kernel did not run case " + k.sc.name + " (" + file + ")" +
                            (log.crashes.empty() ? "" : ": " + log.crashes.front());
                // a boot the series stops, where the unpatched kernel ran the case
                if (side && !log.crashes.empty()) {
                    const std::string predicted = predicted_crash(findings[k.finding], log.crashes.front(), job);
                    if (!predicted.empty()) {
                        const std::string m = mode_of(log);
                        c.status = Confirmation::confirmed;
                        c.summary = "confirmed in " + job.version + " + patch under QEMU MTE (" + (m.empty() ? "?" : m) +
                                    ") at boot, before case " + k.sc.name + " runs: " + log.crashes.front() +
                                    "; the fault the model predicts in that function: " + predicted +
                                    "; the unpatched kernel boots and runs the case";
                        return c;
                    }
                    c.summary += "; the unpatched kernel booted and ran the case: the series stops the boot, "
                                 "which the model did not predict (the finding stands on the model alone)";
                }
                ran = false;
                break;
            }
            seen[side] = seen_at(*kc, k.line, findings[k.finding].property, &k.sc, &k.required[side]);
            if (side) {
                c.excerpt = excerpt(file, log, *kc);
                mode = mode_of(log);
                // the file's checks the kernel evaluated (kernel_check()): each holds in the model
                for (const auto& st : kc->statements) {
                    if (st.check == StatementResult::Check::none) continue;
                    ++checks;
                    if (st.check == StatementResult::Check::fails)
                        failed_checks.push_back("L" + std::to_string(st.scenario_line) + " check " + st.call);
                }
            }
            if (!seen[side].reached) {
                c.summary = std::string("not run in a kernel: the ") + (side ? "patched" : "unpatched") + " kernel's case " +
                            k.sc.name + " did not reach " + at + (seen[side].what.empty() ? "" : " (" + seen[side].what + ")");
                ran = false;
                break;
            }
        }
        if (!ran) return c;
        const std::string under0 = " under QEMU MTE (" + (mode.empty() ? std::string("?") : mode) + ")" +
                                   (k.boot.empty() ? "" : ", booted with " + k.boot);
        if (job.no_patch) {
            // one kernel, the tree as it is (both builds are the same)
            const std::string what = (at.empty() ? "" : at + " ") + seen[1].what;
            const std::string held = checks ? "; the file's " + std::to_string(checks) + " check(s) the kernel evaluates hold" : "";
            if (!failed_checks.empty()) {
                c.status = Confirmation::contradicted;
                std::string f;
                for (const auto& x : failed_checks) f += (f.empty() ? "" : ", ") + x;
                c.summary = "not confirmed in " + job.version + under0 + ": the kernel fails " + f +
                            ", which the model holds: a model defect";
            } else if (seen[1].violation == k.patched_violates) {
                c.status = Confirmation::confirmed;
                c.summary = "confirmed in " + job.version + under0 + ": " + what + ", as the model predicted" +
                            (k.patched_violates ? "" : " (no " + findings[k.finding].property + " violation)") + held;
            } else {
                c.status = Confirmation::contradicted;
                c.summary = "not confirmed in " + job.version + under0 + ": " + what + ", the model predicted " +
                            (k.patched_violates ? "the violation" : "no " + findings[k.finding].property + " violation") +
                            ": a model defect";
                missed = k.patched_violates && !seen[1].violation && failed_checks.empty();
            }
            return c;
        }
        const bool patched_ok = seen[1].violation == k.patched_violates;
        const bool base_ok = seen[0].violation == k.base_violates;
        const std::string under = " under QEMU MTE (" + (mode.empty() ? std::string("?") : mode) + ")" +
                                  (k.boot.empty() ? "" : ", booted with " + k.boot);
        if (patched_ok && base_ok) {
            c.status = Confirmation::confirmed;
            c.summary = "confirmed in " + job.version + " + patch" + under + ": " + at + " " + seen[1].what + ", as the model predicted; unpatched: " + seen[0].what +
                        ", as " + (k.base_violates ? "the model predicted (the tree has it too)" : "expected");
        } else {
            c.status = Confirmation::contradicted;
            c.summary = "not confirmed in " + job.version + " + patch" + under + ": " +
                        (patched_ok ? "" : "with the patch " + at + " " + seen[1].what + ", the model predicted " +
                                               (k.patched_violates ? "the violation" : "none")) +
                        (!patched_ok && !base_ok ? "; " : "") +
                        (base_ok ? "" : "unpatched " + at + " " + seen[0].what + ", the model predicted " +
                                            (k.base_violates ? "the violation" : "none")) +
                        ": a model defect";
            missed = (k.patched_violates && !seen[1].violation) || (k.base_violates && !seen[0].violation);
        }
        return c;
    };
    // Round by round, as a clean confirmation does: a case whose predicted
    // violation did not show is booted again, up to kRounds boots in all; a
    // tag collision does not repeat, a model defect does.
    std::vector<const Case*> again;
    for (const auto& k : cases) {
        bool missed = false;
        out[k.finding] = judge(k, ".log", missed);
        if (missed) again.push_back(&k);
    }
    for (int round = 2; round <= kRounds && !again.empty(); ++round) {
        if (job.progress)
            job.progress(std::to_string(again.size()) + " finding(s) not shown in boot " + std::to_string(round - 1) +
                         ": booting both kernels again (a random tag may have matched)");
        std::string tail;
        if (run_script(job, tail, round) != 0) break;
        std::vector<const Case*> still;
        for (const Case* k : again) {
            bool missed = false;
            Confirmation c;
            try {
                c = judge(*k, ".r" + std::to_string(round) + ".log", missed);
            } catch (const std::exception&) {
                continue;  // the boot left no log to read: the earlier boot's verdict stands
            }
            if (c.status == Confirmation::confirmed) {
                c.summary += " (in boot " + std::to_string(round) + " of up to " + std::to_string(kRounds) +
                             ": the earlier boot's random tags hid it)";
                out[k->finding] = c;
            } else if (missed) {
                still.push_back(k);
            }
        }
        again = still;
    }
    // which trace ran, where it is not the finding's own
    for (const auto& k : cases)
        if (!k.used.empty()) out[k.finding].summary += "; run with " + k.used;
    return out;
}

}  // namespace tagproof::oracle
