// run_confirm.cpp — `tagproof run FILE... --confirm [--tree DIR]` (issue 32):
// each scenario run in a tree's kernel as it is, under QEMU MTE, for each
// property the file expects violated (`expect violation P`): the kernel's
// observation at the statement the model's violation names (or, where the
// model shows none, at any statement) beside the model's verdict under the
// file's variant (oracle/confirm.hpp, ConfirmJob::no_patch).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "confirm.hpp"
#include "error.hpp"
#include "scenario.hpp"
#include "source_tree.hpp"
#include "verbs.hpp"

#ifndef TAGPROOF_SOURCE_DIR
#define TAGPROOF_SOURCE_DIR "."
#endif

namespace tagproof::cli {

int run_confirm(const std::vector<std::string>& files, const std::string& tree_dir, const std::string& variant,
                const std::string& out, const std::vector<std::string>& properties) {
    std::vector<oracle::ConfirmFinding> fs;
    std::vector<std::string> names;
    std::string file_variant;
    for (const auto& f : files) {
        const scenario::Scenario sc = scenario::load_scenario(f);
        std::ifstream in(f);
        std::stringstream text;
        text << in.rdbuf();
        const std::string v = variant.empty() ? sc.variant : variant;
        if (!file_variant.empty() && v != file_variant)
            throw InputError(f, "its variant " + v + " is not the other files' (" + file_variant +
                                    "): one kernel, one variant (run them apart, or --variant)");
        file_variant = v;
        // the properties: --property, else the file's `expect violation` lines
        std::vector<std::string> props = properties;
        if (props.empty())
            for (const auto& e : sc.expects)
                if (e.kind == scenario::Expect::violation) props.push_back(e.value);
        if (props.empty())
            throw InputError(f, "no `expect violation PROPERTY` line: --confirm compares the kernel with the model on "
                                "the properties a file names (or --property P)");
        for (const auto& p : props) {
            fs.push_back({sc.name + ": " + p, p, Mode::hw_tags, text.str(), {}});
            names.push_back(f);
        }
    }
    // the tree: --tree, else the newest installed one
    tree::SourceTree t;
    if (!tree_dir.empty()) {
        t = tree::open_tree(tree_dir);
    } else {
        auto trees = tree::installed_trees();
        if (trees.empty())
            throw InputError("--confirm", "no kernel tree is installed (scripts/setup-trees.sh) and no --tree given");
        t = *std::max_element(trees.begin(), trees.end(), [](const auto& a, const auto& b) {
            return version_less(a.version, b.version);
        });
    }
    oracle::ConfirmJob job;
    job.tree = t.root;
    job.version = t.describe.empty() ? t.version : t.describe;
    job.patched_variant = job.base_variant = file_variant;
    job.no_patch = true;
    job.work = oracle::kernel_work_dir(t.root);
    job.dir = std::filesystem::absolute(out).lexically_normal().string();
    job.script = std::string(TAGPROOF_SOURCE_DIR) + "/scripts/kernel-confirm.sh";
    job.progress = [](const std::string& l) { std::cerr << "tagproof: " << l << "\n"; };
    std::cerr << "tagproof: running " << fs.size() << " expectation(s) in the kernel of " << t.era() << " (" << job.work
              << ")\n";
    const auto cs = oracle::confirm_findings(fs, job);
    int status = EXIT_HOLDS;
    for (std::size_t i = 0; i < cs.size(); ++i) {
        std::cout << "tagproof: " << fs[i].label << " [hw_tags] " << names[i] << ": " << cs[i].summary << "\n";
        for (const auto& l : cs[i].excerpt) std::cout << "  | " << l << "\n";
        if (cs[i].status == oracle::Confirmation::contradicted) status = EXIT_COUNTEREXAMPLE;
        else if (cs[i].status == oracle::Confirmation::not_run && status == EXIT_HOLDS) status = EXIT_UNKNOWN;
    }
    return status;
}

}  // namespace tagproof::cli
