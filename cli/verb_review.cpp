// verb_review.cpp — `tagproof review`: the main job. For each variant (a
// patch) against its baseline: a verdict per (property, mode) from the
// scenario corpus, the solver's obligations, the explicit-state explorer and
// a RapidCheck burst; one report per counterexample, written for a review
// mail; a summary table; exit status 0 when every variant gets exactly its
// recorded verdicts.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

#include "error.hpp"
#include "report.hpp"
#include "review.hpp"
#include "variant.hpp"
#include "review_patch.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

#ifndef TAGPROOF_SOURCE_DIR
#define TAGPROOF_SOURCE_DIR "."
#endif

namespace tagproof::cli {

static const char* kHelp =
    "usage: tagproof review [--variant NAME | --variant-file FILE] [--baseline NAME] [--mode MODE]...\n"
    "                       [--format text|md|html|json] [--out DIR] [--corpus DIR]... [--jobs N] [--explore-depth N]\n"
    "                       [--rapidcheck N] [--no-solver] [--no-explorer] [--no-families] [--no-rapidcheck] [--quiet]\n"
    "       tagproof review PATCH... [--tree DIR [--confirm] | --no-tree] [--base RELEASE|FILE.variant] [--map-only]\n"
    "                       [options as above]\n"
    "       tagproof review --explain [TERM]\n"
    "\n"
    "With PATCH files (git format-patch output, an mbox saved from the list, a list archive's page\n"
    "with the patch in it, or git diff output; - for standard input): each hunk that changes a place\n"
    "the model has a rule for (a GFP constant's #define, the GFP mask of a modelled allocation call,\n"
    "a condition a modelled function decides on; scenario/variant-files.md lists them) becomes a rule\n"
    "of a variant file, written to --out as NAME.variant for you to read and edit; every other hunk\n"
    "is listed with why. The base is --base, else what the series says (\"Applies on v7.0-rc1\",\n"
    "\"based on v6.3\"), else linux-7.0. The variant is reviewed as below, and the reply for the\n"
    "list is printed and written to --out as NAME.reply.txt (and .md/.json/.html with --format): the\n"
    "hunks quoted with \"> \", each finding under the hunk it is about. --map-only stops after the\n"
    "mapping. Progress goes to stderr.\n"
    "  The series is applied to a scratch copy of the files it touches in a kernel tree (never to the\n"
    "  tree itself): --tree DIR, else an installed tree (scripts/setup-trees.sh unpacks Debian's\n"
    "  linux-source trees) chosen by the series' base-commit, the release it names, or where most hunks\n"
    "  apply; the reply says which and why, how each hunk applied (exact, offset, fuzz, in reverse when\n"
    "  the tree has the series already), and accounts for every hunk, read with libclang: a rule of\n"
    "  the model, a function the model reads from the tree itself (post_alloc_hook and the helpers it\n"
    "  calls, should_skip_kasan_poison, and of free_pages_prepare where it asks it: tagproof lift shows\n"
    "  them), no semantic change, a modelled function not read from the tree yet, a call site of an\n"
    "  entry point, outside the model (the definition named), or not applied.\n"
    "  It opens with \"N of M hunks checked\". A series that changes a function the model reads is\n"
    "  reviewed on the code: the tree's functions are the baseline (written beside the reply as\n"
    "  tree-VERSION.variant), the patched ones go into the variant file, and the calls in them the\n"
    "  model does not read are listed under \"Assumed:\".\n"
    "  --no-tree: none (the hand model alone, as the reply says).\n"
    "  --confirm: each finding the series introduces is run in the tree's kernel (KASAN HW_TAGS, arm64,\n"
    "  under QEMU MTE; scripts/setup-kernel.sh installs them): its trace written as a KUnit case, the\n"
    "  kernel built from a copy of the tree with the series' files before and after it (cached under\n"
    "  ~/.cache/tagproof/kernels, or $TAGPROOF_KERNELS; the first build takes minutes, later ones are\n"
    "  incremental), booted with the finding's boot line; the finding's \"Kernel:\" line says whether\n"
    "  both kernels did what the model predicts (confirmed), or not (a model defect: exit 3), or why\n"
    "  it was not run (another KASAN mode, a property over builds). Files under --out/confirm.\n"
    "  Exit status: 0 no finding the series introduces and every hunk mapped; 1 a finding the series\n"
    "  introduces; 2 bad input (file:line:column); 3 undecided, a modelling gap, or a finding the\n"
    "  kernel contradicts (--confirm); 4 no hunk is code\n"
    "  the model has a rule for (nothing was checked: never \"holds\"); 5 no finding in the mapped\n"
    "  hunks, but some hunks are not modelled (the reply lists them).\n"
    "\n"
    "Reviews a variant (a patch) against its baseline: per invariant and KASAN mode, the verdict of\n"
    "the scenario corpus (default tests/scenarios/{kunit,seeds,eras}), the solver's obligations\n"
    "(within caller contracts), the explicit-state explorer (HW_TAGS, depth --explore-depth, default 6;\n"
    "its families of entry points too, unless --no-families)\n"
    "and a RapidCheck burst (--rapidcheck cases, default 100). Every counterexample is replayed in\n"
    "the model and written to --out (default reports/review) as a scenario file and a report in\n"
    "--format (text: 72 columns for a review mail; md; html with an SVG of the tags over time; json),\n"
    "and every engine's verdict of every cell to --out as review.json, whatever the format.\n"
    "With no --variant, every built-in\n"
    "variant is reviewed, --jobs at a time (default 2).\n"
    "\n"
    "The baseline is the variant's own (tagproof variants) unless --baseline names another. Every\n"
    "difference from it is listed: an intended change where the variant's claims cover it, else a\n"
    "mode-isolation finding. Coverage is held to the requirements (docs/requirements.md): an\n"
    "allocation handed out through a match-all pointer is a detection finding unless its caller may\n"
    "have one or a claim names it. A finding the baseline shows too reads \"also in <baseline>\".\n"
    "\n"
    "Exit status: 0 no unrecorded finding (every finding recorded for this variant or also in its\n"
    "baseline, every recorded defect found); 1 an unrecorded finding, or a recorded defect not found;\n"
    "2 bad input; 3 a source could not decide, or a solver counterexample the model does not\n"
    "reproduce (a modelling gap).\n";

std::string safe_file_name(std::string s) {
    for (char& c : s)
        if (!std::isalnum((unsigned char)c) && c != '-' && c != '.' && c != '_') c = '_';
    return s;
}

std::vector<std::string> write_finding_reports(review::VariantReview& r, const std::string& out, const std::string& format) {
    std::vector<std::string> files;
    for (auto& f : r.findings) {
        const std::string stem = out + "/" + safe_file_name(f.variant + "." + f.property + "." + mode_name(f.mode));
        f.scenario_file = stem + ".litmus";
        std::ofstream(f.scenario_file) << f.scenario;
        std::string file = stem + "." + (format == "text" ? std::string("txt") : format);
        std::ofstream(file) << (format == "text"   ? review::finding_text(f)
                                : format == "md"   ? review::finding_markdown(f)
                                : format == "html" ? review::finding_html(f)
                                                   : review::finding_json(f) + "\n");
        files.push_back(file);
    }
    return files;
}

int verb_review(const Args& args) {
    Options o = parse_verb_options("review", args);
    if (o.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    if (o.has("--explain")) return explain_terms(o.positional);
    const bool patch_mode = !o.positional.empty();
    for (const char* only : {"--base", "--map-only", "--tree", "--no-tree", "--confirm"})
        if (!patch_mode && o.has(only)) throw InputError(only, "only with PATCH files (tagproof review PATCH...)");
    if (o.has("--tree") && o.has("--no-tree")) throw InputError("--no-tree", "not with --tree");
    if (o.has("--confirm") && o.has("--no-tree")) throw InputError("--confirm", "needs a kernel tree: not with --no-tree");
    if (patch_mode && !o.get("--variant").empty())
        throw InputError("--variant", "not with PATCH files: the patch is the variant (--base names what it applies on)");
    review::ReviewOptions ro;
    ro.baseline = o.get("--baseline");
    std::vector<Mode> modes;
    for (const auto& [k, v] : o.named) {
        if (k == "--corpus") ro.corpus_dirs.push_back(v);
        if (k == "--mode") modes.push_back(parse_mode(v, "--mode"));
    }
    if (!modes.empty()) ro.modes = modes;
    if (ro.corpus_dirs.empty())
        for (const char* d : {"kunit", "seeds", "eras"})
            ro.corpus_dirs.push_back(std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/" + d);
    const std::string format = o.get("--format", "text");
    if (format != "text" && format != "md" && format != "json" && format != "html")
        throw InputError("--format", "'" + format + "': expected text, md, html or json");
    const std::string out = o.get("--out", "reports/review");
    ro.out_dir = out;
    ro.explore_depth = unsigned(option_count(o, "--explore-depth", 6, 1, 8));
    ro.rapidcheck_cases = int(option_count(o, "--rapidcheck", 100, 0, 100000));
    ro.solver = !o.has("--no-solver");
    ro.explorer = !o.has("--no-explorer");
    ro.families = !o.has("--no-families");
    ro.rapidcheck = !o.has("--no-rapidcheck") && ro.rapidcheck_cases > 0;
    const unsigned jobs = unsigned(option_count(o, "--jobs", 2, 1, 64));
    prepare_out_dir(out, "--out");
    if (patch_mode)
        return review_patch(o.positional, o.get("--base"), TreeOption{o.get("--tree"), o.has("--no-tree"), o.has("--confirm")}, ro, format, out,
                            o.has("--map-only"), o.has("--quiet"));
    const auto t0 = std::chrono::steady_clock::now();
    std::mutex progress_lock;
    if (!o.has("--quiet"))
        ro.progress = [&](const std::string& variant, const std::string& engine) {
            std::lock_guard<std::mutex> g(progress_lock);
            std::fprintf(stderr, "tagproof: [%6.1fs] %s: %s\n",
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), variant.c_str(),
                         engine.c_str());
        };

    std::vector<std::string> targets;
    if (o.get("--variant").empty())
        for (const auto* v : kernel::all_variants()) targets.push_back(v->name());
    else
        targets.push_back(kernel::find_variant(o.get("--variant"), "--variant").name());
    if (!ro.baseline.empty()) kernel::find_variant(ro.baseline, "--baseline");

    // corpus, solver, explorer: one variant a worker. RapidCheck's
    // configuration is process-wide (its implicit parameters are statics), so
    // its bursts and the replay of each variant's findings run on this
    // thread, a variant as soon as its worker is done with it, in the order
    // the workers finish, while they go on with the next ones (each
    // variant's burst is seeded by its name: the order it runs in changes
    // nothing; the reviews are printed in the variants' order below).
    std::vector<review::VariantReview> reviews(targets.size());
    std::vector<std::string> errors(targets.size());
    std::vector<std::size_t> finished;  // variants whose worker is done, in the order they finished
    std::mutex done_mu;
    std::condition_variable done_cv;
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        // The bursts on this thread are the run's critical path: each waits
        // for its variant's worker, and once the workers are done whatever
        // bursts are left run on one core. With --jobs workers beside it on
        // as many cores this thread got a share of a core, fell behind, and
        // the last bursts ran alone (the built-ins: 2.2 s of one core idle
        // in a 20.7 s review). Workers yield to it (nice +10, this thread
        // only): when it waits they have the cores to themselves. One
        // variant's review has nothing to overlap (its burst waits for its
        // one worker), so there the worker keeps its priority beside the
        // other processes a test suite runs.
        if (targets.size() > 1) setpriority(PRIO_PROCESS, pid_t(gettid()), 10);
        for (std::size_t i; (i = next++) < targets.size();) {
            try {
                reviews[i] = review::review_variant(targets[i], ro);
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
            std::lock_guard<std::mutex> lock(done_mu);
            finished.push_back(i);
            done_cv.notify_all();
        }
    };
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < std::min<std::size_t>(jobs, targets.size()); ++j) pool.emplace_back(worker);
    try {
        for (std::size_t k = 0; k < targets.size(); ++k) {
            std::size_t i;
            {
                std::unique_lock<std::mutex> lock(done_mu);
                done_cv.wait(lock, [&] { return finished.size() > k; });
                i = finished[k];
            }
            if (!errors[i].empty()) continue;  // told below, after every worker has stopped
            review::add_rapidcheck(reviews[i], ro);
            review::explain_findings(reviews[i]);
        }
    } catch (...) {
        next = targets.size();  // no worker starts another variant
        for (auto& t : pool) t.join();
        throw;
    }
    for (auto& t : pool) t.join();
    for (std::size_t i = 0; i < targets.size(); ++i)
        if (!errors[i].empty()) throw InputError(targets[i], errors[i]);

    std::filesystem::create_directories(out);
    // the terms a newcomer meets first, where they first appear
    if (!o.has("--quiet"))
        for (const auto& l : review::wrap("Each variant is checked per invariant and KASAN mode by the scenario corpus, "
                                          "the solver, the explorer and RapidCheck; \"holds\" names the engines that "
                                          "finished. \"claims\" is what the patch says of itself, checked; \"a recorded "
                                          "defect\" is one that kernel version really has; \"also in <baseline>\" is not "
                                          "the patch's doing; mode-isolation: no outcome changes outside the modes a patch claims to change. "
                                          "Every term: tagproof review --explain.",
                                          72, "", ""))
            std::printf("%s\n", l.c_str());
    int status = EXIT_HOLDS;
    bool unknown = false;
    for (auto& r : reviews) {
        const std::vector<std::string> files = write_finding_reports(r, out, format);
        if (!o.has("--quiet")) std::fputs(review::review_text(r, files).c_str(), stdout);
        if (!r.as_recorded()) status = EXIT_COUNTEREXAMPLE;
        unknown |= r.unknown;
    }
    // every cell of every engine, whatever the format: what tools and tests read
    std::ofstream(out + "/review.json") << review::review_json(reviews);
    std::printf("\n%s", review::summary_table(reviews).c_str());
    std::printf("reports in %s/\n", out.c_str());
    if (status == EXIT_HOLDS && unknown) status = EXIT_UNKNOWN;
    std::printf("%s\n", status == EXIT_HOLDS    ? "no unrecorded finding: every variant got its recorded verdicts"
                        : status == EXIT_UNKNOWN ? "every decided verdict as recorded; some source undecided or a modelling gap"
                                                 : "UNRECORDED FINDING: some variant did not get its recorded verdicts");
    return status;
}

}  // namespace tagproof::cli
