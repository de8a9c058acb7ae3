// tag_set.hpp — a set of the 256 tag values, 64 to a word: what
// Model::random_tag() asks of the values present (which, how many in a
// range, the first absent) in word operations rather than value by value.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

namespace tagproof::spec {

struct TagSet {
    std::array<std::uint64_t, 4> w{};

    void set(unsigned t) { w[(t >> 6) & 3] |= std::uint64_t(1) << (t & 63); }
    void reset(unsigned t) { w[(t >> 6) & 3] &= ~(std::uint64_t(1) << (t & 63)); }
    bool test(unsigned t) const { return (w[(t >> 6) & 3] >> (t & 63)) & 1; }
    unsigned count() const {
        unsigned n = 0;
        for (std::uint64_t x : w) n += unsigned(std::popcount(x));
        return n;
    }
    // The members in [lo, hi] (hi <= 255).
    TagSet range(unsigned lo, unsigned hi) const {
        TagSet r;
        if (lo > hi) return r;
        for (unsigned i = 0; i < 4; ++i) {
            const unsigned base = i * 64;
            if (hi < base || lo > base + 63) continue;
            std::uint64_t m = ~std::uint64_t(0);
            if (lo > base) m &= ~std::uint64_t(0) << (lo - base);
            if (hi < base + 63) m &= ~std::uint64_t(0) >> (63 - (hi - base));
            r.w[i] = w[i] & m;
        }
        return r;
    }
    // HW_TAGS: each member t stands for 0xF0 | (t & 0xF) (mte_tag_from_nibble).
    TagSet mte_nibbles() const {
        std::uint64_t nib = 0;
        for (std::uint64_t x : w)
            for (unsigned k = 0; k < 4; ++k) nib |= (x >> (16 * k)) & 0xFFFF;
        TagSet r;
        r.w[3] = nib << 48;  // 0xF0..0xFF are bits 48..63 of the last word
        return r;
    }
    // Each member, ascending.
    template <class F>
    void for_each(F f) const {
        for (unsigned i = 0; i < 4; ++i)
            for (std::uint64_t x = w[i]; x; x &= x - 1) f(i * 64 + unsigned(std::countr_zero(x)));
    }
    friend TagSet operator|(TagSet a, const TagSet& b) {
        for (unsigned i = 0; i < 4; ++i) a.w[i] |= b.w[i];
        return a;
    }
};

// How many of something (granules, pages) hold each value, and which values
// some hold, kept as the counts move (a pass over the 256 counts per
// random_tag() was a fifth of a review's corpus time).
struct ValueCounts {
    std::array<std::uint32_t, 256> n{};
    TagSet held;

    void add(unsigned v, std::uint32_t k) {
        n[v & 255] += k;
        if (k) held.set(v);
    }
    void sub(unsigned v, std::uint32_t k) {
        if (!(n[v & 255] -= k)) held.reset(v);
    }
};

}  // namespace tagproof::spec
