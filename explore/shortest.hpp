// shortest.hpp — the shortest counterexample to each invariant in an
// explored graph: Boost's breadth-first search from the initial state gives
// every state's distance and the tree edge that reached it; the violating
// transition nearest the initial state, with the tree path to its source, is
// the shortest event sequence that breaks the invariant. Both explorers
// (the BMC's page instance and the vocabulary families) use it; their edge
// property has `violated` (the invariants the transition breaks).
#pragma once
#include <boost/graph/breadth_first_search.hpp>

#include <map>
#include <string>
#include <vector>

namespace tagproof::explore {

// One search and one pass over the edges for every invariant at once (a
// pass per invariant, comparing names on every edge, was a twenty-fifth of a
// review's explorer time). Of the edges that break an invariant, the first in
// Boost's edge order among those nearest the initial state is kept, as a
// pass per invariant kept it.
template <class G>
class ShortestViolations {
public:
    using E = typename boost::graph_traits<G>::edge_descriptor;
    using V = typename boost::graph_traits<G>::vertex_descriptor;

    ShortestViolations(const G& g, V initial) : g_(g), initial_(initial) {
        std::vector<unsigned> dist(boost::num_vertices(g), ~0u);
        pred_.assign(boost::num_vertices(g), E{});
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
        rec.pred = &pred_;
        boost::breadth_first_search(g, initial, boost::visitor(rec));
        for (auto [ei, ee] = boost::edges(g); ei != ee; ++ei) {
            const auto& vl = g[*ei].violated;
            if (vl.empty()) continue;
            const unsigned ds = dist[boost::source(*ei, g)];
            for (const auto& inv : vl) {
                auto [it, fresh] = best_.try_emplace(inv, Best{ds, *ei});
                if (!fresh && ds < it->second.dist) it->second = Best{ds, *ei};
            }
        }
    }

    // The edges from the initial state to the first violation of `inv`, or none.
    std::vector<E> path(const std::string& inv) const {
        auto it = best_.find(inv);
        if (it == best_.end() || it->second.dist == ~0u) return {};
        const E best_e = it->second.edge;
        std::vector<E> rev{best_e};
        for (V x = boost::source(best_e, g_); x != initial_; x = boost::source(pred_[x], g_)) rev.push_back(pred_[x]);
        return {rev.rbegin(), rev.rend()};
    }

private:
    struct Best {
        unsigned dist;
        E edge;
    };
    const G& g_;
    V initial_;
    std::vector<E> pred_;
    std::map<std::string, Best, std::less<>> best_;
};

}  // namespace tagproof::explore
