// verb_prove.cpp — `tagproof prove`: the Z3 obligations for a variant, with
// Alive2-style verdicts and, for every counterexample, its replay in the model.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "error.hpp"
#include "check_grid.hpp"
#include "check_proofs.hpp"
#include "prove.hpp"
#include "variant.hpp"
#include "prove_cross_check.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

static const char* kHelp =
    "usage: tagproof prove [--variant NAME | --variant-file FILE] [--baseline NAME] [--obligation PREFIX]...\n"
    "                      [--depth K] [--timeout MS] [--smt2 DIR] [--write-scenarios DIR] [--contracts-only]\n"
    "                      [--no-replay] [--no-cross-check] [--expect FILE] [--quiet] [--checks] [--record]\n"
    "  --record: one tab-separated line per obligation and scope (variant, obligation, scope,\n"
    "  verdict), as tests/proof/expected.tsv holds them.\n"
    "\n"
    "Proves the invariants (docs/requirements.md) with Z3 over the variant's own decision code, per\n"
    "kernel entry point: within the caller contracts and over the raw flag space. A verdict is\n"
    "proved, counterexample or unknown (solver gave up; never shown as proved). Every\n"
    "counterexample is turned into a scenario file and replayed in the executable model.\n"
    "mode-isolation/* compares with the baseline (default: the variant's own) where the\n"
    "variant claims no change; changes/* reports what differs with HW_TAGS active.\n"
    "--expect FILE compares every verdict with the recorded one (variant obligation scope verdict).\n"
    "Without --variant: every built-in variant. Exit status: 0 all proved (or as expected),\n"
    "1 a counterexample (or a verdict not as expected, or a replay that failed), 2 bad input,\n"
    "3 unknown.\n"
    "Every obligation proved within the caller contracts whose entry point an explorer family drives\n"
    "is then enumerated in the executable model, each family in every boot configuration at its review\n"
    "depth: one the model breaks is printed as NOT PROVED, with the transition (a modelling gap, counted\n"
    "unknown), never as proved. --no-cross-check skips this (the proof table's tests, which compare\n"
    "recorded verdicts; tagproof explore and review cross-check too).\n"
    "--checks proves the statements of tag-checks.md §9 about the SW_TAGS check styles instead, then the\n"
    "styles x properties grid (HW_TAGS rows from --variant's granule check); --obligation grid: the grid only.\n";

namespace {

struct Expected {
    std::map<std::string, std::string> verdict;  // "variant|id|scope" -> verdict
};

Expected load_expected(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw InputError(path, "cannot open the expected-verdicts file");
    Expected e;
    std::string line;
    int n = 0;
    while (std::getline(f, line)) {
        ++n;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cols;
        std::stringstream ss(line);
        std::string col;
        while (std::getline(ss, col, '\t')) cols.push_back(col);
        if (cols.size() != 4)
            throw InputError(path + ":" + std::to_string(n), "expected 4 tab-separated columns: variant obligation scope verdict");
        e.verdict[cols[0] + "|" + cols[1] + "|" + cols[2]] = cols[3];
    }
    return e;
}

}  // namespace

// `tagproof prove --checks`: the SW_TAGS check styles (I inline, O outlined,
// F fast path + outlined, C outline calls) against tag-checks.md §9, then every
// style (HW_TAGS and Generic too) against the access properties.
static int prove_grid(const std::string& variant);

static int prove_checks(const std::vector<std::string>& only, const std::string& dir, const std::string& variant) {
    bool grid = only.empty() || std::find(only.begin(), only.end(), "grid") != only.end();
    if (!only.empty() && grid && only.size() == 1) return prove_grid(variant);
    auto rows = solver::prove_check_statements(20000, only);
    if (rows.empty())
        throw InputError("--obligation", "no check statement has that number (9.1 .. 9.11, with ' for the converses, or grid)");
    std::printf("%-40s %-10s %-15s %-15s %8s\n", "statement (tag-checks.md §9)", "styles", "recorded", "verdict", "ms");
    int off = 0;
    for (const auto& r : rows) {
        bool ok = r.verdict == r.expected;
        off += !ok;
        std::printf("%-40s %-10s %-15s %-15s %8.0f%s\n", r.id.c_str(), r.styles.c_str(), r.expected.c_str(),
                    r.verdict.c_str(), r.ms, ok ? "" : "  !!! not as recorded");
    }
    std::printf("\n");
    for (const auto& r : rows) {
        std::printf("%s: %s\n", r.id.c_str(), r.text.c_str());
        if (!r.witness.empty()) std::printf("    smallest input found: %s\n", r.witness.c_str());
        if (!r.replay.empty()) std::printf("    replay: %s\n", r.replay.c_str());
        off += !r.replay_ok;
    }
    if (only.empty()) std::printf("%s\n", solver::kRoutingNote);
    if (!dir.empty())
        for (const auto& r : rows)
            if (!r.scenario.empty()) {
                std::filesystem::create_directories(dir);
                std::string f = dir + "/check-" + r.id.substr(0, r.id.find(' ')) + ".litmus";
                for (char& ch : f)
                    if (ch == '\'') ch = 'x';
                std::ofstream(f) << r.scenario;
                std::printf("scenario written: %s\n", f.c_str());
            }
    if (grid) {
        std::printf("\n");
        off += prove_grid(variant) != EXIT_HOLDS;
    }
    std::printf("%s\n", off ? "some verdicts are not the recorded ones" : "every verdict as recorded");
    return off ? EXIT_COUNTEREXAMPLE : EXIT_HOLDS;
}

