// harness.cpp — see harness.hpp.
#include "harness.hpp"

#include "commands.hpp"

#include <cstdio>

namespace tagproof::properties {

std::string Config::describe() const {
    return std::string(mode_name(mode)) + (mte ? "" : ", no MTE") + (kfence ? ", CONFIG_KFENCE" : "") + (lockdep ? ", CONFIG_LOCKDEP" : "") +
           (nodes > 1 ? ", " + std::to_string(nodes) + " NUMA nodes" : "") +
           (cmdline.empty() ? "" : ", boot: " + cmdline);
}

void showValue(const Config& c, std::ostream& os) { os << c.describe(); }

const Handle* AbstractState::find(const std::string& name) const {
    for (const auto& h : handles)
        if (h.name == name) return &h;
    return nullptr;
}

std::vector<const Handle*> AbstractState::of(Handle::Kind k, bool live_only) const {
    std::vector<const Handle*> out;
    for (const auto& h : handles)
        if (h.kind == k && (h.live || !live_only)) out.push_back(&h);
    return out;
}

Sut::Sut(const kernel::Variant& v, const Config& c, std::vector<std::uint8_t> picks)
    : variant(v), config(c), chooser(std::move(picks)) {
    spec::ModelConfig mc;
    mc.build.mode = c.mode;
    mc.machine.mte = c.mte;
    mc.build.kfence = c.kfence;
    mc.build.lockdep = c.lockdep;
    mc.machine.nodes = c.nodes;
    mc.boot = parse_boot_params_strict(c.cmdline, "generated command line", v.boot_syntax());
    mc.pages = 96;
    model = std::make_unique<spec::Model>(v, mc, chooser);
    for (const auto& d : kernel::expected_defects(v)) allowed.insert(d);
}

std::string Sut::step(const std::string& line, const std::function<void(Sut&)>& event, const std::string& result_name) {
    // boot-time violations (gfp-encoding) count against the first event
    std::size_t before_v = lines.empty() ? 0 : model->violations().size(), before_r = model->reports().size();
    lines.push_back(line);
    model->begin_event(line);
    event(*this);
    model->end_event();
    std::string obs = line + " ->";
    for (std::size_t i = before_r; i < model->reports().size(); ++i) obs += " [" + model->reports()[i].bug_type + "]";
    if (!result_name.empty() && ptrs.count(result_name)) {
        char b[48];
        const auto& p = ptrs.at(result_name);
        std::snprintf(b, sizeof b, " tag %02x mem %02x", p.tag, p.null ? 0 : model->mem_tag(p).value_or(0));
        obs += b;
    }
    if (!seen.empty()) obs += " " + seen;
    seen.clear();
    observed.push_back(obs);
    std::set<std::string> twin_new;  // what the baseline violated at this event
    if (twin && twin_filters) {
        if (!twin_broken) {
            const std::size_t tb = twin->lines.empty() ? 0 : twin->model->violations().size();
            try {
                twin->step(line, event, result_name);
                for (std::size_t i = tb; i < twin->model->violations().size(); ++i)
                    twin_new.insert(twin->model->violations()[i].invariant);
            } catch (...) {
                twin_broken = true;
            }
        }
    } else if (twin) {
        twin->step(line, event, result_name);
        if (twin->observed.back() != obs && !is_allowed("mode-isolation")) {
            first_violation = "mode-isolation: " + variant.name() + ": " + obs + "; " + twin->variant.name() + ": " +
                              twin->observed.back();
            return "mode-isolation";
        }
    }
    for (std::size_t i = before_v; i < model->violations().size(); ++i) {
        const auto& v = model->violations()[i];
        if (is_allowed(v.invariant)) continue;
        if (twin_new.count(v.invariant)) {
            // not the patch's doing, yet a violation: the cell is not "holds"
            const std::string was = first_violation;
            first_violation = v.invariant + ": " + v.message;
            note_shared(v.invariant, config.mode, first_violation, scenario(v.invariant), lines.size());
            first_violation = was;
            continue;
        }
        first_violation = v.invariant + ": " + v.message;
        return v.invariant;
    }
    return "";
}

bool lets_pass(const std::set<std::string>& allowed, const std::string& invariant, Mode mode) {
    return allowed.count(invariant) || allowed.count(invariant + "@" + mode_name(mode));
}

bool Sut::is_allowed(const std::string& invariant) const { return lets_pass(allowed, invariant, config.mode); }

std::string Sut::scenario(const std::string& invariant, const std::string& baseline) const {
    std::string s = "# written by a RapidCheck property: the shrunk counterexample\n";
    s += "name rapidcheck_" + invariant + "\n";
    s += "doc " + first_violation.substr(0, 200) + "\n";
    s += "variant " + variant.name() + "\n";
    if (!baseline.empty()) s += "baseline " + baseline + "\n";
    s += std::string("modes ") + mode_name(config.mode) + "\n";
    s += std::string("config pages=96 mte=") + (config.mte ? "y" : "n") + (config.kfence ? " kfence=y" : "") + (config.lockdep ? " lockdep=y" : "") +
         (config.nodes > 1 ? " nodes=" + std::to_string(config.nodes) : "") + "\n";
    if (!config.cmdline.empty()) s += "boot " + config.cmdline + "\n";
    for (const auto& l : lines) s += l + "\n";
    return s + "expect violation " + invariant + "\n";
}

}  // namespace tagproof::properties
