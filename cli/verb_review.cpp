// verb_review.cpp — `tagproof review`: a verdict per (variant, property) over
// the scenario corpus, the outcomes that changed against the baseline, and
// whether that is what the variant is recorded to get.
//
// This is the corpus part of a review; the solver's proofs and the explorer's
// shortest counterexamples join it as those parts are built.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

#include "corpus.hpp"
#include "error.hpp"
#include "variant.hpp"
#include "verbs.hpp"

#ifndef TAGPROOF_SOURCE_DIR
#define TAGPROOF_SOURCE_DIR "."
#endif

namespace tagproof::cli {

static const char* kInvariants[] = {"match-all-never-faults", "mismatch-faults", "no-false-positive", "detection",
                                    "zeroing", "page-tag-consistency", "tag-range", "sampling-accounting",
                                    "mode-isolation", "gfp-encoding"};

static const char* kHelp =
    "usage: tagproof review [--variant NAME] [--baseline NAME] [--corpus DIR]... [--quiet]\n"
    "\n"
    "Runs the scenario corpus (default: tests/scenarios/{kunit,seeds,eras}) under the\n"
    "variant and its baseline and prints, per invariant, whether it holds on every\n"
    "scenario or the first counterexample; then every scenario whose outcome changed\n"
    "against the baseline. With no --variant, reviews every built-in variant.\n"
    "Each variant records the invariants it is expected to violate (known defects);\n"
    "exit status 0 when every variant gets exactly its recorded verdicts, 1 otherwise,\n"
    "2 on bad input.\n";

int verb_review(const Args& args) {
    Options o = parse_options(args, {"--variant", "--baseline", "--corpus"}, {"--help", "--quiet"});
    if (o.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    std::vector<std::string> dirs;
    for (const auto& [k, v] : o.named)
        if (k == "--corpus") dirs.push_back(v);
    if (dirs.empty())
        for (const char* d : {"kunit", "seeds", "eras"})
            dirs.push_back(std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/" + d);
    auto files = scenario::corpus_files(dirs);
    if (files.empty()) throw InputError("--corpus", "no scenario files found");

    std::vector<const kernel::Variant*> targets;
    if (o.get("--variant").empty()) targets = kernel::all_variants();
    else targets.push_back(&kernel::find_variant(o.get("--variant"), "--variant"));

    std::map<std::string, scenario::CorpusResult> cache;
    auto corpus = [&](const std::string& v) -> const scenario::CorpusResult& {
        auto it = cache.find(v);
        if (it == cache.end()) it = cache.emplace(v, scenario::run_corpus(files, v)).first;
        return it->second;
    };

    int status = EXIT_HOLDS;
    std::vector<std::string> summary;
    for (const kernel::Variant* v : targets) {
        std::string base = o.get("--baseline", v->baseline());
        const auto& cr = corpus(v->name());
        std::printf("== %s (baseline %s): %s\n", v->name().c_str(), base.empty() ? "-" : base.c_str(),
                    v->summary().c_str());
        std::printf("   %zu scenario runs over %zu files and modes", cr.runs, cr.entries.size());
        if (!cr.not_applicable.empty()) std::printf(", %zu file(s) not applicable to this era", cr.not_applicable.size());
        std::printf("\n");
        std::set<std::string> seen;
        for (const char* inv : kInvariants) {
            auto it = cr.counterexamples.find(inv);
            if (it == cr.counterexamples.end()) {
                std::printf("   %-24s holds on every scenario\n", inv);
            } else {
                seen.insert(inv);
                std::printf("   %-24s counterexample found: %s\n", inv, it->second.c_str());
            }
        }
        if (!base.empty()) {
            const auto& br = corpus(base);
            std::map<std::string, std::string> before;
            for (const auto& e : br.entries) before[e.name + " [" + mode_name(e.mode) + "]"] = e.outcome;
            int changed = 0;
            for (const auto& e : cr.entries) {
                std::string key = e.name + " [" + mode_name(e.mode) + "]";
                auto it = before.find(key);
                if (it != before.end() && it->second != e.outcome) {
                    if (v->claims_hw_only_change() && e.mode != Mode::hw_tags && !seen.count("mode-isolation")) {
                        seen.insert("mode-isolation");
                        std::printf("   %-24s counterexample found: %s changed outside HW_TAGS: %s -> %s\n",
                                    "mode-isolation", key.c_str(), it->second.c_str(), e.outcome.c_str());
                    }
                    if (!changed++) std::printf("   outcomes changed against %s:\n", base.c_str());
                    if (!o.has("--quiet"))
                        std::printf("     %-48s %s -> %s\n", key.c_str(), it->second.c_str(), e.outcome.c_str());
                }
            }
            if (!changed) std::printf("   no scenario outcome changed against %s\n", base.c_str());
        }
        auto known = v->known_defects();
        std::set<std::string> want(known.begin(), known.end());
        bool as_recorded = want == seen;
        std::string w;
        for (const auto& k : want) w += (w.empty() ? "" : ", ") + k;
        if (as_recorded) {
            std::printf("   verdict: as recorded (%s)\n\n", want.empty() ? "all invariants hold" : ("known defects: " + w).c_str());
        } else {
            status = EXIT_COUNTEREXAMPLE;
            std::string s;
            for (const auto& k : seen) s += (s.empty() ? "" : ", ") + k;
            std::printf("   verdict: NOT as recorded: recorded {%s}, observed {%s}\n\n", w.c_str(), s.c_str());
        }
        summary.push_back(v->name() + (as_recorded ? "  as recorded" : "  CHANGED") + "  violated {" +
                          [&] {
                              std::string s;
                              for (const auto& k : seen) s += (s.empty() ? "" : ", ") + k;
                              return s;
                          }() + "}");
    }
    std::printf("summary:\n");
    for (const auto& s : summary) std::printf("  %s\n", s.c_str());
    std::printf("%s\n", status == EXIT_HOLDS ? "every variant got its recorded verdicts"
                                             : "some variant did not get its recorded verdicts");
    return status;
}

}  // namespace tagproof::cli