// The styles x properties table: one cell per (style, property), "proved" or
// "cex" with the recorded verdict beside it when they differ; the
// counterexamples follow, one line each.
static int prove_grid(const std::string& variant) {
    solver::Grid g = solver::prove_check_grid(variant.empty() ? "linux-7.0" : variant);
    std::printf("styles x properties (HW_TAGS rows: %s's granule check)\n", variant.empty() ? "linux-7.0" : variant.c_str());
    for (const auto& p : g.premises) std::printf("  assuming %s\n", p.c_str());
    std::printf("%-48s", "style");
    for (std::size_t i = 0; i < g.properties.size(); ++i) std::printf(" %-16s", ("(" + std::to_string(i + 1) + ")").c_str());
    std::printf("\n");
    int off = 0;
    for (const auto& r : g.rows) {
        std::printf("%-48s", r.style.c_str());
        for (const auto& c : r.cells) {
            bool ok = c.verdict == c.expected;
            off += !ok;
            std::string v = c.verdict == "counterexample" ? "cex" : c.verdict;
            if (!ok) v += " !!!(" + c.expected + ")";
            std::printf(" %-16s", v.c_str());
        }
        std::printf("\n");
    }
    for (std::size_t i = 0; i < g.properties.size(); ++i) std::printf("(%zu) %s\n", i + 1, g.properties[i].c_str());
    for (const auto& r : g.rows)
        for (std::size_t i = 0; i < r.cells.size(); ++i)
            if (!r.cells[i].witness.empty())
                std::printf("  %s, (%zu) %s: %s\n", r.style.c_str(), i + 1, g.properties[i].c_str(), r.cells[i].witness.c_str());
    if (off) std::printf("%d grid cells are not as recorded (marked !!!)\n", off);
    else std::printf("every grid cell as recorded\n");
    return off ? EXIT_COUNTEREXAMPLE : EXIT_HOLDS;
}

