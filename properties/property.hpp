// property.hpp — the invariant properties, run programmatically so a test can
// assert that a negative control fails and inspect its shrunk counterexample.
#pragma once
#include <string>

#include "commands.hpp"

namespace tagproof::properties {

struct PropertyOptions {
    std::size_t max_events = 24;  // sequence length set per property (RapidCheck issue #110)
    int tests = 100;              // max_success unless RC_PARAMS says otherwise
    bool isolation = false;       // mode-isolation against the variant's baseline, outside HW_TAGS-active states
};

struct PropertyResult {
    bool passed = true;
    LastFailure failure;  // the shrunk counterexample when !passed
};

// A configuration a variant can boot (mode, MTE, a command line its era parses).
rc::Gen<Config> gen_config(const kernel::Variant& v, bool hw_active_allowed);
// The initial abstract state: GFP strings weighted toward the flags that matter.
// With a baseline, only GFP strings both eras define.
AbstractState initial_state(const kernel::Variant& v, const Config& c, const kernel::Variant* baseline = nullptr);

// Removes event lines one at a time while the scenario still shows a
// violation of `invariant` (replayed by the scenario runner): the shortest
// replayable trace. `events` is set to the number of event lines left.
std::string minimise_scenario(const std::string& text, const std::string& invariant, std::size_t& events);

// "No invariant is violated except the variant's recorded defects."
PropertyResult check_invariants(const kernel::Variant& v, const PropertyOptions& opt);

}  // namespace tagproof::properties
