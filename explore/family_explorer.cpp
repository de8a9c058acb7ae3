// family_explorer.cpp — see family_explorer.hpp.
#include "family_explorer.hpp"

#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "error.hpp"
#include "interpreter.hpp"
#include "model.hpp"
#include "runner.hpp"
#include "shortest.hpp"
#include "state_key.hpp"
#include "variant.hpp"

namespace tagproof::explore {

namespace {

// All models of one exploration share this chooser; the expansion points it
// at the Enumerator that walks the current event's tag choices.
struct Delegate final : spec::Chooser {
    spec::Chooser* target = nullptr;
    std::size_t choose(const std::vector<spec::Option>& o, const char* w) override { return target->choose(o, w); }
};

enum Slot : std::uint8_t { empty, live, dead };

constexpr std::size_t kEnumerated = 128, kSampled = 32;

struct State {
    spec::Model model;
    scenario::Vars vars;
    std::vector<Slot> slot;             // per kind, per slot
    std::vector<std::uint64_t> size;    // the bytes the handle's caller may use now
};

// One enabled event and what it does to the handles' status.
struct Step {
    std::string line;
    std::string then;    // a second line in the same transition: a page's page_address()
    int slot = -1;       // the handle it names (-1: none)
    Slot after = empty;  // that handle's status after it
    std::uint64_t size = 0;
};

std::string name_of(const AllocKind& k, unsigned i) { return k.stem + std::to_string(i); }
std::string with(const std::string& pattern, const std::string& name) {
    std::string s = pattern;
    for (auto p = s.find('%'); p != std::string::npos; p = s.find('%')) s.replace(p, 1, name);
    return s;
}

std::vector<Step> enabled(const Family& f, const State& s, bool async) {
    std::vector<Step> out;
    unsigned base = 0;
    for (const AllocKind& k : f.kinds) {
        const unsigned cpus = k.per_cpu ? 2 : 1;
        // one allocation per kind: into the first free slot, else over the first dangling one
        int into = -1;
        for (unsigned i = 0; i < k.slots && into < 0; ++i)
            if (s.slot[base + i] == empty) into = int(i);
        for (unsigned i = 0; i < k.slots && into < 0; ++i)
            if (s.slot[base + i] == dead) into = int(i);
        if (into >= 0)
            for (unsigned c = 0; c < cpus; ++c) {
                const std::string h = name_of(k, unsigned(into));
                out.push_back({h + " = " + k.alloc + (c ? " cpu=1" : ""), k.page ? h + "p = page_address(" + h + ")" : "",
                               int(base + into), live, k.size});
            }
        for (unsigned i = 0; i < k.slots; ++i) {
            const int at = int(base + i);
            const std::string h = name_of(k, i);
            if (s.slot[at] == empty) continue;
            if (!k.free.empty() && (s.slot[at] == live || k.refree))
                for (unsigned c = 0; c < cpus; ++c)
                    out.push_back({with(k.free, h) + (c ? " cpu=1" : ""), "", at, dead, s.size[at]});
            if (s.slot[at] == live && !k.realloc.empty())
                out.push_back({h + " = " + with(k.realloc, h), "", at, live, k.realloc_size});
            if (s.slot[at] == live && !k.touch.empty()) out.push_back({with(k.touch, h), "", at, live, s.size[at]});
            if (k.accessed) {
                const Slot st = s.slot[at];
                // a page is used through the pointer page_address() gave at allocation
                const std::string p = k.page ? h + "p" : h;
                out.push_back({"read(" + p + ", 1)", "", at, st, s.size[at]});
                out.push_back({"write(" + p + ", 1)", "", at, st, s.size[at]});
                // the first granule past the object (HW_TAGS checks whole 16-byte granules)
                const std::uint64_t past = (s.size[at] + 15) / 16 * 16;
                if (past) out.push_back({"read(" + p + " + " + std::to_string(past) + ", 1)", "", at, st, s.size[at]});
            }
        }
        base += k.slots;
    }
    for (const auto& g : f.globals) out.push_back({g});
    if (async) {
        out.push_back({"kasan_check_async()"});
        out.push_back({"kasan_check_async() cpu=1"});
    }
    return out;
}

std::string header(const FamilyOptions& o) {
    std::string s = "variant " + o.variant + "\nmodes hw_tags\nconfig pages=" + std::to_string(o.family.pages) +
                    " cpus=2 mte=" + (o.config.mte ? "y" : "n");
    for (const auto& c : o.family.config) s += " " + c;
    std::string boot = o.config.boot;
    if (boot.find("kasan_multi_shot") == std::string::npos) boot += (boot.empty() ? "" : " ") + std::string("kasan_multi_shot");
    return s + "\nboot " + boot + "\n";
}

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

FamilyResult explore_family(const FamilyOptions& opt) {
    FamilyResult r;
    r.options = opt;
    const kernel::Variant& v = kernel::find_variant(opt.variant, "--variant");
    const std::string where = "explore " + opt.family.name;
    const scenario::Scenario sc = scenario::parse_scenario(header(opt) + "observe reports == 0\n", where);
    const spec::ModelConfig mc = scenario::model_config(sc, Mode::hw_tags, v);
    const bool async = mc.boot.mode != TagCheckMode::sync;
    std::vector<std::string> recorded = kernel::expected_defects(v);

    unsigned nslots = 0;
    for (const auto& k : opt.family.kinds) nslots += k.slots;
    std::map<std::string, scenario::Statement> parsed;  // by line: a few hundred distinct ones
    auto statement = [&](const std::string& line) -> const scenario::Statement& {
        auto it = parsed.find(line);
        if (it == parsed.end()) it = parsed.emplace(line, scenario::parse_event_line(line, where)).first;
        return it->second;
    };

    Delegate delegate;
    spec::FirstChooser first;
    delegate.target = &first;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<unsigned> depth_of;
    std::vector<std::unique_ptr<State>> pending;  // by vertex, dropped once expanded
    // what the states waiting to be expanded hold: RAM's tag, data and owner per granule
    const std::size_t state_bytes = sizeof(State) + std::size_t(opt.family.pages) * (PAGE_SIZE / 16) * 10 + 8192;
    std::size_t stored = 0;
    auto key_of = [](const State& s) {
        std::vector<spec::Ptr> held;
        std::string k;
        for (const auto& [n, val] : s.vars) {  // the handles: their pointers, and the ids they name
            held.push_back(val.p);
            k += n + char(val.kind);
            k.append(reinterpret_cast<const char*>(&val.id), sizeof val.id);
        }
        for (Slot x : s.slot) k += char('0' + x);
        return spec::state_key(s.model, held) + k;
    };
    const unsigned max_depth = opt.depth + unsigned(opt.family.setup.size());
    auto add_vertex = [&](std::unique_ptr<State> s, unsigned depth, bool& fresh) -> std::size_t {
        std::string key = key_of(*s);
        auto it = index.find(key);
        if (it != index.end()) {
            fresh = false;
            return it->second;
        }
        fresh = true;
        const std::size_t u = boost::add_vertex(r.graph);
        index.emplace(std::move(key), u);
        depth_of.push_back(depth);
        if (depth < max_depth) stored += state_bytes;
        pending.push_back(depth < max_depth ? std::move(s) : nullptr);  // the last layer is never expanded
        return u;
    };

    bool fresh = false;
    r.initial = add_vertex(
        std::make_unique<State>(State{spec::Model(v, mc, delegate), {}, std::vector<Slot>(nslots, empty),
                                      std::vector<std::uint64_t>(nslots, 0)}),
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
            const scenario::Statement& st = statement(step.line);
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
                spec::Model& m = t->model;
                const std::size_t vb = m.violations().size();
                bool ran = true;
                for (const std::string* line : {&step.line, &step.then}) {
                    if (line->empty() || !ran) continue;
                    const scenario::Statement& sx = statement(*line);
                    m.begin_event(sx.text);
                    try {
                        scenario::Interpreter(m, t->vars, where).call(sx);
                    } catch (const InputError&) {
                        ran = false;  // e.g. out of model memory: the event is not enabled here
                        continue;
                    }
                    m.end_event();
                }
                if (!ran) {
                    if (d < setup) throw std::logic_error(where + ": the setup line '" + step.line + "' fails");
                    ++r.refused;
                    more = advance();
                    continue;
                }
                if (step.slot >= 0) {
                    Slot after = step.after;
                    // an allocation that returned NULL leaves nothing to use
                    auto it = t->vars.find(st.result);
                    if (it != t->vars.end() && it->second.kind == scenario::Value::ptr && it->second.p.null) after = empty;
                    t->slot[std::size_t(step.slot)] = after;
                    t->size[std::size_t(step.slot)] = step.size;
                }
                FamilyEdge fe;
                fe.line = step.then.empty() ? step.line : step.line + "\n" + step.then;
                for (std::size_t i = vb; i < m.violations().size(); ++i) {
                    const auto& x = m.violations()[i];
                    if (x.invariant == "mode-isolation") continue;
                    bool seen = false;
                    for (const auto& y : fe.violated) seen |= y == x.invariant;
                    if (!seen) fe.violated.push_back(x.invariant);
                    if (fe.message.empty()) fe.message = x.invariant + ": " + x.message;
                }
                bool is_new = false;
                const std::size_t w = add_vertex(std::move(t), d + 1, is_new);
                boost::add_edge(u, w, fe, r.graph);
                if (is_new) frontier.push_back(w);
                more = advance();
            }
            delegate.target = &first;
        }
    }
    pending.clear();

    std::vector<unsigned> dist;
    std::vector<boost::graph_traits<FamilyGraph>::edge_descriptor> pred;
    for (const auto& inv : family_invariants()) {
        FamilyVerdict fv;
        fv.invariant = inv;
        fv.recorded = std::find(recorded.begin(), recorded.end(), inv) != recorded.end();
        auto edges = shortest_violation(r.graph, r.initial, inv, dist, pred);
        if (!edges.empty()) {
            fv.violated = true;
            fv.message = r.graph[edges.back()].message;
            for (std::size_t i = setup; i < edges.size(); ++i) {
                const std::string& l = r.graph[edges[i]].line;
                const auto nl = l.find('\n');
                fv.path.push_back(l.substr(0, nl));
                if (nl != std::string::npos) fv.path.push_back(l.substr(nl + 1));
            }
        }
        r.verdicts.push_back(fv);
    }
    return r;
}

}  // namespace tagproof::explore
