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
//
// A chunk's count of sharers is a plain integer, not shared_ptr's atomic
// one: a Model and its copies live on the thread that made them (a review's
// workers each build their own; nothing hands a Model to another thread
// while its maker still holds a copy), and the locked increments made the
// Model's copy 9 % of a cross-check's samples (a copy of 48 pages took 192 of
// them, its destruction 192 more; 4 % with plain ones). Debug builds check
// the thread.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "value_scans.hpp"

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
        chunks_.assign(n / chunk, Ref(new Chunk(std::vector<T>(chunk, v))));
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
            if (!all_equal(chunks_[c]->v.data() + (from & (chunk_ - 1)), end - from, v))
                fill16(writable(c) + (from & (chunk_ - 1)), end - from, v);
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
        if (!k.ready) {
            for (std::size_t i = 0; i < k.v.size();) {
                const std::size_t j = run_end(k.v.data(), i, k.v.size());
                k.runs.emplace_back(std::uint32_t(j - i), k.v[i]);
                i = j;
            }
            k.ready = true;
        }
        return k.runs;
    }
    // whether chunk c is the same block in both (a copy that neither wrote)
    bool same_chunk(const CowArray& o, std::size_t c) const { return chunks_[c].get() == o.chunks_[c].get(); }

private:
    struct Chunk {
        explicit Chunk(std::vector<T> values) : v(std::move(values)) {}
        std::vector<T> v;
        mutable bool ready = false;  // runs computed: the chunk is read-only from now on
        mutable Runs runs;
        std::uint32_t refs = 1;      // the CowArrays sharing it
#ifndef NDEBUG
        std::thread::id owner = std::this_thread::get_id();
#endif
    };
    // A counted reference to a chunk, on one thread (see the file comment).
    class Ref {
    public:
        Ref() = default;
        explicit Ref(Chunk* c) : c_(c) {}
        Ref(const Ref& o) : c_(o.c_) { take(); }
        Ref(Ref&& o) noexcept : c_(o.c_) { o.c_ = nullptr; }
        Ref& operator=(const Ref& o) {
            if (c_ != o.c_) {
                Ref copy(o);
                std::swap(c_, copy.c_);
            }
            return *this;
        }
        Ref& operator=(Ref&& o) noexcept {
            std::swap(c_, o.c_);
            return *this;
        }
        ~Ref() {
            if (c_) {
                assert(c_->owner == std::this_thread::get_id());
                if (--c_->refs == 0) delete c_;
            }
        }
        Chunk* get() const { return c_; }
        Chunk* operator->() const { return c_; }
        Chunk& operator*() const { return *c_; }
        bool shared() const { return c_->refs > 1; }

    private:
        void take() {
            if (c_) {
                assert(c_->owner == std::this_thread::get_id());
                ++c_->refs;
            }
        }
        Chunk* c_ = nullptr;
    };
    // shared, or its runs taken: written in a fresh copy
    T* writable(std::size_t c) {
        Ref& p = chunks_[c];
        if (p.shared() || p->ready) p = Ref(new Chunk(p->v));
        return p->v.data();
    }
    std::vector<Ref> chunks_;
    std::size_t n_ = 0, chunk_ = 1;
    unsigned shift_ = 0;  // log2(chunk_): an index is split by shift and mask, not divided
};

}  // namespace tagproof::spec
