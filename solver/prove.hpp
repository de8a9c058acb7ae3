// prove.hpp — run obligations: verdicts, counterexamples, replay.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"

namespace tagproof::solver {

struct ProveOptions {
    std::string variant;    // required
    std::string baseline;   // "" = the variant's own baseline
    std::vector<std::string> only;  // obligation id prefixes ("" = all)
    unsigned depth = 8;     // BMC depth
    unsigned timeout_ms = 20000;
    std::string smt2_dir;       // write each query there
    std::string scenario_dir;   // write each counterexample's scenario there
    bool replay = true;
    bool raw_scope = true;      // also check over the raw flag space
    // A trace counterexample is a shortest one: the earliest step that can
    // fail is searched for first. false: any trace within the depth (the
    // negative control of the tests that hold the traces shortest).
    bool shortest_trace = true;
    std::optional<Mode> mode;   // only builds of this KASAN mode (none: no KASAN compiled in)
};

struct ScopeVerdict {
    std::string scope;    // "within caller contracts" / "raw flag space" / "all inputs"
    std::string verdict;  // proved / counterexample / unknown / changed / unchanged
    std::vector<std::string> details;   // the counterexample, line by line
    std::vector<std::string> broken;    // contracts the input breaks
    std::string scenario;               // replay scenario text
    std::string replay;                 // "confirmed in the model" / "NOT reproduced: ..."
    bool replay_ok = true;
    double ms = 0;
    std::string smt2_file;
};

struct Verdict {
    std::string variant, baseline, id, invariant, statement, entry, method;
    bool informational = false;
    bool applicable = true;
    std::string why_not;
    std::vector<ScopeVerdict> scopes;
    // the verdict that counts: within contracts when there are contracts
    const ScopeVerdict* primary() const { return scopes.empty() ? nullptr : &scopes.front(); }
};

std::vector<Verdict> prove(const ProveOptions& opt);

}  // namespace tagproof::solver
