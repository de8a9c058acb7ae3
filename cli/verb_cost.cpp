// verb_cost.cpp — `tagproof cost`: the tagging work of a workload on the
// reference, for a variant and its baseline side by side, and what that
// predicts beside the seed benchmark's measurement.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "boot_params.hpp"
#include "error.hpp"
#include "variant.hpp"
#include "option_table.hpp"
#include "verbs.hpp"
#include "workloads.hpp"

namespace tagproof::cli {

namespace {

struct Side {
    const kernel::Variant* v;
    std::string boot;
    reference::Cost cost;
    double seconds = 0;
};

void run_side(const reference::WorkloadInfo& w, Side& s, std::uint64_t iterations, std::uint64_t dczid) {
    reference::RefConfig cfg;
    cfg.build.mode = Mode::hw_tags;
    cfg.boot = parse_boot_params_strict(s.boot, "boot command line of " + s.v->name(), s.v->boot_syntax());
    cfg.pages = reference::workload_pages(w);
    cfg.dczid = dczid;
    reference::XorshiftTags tags;
    reference::RefKernel k(*s.v, cfg, tags);
    const auto t0 = std::chrono::steady_clock::now();
    reference::run_workload(w, k, iterations);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.cost = k.cost();
}

double pct_change(double a, double b) { return b == 0 ? 0 : 100.0 * (a - b) / b; }

void print_row(const char* name, std::uint64_t a, std::uint64_t b) {
    char ratio[32] = "-";
    if (b) std::snprintf(ratio, sizeof ratio, "%.3f", double(a) / double(b));
    std::printf("  %-20s %16llu %16llu %8s\n", name, (unsigned long long)a, (unsigned long long)b, ratio);
}

void report(const reference::WorkloadInfo& w, const Side& a, const Side& b, std::uint64_t iterations, std::uint64_t dczid) {
    auto label = [](const Side& s) { return s.v->name() + (s.boot.empty() ? "" : " [" + s.boot + "]"); };
    std::printf("workload %s:\n  %s\n  %llu iterations (the seed's: %llu); DCZID_EL0 %#llx\n", w.name.c_str(),
                w.what.c_str(), (unsigned long long)iterations, (unsigned long long)w.iterations,
                (unsigned long long)dczid);
    std::printf("  A = %s\n  B = %s\n", label(a).c_str(), label(b).c_str());
    std::printf("  %-20s %16s %16s %8s\n", "", "A", "B", "A/B");
    const reference::Cost &x = a.cost, &y = b.cost;
    print_row("tag_instructions", x.tag_instructions(), y.tag_instructions());
    print_row("  stg", x.stg, y.stg);
    print_row("  stzg", x.stzg, y.stzg);
    print_row("  dc_gva", x.dc_gva, y.dc_gva);
    print_row("  dc_gzva", x.dc_gzva, y.dc_gzva);
    print_row("tag_calls", x.tag_calls, y.tag_calls);
    print_row("granules_tagged", x.granules_tagged, y.granules_tagged);
    print_row("pages_tag_cleared", x.pages_tag_cleared, y.pages_tag_cleared);
    print_row("pages_zeroed", x.pages_zeroed, y.pages_zeroed);
    print_row("  dc_zva", x.dc_zva, y.dc_zva);
    print_row("store_instructions", x.store_instructions(), y.store_instructions());
    print_row("granules_checked", x.granules_checked, y.granules_checked);
    print_row("random_tags", x.random_tags, y.random_tags);
    print_row("page_allocs", x.page_allocs, y.page_allocs);
    print_row("unpoisoned_allocs", x.unpoisoned_allocs, y.unpoisoned_allocs);
    print_row("sampled_out", x.sampled_out, y.sampled_out);
    std::printf("  reference time: A %.2f s, B %.2f s\n", a.seconds, b.seconds);

    const double d_tag = pct_change(double(x.tag_instructions()), double(y.tag_instructions()));
    const double d_gran = pct_change(double(x.granules_tagged), double(y.granules_tagged));
    const double d_chk = pct_change(double(x.granules_checked), double(y.granules_checked));
    std::printf("predicted: tag-setting instructions %+.1f %%, granules tagged %+.1f %%,\n"
                "  granules checked %+.1f %%\n", d_tag, d_gran, d_chk);
    std::printf("measured by the seed:\n  %s\n", w.measured.c_str());
    const double scale = double(w.iterations) / double(iterations ? iterations : 1);
    if (!w.slowdown) {
        const double saved_s = w.seed_before - w.seed_after;
        const double removed_tag = (double(y.tag_instructions()) - double(x.tag_instructions())) * scale;
        const double removed = (double(y.store_instructions()) - double(x.store_instructions())) * scale;
        std::printf("reading: the seed saved %.1f %% of the baseline's time (%.3f s of %.3f s).\n",
                    100.0 * saved_s / w.seed_before, saved_s, w.seed_before);
        std::printf("  Over the seed's %llu iterations the model removes %.3g tag-setting\n  instructions",
                    (unsigned long long)w.iterations, removed_tag);
        if (x.dc_zva != y.dc_zva)
            std::printf(" and adds %.3g DC ZVA (clear_page() now zeroes what tagging\n"
                        "  with init, STZG / DC GZVA, zeroed before)",
                        (double(x.dc_zva) - double(y.dc_zva)) * scale);
        std::printf(": %.3g store instructions fewer.\n", removed);
        if (removed > 0) {
            const double ns = 1e9 * saved_s / removed;
            std::printf("  The saving is %.2f ns per removed instruction, %.1f cycles at 3 GHz.\n  ", ns, ns * 3.0);
            if (ns * 3.0 <= 1.5)
                std::printf("A tag or zeroing store of a 64-byte block takes a cycle or more,\n"
                            "  so the removed work accounts for the whole saving.\n");
            else if (ns * 3.0 <= 10.0)
                std::printf("Tag stores to memory the CPU has just allocated miss in the\n"
                            "  cache, so a few cycles each is plausible: the removed work can account\n"
                            "  for the saving.\n");
            else
                std::printf("That is more than a tag store usually costs:\n"
                            "  the removed stores explain only part of the saving; the rest is work the\n"
                            "  model does not count (kasan_unpoison_pages' random tag and page-flag\n"
                            "  updates, cache pollution).\n");
        } else {
            std::printf("  The model removes no store work here: it cannot explain the saving.\n");
        }
        std::printf("  The model counts instructions and calls, not cycles: the cost of an STG or\n"
                    "  a DC GVA, the rest of clone()/fork()/exit() and the caches are outside it.\n"
                    "  It says which work the patch removes and how much; the seed's timing says\n"
                    "  what that work cost on the measured machine.\n");
    } else {
        const double frac = y.tag_instructions() ? double(x.tag_instructions()) / double(y.tag_instructions()) : 1.0;
        const double fchk = y.granules_checked ? double(x.granules_checked) / double(y.granules_checked) : 1.0;
        const double lo = w.seed_before * std::min(frac, fchk), hi = w.seed_before * std::max(frac, fchk);
        std::printf("reading: with A, %.1f %% of B's tag-setting instructions remain, and\n"
                    "  %.1f %% of its checked granules (a sampled-out page is reached through a\n"
                    "  match-all pointer, which is not checked). If B's whole %.0f %% slowdown\n"
                    "  were this tagging and checking, A would be slowed down %.1f-%.1f %%; the\n"
                    "  seed measured %.0f %%. ",
                    100.0 * frac, 100.0 * fchk, w.seed_before, lo, hi, w.seed_after);
        if (w.seed_after > hi)
            std::printf("The other ~%.0f points are overhead sampling leaves:\n", w.seed_after - hi);
        else
            std::printf("That is inside the range: the tagging A still does\n"
                        "  (free-time poisoning too, where the era has it) can account for it;\n");
        std::printf("  the sk_buff heads are still tagged (%.3g STG in A), everything else the\n"
                    "  benchmark touches is still checked, and the model does not count cycles,\n"
                    "  caches or the random number per tag.\n",
                    double(x.stg));
    }
    std::printf("\n");
}


}  // namespace

int verb_cost(const Args& args) {
    Options o = parse_verb_options("cost", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof cost [--workload W] [--variant A] [--baseline B] [--boot CMDLINE]\n"
                     "                     [--baseline-boot CMDLINE] [--iterations N] [--dczid N] [--list]\n\n"
                     "Runs a workload on the reference implementation under two variants and prints the tagging\n"
                     "work each does (tag-setting instructions as mte_set_mem_tag_range issues them with DCZID_EL0\n"
                     "--dczid, default 4 = 64-byte blocks; 0x10 prohibits DC GVA), pages zeroed, granules checked,\n"
                     "and the ratio, beside the seed benchmark's measurement. Without --workload: the three seed\n"
                     "workloads, each with its seed's pair (anjum-v4 vs linux-7.0; sample-v3 with\n"
                     "kasan.page_alloc.sample=10 vs =1). --list names the workloads.\n";
        return 0;
    }
    if (o.has("--list")) {
        for (const auto& w : reference::workloads())
            std::printf("%-16s %s (seed: %llu iterations; %s)\n", w.name.c_str(), w.what.c_str(),
                        (unsigned long long)w.iterations, w.measured.c_str());
        return 0;
    }
    if (!o.positional.empty()) throw InputError("command line", "unexpected argument '" + o.positional[0] + "'");
    std::vector<const reference::WorkloadInfo*> which;
    if (o.get("--workload").empty())
        for (const auto& w : reference::workloads()) which.push_back(&w);
    else
        which.push_back(&reference::find_workload(o.get("--workload")));
    const std::uint64_t dczid = parse_dczid(o);
    for (const auto* w : which) {
        Side a{&kernel::find_variant(o.get("--variant", w->variant), "--variant"), o.get("--boot", w->variant_boot), {}, 0};
        Side b{&kernel::find_variant(o.get("--baseline", w->baseline), "--baseline"),
               o.get("--baseline-boot", w->baseline_boot), {}, 0};
        const std::uint64_t it = o.get("--iterations").empty() ? w->iterations : option_count(o, "--iterations", 0, 1, 100000000);
        if (it == 0) throw InputError("--iterations", "needs at least 1");
        run_side(*w, a, it, dczid);
        run_side(*w, b, it, dczid);
        report(*w, a, b, it, dczid);
    }
    return EXIT_HOLDS;
}

}  // namespace tagproof::cli
