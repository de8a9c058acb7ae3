// corpus.cpp — see corpus.hpp.
#include "corpus.hpp"

#include <algorithm>
#include <filesystem>

#include "error.hpp"

namespace tagproof::scenario {

std::vector<std::string> corpus_files(const std::vector<std::string>& dirs) {
    std::vector<std::string> out;
    for (const auto& d : dirs) {
        if (!std::filesystem::is_directory(d)) throw InputError(d, "not a directory of scenario files");
        for (const auto& e : std::filesystem::recursive_directory_iterator(d))
            if (e.is_regular_file() && e.path().extension() == ".litmus") out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

CorpusResult run_corpus(const std::vector<std::string>& files, const std::string& variant) {
    CorpusResult cr;
    cr.variant = variant;
    RunOptions ro;
    ro.variant_override = variant;
    ro.max_runs = 1024;
    ro.samples = 100;
    for (const auto& f : files) {
        Scenario sc = load_scenario(f);
        // what the file is about stays; a baseline named in the file is not this review's
        sc.baseline.clear();
        sc.expects.clear();
        std::vector<ModeResult> res;
        try {
            res = run_scenario(sc, ro);
        } catch (const InputError& e) {
            cr.not_applicable.push_back(sc.name + ": " + e.what());
            continue;
        }
        for (const auto& r : res) {
            CorpusEntry ce;
            ce.file = f;
            ce.name = sc.name;
            ce.mode = r.mode;
            ce.hw_tags_active = r.hw_tags_active;
            ce.outcome = r.observation + " " + r.ok_weight.str() + " reports=" + std::to_string(r.min_reports) +
                         (r.max_reports != r.min_reports ? ".." + std::to_string(r.max_reports) : "");
            ce.violations = r.violations;
            cr.runs += r.runs;
            for (const auto& v : r.violations) {
                std::string inv = v.substr(0, v.find(':'));
                cr.counterexamples.emplace(inv, sc.name + " [" + mode_name(r.mode) + "]: " + v.substr(v.find(':') + 2));
            }
            cr.entries.push_back(ce);
        }
    }
    return cr;
}

}  // namespace tagproof::scenario
