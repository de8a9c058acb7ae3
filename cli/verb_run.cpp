// verb_run.cpp — `tagproof run FILE...`: one greppable verdict line per file
// and mode; on an unexpected verdict, what was expected, what happened
// instead, and the trace of the first run that shows it.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "confirm.hpp"
#include "error.hpp"
#include "runner.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

static const char* kHelp =
    "usage: tagproof run [--variant NAME | --variant-file FILE] [--max-runs N] [--verbose] [--check-style S] FILE|DIR...\n"
    "       tagproof run --confirm [--tree DIR] [--out DIR] [--variant NAME] [--property P]... FILE...\n"
    "\n"
    "A DIR is every *.litmus below it, except in directories named bad, wrong or\n"
    "negative (scenarios that must not parse, must fail, or are negative controls\n"
    "for one variant): name such a directory to run it.\n"
    "\n"
    "Runs each scenario file (see scenario/format.md) under every build mode it\n"
    "names, over every choice of random tags (or a seeded sample past --max-runs,\n"
    "default 4096), and prints one line per file and mode:\n"
    "\n"
    "  tagproof: NAME MODE VARIANT OBSERVATION P runs=N reports=R PASS|FAIL\n"
    "\n"
    "OBSERVATION is Always / Sometimes / Never: whether the file's expectations\n"
    "hold in every run; P is the weight of the runs where they hold.\n"
    "--variant runs the files under another variant than the one they name;\n"
    "--check-style (inline, outlined, fastpath, calls) under another SW_TAGS check style.\n"
    "Exit status: 0 every verdict as expected, 1 some not, 2 unreadable input.\n"
    "\n"
    "--confirm: each file's HW_TAGS events run as a KUnit case in a kernel tree's kernel as it is\n"
    "(--tree, else the newest installed tree; built once under ~/.cache/tagproof/kernels, booted\n"
    "under QEMU MTE with the file's boot line; docs/kernel-oracle.md), for each property the file\n"
    "names in `expect violation P` (or --property P): what the kernel does at the statement the model's violation\n"
    "names, or at every statement where the model under the file's variant shows none, beside\n"
    "the model: confirmed, or not (a model defect), or not run with why. Files under --out\n"
    "(default reports/run-confirm). Exit status: 0 all confirmed, 1 the kernel contradicts the\n"
    "model, 2 bad input, 3 something could not run.\n";

int verb_run(const Args& args) {
    Options o = parse_verb_options("run", args);
    if (o.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    if (o.positional.empty()) throw InputError("command line", "tagproof run needs at least one scenario file");
    for (const char* only : {"--tree", "--out", "--property"})
        if (o.has(only) && !o.has("--confirm")) throw InputError(only, "only with --confirm");
    if (o.has("--confirm")) {
        std::vector<std::string> props;
        for (const auto& [k, v] : o.named)
            if (k == "--property") {
                const auto& all = oracle::properties_one_run_shows();
                if (std::find(all.begin(), all.end(), v) == all.end())
                    throw InputError("--property", "'" + v + "': one kernel run shows zeroing, no-false-positive, "
                                                         "page-tag-consistency or detection");
                props.push_back(v);
            }
        return run_confirm(o.positional, o.get("--tree"), o.get("--variant"), o.get("--out", "reports/run-confirm"),
                           props);
    }
    scenario::RunOptions ro;
    ro.variant_override = o.get("--variant");
    ro.check_style_override = o.get("--check-style");
    if (!ro.check_style_override.empty()) parse_check_style(ro.check_style_override, "--check-style");  // fail early
    // a run is one choice of random tags; past max_runs a seeded sample
    ro.max_runs = option_count(o, "--max-runs", ro.max_runs, 1, 1u << 20);
    int status = EXIT_HOLDS;
    int bad_input = 0;
    // directories: their scenario files, the ones meant to fail left out unless named
    std::vector<std::string> files, left_out;
    for (const auto& arg : o.positional) {
        namespace fs = std::filesystem;
        if (!fs::is_directory(arg)) {
            files.push_back(arg);
            continue;
        }
        std::vector<std::string> found;
        for (auto it = fs::recursive_directory_iterator(arg); it != fs::recursive_directory_iterator(); ++it) {
            const std::string n = it->path().filename().string();
            if (it->is_directory() && (n == "bad" || n == "wrong" || n == "negative")) {
                left_out.push_back(it->path().string());
                it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file() && it->path().extension() == ".litmus") found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        if (found.empty()) throw InputError(arg, "no *.litmus scenario file below this directory");
        files.insert(files.end(), found.begin(), found.end());
    }
    if (!left_out.empty()) {
        std::string l;
        for (const auto& x : left_out) l += (l.empty() ? "" : ", ") + x;
        std::cerr << "tagproof: left out " << l << " (scenarios meant to fail or not to parse; name them to run them)\n";
    }
    if (files.size() > 1 || o.has("--verbose"))
        std::cerr << "tagproof: Always / Sometimes / Never: whether a file's expectations held in every run, some, or "
                     "none; runs=N: one run per relevant random choice (tagproof review --explain)\n";
    for (const auto& file : files) {
        try {
            scenario::Scenario sc = scenario::load_scenario(file);
            for (const auto& r : scenario::run_scenario(sc, ro)) {
                std::cout << "tagproof: " << sc.name << " " << mode_name(r.mode) << " " << r.variant << " "
                          << r.line() << " " << (r.pass ? "PASS" : "FAIL") << "\n";
                if (!r.pass) {
                    status = EXIT_COUNTEREXAMPLE;
                    for (const auto& f : r.failures) std::cout << "  !!! " << f << "\n";
                }
                if ((!r.pass || o.has("--verbose")) && !r.trace.empty()) {
                    std::cout << "  trace of the first run that does not hold:\n";
                    for (const auto& t : r.trace) std::cout << "  " << t << "\n";
                }
                if (o.has("--verbose"))
                    for (const auto& v : r.violations) std::cout << "  violation: " << v << "\n";
            }
        } catch (const InputError& e) {
            std::cerr << "tagproof: error: " << e.what() << "\n";
            ++bad_input;
        }
    }
    if (bad_input) return EXIT_BAD_INPUT;
    return status;
}

}  // namespace tagproof::cli
