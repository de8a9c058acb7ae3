// verb_replay.cpp — `tagproof replay FILE`: a kmem trace on the reference
// under a variant and boot command line; invariant checks and cost figures.
// `tagproof replay --generate N --out FILE` writes a synthetic trace; a fuzz
// input (crash-<sha>) goes to replay_fuzz_input.cpp.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "boot_params.hpp"
#include "error.hpp"
#include "replay.hpp"
#include "variant.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

int verb_replay(const Args& args) {
    Options o = parse_options(args, {"--variant", "--boot", "--dczid", "--generate", "--out", "--seed", "--write-scenario"},
                              {"--lenient", "--no-mte", "--help", "--fuzz-input"});
    if (o.has("--help")) {
        std::cout << "usage: tagproof replay [--variant NAME] [--boot CMDLINE] [--no-mte] [--lenient] [--dczid N] FILE\n"
                     "       tagproof replay [--variant NAME] [--write-scenario OUT] [--fuzz-input] crash-<sha>\n"
                     "       tagproof replay --generate N --out FILE [--seed S]\n\n"
                     "Replays the kmem events of an ftrace text file (/sys/kernel/tracing/trace, trace-cmd\n"
                     "report: mm_page_alloc, mm_page_free, kmalloc, kfree) on the reference implementation\n"
                     "of a HW_TAGS kernel (default variant linux-7.0), checks after every event that the\n"
                     "owner's access does not fault, that promised zeroing happened and that page tags match\n"
                     "memory tags, probes each freed pointer for use-after-free detection, and prints the\n"
                     "tagging work (DCZID_EL0 --dczid, default 4: 64-byte DC GVA blocks).\n"
                     "A malformed kmem line is an error naming file:line (exit 2); --lenient skips and counts it.\n"
                     "\n"
                     "A fuzzer's input (crash-*, leak-*, timeout-*, oom-*, slow-unit-*, *.input, or --fuzz-input)\n"
                     "of the event targets (differential_fuzz, invariants_fuzz) is decoded and run as they run\n"
                     "it: the scenario it is, the model's verdict, the reference's agreement; --variant stands\n"
                     "for TAGPROOF_VARIANT, --write-scenario keeps the scenario for tagproof run / report.\n"
                     "Exit status: 0 no violation (or only the variant's recorded defects), 1 violation, 2 bad input.\n";
        return 0;
    }
    if (!o.get("--generate").empty()) {
        const std::uint64_t n = parse_u64(o.get("--generate"), "--generate");
        const std::string out = o.get("--out");
        if (out.empty()) throw InputError("--out", "--generate needs --out FILE");
        std::ofstream f(out);
        if (!f) throw InputError(out, "cannot write the file");
        reference::write_generated_trace(f, n, parse_u64(o.get("--seed", "1"), "--seed"));
        std::printf("wrote %llu kmem events to %s\n", (unsigned long long)n, out.c_str());
        return 0;
    }
    if (o.positional.size() != 1) throw InputError("command line", "tagproof replay needs one trace FILE");
    const std::string file = o.positional[0];
    if (is_fuzz_input(file, o)) return replay_fuzz_input(file, o);
    if (!o.get("--write-scenario").empty()) throw InputError("--write-scenario", "only for a fuzz input");
    const auto& v = kernel::find_variant(o.get("--variant", "linux-7.0"), "--variant");
    reference::RefConfig cfg;
    cfg.build.mode = Mode::hw_tags;
    cfg.machine.mte = !o.has("--no-mte");
    cfg.boot = parse_boot_params_strict(o.get("--boot"), "--boot", v.boot_syntax());
    cfg.dczid = parse_u64(o.get("--dczid", "4"), "--dczid");
    std::ifstream in(file);
    if (!in) throw InputError(file, "cannot open the trace");
    const reference::KmemTrace trace = reference::read_kmem_trace(in, file, v.gfp_layout(cfg.build), o.has("--lenient"));
    const reference::ReplayResult r = reference::replay_kmem_trace(v, cfg, trace);

    std::printf("replay %s under %s, HW_TAGS%s%s\n", file.c_str(), v.name().c_str(), cfg.machine.mte ? "" : ", no MTE",
                o.get("--boot").empty() ? "" : (", boot: " + o.get("--boot")).c_str());
    std::printf("  events replayed   %zu (mm_page_alloc %llu, mm_page_free %llu, kmalloc %llu, kfree %llu)\n",
                trace.events.size(), (unsigned long long)r.page_allocs, (unsigned long long)r.page_frees,
                (unsigned long long)r.kmallocs, (unsigned long long)r.kfrees);
    std::printf("  lines not replayed  other events %llu, header/blank %llu, malformed skipped %llu\n",
                (unsigned long long)trace.other_events, (unsigned long long)trace.header_lines,
                (unsigned long long)trace.malformed);
    for (const auto& e : trace.first_errors) std::printf("    skipped: %s\n", e.c_str());
    std::printf("  trace gaps        frees of memory allocated before the trace %llu, allocations over unfreed memory %llu,"
                " free order mismatches %llu, kmalloc out of memory %llu\n",
                (unsigned long long)r.frees_before_trace, (unsigned long long)r.missed_frees,
                (unsigned long long)r.order_mismatches, (unsigned long long)r.out_of_memory);
    std::printf("  memory            %llu pages (%llu trace chunks of 1024 pages + 65536 for slab pages), %llu CPUs\n",
                (unsigned long long)r.memory_pages, (unsigned long long)r.chunks, (unsigned long long)r.cpus);
    int status = EXIT_HOLDS;
    std::printf("invariants, checked after every event:\n");
    for (const char* inv : {"no-false-positive", "zeroing", "page-tag-consistency"}) {
        auto it = r.violation_counts.find(inv);
        const std::uint64_t n = it == r.violation_counts.end() ? 0 : it->second;
        bool recorded = false;
        for (const auto& d : kernel::expected_defects(v)) recorded |= d == inv;
        std::printf("  %-22s %s", inv, n == 0 ? "held" : recorded ? "VIOLATED (a recorded defect of this variant)" : "VIOLATED");
        if (n) std::printf(" %llu times", (unsigned long long)n);
        if (!std::string(inv).compare("no-false-positive")) std::printf(" (%llu owner accesses probed)", (unsigned long long)r.probes);
        if (!std::string(inv).compare("zeroing")) std::printf(" (%llu promised)", (unsigned long long)r.promised_zero);
        std::printf("\n");
        if (n && !recorded) status = EXIT_COUNTEREXAMPLE;
    }
    for (const auto& x : r.first_violations)
        std::printf("    %s:%u: %s: %s\n", file.c_str(), x.line, x.invariant.c_str(), x.message.c_str());
    std::printf("  detection: a read through the freed pointer faults in %llu of %llu frees"
                " (%llu freed pointers were match-all and never fault)\n",
                (unsigned long long)r.uaf_detected, (unsigned long long)r.uaf_probes, (unsigned long long)r.uaf_match_all);
    std::printf("cost (DCZID_EL0 %#llx):\n", (unsigned long long)cfg.dczid);
    std::ostringstream os;
    reference::print_cost(os, r.cost, "  ");
    std::fputs(os.str().c_str(), stdout);
    std::printf("time: %.3f s, %.0f events/s\n", r.seconds, r.seconds > 0 ? double(trace.events.size()) / r.seconds : 0.0);
    return status;
}

}  // namespace tagproof::cli
