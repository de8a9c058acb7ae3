// Tag-setting throughput of the reference's packed store against memset of
// the same number of tag bytes (one byte per two granules), in one run, for
// the range sizes the kernel tags: a 128-byte object, a page, an order-3
// page block, a 2 MiB huge page. Issue 15's target: within 1.5 times memset.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "tag_store.hpp"

using tagproof::reference::TagStore;

namespace {
constexpr std::size_t kStoreGranules = (std::size_t(64) << 20) / 16;  // 64 MiB of memory

// Ranges start at an odd granule so both partial words are exercised.
void BM_TagStoreSetRange(benchmark::State& st) {
    const std::size_t n = std::size_t(st.range(0)) / 16;
    TagStore s(kStoreGranules, 0xE);
    std::size_t g = 1;
    std::uint8_t tag = 1;
    for (auto _ : st) {
        s.set_range(g, n, tag);
        benchmark::DoNotOptimize(s);
        g += n + 3;
        if (g + n >= kStoreGranules) g = 1;
        tag = (tag + 1) & 0xF;
    }
    st.SetBytesProcessed(std::int64_t(st.iterations()) * std::int64_t(n / 2));  // tag bytes
}

void BM_MemsetTagBytes(benchmark::State& st) {
    const std::size_t n = std::size_t(st.range(0)) / 16;
    std::vector<std::uint8_t> tags(kStoreGranules / 2, 0xEE);
    std::size_t b = 0;
    int v = 0x11;
    for (auto _ : st) {
        std::memset(tags.data() + b, v, n / 2);
        benchmark::DoNotOptimize(tags.data());
        benchmark::ClobberMemory();
        b += n / 2 + 1;
        if (b + n / 2 >= tags.size()) b = 0;
        v ^= 0x33;
    }
    st.SetBytesProcessed(std::int64_t(st.iterations()) * std::int64_t(n / 2));
}
}  // namespace

BENCHMARK(BM_TagStoreSetRange)->Arg(128)->Arg(4096)->Arg(32768)->Arg(2 << 20);
BENCHMARK(BM_MemsetTagBytes)->Arg(128)->Arg(4096)->Arg(32768)->Arg(2 << 20);
