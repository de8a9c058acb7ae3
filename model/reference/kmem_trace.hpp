// kmem_trace.hpp — the kmem tracepoints (include/trace/events/kmem.h) as the
// kernel's tools print them, read for `tagproof replay`. One line an event, in
// any of these forms:
//
//   /sys/kernel/tracing/trace      bash-1234 [001] d..2. 5312.123456: mm_page_alloc: page=... pfn=0x48d00 order=0 migratetype=0 gfp_flags=GFP_KERNEL
//   trace-cmd report               bash-1234  [001]  5312.123456: mm_page_alloc:  page=... pfn=0x48d00 ...
//   perf script                    bash  1234 [001]  5312.123456: kmem:mm_page_alloc: page=0x... pfn=0x48d00 ...
//   column 0 (mailing-list quotes) mm_page_alloc: page=... pfn=0x48d00 order=0 migratetype=0 gfp_flags=GFP_KERNEL
//
// An event line is "EVENT: FIELDS" either first on the line or right after a
// timestamp ("5312.123456:") or a CPU column ("[001]"); EVENT may carry its
// system ("kmem:"). Fields are key=value in any order, so every kernel
// version's format reads (pfn in decimal before v5.19 and 0x-hex after; kmalloc
// with or without node= and accounted=; %p as bare hex, 0x-hex, "(null)" or
// "(nil)").
//
// What each kmem tracepoint is to the replay (KmemEvent::Tp):
//   mm_page_alloc            an allocation; page=NULL (pfn=0) is a failed one:
//                            nothing allocated, replayed as a no-op
//   mm_page_free             a free (mm_page_free_direct: its name before v3.3)
//   mm_page_free_batched     the same free told again: every freed page is
//   mm_pagevec_free          traced by mm_page_free (mm_page_free_direct before
//                            v3.3, all frees since v2.6.34) in free_pages_prepare(),
//                            and a batch free traces mm_page_free_batched too
//                            (mm_pagevec_free before v3.3): before it in
//                            free_hot_cold_page_list(), after it in
//                            free_unref_page_list() / free_unref_folios() (v4.15
//                            on). Its order is always printed 0 (v6.x prints 0
//                            for a large folio's head too). Replay frees the
//                            block only if the trace has not already freed it,
//                            so a trace with both events, or with only one of
//                            them, replays each free once.
//   mm_page_pcpu_drain       not a free: free_pcppages_bulk() moving a block
//                            that mm_page_free already freed from a per-CPU list
//                            to the buddy lists. The reference has no per-CPU
//                            lists (its free_pages() is already the state after
//                            the drain), so a drain is a no-op; a drain of a
//                            block the trace still has allocated shows a lost
//                            mm_page_free, and replay frees it then (a trace gap,
//                            never a double free).
//   kmalloc, kmalloc_node    an allocation (kmalloc_node: before v6.1); ptr=NULL
//                            is a failed one, replayed as a no-op
//   kfree                    a free; kfree(NULL) and kfree(ZERO_SIZE_PTR) are
//                            traced (trace_kfree() comes before the
//                            ZERO_OR_NULL_PTR() check in mm/slub.c) and are
//                            no-ops, replayed as such
//   kmem_cache_alloc(_node), not replayed, counted by name: objects of named
//   kmem_cache_free          caches, whose constructors and SLAB_TYPESAFE_BY_RCU
//                            the trace does not show (the reference models the
//                            kmalloc caches only)
//   mm_page_alloc_zone_locked, mm_page_alloc_extfrag: not replayed, counted by
//                            name (the buddy side of an allocation whose
//                            mm_page_alloc is what is replayed)
//
// Every line is accounted for (KmemTrace::accounted() == lines): replayed,
// replayed as a no-op, or not replayed by a named reason. A kmem line that does
// not read, or a line that is not text, is an InputError naming file:line; with
// `lenient` it is skipped and counted. Input that is no trace at all (empty,
// not text, no event line) is an InputError naming the file: read_kmem_trace
// throws it when strict, check_is_trace() when the caller asks.
#pragma once
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "gfp.hpp"

