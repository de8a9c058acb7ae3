// replay.cpp — see replay.hpp.
#include "replay.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <random>
#include <unordered_map>
#include <unordered_set>

#include "error.hpp"
#include "promises.hpp"

namespace tagproof::reference {

namespace {
constexpr std::uint64_t kChunk = kChunkPages;  // pages a chunk (MAX_PAGE_ORDER block)
constexpr std::uint64_t kLowPages = 65536;     // where the reference's own slab pages go
// which event of a free-told-twice pair replayed it (per reference pfn, until reallocated)
constexpr std::uint8_t kToldByFree = 1, kToldByBatched = 2;
}  // namespace

ReplayResult replay_kmem_trace(const kernel::Variant& v, RefConfig cfg, const KmemTrace& trace) {
    ReplayResult res;
    // 1. memory: one dense chunk a trace chunk; CPUs: as many as the trace names
    std::unordered_map<std::uint64_t, std::uint64_t> chunk_of;
    int max_cpu = 0;
    auto where = [&](std::uint32_t line) {
        return trace.file.empty() ? "line " + std::to_string(line) : trace.file + ":" + std::to_string(line);
    };
    for (const KmemEvent& e : trace.events) {
        // read_kmem_trace holds these; a trace built another way is held here
        if (e.order > kMaxPageOrder || e.pfn > kMaxPfn || e.bytes_req > kMaxKmallocSize)
            throw InputError(where(e.line), "order, pfn or bytes_req out of range (kmem_trace.hpp)");
        if (e.kind == KmemEvent::page_alloc || e.kind == KmemEvent::page_free) {
            std::uint64_t first = e.pfn / kChunk, last = (e.pfn + (std::uint64_t(1) << e.order) - 1) / kChunk;
            for (std::uint64_t c = first; c <= last; ++c)
                if (chunk_of.emplace(c, chunk_of.size()).second && chunk_of.size() > kMaxChunks) {
                    char b[64];
                    std::snprintf(b, sizeof b, "pfn=%#llx", (unsigned long long)e.pfn);
                    throw InputError(where(e.line),
                                     std::string(b) + ": the trace's page events span more than " +
                                         std::to_string(kMaxChunks) + " chunks of 4 MiB (16 GiB of RAM), as many as the "
                                         "reference holds: replay a shorter trace, or one of fewer CPUs or nodes");
                }
        }
        max_cpu = std::max(max_cpu, e.cpu);
    }
    cfg.machine.cpus = std::min(64, max_cpu + 1);
    cfg.pages = kLowPages + chunk_of.size() * kChunk;
    res.chunks = chunk_of.size();
    res.memory_pages = cfg.pages;
    res.cpus = std::uint64_t(cfg.machine.cpus);
    XorshiftTags tags;
    RefKernel k(v, cfg, tags);
    auto dense = [&](std::uint64_t pfn) { return kLowPages + chunk_of.at(pfn / kChunk) * kChunk + pfn % kChunk; };
    auto violation = [&](const char* inv, std::uint32_t line, const std::string& msg) {
        ++res.violation_counts[inv];
        if (res.first_violations.size() < 10) res.first_violations.push_back({inv, line, msg});
    };
    // replayed allocations are all in the linear map
    auto all_zero = [&](std::uint64_t ptr, std::uint64_t len) {
        std::uint64_t a = (ptr | ~ADDR_MASK) - LINEAR_BASE;
        for (std::uint64_t g = a / RefKernel::G; g < (a + len + RefKernel::G - 1) / RefKernel::G; ++g)
            if (!k.granule_zero(g)) return false;
        return true;
    };
    // the owner's write over the whole allocation must not fault
    auto probe_owner = [&](std::uint64_t ptr, std::uint64_t len, int cpu, std::uint32_t line, const char* what) {
        ++res.probes;
        if (k.would_fault(ptr, len, true, cpu)) {
            char b[160];
            std::snprintf(b, sizeof b, "%s: the owner's write of %llu bytes through %016llx would fault", what,
                          (unsigned long long)len, (unsigned long long)ptr);
            violation("no-false-positive", line, b);
        }
    };
    // a read through the pointer just freed: detected or not
    auto probe_uaf = [&](std::uint64_t ptr, int cpu) {
        ++res.uaf_probes;
        if (Tag(ptr >> 56) == KASAN_TAG_KERNEL) ++res.uaf_match_all;
        else if (k.would_fault(ptr, 1, false, cpu)) ++res.uaf_detected;
    };
    std::unordered_map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> objects;  // trace ptr -> (ref ptr, size)
    std::unordered_set<std::uint64_t> zero_size_ptrs;  // what kmalloc(0) returned (ZERO_SIZE_PTR, as %p printed it)
    std::vector<std::uint8_t> told(cfg.pages, 0);       // kToldBy*: who replayed the free of the block at this pfn
    const auto t0 = std::chrono::steady_clock::now();
    for (const KmemEvent& e : trace.events) {
        const int cpu = e.cpu < 0 ? 0 : e.cpu % cfg.machine.cpus;
        k.begin_event();
        ++res.by_tracepoint[std::size_t(e.tp)];
        switch (e.kind) {
            case KmemEvent::page_alloc: {
                ++res.page_allocs;
                const std::uint64_t pfn = dense(e.pfn), n = std::uint64_t(1) << e.order;
                std::fill(told.begin() + std::ptrdiff_t(pfn), told.begin() + std::ptrdiff_t(pfn + n), 0);
                for (std::uint64_t p = pfn; p < pfn + n; ++p)
                    if (k.page_allocated(p)) {  // the trace missed the free of what was here
                        ++res.missed_frees;
                        k.free_pages(k.head_pfn(p));
                    }
                if (k.alloc_pages_at(pfn, e.order, e.gfp, cpu) < 0) break;
                const std::uint64_t ptr = k.page_address(pfn), len = PAGE_SIZE << e.order;
                kernel::CallerInput<kernel::Concrete> caller;
                caller.gfp = e.gfp;  // a traced alloc_pages: the gfp is the caller's own
                caller.order = e.order;
                if (kernel::required<kernel::Concrete>(kernel::Caller::alloc_pages, k.env(), caller).zero_data) {
                    ++res.promised_zero;
                    if (!all_zero(ptr, len))
                        violation("zeroing", e.line, "alloc_pages(order " + std::to_string(e.order) +
                                                         ") promised zeroed pages and a granule is not zero");
                }
                const Tag pt = k.page_kasan_tag(pfn);
                Tag m = 0;
                if (pt != KASAN_TAG_KERNEL)
                    for (std::uint64_t off = 0; off < len; off += RefKernel::G)
                        if (k.mem_tag_at(ptr + off, m) && mte_nibble(m) != mte_nibble(pt)) {
                            violation("page-tag-consistency", e.line,
                                      "page_address() carries tag " + tag_hex(pt) + ", memory at offset " +
                                          std::to_string(off) + " has " + tag_hex(m));
                            break;
                        }
                probe_owner(ptr, len, cpu, e.line, "alloc_pages");
                break;
            }
            case KmemEvent::page_free: {
                ++res.page_frees;
                const std::uint64_t pfn = dense(e.pfn);
                if (e.tp == KmemEvent::Tp::mm_page_pcpu_drain) {
                    // free_pcppages_bulk(): a block mm_page_free already freed moves
                    // from a per-CPU list to the buddy lists. The reference has no
                    // per-CPU lists, so that is nothing to do; a block still
                    // allocated here lost its mm_page_free: freed now, a trace gap,
                    // and not probed (the free happened at some earlier point).
                    if (k.page_allocated(pfn)) {
                        ++res.drained_unfreed;
                        k.free_pages(k.head_pfn(pfn));
                    } else {
                        ++res.drains;
                    }
                    break;
                }
                const bool batched = e.tp == KmemEvent::Tp::mm_page_free_batched || e.tp == KmemEvent::Tp::mm_pagevec_free;
                if (batched ? told[pfn] != 0 : told[pfn] == kToldByBatched) {
                    // the free its other event already replayed (kmem_trace.hpp)
                    ++res.free_told_twice;
                    told[pfn] = kToldByFree;
                    break;
                }
                told[pfn] = batched ? kToldByBatched : kToldByFree;
                if (!k.page_allocated(pfn) || k.head_pfn(pfn) != pfn) {
                    ++res.frees_before_trace;
                    break;
                }
                if (!batched && k.block_order(pfn) != e.order) ++res.order_mismatches;
                const std::uint64_t ptr = k.page_address(pfn);
                k.free_pages(pfn);
                probe_uaf(ptr, cpu);
                break;
            }
            case KmemEvent::kmalloc: {
                ++res.kmallocs;
                if (e.bytes_req == 0) {  // ZERO_SIZE_PTR: nothing allocated
                    ++res.kmalloc_zero;
                    zero_size_ptrs.insert(e.ptr);
                    break;
                }
                auto old = objects.find(e.ptr);
                if (old != objects.end()) {  // reused address: the trace missed a kfree
                    ++res.missed_frees;
                    k.kfree(old->second.first);
                    objects.erase(old);
                }
                const std::uint64_t p = k.kmalloc(e.bytes_req, e.gfp, cpu);
                if (!p) {
                    ++res.out_of_memory;
                    break;
                }
                objects[e.ptr] = {p, e.bytes_req};
                if (kernel::slab_want_init_on_alloc(k.env(), cfg.boot, e.gfp, false)) {
                    ++res.promised_zero;
                    if (!all_zero(p, e.bytes_req))
                        violation("zeroing", e.line, "kmalloc(" + std::to_string(e.bytes_req) +
                                                         ") promised a zeroed object and a granule is not zero");
                }
                probe_owner(p, e.bytes_req, cpu, e.line, "kmalloc");
                break;
            }
            case KmemEvent::kfree: {
                ++res.kfrees;
                if (zero_size_ptrs.count(e.ptr)) {  // ZERO_OR_NULL_PTR(): kfree returns
                    ++res.kfree_zero_size;
                    break;
                }
                auto it = objects.find(e.ptr);
                if (it == objects.end()) {
                    ++res.frees_before_trace;
                    break;
                }
                const std::uint64_t p = it->second.first;
                objects.erase(it);
                k.kfree(p);
                probe_uaf(p, cpu);
                break;
            }
        }
        if (k.reports().size() > 1024) k.clear_reports();  // keep the count bounded; checks above are side-effect free
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    res.cost = k.cost();
    return res;
}

void write_generated_trace(std::ostream& out, std::uint64_t events, std::uint64_t seed, std::size_t max_live) {
    std::mt19937_64 rng(seed);
    // a small buddy allocator over 64 chunks at pfn 0x80000, so that every
    // mm_page_alloc names a free block
    const std::uint64_t base = 0x80000, chunks = 64;
    std::vector<std::vector<std::uint64_t>> free_by_order(4);
    for (std::uint64_t p = base; p < base + chunks * kChunk; p += 8) free_by_order[3].push_back(p);
    auto take = [&](unsigned order) -> std::int64_t {
        unsigned o = order;
        while (o < 4 && free_by_order[o].empty()) ++o;
        if (o == 4) return -1;
        std::uint64_t p = free_by_order[o].back();
        free_by_order[o].pop_back();
        while (o > order) {  // split, keeping the upper halves free
            --o;
            free_by_order[o].push_back(p + (std::uint64_t(1) << o));
        }
        return std::int64_t(p);
    };
    struct Live {
        std::uint64_t pfn_or_ptr;
        unsigned order;  // 99: a kmalloc object
    };
    std::vector<Live> live;
    std::uint64_t next_obj = 0xffff000010000000ull;
    static const char* gfps[] = {"GFP_KERNEL", "GFP_KERNEL|__GFP_ZERO", "GFP_KERNEL_ACCOUNT",
                                 "GFP_HIGHUSER_MOVABLE|__GFP_ZERO", "GFP_KERNEL|__GFP_COMP", "GFP_ATOMIC|__GFP_NOWARN"};
    static const unsigned sizes[] = {8, 32, 64, 96, 128, 200, 256, 512, 1024, 2048, 4000};
    out << "# tracer: nop\n#\n# generated by tagproof replay --generate (seed " << seed << ")\n#\n";
    double ts = 1000.0;
    char line[320];
    for (std::uint64_t i = 0; i < events; ++i) {
        const int cpu = int(rng() % 4);
        ts += 0.000001 * double(1 + rng() % 50);
        const bool free_one = !live.empty() && (live.size() >= max_live || rng() % 2);
        if (free_one) {
            std::size_t k = rng() % live.size();
            Live l = live[k];
            live[k] = live.back();
            live.pop_back();
            if (l.order == 99) {
                std::snprintf(line, sizeof line,
                              "          stress-%d    [%03d] ..... %.6f: kfree: call_site=kfree_skb+0x1c/0x40 ptr=%#llx\n",
                              1000 + cpu, cpu, ts, (unsigned long long)l.pfn_or_ptr);
            } else {
                std::snprintf(line, sizeof line,
                              "          stress-%d    [%03d] ..... %.6f: mm_page_free: page=%#llx pfn=%#llx order=%u\n",
                              1000 + cpu, cpu, ts, (unsigned long long)(0xfffffc0000000000ull + l.pfn_or_ptr * 64),
                              (unsigned long long)l.pfn_or_ptr, l.order);
                free_by_order[l.order].push_back(l.pfn_or_ptr);  // no merging: a fragmenting allocator is fine here
            }
        } else if (rng() % 5 < 2) {
            unsigned order = unsigned(rng() % 8);
            order = order < 5 ? 0 : order - 4;  // mostly order 0, some 1..3
            std::int64_t pfn = take(order);
            if (pfn < 0) pfn = take(order = 0);  // fragmented: an order-0 page instead
            if (pfn < 0) {
                --i;  // full: the next draws free something
                continue;
            }
            live.push_back({std::uint64_t(pfn), order});
            std::snprintf(line, sizeof line,
                          "          stress-%d    [%03d] d..2. %.6f: mm_page_alloc: page=%#llx pfn=%#llx order=%u "
                          "migratetype=0 gfp_flags=%s\n",
                          1000 + cpu, cpu, ts, (unsigned long long)(0xfffffc0000000000ull + std::uint64_t(pfn) * 64),
                          (unsigned long long)pfn, order, gfps[rng() % 6]);
        } else {
            unsigned size = sizes[rng() % 11];
            std::uint64_t ptr = next_obj;
            next_obj += 4096;
            live.push_back({ptr, 99});
            std::snprintf(line, sizeof line,
                          "          stress-%d    [%03d] ..... %.6f: kmalloc: call_site=__alloc_skb+0x8c/0x1e0 "
                          "ptr=%#llx bytes_req=%u bytes_alloc=%u gfp_flags=%s node=-1 accounted=false\n",
                          1000 + cpu, cpu, ts, (unsigned long long)ptr, size, size, gfps[rng() % 2]);
        }
        out << line;
    }
}

}  // namespace tagproof::reference
