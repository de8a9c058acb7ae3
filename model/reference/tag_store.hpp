// tag_store.hpp — MTE allocation tags packed as the hardware keeps them: 4
// bits per 16-byte granule, two granules per byte, the even granule in the
// low nibble (QEMU's tag memory layout, target/arm/tcg/mte_helper.c). Held
// as 64-bit words of 16 granules (256 bytes of memory) so that a range is
// set or compared a whole word at a time, the reference implementation's
// answer to STG / DC GVA loops (DESIGN §5).
//
// No bounds checks on the hot path: the reference's event decoder has
// validated every address before it gets here (debug builds assert).
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tagproof::reference {

class TagStore {
public:
    static constexpr unsigned kGranulesPerWord = 16;

    // `granules` granules, each holding `init` (a 4-bit tag)
    explicit TagStore(std::size_t granules, std::uint8_t init = 0);

    std::size_t granules() const { return granules_; }

    std::uint8_t get(std::size_t g) const {
        assert(g < granules_);
        return std::uint8_t((words_[g / kGranulesPerWord] >> shift(g)) & 0xF);
    }
    void set(std::size_t g, std::uint8_t tag) {
        assert(g < granules_);
        std::uint64_t& w = words_[g / kGranulesPerWord];
        w = (w & ~(std::uint64_t(0xF) << shift(g))) | (std::uint64_t(tag & 0xF) << shift(g));
    }

    // Granules [g, g + n) := tag. Inline for the short ranges (an object's
    // few granules: one or two words under a mask); a longer one is a memset
    // of the tag bytes with a nibble at either end (tag_store.cpp).
    void set_range(std::size_t g, std::size_t n, std::uint8_t tag) {
        assert(g + n <= granules_);
        if (n == 0) return;
        if (n > 2 * kGranulesPerWord) return set_long_range(g, n, tag);
        const std::uint64_t v = splat(tag);
        const std::size_t end = g + n, w = g / kGranulesPerWord, wend = (end - 1) / kGranulesPerWord;
        const unsigned lo = unsigned(g % kGranulesPerWord), hi = unsigned((end - 1) % kGranulesPerWord) + 1;
        std::uint64_t* words = words_.data();
        if (w == wend) {
            const std::uint64_t m = mask(lo, hi);
            words[w] = (words[w] & ~m) | (v & m);
            return;
        }
        std::uint64_t m = mask(lo, kGranulesPerWord);
        words[w] = (words[w] & ~m) | (v & m);
        for (std::size_t i = w + 1; i < wend; ++i) words[i] = v;
        m = mask(0, hi);
        words[wend] = (words[wend] & ~m) | (v & m);
    }

    // Every granule of [g, g + n) holds `tag` (n == 0: true).
    bool all_equal(std::size_t g, std::size_t n, std::uint8_t tag) const;

    // The first granule of [g, g + n) whose tag differs from `tag`, or g + n.
    std::size_t first_mismatch(std::size_t g, std::size_t n, std::uint8_t tag) const;

    // Bytes of tag storage in use: one per two granules.
    std::size_t storage_bytes() const { return (granules_ + 1) / 2; }

private:
    void set_long_range(std::size_t g, std::size_t n, std::uint8_t tag);
    static unsigned shift(std::size_t g) { return unsigned(g % kGranulesPerWord) * 4; }
    static std::uint64_t splat(std::uint8_t tag) { return (tag & 0xFull) * 0x1111111111111111ull; }
    // the nibbles of granules [lo, hi) of one word, lo < hi <= 16
    static std::uint64_t mask(unsigned lo, unsigned hi) {
        std::uint64_t upto = hi == kGranulesPerWord ? ~0ull : (std::uint64_t(1) << (hi * 4)) - 1;
        return upto & ~((std::uint64_t(1) << (lo * 4)) - 1);
    }

    std::size_t granules_;
    std::vector<std::uint64_t> words_;
};

}  // namespace tagproof::reference
