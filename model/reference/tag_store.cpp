// tag_store.cpp — see tag_store.hpp.
#include "tag_store.hpp"

#include <bit>
#include <cstring>


namespace tagproof::reference {

TagStore::TagStore(std::size_t granules, std::uint8_t init)
    : granules_(granules), words_((granules + kGranulesPerWord - 1) / kGranulesPerWord, splat(init)) {}

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
