// verdicts.hpp — what two forms of a variant are compared on: the solver's
// verdict per obligation and scope, and each corpus scenario's outcome and
// violations per mode (the variant's own name, where a message names it, as V).
#pragma once
#include <map>
#include <string>

#include "corpus.hpp"
#include "prove.hpp"

namespace tagproof::test {

inline std::map<std::string, std::string> obligation_verdicts(const std::string& variant, const std::string& baseline) {
    solver::ProveOptions po;
    po.variant = variant;
    po.baseline = baseline;
    std::map<std::string, std::string> out;
    for (const auto& vd : solver::prove(po))
        for (const auto& sv : vd.scopes) out[vd.id + " / " + sv.scope] = sv.verdict;
    return out;
}

// The variant's name, where a message names it, as "V".
inline std::string unnamed(std::string s, const std::string& variant) {
    for (std::size_t p; (p = s.find(variant)) != std::string::npos;) s.replace(p, variant.size(), "V");
    return s;
}

inline std::map<std::string, std::string> corpus_outcomes(const std::string& variant) {
    std::vector<std::string> dirs;
    for (const char* d : {"kunit", "seeds", "eras"}) dirs.push_back(std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/" + d);
    scenario::CorpusResult r = scenario::run_corpus(scenario::corpus_files(dirs), variant);
    std::map<std::string, std::string> out;
    for (const auto& e : r.entries) {
        std::string v = e.outcome;
        for (const auto& x : e.violations) v += " | " + x;
        out[e.file + " [" + mode_name(e.mode) + "]"] = unnamed(v, variant);
    }
    for (const auto& n : r.not_applicable) out[unnamed(n, variant)] = "not applicable";
    return out;
}


}  // namespace tagproof::test
