// differential_property.hpp — the reference agrees with the model: random
// configurations and event sequences (the differential vocabulary) run in
// lockstep, every outcome compared after every event (differential/lockstep.hpp).
// On a mismatch RapidCheck shrinks the sequence; the shortest trace, both
// states and a replayable scenario are returned.
#pragma once
#include <rapidcheck.h>

#include <string>

#include "event.hpp"
#include "ref_kernel.hpp"

namespace tagproof::properties {

struct DiffOptions {
    int sequences = 10000;      // successful sequences before the property passes
    int max_events = 32;        // events per sequence
    std::uint64_t seed = 0;     // 0: RapidCheck's configuration (RC_PARAMS seed=...)
    reference::RefMutation mutation = reference::RefMutation::none;  // negative controls
};

struct DiffResult {
    bool passed = true;
    int sequences_run = 0;       // RapidCheck's count of passing cases before the result
    std::string mismatch;        // the shrunk counterexample's report
    std::size_t events = 0;      // ... and its length
    std::string scenario;        // ... as a scenario file
    // coverage of the passing sequences: events that ran on both, KASAN and
    // MMU reports compared, random tags drawn
    std::uint64_t events_run = 0, reports_compared = 0, tags_drawn = 0;
};

rc::Gen<differential::Event> gen_event();
rc::Gen<differential::DiffConfig> gen_diff_config(const kernel::Variant& v);

DiffResult check_differential(const kernel::Variant& v, const DiffOptions& opt);

}  // namespace tagproof::properties
