// hash128.hpp — a 128-bit hash of a byte string, for the explorer's table of
// seen states (explore/family_explorer.cpp).
//
// The table used to hold every state's whole key (spec::state_key: the RAM's
// tags, data and owners, kilobytes a state), so that finding a state compared
// kilobytes and half a million states held gigabytes. It holds this hash
// instead, as SPIN's hash compaction does: two different states merge only if
// their 128-bit hashes collide, for n states with probability about
// n^2 / 2^129 (1e-27 at a million states). The mixing is MurmurHash3_x64_128's
// (Austin Appleby, public domain): 16-byte blocks in two lanes, the tail padded
// with zeros, the length folded in, fmix64 at the end.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace tagproof {

struct Hash128 {
    std::uint64_t lo = 0, hi = 0;
    bool operator==(const Hash128& o) const { return lo == o.lo && hi == o.hi; }
};

// The 32 hex digits a kept entry's file is named by (high half first).
inline std::string hash128_hex(const Hash128& h) {
    char name[40];
    std::snprintf(name, sizeof name, "%016llx%016llx", static_cast<unsigned long long>(h.hi),
                  static_cast<unsigned long long>(h.lo));
    return name;
}

// For std::unordered_map: the low half is already well mixed.
struct Hash128Hasher {
    std::size_t operator()(const Hash128& h) const { return std::size_t(h.lo); }
};

namespace detail {
inline std::uint64_t rotl64(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline std::uint64_t fmix64(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}
}  // namespace detail

inline Hash128 hash128(std::string_view bytes, std::uint64_t seed = 0) {
    using detail::rotl64;
    constexpr std::uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
    std::uint64_t h1 = seed, h2 = seed;
    auto block = [&](std::uint64_t k1, std::uint64_t k2) {
        k1 *= c1, k1 = rotl64(k1, 31), k1 *= c2, h1 ^= k1;
        h1 = rotl64(h1, 27), h1 += h2, h1 = h1 * 5 + 0x52dce729;
        k2 *= c2, k2 = rotl64(k2, 33), k2 *= c1, h2 ^= k2;
        h2 = rotl64(h2, 31), h2 += h1, h2 = h2 * 5 + 0x38495ab5;
    };
    const char* p = bytes.data();
    const std::size_t n = bytes.size(), blocks = n / 16;
    for (std::size_t i = 0; i < blocks; ++i, p += 16) {
        std::uint64_t k1, k2;
        std::memcpy(&k1, p, 8);
        std::memcpy(&k2, p + 8, 8);
        block(k1, k2);
    }
    if (n % 16) {
        char tail[16] = {};
        std::memcpy(tail, p, n % 16);
        std::uint64_t k1, k2;
        std::memcpy(&k1, tail, 8);
        std::memcpy(&k2, tail + 8, 8);
        block(k1, k2);
    }
    h1 ^= n, h2 ^= n;
    h1 += h2, h2 += h1;
    h1 = detail::fmix64(h1), h2 = detail::fmix64(h2);
    h1 += h2, h2 += h1;
    return {h1, h2};
}

}  // namespace tagproof
