// cow_array.hpp — the model's RAM arrays (a tag, a data value, an owner per
// granule), in chunks of one page shared between copies until written.
//
// The explorer copies the whole Model for every transition it tries (half a
// million for one review), and RAM was most of a Model: 16 pages of four
// arrays are 40 KiB, 48 pages 120 KiB. An event writes a few pages; the rest
// are the same in the copy as in its parent. So a copy shares every chunk and
// a write unshares only the chunk it writes (copy-on-write), and a copy costs
// a pointer per page instead of the bytes.
//
// A chunk is one page's granules (the model's granule arrays are indexed by
// gidx(pfn, off)), so a run of writes within a page touches one chunk.
//
// The explorer's state key (state_key.cpp) writes RAM as runs of equal
// values; a chunk keeps its runs once asked (most pages of a state are its
// parent's), and a chunk whose runs were taken is never written again: a
// write makes a new one.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tagproof::spec {

template <class T>
class CowArray {
public:
    // n elements of value v, in chunks of `chunk` elements; every chunk shares
    // one block until written.
    void assign(std::size_t n, T v, std::size_t chunk) {
        if (chunk == 0 || (chunk & (chunk - 1)) || n % chunk)
            throw std::logic_error("CowArray: chunks of a power of two, and a size of whole chunks");
        n_ = n;
        chunk_ = chunk;
        shift_ = 0;
        while ((std::size_t(1) << shift_) < chunk) ++shift_;
        chunks_.assign(n / chunk, std::make_shared<Chunk>(std::vector<T>(chunk, v)));
    }
    std::size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    std::size_t chunk_size() const { return chunk_; }
    std::size_t chunks() const { return chunks_.size(); }

    T operator[](std::size_t i) const { return chunks_[i >> shift_]->v[i & (chunk_ - 1)]; }
    void set(std::size_t i, T v) {
        if ((*this)[i] != v) writable(i >> shift_)[i & (chunk_ - 1)] = v;
    }
    // [from, to) set to v, chunk by chunk; a chunk that holds v already stays shared
    void fill(std::size_t from, std::size_t to, T v) {
        while (from < to) {
            const std::size_t c = from >> shift_, end = std::min(to, (c + 1) * chunk_);
            const std::vector<T>& blk = chunks_[c]->v;
            const auto first = blk.begin() + std::ptrdiff_t((from & (chunk_ - 1))), last = first + std::ptrdiff_t(end - from);
            if (std::any_of(first, last, [&](T x) { return x != v; }))
                std::fill_n(writable(c) + (from & (chunk_ - 1)), end - from, v);
            from = end;
        }
    }
    // [i, i + n) for writing; it must lie in one chunk (one page's granules)
    T* span(std::size_t i, std::size_t n) {
        if (n && (i >> shift_) != ((i + n - 1) >> shift_)) throw std::logic_error("CowArray::span across chunks");
        return writable(i >> shift_) + (i & (chunk_ - 1));
    }
    // element i and the rest of its chunk, read-only, in place
    const T* at(std::size_t i) const { return chunks_[i >> shift_]->v.data() + (i & (chunk_ - 1)); }
    // chunk c's elements, read-only
    const T* chunk_data(std::size_t c) const { return chunks_[c]->v.data(); }
    std::size_t chunk_len(std::size_t) const { return chunk_; }
    // chunk c as runs of equal values (count, value), computed once per chunk
    using Runs = std::vector<std::pair<std::uint32_t, T>>;
    const Runs& chunk_runs(std::size_t c) const {
        const Chunk& k = *chunks_[c];
        if (!k.ready.load(std::memory_order_acquire)) {
            std::lock_guard<std::mutex> lock(k.mu);
            if (!k.ready.load(std::memory_order_relaxed)) {
                for (std::size_t i = 0; i < k.v.size();) {
                    std::size_t j = i + 1;
                    while (j < k.v.size() && k.v[j] == k.v[i]) ++j;
                    k.runs.emplace_back(std::uint32_t(j - i), k.v[i]);
                    i = j;
                }
                k.ready.store(true, std::memory_order_release);
            }
        }
        return k.runs;
    }
    // whether chunk c is the same block in both (a copy that neither wrote)
    bool same_chunk(const CowArray& o, std::size_t c) const { return chunks_[c] == o.chunks_[c]; }

private:
    struct Chunk {
        explicit Chunk(std::vector<T> values) : v(std::move(values)) {}
        std::vector<T> v;
        mutable std::mutex mu;
        mutable std::atomic<bool> ready{false};
        mutable Runs runs;
    };
    // shared, or its runs taken: written in a fresh copy
    T* writable(std::size_t c) {
        std::shared_ptr<Chunk>& p = chunks_[c];
        if (p.use_count() > 1 || p->ready.load(std::memory_order_acquire)) p = std::make_shared<Chunk>(p->v);
        return p->v.data();
    }
    std::vector<std::shared_ptr<Chunk>> chunks_;
    std::size_t n_ = 0, chunk_ = 1;
    unsigned shift_ = 0;  // log2(chunk_): an index is split by shift and mask, not divided
};

}  // namespace tagproof::spec
