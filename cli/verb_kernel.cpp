// verb_kernel.cpp — `tagproof kernel`: the kernel oracle (issue 17). A real
// KASAN HW_TAGS kernel's results set beside the model's: the kernel's own
// KASAN KUnit suite case by case against the project's ports, and scenario
// files written as a KUnit suite (as klitmus7 writes litmus tests as
// modules) and their per-statement observations against the model.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "corpus.hpp"
#include "error.hpp"
#include "file/variant_file.hpp"
#include "ktap.hpp"
#include "kunit_agreement.hpp"
#include "kunit_writer.hpp"
#include "scenario.hpp"
#include "variant.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

// --era RELEASE: the one modelled release whose files a suite holds.
static std::vector<std::string> era_option(const Options& o) {
    if (o.get("--era").empty()) return {};
    const std::string era = kernel::find_variant(o.get("--era"), "--era").name();
    if (!kernel::is_file_base_release(era))
        throw InputError("command line", "--era " + era + ": not a modelled release (linux-X.Y)");
    return {era};
}

static const char* kHelp =
    "usage: tagproof kernel kunit --out FILE [--kernel-version X.Y | --era RELEASE] [--exclude FILE] SCENARIO|DIR...\n"
    "       tagproof kernel compare LOG [--corpus DIR] [--variant V] [--variant-file FILE] [--out FILE]\n"
    "       tagproof kernel scenarios LOG SCENARIO|DIR... [--variant V] [--era RELEASE] [--exclude FILE] [--out FILE]\n"
    "\n"
    "kunit      writes the scenarios' HW_TAGS events as one KUnit suite, \"tagproof\", in kernel C\n"
    "           (FILE goes in the kernel's mm/kasan/, built with CONFIG_KASAN_KUNIT_TEST); each\n"
    "           statement prints '# tagproof: L<line> <statement>: report|no report' and the case\n"
    "           fails where the kernel does not do what the file says. Files it cannot express in\n"
    "           kernel C are listed with why; with --kernel-version, so are files about another\n"
    "           release than the two modelled releases that bracket it; with --era (the hand release\n"
    "           a lifted tree's era sits on), about another release than that one; --exclude names scenarios\n"
    "           to leave out ('NAME reason' per line: a kernel bug the case runs into).\n"
    "compare    reads a console log of a kernel that ran the KASAN KUnit suite and sets each case\n"
    "           beside the model's verdict on its port (--corpus, default tests/scenarios/kunit),\n"
    "           under the releases that bracket the kernel's version (or --variant V[,V]), hw_tags:\n"
    "           agree / disagree / skipped by the kernel / not ported, as a Markdown table.\n"
    "scenarios  reads the log of a kernel that ran the suite `kunit` wrote and sets each\n"
    "           statement's observation beside what the scenario says (the model's verdict\n"
    "           under the era's variant shown beside it).\n"
    "Exit status: 0 everything run agrees, 1 a disagreement (or KUnit did not run), 2 bad input.\n";

static oracle::KernelLog read_log(const std::string& path) {
    if (std::filesystem::is_directory(path)) throw InputError(path, "is a directory: expected a kernel console log");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "cannot open the kernel log");
    return oracle::read_kernel_log(in, path);
}

static std::vector<std::string> scenario_files(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    for (const auto& a : args) {
        if (std::filesystem::is_directory(a)) {
            for (const auto& f : scenario::corpus_files({a})) files.push_back(f);
        } else {
            if (!std::filesystem::exists(a)) throw InputError(a, "cannot open the scenario file");
            files.push_back(a);
        }
    }
    return files;
}

static void write_or_print(const std::string& out, const std::string& text) {
    if (out.empty()) {
        std::cout << text;
        return;
    }
    std::ofstream f(out);
    if (!f) throw InputError(out, "cannot write");
    f << text;
    std::cerr << "tagproof: wrote " << out << "\n";
}

