// explore_families.cpp — `tagproof explore`'s second part: every vocabulary
// family (explore/families.hpp) in every configuration of the boot product,
// with its counts, its verdicts and the shortest counterexample to each
// invariant it breaks.
#include <cstdio>
#include <fstream>
#include <set>

#include "error.hpp"
#include "explore_families.hpp"

#include "boot_params.hpp"
#include "family_explorer.hpp"
#include "variant.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

FamilyTotals explore_families(const kernel::Variant& v, const std::vector<explore::BootConfig>& configs,
                              unsigned depth, const std::string& only, const std::string& scenario_dir,
                              explore::CrossChecker* checker) {
    FamilyTotals t;
    // A variant is judged against its baseline, explored alike where the
    // variant breaks an invariant its own record does not name: what both
    // break in a family and configuration is not the variant's doing. A
    // defect only an older baseline records is no excuse (issue 34 item 3).
    const kernel::Variant* base =
        !v.baseline().empty() && v.baseline() != v.name() ? &kernel::find_variant(v.baseline()) : nullptr;
    if (base) t.baseline = base->name();
    const auto fams = explore::families(v);
    bool found = only.empty();
    for (const auto& f : fams) found |= f.name == only;
    if (!found) {
        std::string names;
        for (const auto& f : fams) names += (names.empty() ? "" : ", ") + f.name;
        throw InputError("--family", "'" + only + "' is no family of " + v.name() + " (families: " + names + ")");
    }
    for (const auto& f : fams) {
        if (!only.empty() && f.name != only) continue;
        ++t.families;
        std::printf("\nfamily %s (%u pages, 2 CPUs): %s\n", f.name.c_str(), f.pages, f.doc.c_str());
        std::set<std::string> calls;
        for (const auto& k : f.kinds) {
            calls.insert(k.alloc.substr(0, k.alloc.find('(')));
            if (!k.free.empty()) calls.insert(k.free.substr(0, k.free.find('(')));
            if (!k.realloc.empty()) calls.insert(k.realloc.substr(0, k.realloc.find('(')));
            if (!k.touch.empty()) calls.insert(k.touch.substr(0, k.touch.find('(')));
        }
        for (const auto& g : f.globals) calls.insert(g.substr(0, g.find('(')));
        for (const auto& c : calls) t.calls.insert(c);
        for (const auto& cfg : configs) {
            explore::FamilyOptions fo;
            fo.variant = v.name();
            fo.family = f;
            fo.config = cfg;
            fo.depth = depth;
            const explore::FamilyResult r = explore::explore_family(fo);
            if (checker) checker->add(r);
            std::set<std::string> theirs;
            bool unexplained = false;
            for (const auto& fv : r.verdicts) unexplained |= fv.violated && !fv.recorded;
            if (base && unexplained) {  // the baseline is explored only where it could explain something
                explore::FamilyOptions bo = fo;
                bo.variant = base->name();
                // the baseline booted as it parses the line: a parameter it does not know
                // (kasan.page_alloc.sample before v6.3) is ignored there, as the kernel ignores it
                bo.config.boot = parse_boot_params(cfg.boot, base->boot_syntax()).to_cmdline();
                for (const auto& bv : explore::explore_family(bo).verdicts)
                    if (bv.violated) theirs.insert(bv.invariant);
            }
            const std::size_t n = r.states, e = r.transitions;
            t.states += n;
            t.transitions += e;
            ++t.runs;
            std::string broken;
            auto known = [&](const explore::FamilyVerdict& fv) { return fv.recorded || theirs.count(fv.invariant); };
            for (const auto& fv : r.verdicts)
                if (fv.violated)
                    broken += (broken.empty() ? "" : ", ") + fv.invariant +
                              (fv.recorded ? " (recorded)" : theirs.count(fv.invariant) ? " (also in " + t.baseline + ")" : "");
            std::printf("  %-46s %7zu states %8zu transitions%s: %s\n", ("[" + cfg.name() + "]").c_str(), n, e,
                        r.truncated ? " (TRUNCATED)" : "",
                        broken.empty() ? ("holds within " + std::to_string(depth) + " events").c_str()
                                       : ("violated: " + broken).c_str());
            if (r.truncated) t.truncated = true;
            if (r.sampled_events)
                std::printf("    (%zu transitions had over 128 tag choices: 32 more of them sampled at random)\n",
                            r.sampled_events);
            t.sampled_events += r.sampled_events;
            for (const auto& fv : r.verdicts) {
                if (!fv.violated) continue;
                t.first_violation.emplace(fv.invariant, f.name + ", " + cfg.name());
                if (fv.recorded) t.recorded_violation.insert(fv.invariant);
                if (!known(fv)) {
                    t.unrecorded = true;
                    t.new_violation.emplace(fv.invariant, f.name + ", " + cfg.name());
                }
                // the shortest counterexample, once per family and invariant
                if (!t.shown.insert(f.name + "/" + fv.invariant).second) continue;
                std::printf("    %s in %zu events:\n", fv.invariant.c_str(), fv.path.size());
                for (const auto& l : f.setup) std::printf("      %s   (setup)\n", l.c_str());
                for (const auto& l : fv.path) std::printf("      %s\n", l.c_str());
                std::printf("      -> %s\n", fv.message.c_str());
                if (!scenario_dir.empty()) {
                    const std::string file =
                        scenario_dir + "/explore_" + v.name() + "_" + f.name + "_" + fv.invariant + ".litmus";
                    std::ofstream out(file);
                    if (!out) throw InputError(file, "cannot write the scenario");
                    out << r.scenario(fv);
                    std::printf("      scenario: %s\n", file.c_str());
                }
            }
        }
    }
    return t;
}

}  // namespace tagproof::cli