namespace tagproof::reference {

// The ranges a trace's numbers are held to (4K pages, as the reference models).
inline constexpr unsigned kMaxPageOrder = 10;                           // MAX_PAGE_ORDER
inline constexpr std::uint64_t kMaxPfn = (std::uint64_t(1) << 40) - 1;   // 52-bit physical addresses
inline constexpr std::uint64_t kMaxKmallocSize = std::uint64_t(4) << 20;  // KMALLOC_MAX_SIZE: 4 MiB
inline constexpr std::int32_t kMaxCpu = 8191;                            // NR_CPUS at most 8192
inline constexpr std::size_t kMaxLineBytes = std::size_t(16) << 20;      // a longer line is no trace line

struct KmemEvent {
    // What the event does to the allocator. A page_free from mm_page_free_batched,
    // mm_pagevec_free or mm_page_pcpu_drain means "this block is free now" and is
    // never a second free (see the file comment).
    enum Kind : std::uint8_t { page_alloc, page_free, kmalloc, kfree } kind = page_alloc;
    // The tracepoint the line was.
    enum class Tp : std::uint8_t {
        mm_page_alloc,
        mm_page_free,
        mm_page_free_direct,
        mm_page_free_batched,
        mm_pagevec_free,
        mm_page_pcpu_drain,
        kmalloc,
        kmalloc_node,
        kfree,
        count_
    } tp = Tp::mm_page_alloc;
    std::int32_t cpu = -1;         // [001]; -1 when the line has none
    std::uint64_t pfn = 0;         // page events
    std::uint32_t order = 0;       // page events
    std::uint64_t ptr = 0;         // kmalloc / kfree (tagged pointer as printed)
    std::uint64_t bytes_req = 0, bytes_alloc = 0;
    gfp_t gfp = 0;                 // page_alloc, kmalloc
    std::uint32_t line = 0;        // where it came from
};

struct KmemTrace {
    std::string file;
    std::vector<KmemEvent> events;
    std::uint64_t lines = 0;  // every line read

    // replayed as no-ops, from the line alone (the kernel changed nothing)
    std::uint64_t kfree_null = 0;          // kfree(NULL): ptr=(null), (nil), 0, 0x0, 0000000000000000
    std::uint64_t kfree_zero_size = 0;     // kfree(ZERO_SIZE_PTR): ptr 0x1..0x10
    std::uint64_t failed_page_allocs = 0;  // mm_page_alloc with page=NULL
    std::uint64_t failed_kmallocs = 0;     // kmalloc with ptr=NULL

    // not replayed
    std::uint64_t header_lines = 0;     // '#' lines, blank lines, trace-cmd's "cpus=2", "version = 6", "CPU 1 is empty"
    std::uint64_t lost_markers = 0;     // "CPU:1 [LOST 12 EVENTS]" (ftrace), "CPU:1 [12 EVENTS DROPPED]" (trace-cmd)
    std::uint64_t lost_events = 0;      //   ... the events they say were lost
    std::uint64_t non_event_lines = 0;  // text that is no event line
    std::uint64_t other_events = 0;     // tracepoints of other subsystems (sched_switch, ...)
    std::map<std::string, std::uint64_t> other_by_name;  // (at most kMaxNames names; the rest under "...")
    std::uint64_t kmem_not_replayed = 0;                 // kmem tracepoints the replay leaves out
    std::map<std::string, std::uint64_t> kmem_not_replayed_by_name;
    std::uint64_t malformed = 0;     // kmem lines that do not read, skipped under lenient
    std::uint64_t binary_lines = 0;  // lines that are not text, skipped under lenient
    std::vector<std::string> first_errors;  // up to 5 messages, lenient only
    std::string first_binary;               // the first line that is not text: "line L: byte 0x00 at column C"

    static constexpr std::size_t kMaxNames = 1000;

    std::uint64_t noops() const { return kfree_null + kfree_zero_size + failed_page_allocs + failed_kmallocs; }
    // lines that are events of some tracepoint (replayed or not)
    std::uint64_t event_lines() const { return events.size() + noops() + other_events + kmem_not_replayed + malformed; }
    std::uint64_t not_replayed() const {
        return header_lines + lost_markers + non_event_lines + other_events + kmem_not_replayed + malformed + binary_lines;
    }
    std::uint64_t accounted() const { return events.size() + noops() + not_replayed(); }
};

// GFP names are read with `layout` (the variant's era and build). Strict, the
// first bad line is an InputError naming file:line and the whole file is held
// to check_is_trace(); lenient, it never throws.
KmemTrace read_kmem_trace(std::istream& in, const std::string& file, const GfpLayout& layout, bool lenient = false);

// InputError naming the file when `t` is no trace: empty, not text, or no
// line that is an event line. A trace whose events are all of other
// tracepoints is a trace (with 0 kmem events).
void check_is_trace(const KmemTrace& t);

const char* kmem_event_name(KmemEvent::Kind k);
const char* kmem_tracepoint_name(KmemEvent::Tp tp);

// `tok` for a message: itself, or its first 80 bytes and "... (N bytes)".
std::string quote_token(const std::string& tok);

}  // namespace tagproof::reference
