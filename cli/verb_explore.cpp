// verb_explore.cpp — `tagproof explore`: the reachable state graph of the
// small instance (explore/), its verdicts and shortest counterexamples,
// optionally cross-checked against the solver's BMC on the same instance.
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <iostream>

#include "boot_params.hpp"
#include "error.hpp"
#include "explorer.hpp"
#include "explore_families.hpp"
#include "proofs.hpp"
#include "family_explorer.hpp"
#include "instance_bmc.hpp"
#include "variant.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

namespace {
const char* kHelp =
    "usage: tagproof explore [--variant NAME | --variant-file FILE] [--boot CMDLINE] [--no-mte] [--depth N]\n"
    "                        [--dot FILE] [--dot-path INVARIANT] [--check-bmc] [--write-scenarios DIR]\n"
    "                        [--family NAME] [--family-depth N]\n"
    "\n"
    "Two explicit-state explorations (Boost.Graph), every random tag choice a branch, shortest\n"
    "counterexamples by breadth-first search:\n"
    "\n"
    "1. The small instance the solver's trace BMC checks: alloc_pages(0, GFP) / free_pages / 1-byte\n"
    "   read and write through each page's newest pointer, 2 pages, 2 CPUs, kasan.mode=sync, states\n"
    "   merged up to tag renaming, up to --depth events (default 6). --dot FILE writes the graph,\n"
    "   or with --dot-path INVARIANT that invariant's counterexample path. --check-bmc asks the\n"
    "   solver the same question on the same instance and reports any disagreement (exit 1).\n"
    "2. The vocabulary families: every entry point the model has, grouped by the state they share\n"
    "   (pages, slab, kmem_cache, kmem_cache_rcu, vmalloc, stacks, user, mempool, skb, kfence),\n"
    "   each with its allocations, frees, reallocations, double frees, rcu_barrier() and in-bounds,\n"
    "   out-of-bounds and after-free accesses, up to --family-depth events after its setup\n"
    "   (default 4); states merged by the model's whole state. --family NAME explores one only.\n"
    "   A mutant's violations are judged against its baseline, explored alike.\n"
    "\n"
    "Without --boot and --no-mte both cover the boot product: the default boot, init_on_alloc=1,\n"
    "init_on_free=1, kasan.vmalloc=off, kasan=off, sampling (N=2, and order 1, where the era\n"
    "parses them), kasan.write_only=on (where it does), no MTE, and for the families also\n"
    "kasan.mode=async and asymm; then it prints how many configurations, states and transitions\n"
    "it covered and which entry points it drove. --check-bmc leaves the families out.\n"
    "Exit status: 0 every invariant as the variant records it, 1 otherwise (or a family truncated),\n"
    "2 bad input.\n";

solver::ConcreteConfig bmc_config(const BootParams& b, bool mte) {
    solver::ConcreteConfig c;
    c.mode = Mode::hw_tags;
    c.mte = mte;
    c.kasan_off = b.kasan == KasanArg::off;
    c.vmalloc_param = b.vmalloc;
    c.init_on_alloc = b.init_on_alloc;
    c.init_on_free = b.init_on_free;
    c.sample = b.page_alloc_sample;
    c.sample_order = b.page_alloc_sample_order;
    c.check_mode = b.mode;
    c.write_only = b.write_only;
    return c;
}
}  // namespace


int explore_one(const Options& o, const kernel::Variant& v, const explore::ExploreOptions& eo, std::size_t& states,
                std::size_t& transitions, std::map<std::string, std::string>& first_violation);

namespace {
// Each proof against the enumeration of its entry point (item 4 of issue 15):
// false when one disagrees, a modelling gap.
bool print_cross_check(const explore::CrossChecker& checker, std::size_t runs) {
    std::size_t agree = 0, open = 0;
    bool ok = true;
    std::printf("\nthe solver's proofs (within caller contracts) against these %zu explorations:\n", runs);
    for (const auto& cc : checker.results()) {
        if (cc.kind == explore::CrossCheck::agrees) {
            ++agree;
            continue;
        }
        if (cc.kind == explore::CrossCheck::not_enumerated) ++open;
        else ok = false;
        std::printf("  %-40s %s: %s\n", cc.obligation.c_str(),
                    cc.kind == explore::CrossCheck::disagrees ? "DISAGREES (modelling gap)" : "not enumerated",
                    cc.detail.c_str());
    }
    std::printf("  %zu proved and not broken on any transition of their entry point, %zu not enumerated%s\n", agree,
                open, ok ? "" : "; a proof the model contradicts");
    return ok;
}

void print_family_totals(const FamilyTotals& t, unsigned depth) {
    std::printf("\nfamilies: %zu, %zu explorations (family x configuration), %zu states, %zu transitions, "
                "depth %u after each family's setup%s\n",
                t.families, t.runs, t.states, t.transitions, depth, t.truncated ? " (SOME TRUNCATED)" : "");
    std::printf("entry points driven:");
    std::set<std::string> calls = t.calls;
    calls.insert({"read", "write"});
    for (const auto& c : calls) std::printf(" %s", c.c_str());
    std::printf("\n");
    for (const auto& inv : explore::family_invariants()) {
        auto it = t.first_violation.find(inv);
        auto nw = t.new_violation.find(inv);
        std::string verdict = it == t.first_violation.end()
                                  ? "holds within " + std::to_string(depth) + " events in every family and configuration"
                              : nw != t.new_violation.end() ? "violated, first in [" + nw->second + "]"
                              : "violated, first in [" + it->second + "] (" +
                                    (t.recorded_violation.count(inv) ? std::string("recorded") : "also in " + t.baseline) +
                                    ")";
        std::printf("%-24s %s\n", inv.c_str(), verdict.c_str());
    }
}
}  // namespace

