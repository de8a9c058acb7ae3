// property.hpp — the invariant properties, run programmatically so a test can
// assert that a negative control fails and inspect its shrunk counterexample.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "commands.hpp"

namespace tagproof::properties {

struct PropertyOptions {
    std::size_t max_events = 24;  // sequence length set per property (RapidCheck issue #110)
    int tests = 100;              // cases a check (RapidCheck's max_success)
    bool isolation = false;       // mode-isolation against the variant's baseline, outside HW_TAGS-active states
    std::uint64_t seed = 0;       // 0: RapidCheck's configuration (RC_PARAMS seed=...); else this seed, reproducibly
    // Invariants not asserted in this check, "inv" or "inv@mode" (a review
    // re-runs a burst without the (property, mode) pairs it already has a
    // counterexample for, so one finding does not end the other searches).
    std::set<std::string> ignore;
    // Assert the variant's recorded defects too (a review classifies what it
    // finds: recorded, also in the baseline, or new).
    bool assert_recorded = false;
    // Run the variant's baseline beside it and let pass what the baseline
    // shows at the same event (a review's search for what the patch adds).
    bool baseline_filter = false;
    // Where a shrunk counterexample's scenario file goes: "" for
    // $TAGPROOF_RC_SCENARIOS, else ./rapidcheck-failures (a review passes its --out).
    std::string failure_dir;
    // Write it at all: a review without --out writes nothing where it runs.
    bool write_failure = true;
};

struct PropertyResult {
    bool passed = true;
    int cases = 0;        // cases run, the failing one included
    LastFailure failure;  // the shrunk counterexample when !passed
    // "invariant@mode" -> the shortest run the baseline filter let pass
    // (shared_with_baseline()), line-minimised: violations the baseline has too
    std::map<std::string, LastFailure> shared;
};

// A configuration a variant can boot (mode, MTE, a command line its era parses).
// `also`: a variant run in lockstep, which must parse the same command line.
rc::Gen<Config> gen_config(const kernel::Variant& v, bool hw_active_allowed, const kernel::Variant* also = nullptr);
// The initial abstract state: GFP strings weighted toward the flags that matter.
// With a baseline, only GFP strings both eras define.
AbstractState initial_state(const kernel::Variant& v, const Config& c, const kernel::Variant* baseline = nullptr);

// Removes event lines one at a time while the scenario still shows a
// violation of `invariant` (replayed by the scenario runner): the shortest
// replayable trace. `events` is set to the number of event lines left.
std::string minimise_scenario(const std::string& text, const std::string& invariant, std::size_t& events);

// The seed for the round-th of several checks in one process: `base` (0:
// RapidCheck's configured seed, RC_PARAMS seed=..., else random per process)
// advanced by the round. Checks that all take the same base draw the same cases.
std::uint64_t round_seed(int round, std::uint64_t base = 0);
// Does RC_PARAMS name a seed? (Else RapidCheck draws one per process.)
bool seed_configured();
// A nonzero seed that depends only on `text` (a review seeds its checks from
// the variant, so the same patch gets the same reply every time).
std::uint64_t seed_of(const std::string& text);

// One property as a RapidCheck check: `tests` cases (max_size 0 and seed 0:
// RapidCheck's configuration); on failure the case's last_failure(), its
// scenario line-minimised.
PropertyResult run_check(const std::string& name, const std::function<void()>& property, int tests, int max_size,
                         std::uint64_t seed);

// "No invariant is violated except the variant's recorded defects."
PropertyResult check_invariants(const kernel::Variant& v, const PropertyOptions& opt);

}  // namespace tagproof::properties
