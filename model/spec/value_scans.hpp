// value_scans.hpp — scans of arrays of small integers written for gcc -O2's
// vectoriser: the model's RAM (cow_array.hpp, memory.cpp set_tags) and the
// explorer's state key (state_key.cpp) find runs of equal values and fill
// them over and over, at every transition.
#pragma once
#include <cstddef>
#include <type_traits>

namespace tagproof::spec {

// Nonzero when one of p[0, 16) is not v. Written as an or of xors, with
// no branch inside, so that gcc -O2 makes it a few vector instructions
// (a compare and a branch a value, as std::any_of does, was a twentieth
// of the explorer's time; gcc vectorises neither that nor a loop of
// unknown length at -O2).
template <class T>
T differs16(const T* p, T v) {
    static_assert(std::is_integral_v<T>);
    T d = 0;
    for (std::size_t k = 0; k < 16; ++k) d |= T(p[k] ^ v);
    return d;
}
// The end of the run of equal values that starts at p[i] (p[0, n)): 16
// at a time while it goes on, then one at a time. Most of a page is one
// long run; one compare a value was a third of the state key's time.
template <class T>
std::size_t run_end(const T* p, std::size_t i, std::size_t n) {
    std::size_t j = i + 1;
    while (j + 16 <= n && differs16(p + j, p[i]) == 0) j += 16;
    while (j < n && p[j] == p[i]) ++j;
    return j;
}
// Whether p[0, n) all hold v, 16 at a time, then one at a time.
template <class T>
bool all_equal(const T* p, std::size_t n, T v) {
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16)
        if (differs16(p + i, v)) return false;
    for (; i < n; ++i)
        if (p[i] != v) return false;
    return true;
}
// p[0, n) := v, 16 at a time (vector stores at -O2; std::fill_n of an
// int is a store a value there), then one at a time.
template <class T>
void fill16(T* p, std::size_t n, T v) {
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (std::size_t k = 0; k < 16; ++k) p[i + k] = v;
    for (; i < n; ++i) p[i] = v;
}

}  // namespace tagproof::spec
