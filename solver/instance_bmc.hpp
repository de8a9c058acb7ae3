// instance_bmc.hpp — the trace BMC (trace_bmc.cpp) on one concrete instance:
// the configuration fixed and every allocation's GFP drawn from a given set,
// so that its answer can be set against the explicit-state explorer's on the
// same instance (explore/, issue 6). No caller contracts: both sides range
// over exactly the given GFP values.
#pragma once
#include <string>
#include <vector>

#include "gfp.hpp"
#include "sym_env.hpp"

namespace tagproof::solver {

struct InstanceAnswer {
    enum Kind { holds, violated, unknown } kind = holds;
    unsigned depth = 0;  // violated: the fewest steps that show it
    std::string trace;   // violated: the scenario the BMC's model replays as
};

// Checks depths 1..max_depth in turn (the first satisfiable is the shortest).
InstanceAnswer bmc_instance(const std::string& variant, const std::string& invariant, const ConcreteConfig& config,
                            const std::vector<gfp_t>& gfps, unsigned max_depth, unsigned timeout_ms = 20000);

}  // namespace tagproof::solver
