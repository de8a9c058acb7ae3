// explorer.hpp — explicit-state exploration of a small instance with
// Boost.Graph (issue 6): the reachable states of the executable model under
// alloc_pages / free_pages / 1-byte accesses on 2 pages and 2 CPUs — the
// instance the solver's trace BMC checks (solver/trace_bmc.cpp) — with every
// random tag choice a branch. States are merged by a canonical key (tags up
// to renaming); a transition that makes the model's oracle report a
// violation is marked with the invariant. Breadth-first search on the graph
// gives the shortest event sequence to each violation.
#pragma once
#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace tagproof::explore {

// The invariants the instance can show (those the trace BMC states).
const std::vector<std::string>& instance_invariants();

struct ExploreOptions {
    std::string variant = "linux-7.0";
    std::string boot;                // kernel command line (sync mode; kasan_multi_shot is added)
    bool mte = true;
    unsigned depth = 5;              // events from boot
    std::vector<std::string> gfps;   // GFP strings of allocations; empty: instance_gfps(variant)
    std::size_t max_states = 500000; // stop (truncated) beyond this
};

// The default GFP vocabulary of the instance for a variant's era.
std::vector<std::string> instance_gfps(const std::string& variant);

// One transition: an event of the instance and the random tag choice taken.
struct Event {
    enum Op : std::uint8_t { alloc, free, read, write } op = alloc;
    std::uint8_t page = 0;    // page slot 0 / 1
    std::uint8_t cpu = 0;
    std::uint8_t gfp = 0;     // index into the GFP vocabulary (alloc)
    std::uint8_t choice = 0;  // which random tag option (alloc)
    std::uint8_t choices = 1; // of how many
};

struct VertexProp {
    std::string key;      // canonical state
    unsigned depth = 0;   // BFS layer it was found in
    std::string summary;  // one line for the DOT label
};
struct EdgeProp {
    Event event;
    std::vector<std::string> violated;  // invariants this transition breaks
    std::string message;                // the first violation's text
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, VertexProp, EdgeProp>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
using EdgeDesc = boost::graph_traits<Graph>::edge_descriptor;

struct InvariantVerdict {
    std::string invariant;
    bool violated = false;
    std::vector<Event> path;  // the shortest event sequence (the last event breaks it)
    std::vector<EdgeDesc> edges;
    std::string message;
};

struct ExploreResult {
    ExploreOptions options;
    Graph graph;
    Vertex initial = 0;
    bool truncated = false;
    std::vector<InvariantVerdict> verdicts;  // one per instance invariant
    std::vector<std::string> gfps;
    // The path as scenario-file lines (replays with `tagproof run`).
    std::vector<std::string> lines(const std::vector<Event>& path) const;
    std::string scenario(const InvariantVerdict& v) const;
};

ExploreResult explore(const ExploreOptions& opt);

// Graphviz: the whole graph (violating transitions red), or only the given
// counterexample path.
void write_dot(std::ostream& out, const ExploreResult& r, const InvariantVerdict* path_only = nullptr);

}  // namespace tagproof::explore