// What the log says about the kernel that ran, for the table's heading.
// `chosen`: the variants were named with --variant (a lifted era, say), not
// taken from the kernel's version.
static std::string heading(const oracle::KernelLog& log, const std::vector<std::string>& variants, bool chosen) {
    std::string variant;
    for (const auto& v : variants) variant += (variant.empty() ? "" : " and ") + v;
    std::string h = "Kernel: " + (log.version_line.empty() ? "(no 'Linux version' line)" : log.version_line) + "\n\n";
    h += "KASAN: " + (log.kasan_line.empty() ? "(no 'KernelAddressSanitizer initialized' line)" : log.kasan_line) +
         "\n\nMTE detected: " + (log.mte ? "yes" : "no") + "; the model: " + variant +
         (chosen ? " (named with --variant)" : " (the releases that bracket the kernel's version)") + ", hw_tags.\n\n";
    if (!log.reports_outside_cases.empty())
        h += "KASAN reports outside any case: " + std::to_string(log.reports_outside_cases.size()) + " (first: " +
             log.reports_outside_cases.front().bug_type + " in " + log.reports_outside_cases.front().function +
             ", line " + std::to_string(log.reports_outside_cases.front().line) + ")\n\n";
    for (const auto& c : log.crashes) h += "Crash: " + c + "\n\n";
    return h;
}

int verb_kernel(const Args& args) {
    if (args.empty() || args[0] == "--help") {
        std::cout << kHelp;
        return args.empty() ? EXIT_BAD_INPUT : 0;
    }
    const std::string sub = args[0];
    const Args rest(args.begin() + 1, args.end());
    Options o = parse_verb_options("kernel", rest);
    if (o.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    if (sub == "kunit") {
        if (o.get("--out").empty()) throw InputError("command line", "tagproof kernel kunit needs --out FILE");
        const auto files = scenario_files(o.positional);
        if (files.empty()) throw InputError("command line", "tagproof kernel kunit needs scenario files");
        std::vector<scenario::Scenario> scs;
        for (const auto& f : files) scs.push_back(scenario::load_scenario(f));
        const std::string kv = o.get("--kernel-version");
        oracle::KernelTarget target;
        if (!kv.empty() && !o.get("--era").empty())
            throw InputError("command line", "tagproof kernel kunit takes --kernel-version or --era, not both");
        if (!kv.empty()) target.eras = oracle::era_variants(kv);
        if (!o.get("--era").empty()) target.eras = era_option(o);
        if (!o.get("--exclude").empty()) target.excluded = oracle::read_exclusions(o.get("--exclude"));
        const oracle::KunitSuite s = oracle::write_kunit_suite(scs, "tagproof", target);
        write_or_print(o.get("--out"), s.c_source);
        std::cout << s.cases.size() << " case(s) written, " << s.left_out.size() << " file(s) left out\n";
        for (const auto& [f, why] : s.left_out) std::cout << "  left out " << f << ": " << why << "\n";
        return 0;
    }
    if (sub == "compare" || sub == "scenarios") {
        if (o.positional.empty()) throw InputError("command line", "tagproof kernel " + sub + " needs a kernel log");
        const oracle::KernelLog log = read_log(o.positional[0]);
        std::vector<std::string> variants;
        if (o.get("--variant").empty()) {
            variants = oracle::era_variants(log.version);
        } else {
            std::istringstream in(o.get("--variant"));
            for (std::string v; std::getline(in, v, ',');) variants.push_back(kernel::find_variant(v, "--variant").name());
        }
        std::string text = heading(log, variants, !o.get("--variant").empty());
        bool bad = false;
        if (sub == "compare") {
            const std::string corpus = o.get("--corpus", std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/kunit");
            const oracle::Agreement a = oracle::compare_kunit(log, "kasan", corpus, variants);
            if (a.rows.empty()) {
                text += "No result of the kasan suite in the log: KUnit did not run it.\n";
                bad = true;
            }
            text += oracle::agreement_markdown(a);
            bad |= a.count(oracle::CaseAgreement::disagree) > 0;
        } else {
            const Args named(o.positional.begin() + 1, o.positional.end());
            const auto files = scenario_files(named);
            if (files.empty()) throw InputError("command line", "tagproof kernel scenarios needs the scenario files");
            const auto rows = oracle::compare_scenarios(
                log, "tagproof", files, variants,
                o.get("--exclude").empty() ? std::map<std::string, std::string>{} : oracle::read_exclusions(o.get("--exclude")),
                era_option(o));
            text += oracle::scenario_agreement_markdown(rows, variants);
            for (const auto& r : rows)
                bad |= r.kind == oracle::ScenarioAgreement::disagree ||
                       (r.kind == oracle::ScenarioAgreement::not_run && r.kernel.rfind("not written", 0) != 0);
        }
        write_or_print(o.get("--out"), text);
        return bad ? EXIT_COUNTEREXAMPLE : EXIT_HOLDS;
    }
    throw InputError("command line", "unknown 'tagproof kernel' command '" + sub + "' (kunit, compare, scenarios)");
}

}  // namespace tagproof::cli
