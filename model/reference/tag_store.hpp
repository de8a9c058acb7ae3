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
#include <bit>
#include <cassert>
#include <cstring>
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

    // Granules [g, g + n) := tag. Granule i's nibble is byte i / 2 of the
    // store (little-endian words: the low nibble for an even i), so a range
    // is the whole bytes memset of the tags would write, with at most one
    // nibble to merge at either end. Inline, and written bytewise, because
    // the cost that matters is beside the memset: a word-wide merge of an end
    // nibble loads the word the previous range just stored (objects are
    // tagged side by side) and waits on it; a byte merge loads a byte no
    // neighbour wrote. The end bytes are merged before the memset: an end
    // byte loaded after it sits behind its last wide store (bench/ measured
    // that at 2.4x memset for a page's 128 tag bytes), and so does a byte
    // stored after it (1.9x). An end byte is loaded only when a neighbour
    // owns half of it (2026-12-02: 4 KiB from 1.42-1.55x to 1.21-1.46x).
    void set_range(std::size_t g, std::size_t n, std::uint8_t tag) {
        static_assert(std::endian::native == std::endian::little, "granule i is byte i / 2 only on little-endian words");
        assert(g + n <= granules_);
        if (n == 0) return;
        auto* bytes = reinterpret_cast<std::uint8_t*>(words_.data());
        const std::uint8_t t = tag & 0xF;
        const std::size_t end = g + n, head = g / 2, tail = (end - 1) / 2;
        // an end byte is loaded only when a neighbour owns half of it
        if (end & 1) bytes[tail] = std::uint8_t((bytes[tail] & 0xF0) | t);  // an even last granule: the low nibble
        if (g & 1) {  // an odd first granule: the high nibble
            bytes[head] = std::uint8_t((bytes[head] & 0x0F) | (t << 4));
            ++g;
        }
        fill_bytes(bytes + g / 2, std::uint8_t(t * 0x11), end / 2 - g / 2);
    }

    // Every granule of [g, g + n) holds `tag` (n == 0: true).
    bool all_equal(std::size_t g, std::size_t n, std::uint8_t tag) const;

    // The first granule of [g, g + n) whose tag differs from `tag`, or g + n.
    std::size_t first_mismatch(std::size_t g, std::size_t n, std::uint8_t tag) const;

    // Word w of the store: granules [16 w, 16 w + 16), granule 16 w + i in
    // nibble i (bits 4 i .. 4 i + 3). The differential check compares a page
    // a word at a time (differential/lockstep.cpp).
    std::uint64_t word(std::size_t w) const {
        assert(w < words_.size());
        return words_[w];
    }

    // Bytes of tag storage in use: one per two granules.
    std::size_t storage_bytes() const { return (granules_ + 1) / 2; }

private:
    // memset(p, v, k), with the short lengths of an object's few granules
    // done as two overlapping stores, as memset itself does, without its call
    static void fill_bytes(std::uint8_t* p, std::uint8_t v, std::size_t k) {
        if (k > 16) {
            std::memset(p, v, k);
        } else if (k >= 8) {
            const std::uint64_t x = v * 0x0101010101010101ull;
            std::memcpy(p, &x, 8);
            std::memcpy(p + k - 8, &x, 8);
        } else if (k >= 4) {
            const std::uint32_t x = v * 0x01010101u;
            std::memcpy(p, &x, 4);
            std::memcpy(p + k - 4, &x, 4);
        } else if (k >= 2) {
            const std::uint16_t x = std::uint16_t(v * 0x0101u);
            std::memcpy(p, &x, 2);
            std::memcpy(p + k - 2, &x, 2);
        } else if (k == 1) {
            *p = v;
        }
    }
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
