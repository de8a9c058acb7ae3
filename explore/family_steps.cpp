// family_steps.cpp — see family_steps.hpp.
#include "family_steps.hpp"

#include "error.hpp"
#include "runner.hpp"
#include "variant.hpp"

namespace tagproof::explore::detail {

namespace {
std::string name_of(const AllocKind& k, unsigned i) { return k.stem + std::to_string(i); }
std::string with(const std::string& pattern, const std::string& name) {
    std::string s = pattern;
    for (auto p = s.find('%'); p != std::string::npos; p = s.find('%')) s.replace(p, 1, name);
    return s;
}

}  // namespace

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
            if (s.slot[at] == live && !k.shrink.empty())
                out.push_back({h + " = " + with(k.shrink, h), "", at, live, k.shrink_size});
            if (s.slot[at] == live && !k.touch.empty()) out.push_back({with(k.touch, h), "", at, live, s.size[at]});
            if (k.accessed) {
                const Slot st = s.slot[at];
                // a page is used through the pointer page_address() gave at allocation
                const std::string p = k.page ? h + "p" : h;
                // the read goes to the object's last byte when the object ends
                // inside a granule (the granule a kmalloc redzone must not cover;
                // the tag is the object's whole, so a use-after-free is seen there
                // as at its start), the write to its first
                const std::uint64_t last = s.size[at] % 16 && s.size[at] > 1 ? s.size[at] - 1 : 0;
                out.push_back({"read(" + p + (last ? " + " + std::to_string(last) : "") + ", 1)", "", at, st, s.size[at]});
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
    std::string s = "variant " + o.variant + "\nmodes " + mode_name(o.mode) + "\nconfig pages=" + std::to_string(o.family.pages) +
                    " cpus=2 mte=" + (o.config.mte ? "y" : "n");
    for (const auto& c : o.family.config) s += " " + c;
    std::string boot = o.config.boot;
    if (boot.find("kasan_multi_shot") == std::string::npos) boot += (boot.empty() ? "" : " ") + std::string("kasan_multi_shot");
    return s + "\nboot " + boot + "\n";
}


const scenario::Statement& Statements::operator()(const std::string& line) {
    auto it = parsed_.find(line);
    if (it == parsed_.end()) it = parsed_.emplace(line, scenario::parse_event_line(line, where_)).first;
    return it->second;
}

const kernel::Variant& variant_of(const FamilyOptions& o) {
    return o.asked ? *o.asked : kernel::find_variant(o.variant, "--variant");
}

Start start_of(const FamilyOptions& o) {
    const kernel::Variant& v = variant_of(o);
    const scenario::Scenario sc =
        scenario::parse_scenario(header(o) + "observe reports == 0\n", "explore " + o.family.name);
    Start st;
    st.config = scenario::model_config(sc, o.mode, v);
    st.async = st.config.boot.mode != TagCheckMode::sync;
    for (const auto& k : o.family.kinds) st.slots += k.slots;
    return st;
}

State initial_state(const FamilyOptions& o, const Start& st, spec::Chooser& chooser) {
    return State{spec::Model(variant_of(o), st.config, chooser), {},
                 std::vector<Slot>(st.slots, empty), std::vector<std::uint64_t>(st.slots, 0)};
}

bool run_step(State& t, const Step& step, Statements& statements, FamilyEdge& fe) {
    spec::Model& m = t.model;
    const std::size_t vb = m.violations().size();
    for (const std::string* line : {&step.line, &step.then}) {
        if (line->empty()) continue;
        const scenario::Statement& sx = statements(*line);
        m.begin_event(sx.text);
        try {
            scenario::Interpreter(m, t.vars, statements.where()).call(sx);
        } catch (const InputError&) {
            return false;  // e.g. out of model memory: the event is not enabled here
        }
        m.end_event();
    }
    if (step.slot >= 0) {
        Slot after = step.after;
        // an allocation that returned NULL leaves nothing to use
        auto it = t.vars.find(statements(step.line).result);
        if (it != t.vars.end() && it->second.kind == scenario::Value::ptr && it->second.p.null) after = empty;
        t.slot[std::size_t(step.slot)] = after;
        t.size[std::size_t(step.slot)] = step.size;
    }
    fe.line = step.then.empty() ? step.line : step.line + "\n" + step.then;
    for (std::size_t i = vb; i < m.violations().size(); ++i) {
        const auto& x = m.violations()[i];
        if (x.invariant == "mode-isolation") continue;
        bool seen = false;
        for (const auto& y : fe.violated) seen |= y == x.invariant;
        if (!seen) fe.violated.push_back(x.invariant);
        if (fe.message.empty()) fe.message = x.invariant + ": " + x.message;
    }
    return true;
}

}  // namespace tagproof::explore::detail
