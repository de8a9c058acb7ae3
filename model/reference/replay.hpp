// replay.hpp — a kmem trace (kmem_trace.hpp) replayed on the reference under
// a variant and boot command line (`tagproof replay`, issue 5).
//
// Trace pfns are the machine's: they are mapped, 1024-page chunk by chunk,
// onto the reference's memory above a low region where the reference places
// what the trace does not (slab pages for kmalloc). A trace starts in the
// middle of a running system, so frees of blocks allocated before it and
// allocations over blocks whose free it missed are counted, not errors.
// A trace's page events may touch at most kMaxChunks chunks (16 GiB of RAM;
// the reference keeps about 180 bytes a page): past that, an InputError names
// the file:line of the first pfn over the limit, before any memory is taken.
//
// What each tracepoint does here is kmem_trace.hpp's table: a free told twice
// (mm_page_free and mm_page_free_batched of one page, in either order) frees
// once; mm_page_pcpu_drain frees nothing, except a block the trace still has
// allocated (its mm_page_free was lost: a trace gap); kmalloc(0) allocates
// nothing and the kfree of the pointer it returned (ZERO_SIZE_PTR, hashed by
// %p) frees nothing.
//
// After every event the reference checks what a trace can show:
//   no-false-positive     the new owner's full access through the returned
//                         pointer does not fault (checked without side effects);
//   zeroing               a promised zeroing (__GFP_ZERO, init_on_alloc,
//                         init_on_free) left every granule zero;
//   page-tag-consistency  page_address()'s tag is the memory's tag;
// and counts detection: does a read through the freed pointer fault.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kmem_trace.hpp"
#include "ref_kernel.hpp"

namespace tagproof::reference {

struct ReplayViolation {
    std::string invariant;
    std::uint32_t line = 0;
    std::string message;
};

struct ReplayResult {
    std::uint64_t page_allocs = 0, page_frees = 0, kmallocs = 0, kfrees = 0;
    std::uint64_t frees_before_trace = 0;  // mm_page_free / kfree of something the trace did not allocate
    std::uint64_t missed_frees = 0;        // allocations over a block the trace never freed
    std::uint64_t order_mismatches = 0;    // mm_page_free with another order than the allocation
    std::uint64_t out_of_memory = 0;       // kmalloc the reference could not place
    // replayed as no-ops (the kernel's state does not change)
    std::uint64_t kmalloc_zero = 0;        // kmalloc(0): ZERO_SIZE_PTR, nothing allocated
    std::uint64_t kfree_zero_size = 0;     // kfree of what a kmalloc(0) returned
    std::uint64_t free_told_twice = 0;     // mm_page_free_batched / mm_pagevec_free and mm_page_free of one free
    std::uint64_t drains = 0;              // mm_page_pcpu_drain of a block already freed
    std::uint64_t drained_unfreed = 0;     // trace gap: a drain of a block the trace had allocated (its free lost)
    std::array<std::uint64_t, std::size_t(KmemEvent::Tp::count_)> by_tracepoint{};
    std::uint64_t noops() const { return kmalloc_zero + kfree_zero_size + free_told_twice + drains; }
    std::uint64_t promised_zero = 0, probes = 0;
    std::uint64_t uaf_probes = 0, uaf_detected = 0, uaf_match_all = 0;
    std::map<std::string, std::uint64_t> violation_counts;
    std::vector<ReplayViolation> first_violations;  // up to 10
    std::uint64_t memory_pages = 0, chunks = 0, cpus = 0;
    Cost cost;
    double seconds = 0;
};

inline constexpr std::uint64_t kChunkPages = 1024;  // a chunk: one MAX_PAGE_ORDER block
inline constexpr std::uint64_t kMaxChunks = 4096;

// `base` supplies build, machine (cpus is taken from the trace) and boot.
ReplayResult replay_kmem_trace(const kernel::Variant& v, RefConfig base, const KmemTrace& trace);

// A synthetic trace of `events` kmem events (page allocations of orders 0-3
// and their frees, kmalloc / kfree), consistent (every free matches an
// allocation), in trace-cmd report format; `seed` makes it reproducible.
// At most `max_live` allocations are live at once.
void write_generated_trace(std::ostream& out, std::uint64_t events, std::uint64_t seed, std::size_t max_live = 4096);

}  // namespace tagproof::reference
