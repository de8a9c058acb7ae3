// fuzz_run.hpp — one event fuzz input run to its verdict: the model with its
// oracle and the reference in lockstep. What the two event fuzz targets
// crash on and what `tagproof replay crash-<sha>` prints are this one run.
#pragma once
#include <string>

#include "event.hpp"
#include "ref_kernel.hpp"

namespace tagproof::differential {

struct FuzzRun {
    std::size_t events_decoded = 0;  // before the cap
    std::size_t events_run = 0;
    // the first violation of an invariant the variant is not recorded to break
    bool violated = false;
    std::string invariant, message;
    std::string violation_at;        // the event it showed at (last_event)
    std::string violation_scenario;  // the trace up to it, ending in `expect violation INV`
    // the first disagreement of model and reference (the run stops there)
    std::string mismatch;            // Lockstep's report: both states and the trace
    std::string mismatch_at;
    std::string scenario;            // the whole trace run, as a scenario file
};

// Events past `max_events` are not run (the targets cap inputs at 64:
// long inputs add time, not states). `header` names who wrote the scenarios.
// With stop_at_mismatch the run ends at the first disagreement (what the
// differential target asks); without, the model's invariants are checked to
// the end and only the first mismatch is kept (the invariants target).
FuzzRun run_fuzz_input(const FuzzInput& in, const std::string& header,
                       reference::RefMutation mutation = reference::RefMutation::none, bool stop_at_mismatch = true,
                       std::size_t max_events = 64);

// The event a finding showed at: the last trace line that is not the
// page_address() the runner adds after a page allocation.
std::string last_event(const std::vector<std::string>& trace);

}  // namespace tagproof::differential
