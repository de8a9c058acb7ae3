// kmem_trace.hpp — the kmem tracepoints as ftrace prints them
// (include/trace/events/kmem.h), read from /sys/kernel/tracing/trace or
// `trace-cmd report` text, for `tagproof replay`:
//
//   bash-1234 [001] d..2. 5312.123456: mm_page_alloc: page=0xfffffc0000c8d400 pfn=0x48d00 order=0 migratetype=0 gfp_flags=GFP_KERNEL|__GFP_ZERO
//   bash-1234 [001] ..... 5312.123470: mm_page_free: page=0xfffffc0000c8d400 pfn=0x48d00 order=0
//   bash-1234 [001] ..... 5312.123480: kmalloc: call_site=kmalloc_trace+0x2c/0x40 ptr=0xf2ff000004a1c000 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false
//   bash-1234 [001] ..... 5312.123490: kfree: call_site=kfree_skb+0x1c/0x40 ptr=0xf2ff000004a1c000
//
// Fields are key=value in any order, so every kernel version's format reads
// (pfn in decimal before v5.19 and 0x-hex after; kmalloc with or without
// node= and accounted=). Lines of other events and '#' header lines are
// counted, not replayed. A kmem line that does not read is an InputError
// naming file:line, or with `lenient` skipped and counted.
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "gfp.hpp"

namespace tagproof::reference {

struct KmemEvent {
    enum Kind : std::uint8_t { page_alloc, page_free, kmalloc, kfree } kind = page_alloc;
    std::int32_t cpu = -1;         // [001]; -1 when the line has none
    std::uint64_t pfn = 0;         // page events
    std::uint32_t order = 0;       // page events
    std::uint64_t ptr = 0;         // kmalloc / kfree (tagged pointer as printed)
    std::uint64_t bytes_req = 0, bytes_alloc = 0;
    gfp_t gfp = 0;                 // page_alloc, kmalloc
    std::uint32_t line = 0;        // where it came from
};

struct KmemTrace {
    std::vector<KmemEvent> events;
    std::uint64_t other_events = 0;   // lines of tracepoints tagproof does not replay
    std::uint64_t header_lines = 0;   // '#' lines and blank lines
    std::uint64_t malformed = 0;      // kmem lines skipped under lenient
    std::vector<std::string> first_errors;  // up to 5 messages, lenient only
};

// GFP names are read with `layout` (the variant's era and build).
KmemTrace read_kmem_trace(std::istream& in, const std::string& file, const GfpLayout& layout, bool lenient = false);

const char* kmem_event_name(KmemEvent::Kind k);

}  // namespace tagproof::reference
