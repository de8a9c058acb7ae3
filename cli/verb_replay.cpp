// verb_replay.cpp — `tagproof replay FILE`: a kmem trace on the reference
// under a variant and boot command line; invariant checks and cost figures.
// `tagproof replay --generate N --out FILE` writes a synthetic trace; a fuzz
// input (crash-<sha>) goes to replay_fuzz_input.cpp.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <fstream>
#include <iostream>
#include <sstream>

#include "boot_params.hpp"
#include "error.hpp"
#include "replay.hpp"
#include "variant.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

namespace {

// "a 3, b 2 and 4 more": the largest counts first
std::string top_names(const std::map<std::string, std::uint64_t>& m, std::size_t shown = 5) {
    std::vector<std::pair<std::string, std::uint64_t>> v(m.begin(), m.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (std::size_t i = 0; i < v.size() && i < shown; ++i)
        out += (i ? ", " : "") + reference::quote_token(v[i].first) + " " + std::to_string(v[i].second);
    if (v.size() > shown) out += " and " + std::to_string(v.size() - shown) + " more";
    return out;
}

// "what N, what N" of the nonzero counts; `always` are printed when zero too
std::string counts(const std::vector<std::pair<std::string, std::uint64_t>>& items, const std::string& always = "") {
    std::string out;
    for (const auto& [what, n] : items)
        if (n || what == always) out += (out.empty() ? "" : ", ") + what + " " + std::to_string(n);
    return out.empty() ? "none" : out;
}

// The end of the summary: every line of the trace, replayed or why not.
void print_line_counts(const reference::KmemTrace& t, const reference::ReplayResult& r, bool lenient) {
    using Tp = reference::KmemEvent::Tp;
    auto tp = [&](Tp x) { return r.by_tracepoint[std::size_t(x)]; };
    const std::uint64_t replayed = t.events.size() + t.noops();
    std::printf("lines of the trace: %llu read = %llu replayed + %llu not replayed\n", (unsigned long long)t.lines,
                (unsigned long long)replayed, (unsigned long long)t.not_replayed());
    std::printf("  replayed        %llu: %s\n", (unsigned long long)replayed,
                counts({{"mm_page_alloc", tp(Tp::mm_page_alloc) + t.failed_page_allocs},
                        {"mm_page_free", tp(Tp::mm_page_free)},
                        {"mm_page_free_direct", tp(Tp::mm_page_free_direct)},
                        {"mm_page_free_batched", tp(Tp::mm_page_free_batched)},
                        {"mm_pagevec_free", tp(Tp::mm_pagevec_free)},
                        {"mm_page_pcpu_drain", tp(Tp::mm_page_pcpu_drain)},
                        {"kmalloc", tp(Tp::kmalloc) + t.failed_kmallocs},
                        {"kmalloc_node", tp(Tp::kmalloc_node)},
                        {"kfree", tp(Tp::kfree) + t.kfree_null + t.kfree_zero_size}})
                    .c_str());
    std::printf("    as no-ops     %llu: %s\n", (unsigned long long)(t.noops() + r.noops()),
                counts({{"kfree(NULL)", t.kfree_null},
                        {"kfree(ZERO_SIZE_PTR)", t.kfree_zero_size + r.kfree_zero_size},
                        {"kmalloc(0)", r.kmalloc_zero},
                        {"mm_page_alloc that failed (page=NULL)", t.failed_page_allocs},
                        {"kmalloc that failed (ptr=NULL)", t.failed_kmallocs},
                        {"batched free of a page freed by its mm_page_free (one free, two events)", r.free_told_twice},
                        {"mm_page_pcpu_drain of a freed page (per-CPU list to buddy, not a free)", r.drains}})
                    .c_str());
    std::printf("  not replayed    %llu: %s\n", (unsigned long long)t.not_replayed(),
                counts({{"headers, comments and blank lines", t.header_lines},
                        {"lost-events markers", t.lost_markers},
                        {"other tracepoints", t.other_events},
                        {"kmem tracepoints the reference does not model", t.kmem_not_replayed},
                        {"text that is no event line", t.non_event_lines},
                        {"malformed skipped", t.malformed},
                        {"not text, skipped", t.binary_lines}},
                       lenient ? "malformed skipped" : "")
                    .c_str());
    if (t.other_events) std::printf("    other tracepoints: %s\n", top_names(t.other_by_name).c_str());
    if (t.kmem_not_replayed)
        std::printf("    kmem tracepoints not replayed: %s (named caches' objects, the buddy side of allocations:"
                    " model/reference/kmem_trace.hpp)\n",
                    top_names(t.kmem_not_replayed_by_name).c_str());
    for (const auto& e : t.first_errors) std::printf("    skipped: %s\n", e.c_str());
}

}  // namespace

int verb_replay(const Args& args) {
    Options o = parse_verb_options("replay", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof replay [--variant NAME] [--boot CMDLINE] [--no-mte] [--lenient] [--dczid N] FILE\n"
                     "       tagproof replay [--variant NAME] [--write-scenario OUT] [--fuzz-input] crash-<sha>\n"
                     "       tagproof replay --generate N --out FILE [--seed S]\n\n"
                     "Replays the kmem events of a trace as text, in the form the kernel's tools print it:\n"
                     "/sys/kernel/tracing/trace ('bash-1234 [001] d..2. 5312.123456: mm_page_alloc: page=...'),\n"
                     "trace-cmd report ('bash-1234  [001]  5312.123456: mm_page_alloc: ...'), perf script\n"
                     "('bash  1234 [001]  5312.123456: kmem:mm_page_alloc: ...') or an event alone in column 0\n"
                     "('mm_page_alloc: page=... pfn=0x48d00 order=0 ...'). Replayed: mm_page_alloc, mm_page_free\n"
                     "(mm_page_free_direct before v3.3), kmalloc (kmalloc_node before v6.1), kfree; a batched free\n"
                     "(mm_page_free_batched, mm_pagevec_free) frees a page its mm_page_free did not; a per-CPU\n"
                     "drain (mm_page_pcpu_drain) frees nothing; kfree(NULL) and failed allocations are no-ops.\n"
                     "Other tracepoints, kmem_cache_alloc / kmem_cache_free and headers are counted by name.\n"
                     "The reference implementation of a HW_TAGS kernel (default variant linux-7.0) checks after\n"
                     "every event that the owner's access does not fault, that promised zeroing happened and that\n"
                     "page tags match memory tags, probes each freed pointer for use-after-free detection, and\n"
                     "prints the tagging work (DCZID_EL0 --dczid, default 4: 64-byte DC GVA blocks). The summary\n"
                     "ends with every line of the trace counted: replayed, as a no-op, or not replayed and why.\n"
                     "A malformed kmem line or a line that is not text is an error naming file:line (exit 2);\n"
                     "--lenient skips and counts it. A directory, an empty file, a binary file or a file with no\n"
                     "trace event line is an error (exit 2); a trace of other tracepoints only replays 0 events.\n"
                     "\n"
                     "A fuzzer's input (crash-*, leak-*, timeout-*, oom-*, slow-unit-*, *.input, or --fuzz-input)\n"
                     "of the event targets (differential_fuzz, invariants_fuzz) is decoded and run as they run\n"
                     "it: the scenario it is, the model's verdict, the reference's agreement; --variant stands\n"
                     "for TAGPROOF_VARIANT, --write-scenario keeps the scenario for tagproof run / report.\n"
                     "Exit status: 0 no violation (or only the variant's recorded defects), 1 violation, 2 bad input.\n";
        return 0;
    }
    if (!o.get("--generate").empty()) {
        const std::uint64_t n = option_count(o, "--generate", 0, 1, 100000000);
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
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw InputError(file, "is a directory, not a trace file (ftrace, trace-cmd report or perf script text)");
    if (is_fuzz_input(file, o)) return replay_fuzz_input(file, o);
    if (!o.get("--write-scenario").empty()) throw InputError("--write-scenario", "only for a fuzz input");
    const auto& v = kernel::find_variant(o.get("--variant", "linux-7.0"), "--variant");
    reference::RefConfig cfg;
    cfg.build.mode = Mode::hw_tags;
    cfg.machine.mte = !o.has("--no-mte");
    cfg.boot = parse_boot_params_strict(o.get("--boot"), "--boot", v.boot_syntax());
    cfg.dczid = parse_dczid(o);
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError(file, "cannot open the trace");
    const bool lenient = o.has("--lenient");
    const reference::KmemTrace trace = reference::read_kmem_trace(in, file, v.gfp_layout(cfg.build), lenient);
    reference::check_is_trace(trace);  // strict reading did; --lenient too: no trace at all is still an error
    const reference::ReplayResult r = reference::replay_kmem_trace(v, cfg, trace);
    auto u = [](std::uint64_t n) { return (unsigned long long)n; };

    std::printf("replay %s under %s, HW_TAGS%s%s\n", file.c_str(), v.name().c_str(), cfg.machine.mte ? "" : ", no MTE",
                o.get("--boot").empty() ? "" : (", boot: " + o.get("--boot")).c_str());
    const std::uint64_t kmem = trace.events.size() + trace.noops();
    // A trace of other tracepoints only (kmem events not enabled) is a good
    // trace with nothing to replay: exit 0, every invariant held over 0
    // events, and said first so no one reads "held" as a result. Exit 2 would
    // call a real /sys/kernel/tracing/trace bad input; the files that are no
    // trace at all (empty, binary, no event line) are the exit 2 cases.
    if (kmem == 0)
        std::printf("note: 0 kmem events: the trace holds events of other tracepoints only (listed at the end); record\n"
                    "      kmem's: echo 1 > /sys/kernel/tracing/events/kmem/enable, trace-cmd record -e kmem,\n"
                    "      or perf record -e 'kmem:*'\n");
    std::printf("  events replayed   %llu (page allocations %llu, page frees and drains %llu, kmallocs %llu, kfrees %llu;"
                " %llu of them no-ops)\n",
                u(kmem), u(r.page_allocs + trace.failed_page_allocs), u(r.page_frees),
                u(r.kmallocs + trace.failed_kmallocs), u(r.kfrees + trace.kfree_null + trace.kfree_zero_size),
                u(trace.noops() + r.noops()));
    std::printf("  trace gaps        frees of memory allocated before the trace %llu, allocations over unfreed memory %llu,"
                " free order mismatches %llu, kmalloc out of memory %llu, pcp drains of pages whose free was lost %llu\n",
                u(r.frees_before_trace), u(r.missed_frees), u(r.order_mismatches), u(r.out_of_memory), u(r.drained_unfreed));
    if (trace.lost_markers)
        std::printf("  lost events       the ring buffer dropped %llu events (in %llu marker lines): expect trace gaps\n",
                    u(trace.lost_events), u(trace.lost_markers));
    std::printf("  memory            %llu pages (%llu trace chunks of 1024 pages + 65536 for slab pages), %llu CPUs\n",
                u(r.memory_pages), u(r.chunks), u(r.cpus));
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
    print_line_counts(trace, r, lenient);
    return status;
}

}  // namespace tagproof::cli
