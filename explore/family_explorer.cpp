// family_explorer.cpp — see family_explorer.hpp.
#include "family_explorer.hpp"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "error.hpp"
#include "family_cache.hpp"
#include "file/rule_use.hpp"
#include "family_steps.hpp"
#include "hash128.hpp"
#include "interpreter.hpp"
#include "model.hpp"
#include "runner.hpp"
#include "shortest.hpp"
#include "state_key.hpp"
#include "variant.hpp"

namespace tagproof::explore {

namespace {

using namespace detail;

constexpr std::size_t kEnumerated = 128, kSampled = 32;

}  // namespace

const std::vector<std::string>& family_invariants() {
    static const std::vector<std::string> v = [] {
        std::vector<std::string> out;
        for (const auto& n : spec::invariant_names())
            if (n != "mode-isolation") out.push_back(n);
        return out;
    }();
    return v;
}

std::string FamilyResult::scenario(const FamilyVerdict& v) const {
    std::string s = "# written by tagproof explore: the shortest event sequence breadth-first search found in\n"
                    "# the " + options.family.name + " family, " + options.config.name() + "\n";
    s += "name explore_" + options.family.name + "_" + v.invariant + "\ndoc " + v.message.substr(0, 200) + "\n";
    s += header(options);
    for (const auto& l : options.family.setup) s += l + "\n";
    for (const auto& l : v.path) s += l + "\n";
    return s + "expect violation " + v.invariant + "\n";
}

const FamilyGraph& FamilyResult::graph() const {
    if (!graph_) {
        // a kept exploration's edges, added in their order to its vertices
        auto g = std::make_shared<FamilyGraph>(states);
        if (kept_edges_)
            kept_edges_([&](std::size_t s, std::size_t t, const std::string& line,
                            const std::vector<std::string>& violated, const std::string& message) {
                boost::add_edge(s, t, FamilyEdge{line, violated, message}, *g);
            });
        graph_ = std::move(g);
    }
    return *graph_;
}

void FamilyResult::for_each_edge(const EdgeFn& f) const {
    if (graph_ || !kept_edges_) {
        const FamilyGraph& g = graph();
        for (auto [e, end] = boost::edges(g); e != end; ++e)
            f(boost::source(*e, g), boost::target(*e, g), g[*e].line, g[*e].violated, g[*e].message);
        return;
    }
    kept_edges_(f);
}

// The exploration itself, of opt.asked, into an empty `r`, its graph built
// in r.graph_ (Boost's graph has no move: it is built where it will live).
// FamilyVerdict::recorded is the caller's to set.
static void explore_family_run(const FamilyOptions& opt, FamilyResult& r) {
    r.options = opt;
    r.graph_ = std::make_shared<FamilyGraph>();
    FamilyGraph& graph = *r.graph_;
    const Start start = start_of(opt);
    const bool async = start.async;
    Statements statement("explore " + opt.family.name);

    Delegate delegate;
    spec::FirstChooser first;
    delegate.target = &first;
    std::unordered_map<Hash128, std::size_t, Hash128Hasher> index;  // seen states, by their key's hash
    std::vector<unsigned> depth_of;
    std::vector<std::unique_ptr<State>> pending;  // by vertex, dropped once expanded
    // what the states waiting to be expanded hold: RAM's tag, data and owner per granule
    const std::size_t state_bytes = sizeof(State) + std::size_t(opt.family.pages) * (PAGE_SIZE / 16) * 10 + 8192;
    std::size_t stored = 0;
    // one buffer for every state's key: only its hash is kept
    std::string key;
    std::vector<spec::Ptr> held;
    auto key_of = [&key, &held](const State& s) -> const std::string& {
        held.clear();
        for (const auto& [n, val] : s.vars) held.push_back(val.p);
        spec::state_key_into(s.model, held, key);
        for (const auto& [n, val] : s.vars) {  // the handles: their pointers (above), and the ids they name
            key.append(n);
            key.push_back(char(val.kind));
            key.append(reinterpret_cast<const char*>(&val.id), sizeof val.id);
        }
        for (Slot x : s.slot) key.push_back(char('0' + x));
        return key;
    };
    const unsigned max_depth = opt.depth + unsigned(opt.family.setup.size());
    auto add_vertex = [&](std::unique_ptr<State> s, unsigned depth, bool& fresh) -> std::size_t {
        const Hash128 key = hash128(key_of(*s));
        auto it = index.find(key);
        if (it != index.end()) {
            fresh = false;
            return it->second;
        }
        fresh = true;
        const std::size_t u = boost::add_vertex(graph);
        index.emplace(key, u);
        depth_of.push_back(depth);
        if (depth < max_depth) stored += state_bytes;
        pending.push_back(depth < max_depth ? std::move(s) : nullptr);  // the last layer is never expanded
        return u;
    };

    bool fresh = false;
    r.initial = add_vertex(
        std::make_unique<State>(initial_state(opt, start, delegate)),
        0, fresh);
    const unsigned setup = unsigned(opt.family.setup.size());
    std::deque<std::size_t> frontier{r.initial};
    while (!frontier.empty()) {
        const std::size_t u = frontier.front();
        frontier.pop_front();
        std::unique_ptr<State> su = std::move(pending[u]);
        if (su) stored -= state_bytes;
        const unsigned d = depth_of[u];
        if (d >= max_depth) continue;
        if (index.size() >= opt.max_states || stored > opt.max_bytes) {
            r.truncated = true;
            break;
        }
        // the setup lines first, one per layer; then every event the family has
        std::vector<Step> steps = d < setup ? std::vector<Step>{Step{opt.family.setup[d]}} : enabled(opt.family, *su, async);
        for (const Step& step : steps) {
            // Every tag choice of the event, up to kEnumerated paths; an event with
            // more (a slab whose objects all draw tags at once) has kSampled more
            // paths drawn at random, and the result says so.
            spec::Enumerator en;
            delegate.target = &en;
            std::size_t runs = 0;
            auto advance = [&] { return runs <= kEnumerated ? en.next() : runs < kEnumerated + kSampled; };
            bool more = true;
            while (more) {
                std::unique_ptr<spec::Sampler> sampler;
                if (runs >= kEnumerated) {
                    if (runs == kEnumerated) ++r.sampled_events;
                    sampler = std::make_unique<spec::Sampler>(runs * 7919 + u);
                    delegate.target = sampler.get();
                }
                ++runs;
                auto t = std::make_unique<State>(*su);
                FamilyEdge fe;
                if (!run_step(*t, step, statement, fe)) {
                    if (d < setup) throw std::logic_error("explore " + opt.family.name + ": the setup line '" + step.line + "' fails");
                    ++r.refused;
                    more = advance();
                    continue;
                }
                bool is_new = false;
                const std::size_t w = add_vertex(std::move(t), d + 1, is_new);
                boost::add_edge(u, w, std::move(fe), graph);
                if (is_new) frontier.push_back(w);
                more = advance();
            }
            delegate.target = &first;
        }
    }
    pending.clear();
    r.states = boost::num_vertices(graph);
    r.transitions = boost::num_edges(graph);

    const ShortestViolations<FamilyGraph> shortest(graph, r.initial);
    for (const auto& inv : family_invariants()) {
        FamilyVerdict fv;
        fv.invariant = inv;
        auto edges = shortest.path(inv);
        if (!edges.empty()) {
            fv.violated = true;
            fv.message = graph[edges.back()].message;
            for (std::size_t i = setup; i < edges.size(); ++i) {
                const std::string& l = graph[edges[i]].line;
                const auto nl = l.find('\n');
                fv.path.push_back(l.substr(0, nl));
                if (nl != std::string::npos) fv.path.push_back(l.substr(nl + 1));
            }
        }
        r.verdicts.push_back(fv);
    }
}

FamilyResult explore_family(const FamilyOptions& opt) {
    const kernel::Variant& v = variant_of(opt);
    // never while a caller records which rules a run evaluates (file/rule_use.hpp)
    const std::string key = kernel::rule_use ? "" : family_key(opt);
    FamilyResult r;
    r.reused = family_kept(key, opt, v, r);
    if (!r.reused) {
        std::optional<kernel::RecordingVariant> asked;
        FamilyOptions o = opt;
        o.asked = key.empty() ? &v : &asked.emplace(v);
        explore_family_run(o, r);
        r.options = opt;
        if (asked) keep_family(key, asked->transcript(), r);
    }
    // The variant's own record only: a defect its baselines record is the
    // baseline's, and is told apart by exploring the baseline (explore_families).
    const std::vector<std::string> recorded = v.known_defects();
    for (auto& fv : r.verdicts) fv.recorded = std::find(recorded.begin(), recorded.end(), fv.invariant) != recorded.end();
    return r;
}

}  // namespace tagproof::explore
