// family_explorer.hpp — explicit-state exploration of one vocabulary family
// (families.hpp) in one boot configuration: every event the family has,
// every random tag choice a branch, states merged by the model's whole state
// (spec::state_key) and the handles' status, breadth-first to a depth.
// Violating transitions carry the invariants the model's oracle reports; the
// shortest path to each is a scenario file (shortest.hpp).
#pragma once
#include <boost/graph/adjacency_list.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "families.hpp"

namespace tagproof::explore {

struct FamilyOptions {
    std::string variant = "linux-7.0";
    Family family;
    BootConfig config;
    // The KASAN build. The explorer runs HW_TAGS; RapidCheck's walks
    // (properties/family_walk_property.cpp) any mode, with its boot product.
    Mode mode = Mode::hw_tags;
    unsigned depth = 4;                // events after the setup
    std::size_t max_states = 200000;   // stop (truncated) beyond this many states
    std::size_t max_bytes = std::size_t(1) << 30;  // ... or when the states waiting to be expanded hold this much
    // Asked instead of looking `variant` up (explore_family hands a
    // kernel::RecordingVariant here, family_cache.hpp).
    const kernel::Variant* asked = nullptr;
};

struct FamilyEdge {
    std::string line;                   // the event as a scenario line
    std::vector<std::string> violated;  // invariants this transition breaks
    std::string message;                // the first violation's text
};
using FamilyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property, FamilyEdge>;

struct FamilyVerdict {
    std::string invariant;
    bool violated = false;
    bool recorded = false;             // a defect the variant itself is recorded to have (not its baselines')
    std::vector<std::string> path;     // the shortest event sequence (the last breaks it)
    std::string message;
};

struct FamilyResult {
    FamilyOptions options;
    std::size_t initial = 0;
    bool truncated = false;
    std::size_t refused = 0;           // events the model refused (InputError): not enabled there
    std::size_t sampled_events = 0;    // transitions whose tag choices were sampled, not all enumerated
    std::size_t states = 0, transitions = 0;  // the graph's vertices and edges
    std::vector<FamilyVerdict> verdicts;  // one per invariant the oracle judges
    bool reused = false;  // read from family_cache.hpp: another variant's, answering every question alike
    std::string scenario(const FamilyVerdict& v) const;  // replays with `tagproof run`

    // The state graph. A reused exploration's is built from its kept entry
    // the first time it is asked for: a review reads the verdicts and the
    // counts only, and building the graph (an allocation an edge) was most of
    // a reused exploration's time. Copies share one graph; the first call is
    // not to be raced by another thread.
    const FamilyGraph& graph() const;
    // Every transition (its states, its event line, the invariants it
    // breaks, the first one's text) in boost::edges' order, read from the
    // kept entry without building the graph (the cross-check reads every edge
    // of every family).
    using EdgeFn = std::function<void(std::size_t source, std::size_t target, const std::string& line,
                                      const std::vector<std::string>& violated, const std::string& message)>;
    void for_each_edge(const EdgeFn& f) const;

    // How graph() and for_each_edge() get it: the exploration sets graph_, a
    // kept entry kept_edges_ (family_cache.cpp).
    mutable std::shared_ptr<FamilyGraph> graph_;
    std::function<void(const EdgeFn&)> kept_edges_;
};

// The invariants a family exploration judges (the model's, less mode-isolation:
// that one compares two variants, which `review` does).
const std::vector<std::string>& family_invariants();

// An exploration's graph and verdicts; kept with the questions it asked of
// the variant and reused by a variant that answers them alike
// (family_cache.hpp).
FamilyResult explore_family(const FamilyOptions& opt);

}  // namespace tagproof::explore
