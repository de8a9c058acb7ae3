// fuzz_run.cpp — see fuzz_run.hpp.
#include "fuzz_run.hpp"

#include <algorithm>

#include "lockstep.hpp"

namespace tagproof::differential {

std::string last_event(const std::vector<std::string>& trace) {
    for (auto it = trace.rbegin(); it != trace.rend(); ++it)
        if (it->find("= page_address(") == std::string::npos) return *it;
    return "(no event)";
}

FuzzRun run_fuzz_input(const FuzzInput& in, const std::string& header, reference::RefMutation mutation,
                       bool stop_at_mismatch, std::size_t max_events) {
    FuzzRun r;
    const kernel::Variant& v = *in.variant;
    const auto known = kernel::expected_defects(v);
    r.events_decoded = in.decoded.events.size();
    Lockstep ls(v, in.decoded.config, in.picks, mutation);
    for (std::size_t i = 0; i < in.decoded.events.size() && i < max_events; ++i) {
        const std::string d = ls.step(in.decoded.events[i]);
        ++r.events_run;
        if (!r.violated)
            for (const auto& x : ls.model().violations()) {
                if (std::find(known.begin(), known.end(), x.invariant) != known.end()) continue;
                r.violated = true;
                r.invariant = x.invariant;
                r.message = x.message;
                r.violation_at = last_event(ls.trace());
                r.violation_scenario = ls.scenario("fuzz_" + x.invariant, header) + "expect violation " + x.invariant + "\n";
                break;
            }
        if (!d.empty() && r.mismatch.empty()) {
            r.mismatch = d;
            r.mismatch_at = last_event(ls.trace());
            if (stop_at_mismatch) break;
        }
    }
    r.scenario = ls.scenario("fuzz_input", header);
    return r;
}

}  // namespace tagproof::differential
