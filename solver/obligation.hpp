// obligation.hpp — an invariant stated for one kernel entry point, as a
// query: inputs, the negated property, and how to show a counterexample.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "contracts.hpp"
#include "sym_env.hpp"

namespace tagproof::solver {

// What an obligation is built from: the variant (and a baseline for
// equivalence), symbolic inputs shared by both, and the BMC depth.
struct Builder {
    z3::context& c;
    const SymVariant& v;
    const SymVariant* base;  // nullptr unless comparing
    SymInputs in;
    SEnv e;                  // the variant's environment
    std::optional<SEnv> be;  // the baseline's, over the same inputs
    z3::expr bits_mask;      // __GFP_BITS_MASK of the variant's era, for the build selected
    unsigned depth;
    int fresh = 0;
    // Whose callers exist: the baseline's (a patch does not remove the kernel's
    // callers of __vmalloc by shortening GFP_VMALLOC_SUPPORTED), else the variant's.
    const SymVariant* callers = nullptr;
    z3::expr word(const std::string& name) { return solver::word(c, name); }
    z3::expr tag(const std::string& name, std::vector<z3::expr>& domain);  // an 8-bit value
};

// A term shown in a counterexample, by name.
struct Witness {
    std::string name;
    z3::expr value;
    enum Kind { number, hex, gfp, boolean } kind = number;
};

struct Query {
    bool applicable = true;
    std::string why_not;
    std::string entry;                 // kernel entry point
    std::string method = "single step over all inputs";
    std::vector<z3::expr> assumptions;  // input domain and reachable-state facts
    std::vector<Contract> contracts;    // caller contracts (scope "within contracts")
    z3::expr violation;                 // the property's negation
    std::vector<Witness> witnesses;
    // Tried in order on a counterexample, each kept if still satisfiable: a
    // smaller, more readable trace (order 0, small N, ...).
    std::vector<z3::expr> prefer;
    // Free GFP symbols whose set bits are cleared one by one where the
    // counterexample survives: the flags that matter, and no others.
    std::vector<z3::expr> minimise_bits;
    // Bounded model checking over steps: the violation at each step
    // (`violation` is their or), and the step each `prefer` and
    // `minimise_bits` entry belongs to (-1: the whole trace). On a
    // counterexample the earliest step that can fail is found first, so the
    // trace shown is a shortest one, and only the preferences and GFP
    // symbols of the steps up to it are tried: later steps are not in it.
    std::vector<z3::expr> violation_at;
    std::vector<int> prefer_step, minimise_step;
    // Equivalence: the fields compared, by name (variant value, baseline value).
    std::vector<std::pair<std::string, std::pair<z3::expr, z3::expr>>> fields;
    // A scenario file that replays a counterexample in the model ("" if none).
    std::function<std::string(const z3::model&)> scenario;
    bool trace_from_scenario = false;  // show the scenario's events as the counterexample
    explicit Query(z3::context& c) : violation(c.bool_val(false)) {}
};

struct Obligation {
    std::string id;         // "no-false-positive/alloc_pages"
    std::string invariant;  // "no-false-positive"
    std::string statement;  // one sentence
    bool needs_baseline = false;
    bool informational = false;  // reports a change (intended) rather than a defect
    std::function<Query(Builder&)> build;
};

const std::vector<Obligation>& all_obligations();

// The oracle's words for a tag check, shared by the single-step obligations
// and the trace BMC: whether the tags differ, whether the access is checked.
z3::expr oracle_mismatch(const SEnv& e, const z3::expr& ptr, const z3::expr& mem);
z3::expr oracle_checking(const SEnv& e, const kernel::TagCheckInput<Symbolic>& in);

// The steps a BMC counterexample shows: up to and including the first whose
// violation (Query::violation_at) holds in `m`, all of them if none does.
// The scenario printers of every BMC query stop there.
std::size_t steps_shown(const z3::model& m, const std::vector<z3::expr>& violation_at);

}  // namespace tagproof::solver
