// layout.hpp — how the model and the reference lay memory out: the sizes and
// orders both derive the same way, so they agree address for address (the
// differential check compares whole states). Where the kernel's own choice
// is configuration-dependent (SLUB's slab order), the rule here is the
// model's and says so.
#pragma once
#include <cstdint>

#include "address_map.hpp"
#include "config.hpp"

namespace tagproof::layout {

inline std::uint64_t round_up(std::uint64_t x, std::uint64_t g) { return (x + g - 1) / g * g; }

// get_order(): the smallest order whose block holds size bytes.
inline unsigned get_order(std::uint64_t size) {
    unsigned o = 0;
    while ((PAGE_SIZE << o) < size) ++o;
    return o;
}

// SLUB picks an order so that a slab holds several objects; the model uses at
// least 4 objects per slab (the exact SLUB order does not change any decision).
inline unsigned slab_order(std::uint64_t slot) {
    unsigned o = 0;
    while ((PAGE_SIZE << o) / slot < 4 && o < 3) ++o;
    return o;
}

// kmalloc size classes, 4K pages (mm/slab_common.c kmalloc_info,
// create_kmalloc_caches): the powers of two from 8 to 8192 and 96, 192.
inline constexpr std::uint64_t kKmallocClasses[] = {8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192};
inline constexpr std::uint64_t KMALLOC_MAX_CACHE_SIZE = 8192;

// The class kmalloc(size) uses, given the kmalloc minimum alignment (the
// era's rule, kmalloc_minalign in rules_*.hpp): a class exists only as a
// multiple of it (create_kmalloc_caches makes kmalloc-96 only when
// KMALLOC_MIN_SIZE <= 32, kmalloc-192 only when <= 64; smaller sizes alias
// the first class). Returns its index.
inline unsigned kmalloc_index(std::uint64_t size, std::uint64_t minalign) {
    unsigned i = 0;
    while (kKmallocClasses[i] < size || kKmallocClasses[i] % minalign != 0) ++i;
    return i;
}

// arm64 THREAD_SHIFT = 14 + KASAN_THREAD_SHIFT (1 for Generic / SW_TAGS only).
inline unsigned thread_size_order(Mode m) { return m == Mode::generic || m == Mode::sw_tags ? 3 : 2; }

}  // namespace tagproof::layout
