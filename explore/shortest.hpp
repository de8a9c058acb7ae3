// shortest.hpp — the shortest counterexample to each invariant in an
// explored graph: Boost's breadth-first search from the initial state gives
// every state's distance and the tree edge that reached it; the violating
// transition nearest the initial state, with the tree path to its source, is
// the shortest event sequence that breaks the invariant. Both explorers
// (the BMC's page instance and the vocabulary families) use it; their edge
// property has `violated` (the invariants the transition breaks).
#pragma once
#include <boost/graph/breadth_first_search.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace tagproof::explore {

// The edges from the initial state to the first violation of `inv`, or none.
template <class G>
std::vector<typename boost::graph_traits<G>::edge_descriptor> shortest_violation(
    const G& g, typename boost::graph_traits<G>::vertex_descriptor initial, const std::string& inv,
    std::vector<unsigned>& dist, std::vector<typename boost::graph_traits<G>::edge_descriptor>& pred) {
    using E = typename boost::graph_traits<G>::edge_descriptor;
    using V = typename boost::graph_traits<G>::vertex_descriptor;
    if (dist.size() != boost::num_vertices(g)) {  // the search, once per graph
        dist.assign(boost::num_vertices(g), ~0u);
        pred.assign(boost::num_vertices(g), E{});
        dist[initial] = 0;
        struct Recorder : boost::default_bfs_visitor {
            std::vector<unsigned>* dist;
            std::vector<E>* pred;
            void tree_edge(E e, const G& gr) {
                (*dist)[boost::target(e, gr)] = (*dist)[boost::source(e, gr)] + 1;
                (*pred)[boost::target(e, gr)] = e;
            }
        } rec;
        rec.dist = &dist;
        rec.pred = &pred;
        boost::breadth_first_search(g, initial, boost::visitor(rec));
    }
    unsigned best = ~0u;
    E best_e{};
    for (auto [ei, ee] = boost::edges(g); ei != ee; ++ei) {
        const auto& vl = g[*ei].violated;
        if (std::find(vl.begin(), vl.end(), inv) == vl.end()) continue;
        const unsigned ds = dist[boost::source(*ei, g)];
        if (ds < best) {
            best = ds;
            best_e = *ei;
        }
    }
    if (best == ~0u) return {};
    std::vector<E> rev{best_e};
    for (V x = boost::source(best_e, g); x != initial; x = boost::source(pred[x], g)) rev.push_back(pred[x]);
    return {rev.rbegin(), rev.rend()};
}

}  // namespace tagproof::explore
