// explorer.cpp — see explorer.hpp.
#include "explorer.hpp"

#include <algorithm>
#include <deque>
#include <set>
#include <map>
#include <memory>
#include <unordered_map>

#include "boot_params.hpp"
#include "error.hpp"
#include "model.hpp"
#include "shortest.hpp"
#include "variant.hpp"

namespace tagproof::explore {

namespace {

constexpr int kSlots = 2, kCpus = 2;
// the model needs 4 pages; pfn 0 is reserved and at most two blocks are live,
// so first fit hands out pfn 1 and 2 only: the BMC's two pages
constexpr unsigned kModelPages = 4;

// All models of one exploration share this chooser; the expansion points it
// at the Enumerator that walks the current event's tag choices.
struct Delegate final : spec::Chooser {
    spec::Chooser* target = nullptr;
    std::size_t choose(const std::vector<spec::Option>& o, const char* w) override { return target->choose(o, w); }
};

struct State {
    spec::Model model;
    int obj[kSlots] = {-1, -1};  // the newest page_alloc object of each page
    spec::Ptr ptr[kSlots];       // page_address() of it
    bool has[kSlots] = {false, false};
};

// Tags up to renaming: constants keep their value, the others are named by
// first appearance.
struct TagNames {
    std::map<unsigned, char> names;
    std::string operator()(unsigned t) {
        if (t == 0xF0 || t == 0xFE || t == 0xFF || t == 0x00) {
            char b[4];
            std::snprintf(b, sizeof b, "%02x", t);
            return b;
        }
        auto it = names.find(t);
        if (it == names.end()) it = names.emplace(t, char('A' + names.size())).first;
        return std::string(1, it->second) + ".";
    }
};

std::string canonical_key(const State& s, std::string* summary) {
    const spec::Model& m = s.model;
    TagNames tn;
    std::string k, sum;
    const std::size_t gpp = PAGE_SIZE / m.granule();
    auto data_cat = [&](std::uint32_t d, int own) -> char {
        if (d == spec::DATA_ZERO) return '0';
        if (d == spec::DATA_STALE) return 's';
        if (d == spec::DATA_WILD) return 'w';
        return int(d) - 3 == own ? 'o' : 'x';
    };
    for (int i = 0; i < kSlots; ++i) {
        const std::uint64_t pfn = std::uint64_t(i) + 1;
        const spec::PageState& ps = m.page_state(pfn);
        const int own = s.obj[i];
        k += "|P" + std::to_string(i) + (ps.allocated ? "a" : "f") + (ps.pg_skip_kasan_poison ? "k" : "") +
             (ps.pg_mte_tagged ? "m" : "") + (ps.sampled_out ? "S" : "") + (ps.skip_requested ? "R" : "") +
             " pt" + tn(m.page_kasan_tag(pfn));
        for (std::size_t g : {pfn * gpp, pfn * gpp + 1}) {
            k += " g" + tn(m.phys_tags()[g]) + data_cat(m.phys_data()[g], own);
        }
        if (own >= 0) {
            const spec::Object& o = m.object(own);
            k += std::string(" o") + (o.live ? "L" : "d") + tn(o.tag) + (o.promised_zero ? "z" : "") +
                 (o.promised_zero_tags ? "Z" : "") + (o.skip_requested ? "r" : "");
        }
        if (s.has[i]) k += " p" + tn(s.ptr[i].tag);
        if (summary) {
            sum += (i ? "  " : "") + std::string("pfn") + std::to_string(pfn) + ":" + (ps.allocated ? "alloc" : "free") +
                   " page " + tn(m.page_kasan_tag(pfn)) + " mem " + tn(m.phys_tags()[pfn * gpp]) +
                   (s.has[i] ? " ptr " + tn(s.ptr[i].tag) : "");
        }
    }
    for (int c = 0; c < kCpus; ++c) {
        const spec::CpuState& cs = m.cpu_state(c);
        k += "|C" + std::to_string(cs.sample_skip) + (cs.tag_checks_on ? "t" : "-") + (cs.tfsr_pending ? "p" : "");
        if (summary && !cs.tag_checks_on) sum += "  cpu" + std::to_string(c) + ":TCF off";
    }
    if (m.panicked()) k += "|panic";
    if (summary) *summary = sum;
    return k;
}

spec::ModelConfig model_config(const kernel::Variant& v, const ExploreOptions& o) {
    spec::ModelConfig mc;
    mc.build.mode = Mode::hw_tags;
    mc.machine.mte = o.mte;
    mc.machine.cpus = kCpus;
    std::string boot = o.boot;
    if (boot.find("kasan_multi_shot") == std::string::npos) boot += (boot.empty() ? "" : " ") + std::string("kasan_multi_shot");
    mc.boot = parse_boot_params_strict(boot, "--boot", v.boot_syntax());
    if (mc.boot.mode != TagCheckMode::sync)
        throw InputError("--boot", "the explored instance is the trace BMC's: kasan.mode=sync only");
    mc.pages = kModelPages;
    return mc;
}

}  // namespace

const std::vector<std::string>& instance_invariants() {
    static const std::vector<std::string> v = {"match-all-never-faults", "mismatch-faults", "no-false-positive",
                                               "detection", "zeroing", "page-tag-consistency"};
    return v;
}

std::vector<std::string> instance_gfps(const std::string& variant) {
    BuildConfig b;
    GfpLayout L = kernel::find_variant(variant).gfp_layout(b);
    std::vector<std::string> g = {"GFP_KERNEL", "GFP_KERNEL|__GFP_ZERO", "GFP_HIGHUSER_MOVABLE|__GFP_ZERO"};
    if (L.defines("__GFP_SKIP_KASAN")) g.push_back("GFP_KERNEL|__GFP_ZERO|__GFP_SKIP_KASAN");
    return g;
}

std::vector<std::string> ExploreResult::lines(const std::vector<Event>& path) const {
    std::vector<std::string> out;
    std::string alloc_var[kSlots], ptr_var[kSlots];
    for (std::size_t k = 0; k < path.size(); ++k) {
        const Event& e = path[k];
        const std::string cpu = " cpu=" + std::to_string(e.cpu);
        switch (e.op) {
            case Event::alloc:
                alloc_var[e.page] = "a" + std::to_string(k);
                ptr_var[e.page] = "p" + std::to_string(k);
                out.push_back(alloc_var[e.page] + " = alloc_pages(0, " + gfps[e.gfp] + ")" + cpu);
                out.push_back(ptr_var[e.page] + " = page_address(" + alloc_var[e.page] + ")");
                break;
            case Event::free: out.push_back("free_pages(" + alloc_var[e.page] + ")"); break;
            case Event::read:
            case Event::write:
                out.push_back(std::string(e.op == Event::read ? "read(" : "write(") + ptr_var[e.page] + ", 1)" + cpu);
                break;
        }
    }
    return out;
}

std::string ExploreResult::scenario(const InvariantVerdict& v) const {
    std::string s = "# written by tagproof explore: the shortest event sequence breadth-first search found\n";
    s += "name explore_" + v.invariant + "\ndoc " + v.message.substr(0, 200) + "\n";
    s += "variant " + options.variant + "\nmodes hw_tags\n";
    s += std::string("config pages=") + std::to_string(kModelPages) + " cpus=2 mte=" + (options.mte ? "y" : "n") + "\n";
    std::string boot = options.boot;
    if (boot.find("kasan_multi_shot") == std::string::npos) boot += (boot.empty() ? "" : " ") + std::string("kasan_multi_shot");
    s += "boot " + boot + "\n";
    for (const auto& l : lines(v.path)) s += l + "\n";
    return s + "expect violation " + v.invariant + "\n";
}

ExploreResult explore(const ExploreOptions& opt) {
    ExploreResult r;
    r.options = opt;
    const kernel::Variant& v = kernel::find_variant(opt.variant, "--variant");
    r.gfps = opt.gfps.empty() ? instance_gfps(opt.variant) : opt.gfps;
    Delegate delegate;
    spec::FirstChooser first;
    delegate.target = &first;
    const spec::ModelConfig mc = model_config(v, opt);
    std::vector<gfp_t> masks;
    {
        spec::Model probe(v, mc, delegate);
        for (const auto& g : r.gfps) masks.push_back(probe.gfp().parse(g, "--gfp"));
    }
    const std::set<std::string> watched(instance_invariants().begin(), instance_invariants().end());

    std::unordered_map<std::string, Vertex> index;
    std::vector<std::unique_ptr<State>> states;  // by vertex
    auto add_vertex = [&](std::unique_ptr<State> s, unsigned depth, bool& fresh) -> Vertex {
        std::string key = canonical_key(*s, nullptr);
        auto it = index.find(key);
        if (it != index.end()) {
            fresh = false;
            return it->second;
        }
        fresh = true;
        // the vertex's summary, for a new state only (nine transitions in ten
        // reach a state seen before)
        std::string summary;
        canonical_key(*s, &summary);
        Vertex u = boost::add_vertex(VertexProp{key, depth, summary}, r.graph);
        index.emplace(std::move(key), u);
        states.push_back(std::move(s));
        return u;
    };

    auto init = std::make_unique<State>(State{spec::Model(v, mc, delegate), {-1, -1}, {}, {false, false}});
    bool fresh = false;
    r.initial = add_vertex(std::move(init), 0, fresh);
    std::deque<Vertex> frontier{r.initial};

    while (!frontier.empty()) {
        const Vertex u = frontier.front();
        frontier.pop_front();
        const unsigned d = r.graph[u].depth;
        if (d >= opt.depth) continue;
        if (states.size() >= opt.max_states) {
            r.truncated = true;
            break;
        }
        // the events enabled in u
        std::vector<Event> evs;
        const State& su = *states[u];
        bool free_page = false;
        for (int i = 0; i < kSlots; ++i) free_page |= !su.model.page_state(std::uint64_t(i) + 1).allocated;
        if (free_page)
            for (std::uint8_t g = 0; g < masks.size(); ++g)
                for (std::uint8_t c = 0; c < kCpus; ++c) evs.push_back(Event{Event::alloc, 0, c, g});
        for (std::uint8_t i = 0; i < kSlots; ++i) {
            if (su.obj[i] >= 0 && su.model.object(su.obj[i]).live) evs.push_back(Event{Event::free, i, 0});
            if (su.has[i])
                for (std::uint8_t c = 0; c < kCpus; ++c) {
                    evs.push_back(Event{Event::read, i, c});
                    evs.push_back(Event{Event::write, i, c});
                }
        }
        for (const Event& e0 : evs) {
            spec::Enumerator en;
            delegate.target = &en;
            do {
                auto t = std::make_unique<State>(*states[u]);
                spec::Model& m = t->model;
                const std::size_t vb = m.violations().size();
                Event e = e0;
                m.begin_event(std::string("explore event ") + std::to_string(d + 1));
                switch (e.op) {
                    case Event::alloc: {
                        int id = m.alloc_pages(0, masks[e.gfp], e.cpu);
                        if (id < 0) throw std::logic_error("explorer: no free page where one was expected");
                        e.page = std::uint8_t(m.object(id).pfn - 1);
                        t->obj[e.page] = id;
                        t->ptr[e.page] = m.page_address(id);
                        t->has[e.page] = true;
                        break;
                    }
                    case Event::free: m.free_pages(t->obj[e.page]); break;
                    case Event::read:
                    case Event::write:
                        m.access(t->ptr[e.page], 1, e.op == Event::read ? spec::AccessKind::read : spec::AccessKind::write,
                                 e.cpu);
                        break;
                }
                m.end_event();
                // which option of how many (one random tag at most per event here)
                auto path = en.path();
                if (!path.empty()) {
                    e.choice = std::uint8_t(path[0].first);
                    e.choices = std::uint8_t(path[0].second);
                }
                EdgeProp ep;
                ep.event = e;
                for (std::size_t i = vb; i < m.violations().size(); ++i) {
                    const auto& x = m.violations()[i];
                    if (!watched.count(x.invariant)) continue;
                    bool seen = false;
                    for (const auto& y : ep.violated) seen |= y == x.invariant;
                    if (!seen) ep.violated.push_back(x.invariant);
                    if (ep.message.empty()) ep.message = x.invariant + ": " + x.message;
                }
                bool is_new = false;
                Vertex w = add_vertex(std::move(t), d + 1, is_new);
                boost::add_edge(u, w, ep, r.graph);
                if (is_new) frontier.push_back(w);
            } while (en.next());
            delegate.target = &first;
        }
    }

    const ShortestViolations<Graph> shortest(r.graph, r.initial);
    for (const auto& inv : instance_invariants()) {
        InvariantVerdict iv;
        iv.invariant = inv;
        iv.edges = shortest.path(inv);
        if (!iv.edges.empty()) {
            iv.violated = true;
            iv.message = r.graph[iv.edges.back()].message;
            for (EdgeDesc e : iv.edges) iv.path.push_back(r.graph[e].event);
        }
        r.verdicts.push_back(iv);
    }
    return r;
}

void write_dot(std::ostream& out, const ExploreResult& r, const InvariantVerdict* path_only) {
    auto esc = [](const std::string& s) {
        std::string o;
        for (char c : s) o += c == '"' ? std::string("\\\"") : std::string(1, c);
        return o;
    };
    auto edge_label = [&](const EdgeProp& ep) {
        const Event& e = ep.event;
        std::string l;
        switch (e.op) {
            case Event::alloc: l = "alloc pfn" + std::to_string(e.page + 1) + " " + r.gfps[e.gfp]; break;
            case Event::free: l = "free pfn" + std::to_string(e.page + 1); break;
            case Event::read: l = "read pfn" + std::to_string(e.page + 1); break;
            case Event::write: l = "write pfn" + std::to_string(e.page + 1); break;
        }
        if (e.op != Event::free) l += " cpu" + std::to_string(e.cpu);
        if (e.choices > 1) l += " tag#" + std::to_string(e.choice + 1) + "/" + std::to_string(e.choices);
        for (const auto& v : ep.violated) l += "\\n" + v;
        return l;
    };
    out << "digraph explore {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\", fontsize=9];\n"
        << "  edge [fontname=\"monospace\", fontsize=8];\n";
    out << "  label=\"" << esc(r.options.variant + (r.options.boot.empty() ? "" : " [" + r.options.boot + "]")) << ": "
        << boost::num_vertices(r.graph) << " states, " << boost::num_edges(r.graph) << " transitions\";\n";
    if (path_only) {
        out << "  s0 [label=\"boot\"];\n";
        for (std::size_t i = 0; i < path_only->edges.size(); ++i) {
            const EdgeDesc e = path_only->edges[i];
            const Vertex t = boost::target(e, r.graph);
            const bool last = i + 1 == path_only->edges.size();
            out << "  s" << i + 1 << " [label=\"" << esc(r.graph[t].summary) << "\"" << (last ? ", color=red" : "")
                << "];\n";
            out << "  s" << i << " -> s" << i + 1 << " [label=\"" << esc(edge_label(r.graph[e])) << "\""
                << (last ? ", color=red, fontcolor=red" : "") << "];\n";
        }
        out << "}\n";
        return;
    }
    for (auto [vi, ve] = boost::vertices(r.graph); vi != ve; ++vi)
        out << "  v" << *vi << " [label=\"" << (*vi == r.initial ? std::string("boot") : esc(r.graph[*vi].summary))
            << "\"];\n";
    for (auto [ei, ee] = boost::edges(r.graph); ei != ee; ++ei) {
        const EdgeProp& ep = r.graph[*ei];
        out << "  v" << boost::source(*ei, r.graph) << " -> v" << boost::target(*ei, r.graph) << " [label=\""
            << esc(edge_label(ep)) << "\"" << (ep.violated.empty() ? "" : ", color=red, fontcolor=red") << "];\n";
    }
    out << "}\n";
}

}  // namespace tagproof::explore