int verb_prove(const Args& args) {
    Options o = parse_verb_options("prove", args);
    if (o.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    if (o.has("--checks")) {
        std::vector<std::string> only;
        for (const auto& [k, v] : o.named)
            if (k == "--obligation") only.push_back(v);
        return prove_checks(only, o.get("--write-scenarios"), o.get("--variant"));
    }
    solver::ProveOptions po;
    po.baseline = o.get("--baseline");
    for (const auto& [k, v] : o.named)
        if (k == "--obligation") po.only.push_back(v);
    po.depth = unsigned(option_count(o, "--depth", 8, 1, 16));          // BMC steps: Z3's work grows with each
    po.timeout_ms = unsigned(option_count(o, "--timeout", 20000, 1, 3600000));  // per query, in ms
    po.smt2_dir = o.get("--smt2");
    po.scenario_dir = o.get("--write-scenarios");
    po.replay = !o.has("--no-replay");
    po.raw_scope = !o.has("--contracts-only");
    const bool cross_check = !o.has("--no-cross-check");
    Expected expected;
    bool judge = !o.get("--expect").empty();
    if (judge) expected = load_expected(o.get("--expect"));

    std::vector<std::string> variants;
    if (o.get("--variant").empty())
        for (const auto* v : kernel::all_variants()) variants.push_back(v->name());
    else
        variants.push_back(o.get("--variant"));

    int proved = 0, cex = 0, unknown = 0, na = 0, changed = 0, replay_bad = 0, not_expected = 0;
    for (const auto& name : variants) {
        po.variant = name;
        auto verdicts = solver::prove(po);
        const auto& v0 = verdicts.front();
        // each proof held against the model's own enumeration (issue 34 item 5)
        ProofCrossCheck xc;
        if (cross_check && !o.has("--record")) xc = cross_check_proofs(name, verdicts);
        std::printf("== tagproof prove: %s (baseline %s)\n", name.c_str(), v0.baseline.empty() ? "-" : v0.baseline.c_str());
        for (const auto& vd : verdicts) {
            if (o.has("--record")) {
                for (const auto& sv : vd.scopes)
                    std::printf("%s\t%s\t%s\t%s\n", vd.variant.c_str(), vd.id.c_str(), sv.scope.c_str(), sv.verdict.c_str());
                if (!vd.applicable) std::printf("%s\t%s\t-\tnot applicable\n", vd.variant.c_str(), vd.id.c_str());
                continue;
            }
            std::printf("\n%s  [%s]\n  %s\n", vd.id.c_str(), vd.invariant.c_str(), vd.statement.c_str());
            if (!vd.applicable) {
                ++na;
                std::printf("  not applicable: %s\n", vd.why_not.c_str());
                if (judge) {
                    auto it = expected.verdict.find(vd.variant + "|" + vd.id + "|-");
                    if (it == expected.verdict.end() || it->second != "not applicable") {
                        ++not_expected;
                        std::printf("  !!! recorded verdict: %s\n", it == expected.verdict.end() ? "none" : it->second.c_str());
                    }
                }
                continue;
            }
            std::printf("  entry: %s; method: %s\n", vd.entry.c_str(), vd.method.c_str());
            const auto gap = xc.disagrees.find(vd.id);
            for (const auto& sv : vd.scopes) {
                std::string banner = sv.verdict == "proved"           ? "proved"
                                     : sv.verdict == "counterexample" ? "counterexample found"
                                     : sv.verdict == "unknown"        ? "unknown (not proved)"
                                                                      : sv.verdict;
                if (gap != xc.disagrees.end() && sv.verdict == "proved")
                    banner = "NOT PROVED: Z3 proves it, the explorer breaks it (a modelling gap)";
                std::printf("  %-24s %s (%.0f ms)\n", (sv.scope + ":").c_str(), banner.c_str(), sv.ms);
                if (gap != xc.disagrees.end() && sv.verdict == "proved") {
                    std::printf("      %s\n", gap->second.c_str());
                    ++unknown;
                } else if (sv.verdict == "proved" || sv.verdict == "unchanged") ++proved;
                else if (sv.verdict == "counterexample") ++cex;
                else if (sv.verdict == "changed") ++changed;
                else ++unknown;
                if (!o.has("--quiet") || sv.verdict == "counterexample" || sv.verdict == "changed")
                    for (const auto& d : sv.details) std::printf("      %s\n", d.c_str());
                for (const auto& k : sv.broken) std::printf("      breaks caller contract %s\n", k.c_str());
                if (!sv.replay.empty()) std::printf("      replay: %s\n", sv.replay.c_str());
                if (!sv.replay_ok) ++replay_bad;
                if (judge) {
                    auto it = expected.verdict.find(vd.variant + "|" + vd.id + "|" + sv.scope);
                    if (it == expected.verdict.end() || it->second != sv.verdict) {
                        ++not_expected;
                        std::printf("  !!! recorded verdict: %s, got %s\n",
                                    it == expected.verdict.end() ? "none" : it->second.c_str(), sv.verdict.c_str());
                    }
                }
            }
        }
        if (!xc.note.empty()) std::printf("\n%s\n", xc.note.c_str());
        std::printf("\n");
        // A series revision: does the next version change any outcome, and where?
        const auto& cv = kernel::find_variant(name);
        if (!cv.next_version().empty() && !o.has("--record") && po.only.empty()) {
            solver::ProveOptions rev = po;
            rev.baseline = cv.next_version();
            rev.only = {"mode-isolation/", "changes/", "internals/"};
            rev.replay = true;
            int differ = 0, internal = 0, unk = 0;
            std::vector<std::string> where;
            for (const auto& vd : solver::prove(rev))
                for (const auto& sv : vd.scopes) {
                    if (sv.verdict == "unknown") ++unk;
                    if (sv.verdict != "counterexample" && sv.verdict != "changed") continue;
                    bool is_internal = vd.id.rfind("internals/", 0) == 0;
                    (is_internal ? internal : differ)++;
                    where.push_back(vd.id + " (" + sv.scope + "):");
                    for (const auto& d : sv.details) where.push_back("    " + d);
                }
            std::printf("== revision %s -> %s: does the change alter any outcome?\n", name.c_str(),
                        cv.next_version().c_str());
            if (!differ && !unk)
                std::printf("   no: every entry point has the same outcomes in every build and runtime state\n"
                            "   (proved: mode-isolation/* outside and changes/* with HW_TAGS active, all unchanged)\n");
            else
                std::printf("   yes: %d entry point(s) differ%s\n", differ, unk ? " (some unknown)" : "");
            if (internal)
                std::printf("   intermediate values that differ without changing an outcome:\n");
            for (const auto& w : where) std::printf("   %s\n", w.c_str());
            std::printf("\n");
        }
    }
    if (o.has("--record")) return 0;
    std::printf("summary: %d proved, %d counterexample(s), %d change(s) reported, %d unknown, %d not applicable\n",
                proved, cex, changed, unknown, na);
    if (replay_bad) std::printf("!!! %d counterexample(s) did not replay in the model\n", replay_bad);
    if (judge) {
        std::printf("%s\n", not_expected ? "!!! some verdicts are not the recorded ones" : "every verdict as recorded");
        return not_expected || replay_bad ? EXIT_COUNTEREXAMPLE : (unknown ? EXIT_UNKNOWN : EXIT_HOLDS);
    }
    std::printf("%s\n", cex ? "counterexample found" : unknown ? "unknown" : "all properties hold");
    if (replay_bad || cex) return EXIT_COUNTEREXAMPLE;
    return unknown ? EXIT_UNKNOWN : EXIT_HOLDS;
}

}  // namespace tagproof::cli
