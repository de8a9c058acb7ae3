// verb_explore.cpp — `tagproof explore`: the reachable state graph of the
// small instance (explore/), its verdicts and shortest counterexamples,
// optionally cross-checked against the solver's BMC on the same instance.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "boot_params.hpp"
#include "error.hpp"
#include "explorer.hpp"
#include "instance_bmc.hpp"
#include "variant.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

namespace {
const char* kHelp =
    "usage: tagproof explore [--variant NAME] [--boot CMDLINE] [--no-mte] [--depth N]\n"
    "                        [--dot FILE] [--dot-path INVARIANT] [--check-bmc] [--write-scenarios DIR]\n"
    "\n"
    "Builds the reachable state graph (Boost.Graph) of the small instance the solver's trace BMC\n"
    "checks: alloc_pages(0, GFP) / free_pages / 1-byte read and write through each page's newest\n"
    "pointer, 2 pages, 2 CPUs, kasan.mode=sync, every random tag choice a branch, states merged\n"
    "up to tag renaming, up to --depth events (default 5). Prints state and transition counts and\n"
    "per invariant: holds within the depth, or the shortest event sequence breaking it (breadth-\n"
    "first search). --dot FILE writes the graph, or with --dot-path INVARIANT that invariant's\n"
    "counterexample path. --check-bmc asks the solver the same question on the same instance\n"
    "(configuration fixed, the same GFP values) and reports any disagreement (exit 1).\n"
    "Exit status: 0 every invariant as the variant records it, 1 otherwise, 2 bad input.\n";

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
    return c;
}
}  // namespace

int verb_explore(const Args& args) {
    Options o = parse_options(args, {"--variant", "--boot", "--depth", "--dot", "--dot-path", "--write-scenarios"},
                              {"--help", "--no-mte", "--check-bmc"});
    if (o.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    if (!o.positional.empty()) throw InputError("command line", "unexpected argument '" + o.positional[0] + "'");
    explore::ExploreOptions eo;
    eo.variant = o.get("--variant", "linux-7.0");
    eo.boot = o.get("--boot");
    eo.mte = !o.has("--no-mte");
    eo.depth = unsigned(parse_u64(o.get("--depth", "5"), "--depth"));
    if (eo.depth == 0 || eo.depth > 8) throw InputError("--depth", "must be 1..8");
    const auto& v = kernel::find_variant(eo.variant, "--variant");
    explore::ExploreResult r = explore::explore(eo);
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
    for (const auto& iv : r.verdicts) {
        bool recorded = false;
        for (const auto& d : kernel::expected_defects(v)) recorded |= d == iv.invariant;
        std::printf("%-24s %s", iv.invariant.c_str(),
                    iv.violated ? ("violated in " + std::to_string(iv.path.size()) + " events").c_str()
                                : ("holds within " + std::to_string(eo.depth) + " events").c_str());
        if (iv.violated && recorded) std::printf(" (a recorded defect of %s)", eo.variant.c_str());
        std::printf("\n");
        if (iv.violated) {
            for (const auto& l : r.lines(iv.path)) std::printf("    %s\n", l.c_str());
            std::printf("    -> %s\n", iv.message.c_str());
            if (!recorded) status = EXIT_COUNTEREXAMPLE;
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
