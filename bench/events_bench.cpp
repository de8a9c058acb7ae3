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
#include <unordered_map>

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

void BM_ModelEvents(benchmark::State& st) {
    const auto& v = kernel::find_variant("linux-7.0");
    const auto& events = trace().events;
    std::size_t done = 0;
    for (auto _ : st) {
        st.PauseTiming();
        spec::FirstChooser ch;
        spec::ModelConfig mc;
        mc.pages = kPages;
        spec::Model m(v, mc, ch);
        std::unordered_map<std::uint64_t, int> pages;
        std::unordered_map<std::uint64_t, spec::Ptr> objs;
        st.ResumeTiming();
        for (const auto& e : events) {
            const int cpu = e.cpu % 2;
            switch (e.kind) {
                case reference::KmemEvent::page_alloc: {
                    int id = m.alloc_pages(e.order, e.gfp, cpu);
                    if (id >= 0) pages[e.pfn] = id;
                    break;
                }
                case reference::KmemEvent::page_free: {
                    auto it = pages.find(e.pfn);
                    if (it != pages.end()) m.free_pages(it->second), pages.erase(it);
                    break;
                }
                case reference::KmemEvent::kmalloc: objs[e.ptr] = m.kmalloc(e.bytes_req, e.gfp, cpu); break;
                case reference::KmemEvent::kfree: {
                    auto it = objs.find(e.ptr);
                    if (it != objs.end()) m.kfree(it->second), objs.erase(it);
                    break;
                }
            }
        }
        done += events.size();
    }
    st.SetItemsProcessed(std::int64_t(done));
}

void BM_ReferenceEvents(benchmark::State& st) {
    const auto& v = kernel::find_variant("linux-7.0");
    const auto& events = trace().events;
    std::size_t done = 0;
    for (auto _ : st) {
        st.PauseTiming();
        reference::XorshiftTags tags;
        reference::RefConfig rc;
        rc.pages = kPages;
        reference::RefKernel k(v, rc, tags);
        std::unordered_map<std::uint64_t, std::int64_t> pages;
        std::unordered_map<std::uint64_t, std::uint64_t> objs;
        st.ResumeTiming();
        for (const auto& e : events) {
            const int cpu = e.cpu % 2;
            k.begin_event();
            switch (e.kind) {
                case reference::KmemEvent::page_alloc: {
                    std::int64_t pfn = k.alloc_pages(e.order, e.gfp, cpu);
                    if (pfn >= 0) pages[e.pfn] = pfn;
                    break;
                }
                case reference::KmemEvent::page_free: {
                    auto it = pages.find(e.pfn);
                    if (it != pages.end()) k.free_pages(std::uint64_t(it->second)), pages.erase(it);
                    break;
                }
                case reference::KmemEvent::kmalloc: objs[e.ptr] = k.kmalloc(e.bytes_req, e.gfp, cpu); break;
                case reference::KmemEvent::kfree: {
                    auto it = objs.find(e.ptr);
                    if (it != objs.end()) k.kfree(it->second), objs.erase(it);
                    break;
                }
            }
        }
        done += events.size();
    }
    st.SetItemsProcessed(std::int64_t(done));
}

BENCHMARK(BM_ModelEvents)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReferenceEvents)->Unit(benchmark::kMillisecond);

}  // namespace
