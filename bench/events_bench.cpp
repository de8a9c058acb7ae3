// Events per second of the model (model/spec) and of the reference
// (model/reference) on the same kmem event stream: a generated trace of
// page allocations (orders 0-3, GFP mixes) and frees, kmalloc and kfree,
// at most 256 allocations live, replayed under linux-7.0 with HW tags on,
// 4096 pages of RAM for both. Each side places its allocations with its own
// allocator (both first fit). The model runs as the RapidCheck properties
// drive it (its oracle checks inside the events, no per-event whole-state
// scan); the reference charges its cost counters. Issue 5's target: the
// reference at least 50 times the model's events per second.
#include <benchmark/benchmark.h>

#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "kmem_trace.hpp"
#include "model.hpp"
#include "ref_kernel.hpp"
#include "replay.hpp"
#include "variant.hpp"

using namespace tagproof;

namespace {

const reference::KmemTrace& trace() {
    static const reference::KmemTrace t = [] {
        std::stringstream ss;
        reference::write_generated_trace(ss, 200000, 7, 256);
        BuildConfig b;
        return reference::read_kmem_trace(ss, "generated", kernel::find_variant("linux-7.0").gfp_layout(b));
    }();
    return t;
}

constexpr unsigned kPages = 4096;

// The trace with each allocation's key (its pfn or pointer as traced) turned
// into a slot of a dense table before timing, and each free into the slot of
// the allocation it frees: the driver's own bookkeeping (which allocation a
// traced free names) is then an array index, not a hash lookup, so what is
// timed is the implementation's work. Both sides replay the same slots.
struct Step {
    reference::KmemEvent::Kind kind;
    std::uint8_t cpu;    // the traced CPU modulo the 2 both sides have
    std::uint8_t order;  // page_alloc
    std::int32_t slot;   // -1: a free of nothing allocated (a no-op on both sides)
    std::uint32_t bytes_req;  // kmalloc (the generator asks at most 4000)
    std::uint32_t gfp;        // page_alloc, kmalloc: the kernel's gfp_t is 32 bits wide
};
static_assert(sizeof(Step) == 16, "a step is a quarter of a cache line: the stream is read as the trace goes");
struct Steps {
    std::vector<Step> steps;
    std::size_t slots = 0;
};

const Steps& steps() {
    static const Steps s = [] {
        Steps out;
        std::unordered_map<std::uint64_t, std::int32_t> live_pages, live_objs;
        std::vector<std::int32_t> free_slots;
        auto fresh = [&]() -> std::int32_t {
            if (!free_slots.empty()) {
                std::int32_t k = free_slots.back();
                free_slots.pop_back();
                return k;
            }
            return std::int32_t(out.slots++);
        };
        auto alloc = [&](std::unordered_map<std::uint64_t, std::int32_t>& live, std::uint64_t key) {
            auto it = live.find(key);
            if (it != live.end()) return it->second;  // the same key again: the map's entry is overwritten
            return live[key] = fresh();
        };
        auto release = [&](std::unordered_map<std::uint64_t, std::int32_t>& live, std::uint64_t key) {
            auto it = live.find(key);
            if (it == live.end()) return std::int32_t(-1);
            std::int32_t k = it->second;
            live.erase(it);
            free_slots.push_back(k);
            return k;
        };
        for (const auto& e : trace().events) {
            std::int32_t k = -1;
            switch (e.kind) {
                case reference::KmemEvent::page_alloc: k = alloc(live_pages, e.pfn); break;
                case reference::KmemEvent::page_free: k = release(live_pages, e.pfn); break;
                case reference::KmemEvent::kmalloc: k = alloc(live_objs, e.ptr); break;
                case reference::KmemEvent::kfree: k = release(live_objs, e.ptr); break;
            }
            if (e.gfp >> 32 || e.bytes_req >> 32) throw std::logic_error("a generated event does not fit a step");
            out.steps.push_back({e.kind, std::uint8_t(e.cpu % 2), std::uint8_t(e.order), k,
                                 std::uint32_t(e.bytes_req), std::uint32_t(e.gfp)});
        }
        return out;
    }();
    return s;
}

void BM_ModelEvents(benchmark::State& st) {
    const auto& v = kernel::find_variant("linux-7.0");
    const Steps& s = steps();
    std::size_t done = 0;
    for (auto _ : st) {
        st.PauseTiming();
        spec::FirstChooser ch;
        spec::ModelConfig mc;
        mc.pages = kPages;
        spec::Model m(v, mc, ch);
        // a page's id (-1: its allocation failed) or an object's pointer, by slot
        std::vector<int> pages(s.slots, -1);
        std::vector<spec::Ptr> objs(s.slots);
        std::vector<char> obj_live(s.slots, 0);
        st.ResumeTiming();
        for (const Step& p : s.steps) {
            const auto& e = p;
            const int cpu = p.cpu;
            switch (e.kind) {
                case reference::KmemEvent::page_alloc: pages[p.slot] = m.alloc_pages(e.order, e.gfp, cpu); break;
                case reference::KmemEvent::page_free:
                    if (p.slot >= 0 && pages[p.slot] >= 0) m.free_pages(pages[p.slot]), pages[p.slot] = -1;
                    break;
                case reference::KmemEvent::kmalloc:
                    objs[p.slot] = m.kmalloc(e.bytes_req, e.gfp, cpu), obj_live[p.slot] = 1;
                    break;
                case reference::KmemEvent::kfree:
                    if (p.slot >= 0 && obj_live[p.slot]) m.kfree(objs[p.slot]), obj_live[p.slot] = 0;
                    break;
            }
        }
        done += s.steps.size();
    }
    st.SetItemsProcessed(std::int64_t(done));
}

void BM_ReferenceEvents(benchmark::State& st) {
    const auto& v = kernel::find_variant("linux-7.0");
    const Steps& s = steps();
    std::size_t done = 0;
    for (auto _ : st) {
        st.PauseTiming();
        reference::XorshiftTags tags;
        reference::RefConfig rc;
        rc.pages = kPages;
        reference::RefKernel k(v, rc, tags);
        // a block's pfn (-1: its allocation failed) or an object's pointer (0: NULL), by slot
        std::vector<std::int64_t> pages(s.slots, -1);
        std::vector<std::uint64_t> objs(s.slots, 0);
        st.ResumeTiming();
        for (const Step& p : s.steps) {
            const auto& e = p;
            const int cpu = p.cpu;
            k.begin_event();
            switch (e.kind) {
                case reference::KmemEvent::page_alloc: pages[p.slot] = k.alloc_pages(e.order, e.gfp, cpu); break;
                case reference::KmemEvent::page_free:
                    if (p.slot >= 0 && pages[p.slot] >= 0) k.free_pages(std::uint64_t(pages[p.slot])), pages[p.slot] = -1;
                    break;
                case reference::KmemEvent::kmalloc: objs[p.slot] = k.kmalloc(e.bytes_req, e.gfp, cpu); break;
                case reference::KmemEvent::kfree:
                    if (p.slot >= 0) k.kfree(objs[p.slot]), objs[p.slot] = 0;
                    break;
            }
        }
        done += s.steps.size();
    }
    st.SetItemsProcessed(std::int64_t(done));
}

BENCHMARK(BM_ModelEvents)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReferenceEvents)->Unit(benchmark::kMillisecond);

}  // namespace