int verb_explore(const Args& args) {
    Options o = parse_verb_options("explore", args);
    if (o.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    if (!o.positional.empty()) throw InputError("command line", "unexpected argument '" + o.positional[0] + "'");
    const std::string variant = o.get("--variant", "linux-7.0");
    const auto& v = kernel::find_variant(variant, "--variant");
    const unsigned depth = unsigned(option_count(o, "--depth", 6, 1, 8));
    std::vector<explore::BootConfig> configs;
    bool boot_given = false;
    for (const auto& [k, val] : o.named) boot_given |= k == "--boot";
    // a picture or scenario files are of one configuration: the default boot unless --boot says
    const bool product = !boot_given && !o.has("--no-mte") && o.get("--dot").empty() && o.get("--write-scenarios").empty();
    if (product) configs = explore::boot_product(v, false);
    else configs.push_back({o.get("--boot"), !o.has("--no-mte")});
    const unsigned family_depth = unsigned(option_count(o, "--family-depth", 4, 1, 8));
    if (family_depth == 0 || family_depth > 8) throw InputError("--family-depth", "must be 1..8");
    const std::string only = o.get("--family");
    // the families: every event the model has, in the boot product with kasan.mode=async / asymm too
    auto run_families = [&](explore::CrossChecker* checker) {
        std::vector<explore::BootConfig> fc =
            product || (!only.empty() && !boot_given && !o.has("--no-mte")) ? explore::boot_product(v, true) : configs;
        return explore_families(v, fc, family_depth, only, o.get("--write-scenarios"), checker);
    };
    if (!only.empty()) {
        if (!o.get("--dot").empty() || o.has("--check-bmc"))
            throw InputError("--family", "--dot and --check-bmc are of the page instance, not of a family");
        const FamilyTotals ft = run_families(nullptr);
        print_family_totals(ft, family_depth);
        return ft.unrecorded || ft.truncated ? EXIT_COUNTEREXAMPLE : EXIT_HOLDS;
    }
    int status = EXIT_HOLDS;
    std::size_t states = 0, transitions = 0;
    std::map<std::string, std::string> first_violation;  // invariant -> the configuration
    for (const auto& cfg : configs) {
        explore::ExploreOptions eo;
        eo.variant = variant;
        eo.boot = cfg.boot;
        eo.mte = cfg.mte;
        eo.depth = depth;
        status = std::max(status, explore_one(o, v, eo, states, transitions, first_violation));
    }
    if (product) {
        std::printf("\ncovered %zu configurations (the default boot;", configs.size());
        for (const auto& c : configs)
            if (!c.boot.empty()) std::printf(" %s;", c.boot.c_str());
        std::printf(" no MTE), %zu states, %zu transitions in all, depth %u\n", states, transitions, depth);
        for (const auto& inv : explore::instance_invariants()) {
            auto it = first_violation.find(inv);
            std::printf("%-24s %s\n", inv.c_str(),
                        it == first_violation.end()
                            ? ("holds within " + std::to_string(depth) + " events in every configuration").c_str()
                            : ("violated, first in [" + it->second + "]").c_str());
        }
        // --check-bmc is a question about the page instance: the families are not in it
        if (o.has("--check-bmc")) return status;
        explore::CrossChecker checker(review::enumerable_obligations(variant));
        const FamilyTotals ft = run_families(&checker);
        print_family_totals(ft, family_depth);
        if (!print_cross_check(checker, ft.runs)) status = std::max(status, int(EXIT_UNKNOWN));
        std::printf("\nin all: the page instance in %zu configurations and %zu families in %zu: %zu states, "
                    "%zu transitions\n",
                    configs.size(), ft.families, ft.runs / std::max<std::size_t>(ft.families, 1), states + ft.states,
                    transitions + ft.transitions);
        if (ft.unrecorded || ft.truncated) status = std::max(status, int(EXIT_COUNTEREXAMPLE));
    }
    return status;
}

// One configuration: its graph, its verdicts (and the BMC's, --check-bmc).
int explore_one(const Options& o, const kernel::Variant& v, const explore::ExploreOptions& eo, std::size_t& states,
                std::size_t& transitions, std::map<std::string, std::string>& first_violation) {
    explore::ExploreResult r = explore::explore(eo);
    states += boost::num_vertices(r.graph);
    transitions += boost::num_edges(r.graph);
    std::printf("explore %s%s, HW_TAGS%s, depth %u: %zu states, %zu transitions%s\n", eo.variant.c_str(),
                eo.boot.empty() ? "" : (" [" + eo.boot + "]").c_str(), eo.mte ? "" : ", no MTE", eo.depth,
                boost::num_vertices(r.graph), boost::num_edges(r.graph), r.truncated ? " (TRUNCATED)" : "");
    std::printf("  instance: 2 pages, 2 CPUs, kasan.mode=sync; allocations with");
    for (std::size_t i = 0; i < r.gfps.size(); ++i) std::printf("%s %s", i ? "," : "", r.gfps[i].c_str());
    std::printf("\n");
    int status = EXIT_HOLDS;
    std::vector<gfp_t> masks;
    BuildConfig hw;
    for (const auto& g : r.gfps) masks.push_back(v.gfp_layout(hw).parse(g, "gfp"));
    BootParams bp = parse_boot_params_strict(eo.boot, "--boot", v.boot_syntax());
    // The variant's own record, then its baseline explored alike (only where a
    // violation needs explaining): a defect only an older baseline records is
    // no excuse (issue 34 item 3).
    std::optional<std::set<std::string>> theirs;
    auto in_baseline = [&](const std::string& inv) {
        if (v.baseline().empty() || v.baseline() == v.name()) return false;
        if (!theirs) {
            theirs.emplace();
            explore::ExploreOptions bo = eo;
            bo.variant = v.baseline();
            for (const auto& bv : explore::explore(bo).verdicts)
                if (bv.violated) theirs->insert(bv.invariant);
        }
        return theirs->count(inv) > 0;
    };
    const std::vector<std::string> own = v.known_defects();
    for (const auto& iv : r.verdicts) {
        const bool recorded = std::find(own.begin(), own.end(), iv.invariant) != own.end();
        const bool also = iv.violated && !recorded && in_baseline(iv.invariant);
        std::printf("%-24s %s", iv.invariant.c_str(),
                    iv.violated ? ("violated in " + std::to_string(iv.path.size()) + " events").c_str()
                                : ("holds within " + std::to_string(eo.depth) + " events").c_str());
        if (iv.violated && recorded) std::printf(" (a recorded defect of %s)", eo.variant.c_str());
        if (also) std::printf(" (also in %s)", v.baseline().c_str());
        std::printf("\n");
        if (iv.violated) {
            const std::string name = (eo.boot.empty() ? std::string("default boot") : eo.boot) + (eo.mte ? "" : ", no MTE");
            first_violation.emplace(iv.invariant, name);
            for (const auto& l : r.lines(iv.path)) std::printf("    %s\n", l.c_str());
            std::printf("    -> %s\n", iv.message.c_str());
            if (!recorded && !also) status = EXIT_COUNTEREXAMPLE;
        }
        if (o.has("--check-bmc")) {
            solver::InstanceAnswer a = solver::bmc_instance(eo.variant, iv.invariant, bmc_config(bp, eo.mte), masks, eo.depth);
            const bool agree = a.kind == solver::InstanceAnswer::unknown
                                   ? false
                                   : (a.kind == solver::InstanceAnswer::violated) == iv.violated &&
                                         (!iv.violated || a.depth == iv.path.size());
            std::printf("    solver BMC on the same instance: %s%s\n",
                        a.kind == solver::InstanceAnswer::unknown ? "unknown"
                        : a.kind == solver::InstanceAnswer::violated
                            ? ("violated in " + std::to_string(a.depth) + " steps").c_str()
                            : ("proved to depth " + std::to_string(eo.depth)).c_str(),
                        agree ? " (agrees)" : "  DISAGREES with the explorer");
            if (!agree) status = EXIT_COUNTEREXAMPLE;
        }
        if (iv.violated && !o.get("--write-scenarios").empty()) {
            std::string file = o.get("--write-scenarios") + "/explore_" + eo.variant + "_" + iv.invariant + ".litmus";
            std::ofstream f(file);
            if (!f) throw InputError(file, "cannot write the scenario");
            f << r.scenario(iv);
            std::printf("    scenario: %s\n", file.c_str());
        }
    }
    if (!o.get("--dot").empty()) {
        std::ofstream f(o.get("--dot"));
        if (!f) throw InputError(o.get("--dot"), "cannot write the file");
        const explore::InvariantVerdict* path = nullptr;
        if (!o.get("--dot-path").empty()) {
            for (const auto& iv : r.verdicts)
                if (iv.invariant == o.get("--dot-path")) path = &iv;
            if (!path) throw InputError("--dot-path", "'" + o.get("--dot-path") + "' is no invariant of the instance");
            if (!path->violated) throw InputError("--dot-path", o.get("--dot-path") + " holds: there is no path to draw");
        }
        explore::write_dot(f, r, path);
        std::printf("wrote %s\n", o.get("--dot").c_str());
    }
    return status;
}

}  // namespace tagproof::cli
