// tag_store.cpp — see tag_store.hpp.
#include "tag_store.hpp"

#include <bit>
#include <cstring>


namespace tagproof::reference {

TagStore::TagStore(std::size_t granules, std::uint8_t init)
    : granules_(granules), words_((granules + kGranulesPerWord - 1) / kGranulesPerWord, splat(init)) {}

// Granule i's nibble is byte i / 2 of the store (little-endian words: the low
// nibble for an even i), so a long range is one memset of whole bytes and at
// most one nibble at each end: the very bytes memset of the tags would write.
void TagStore::set_long_range(std::size_t g, std::size_t n, std::uint8_t tag) {
    static_assert(std::endian::native == std::endian::little, "granule i is byte i / 2 only on little-endian words");
    auto* bytes = reinterpret_cast<std::uint8_t*>(words_.data());
    const std::uint8_t t = tag & 0xF;
    if (g & 1) {  // the odd granule at the start: the high nibble of its byte
        bytes[g / 2] = std::uint8_t((bytes[g / 2] & 0x0F) | (t << 4));
        ++g;
        --n;
    }
    std::memset(bytes + g / 2, t * 0x11, n / 2);
    if (n & 1) {  // the even granule at the end: the low nibble of its byte
        const std::size_t last = g + n - 1;
        bytes[last / 2] = std::uint8_t((bytes[last / 2] & 0xF0) | t);
    }
}

std::size_t TagStore::first_mismatch(std::size_t g, std::size_t n, std::uint8_t tag) const {
    assert(g + n <= granules_);
    if (n == 0) return g;
    const std::uint64_t v = splat(tag);
    std::size_t end = g + n;
    std::size_t w = g / kGranulesPerWord, wend = (end - 1) / kGranulesPerWord;
    for (std::size_t i = w; i <= wend; ++i) {
        unsigned lo = i == w ? unsigned(g % kGranulesPerWord) : 0;
        unsigned hi = i == wend ? unsigned((end - 1) % kGranulesPerWord) + 1 : kGranulesPerWord;
        std::uint64_t diff = (words_[i] ^ v) & mask(lo, hi);
        // the lowest differing nibble is the first mismatching granule of this word
        if (diff) return i * kGranulesPerWord + unsigned(std::countr_zero(diff)) / 4;
    }
    return end;
}

bool TagStore::all_equal(std::size_t g, std::size_t n, std::uint8_t tag) const { return first_mismatch(g, n, tag) == g + n; }

}  // namespace tagproof::reference
