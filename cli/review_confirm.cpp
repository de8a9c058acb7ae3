// review_confirm.cpp — see review_confirm.hpp.
#include "review_confirm.hpp"

#include <algorithm>
#include <filesystem>

#include "confirm.hpp"
#include "kunit_writer.hpp"
#include "reply.hpp"

#ifndef TAGPROOF_SOURCE_DIR
#define TAGPROOF_SOURCE_DIR "."
#endif

namespace tagproof::cli {

namespace {

// The corpus the kernel oracle runs (scripts/kernel-oracle.sh), and its exclusions.
std::vector<std::string> oracle_corpus() {
    std::vector<std::string> files;
    for (const char* d : {"kunit", "eras", "seeds"})
        for (const auto& e : std::filesystem::directory_iterator(std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/" + d))
            if (e.path().extension() == ".litmus") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

std::size_t confirm_review(review::VariantReview& r, review::Reply& reply, const tree::TreeTry* tree_taken,
                           const std::string& why_no_tree, const std::string& base_variant, const std::string& out,
                           const std::function<void(const std::string&)>& progress) {
    // the findings the series brings: one the tree has too is not the patch's to confirm
    std::vector<review::Finding*> asked;
    for (const review::Finding* f : review::introduced(r))
        for (auto& g : r.findings)
            if (&g == f) asked.push_back(&g);
    if (!tree_taken) {
        for (review::Finding* f : asked) f->kernel = "not run in a kernel: no tree was taken (" + why_no_tree + ")";
        return 0;
    }
    const tree::TreeTry& tree = *tree_taken;
    std::vector<oracle::ConfirmFinding> fs;
    for (const review::Finding* f : asked) {
        fs.push_back({f->property + " [" + mode_name(f->mode) + "]", f->property, f->mode, f->scenario, {}});
        // the other engines' traces of the same violation, the shortest first: one of them may be
        // what one kernel run can show where the finding's own is not (a mode-isolation scenario)
        std::vector<const review::Finding*> others;
        for (const review::Finding& c : r.candidates)
            if (c.property == f->property && c.mode == f->mode && c.variant == f->variant && !c.scenario.empty() &&
                c.scenario != f->scenario)
                others.push_back(&c);
        std::stable_sort(others.begin(), others.end(), [](const review::Finding* a, const review::Finding* b) {
            return a->trace.size() < b->trace.size();
        });
        for (const review::Finding* c : others)
            fs.back().alternatives.push_back({"the " + c->source + "'s trace from " + c->origin, c->scenario});
    }
    oracle::ConfirmJob job;
    job.tree = tree.tree.root;
    job.version = tree.tree.describe.empty() ? tree.tree.version : tree.tree.describe;
    job.patched_variant = r.variant;
    job.base_variant = base_variant;
    for (const auto& [path, steps] : tree.applied.files) {
        job.before[path] = steps.text.front();
        job.after[path] = steps.text.back();
    }
    job.work = oracle::kernel_work_dir(tree.tree.root);
    job.dir = std::filesystem::absolute(out + "/confirm").lexically_normal().string();
    job.script = std::string(TAGPROOF_SOURCE_DIR) + "/scripts/kernel-confirm.sh";
    job.progress = progress;
    if (asked.empty()) {
        progress("no finding to confirm: running the corpus in the kernel of " + tree.tree.era() + " with and without the series");
        const auto c = oracle::confirm_clean(
            oracle_corpus(), oracle::read_exclusions(std::string(TAGPROOF_SOURCE_DIR) + "/kernel/kunit-exclude.txt"), job);
        reply.kernel = c.summary;
        reply.kernel_differ = c.excerpt;
        progress(c.summary);
        return c.status == oracle::Confirmation::contradicted;
    }
    progress("confirming " + std::to_string(fs.size()) + " finding(s) in the kernel of " + tree.tree.era() + " (" +
             job.work + ")");
    const auto cs = oracle::confirm_findings(fs, job);
    std::size_t contradicted = 0;
    for (std::size_t i = 0; i < asked.size(); ++i) {
        asked[i]->kernel = cs[i].summary;
        asked[i]->kernel_excerpt = cs[i].excerpt;
        asked[i]->kernel_contradicts = cs[i].status == oracle::Confirmation::contradicted;
        contradicted += asked[i]->kernel_contradicts;
        progress(fs[i].label + ": " + cs[i].summary);
    }
    return contradicted;
}

}  // namespace tagproof::cli
