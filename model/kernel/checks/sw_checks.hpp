// sw_checks.hpp — how each SW_TAGS check style decides, written once over the
// value domain (../shared/reference/tag-checks.md §2, §4). Memory is read
// through `Mem`, which gives a shadow byte, a data byte and whether a shadow
// address is mapped, by bits 55..0 of the address (TBI: the top byte is
// ignored by every load, §8): concrete maps for the model, Z3 arrays for the
// proofs.
//
//   inline_check     §4.1  clang < 12 or -hwasan-inline-all-checks=1 (with the
//                          short-granule branch the compiler still emits)
//   outlined_check   §4.2  __hwasan_check_x<R>_<AI> -> __hwasan_tag_mismatch
//   fastpath_check   §4.3  inline fast path + outlined slow path (LLVM >= 18)
//   call_check       §4.4  __hwasan_{load,store}N_noabort -> kasan_check_range
#pragma once
#include <cstdint>

namespace tagproof::kernel::checks {

// Per-era constants (§2.2, §8).
struct ShadowEra {
    std::uint64_t offset;       // KASAN_SHADOW_OFFSET (48-bit VA)
    bool kernel_arith_shift;    // kasan_mem_to_shadow uses >>arith ([AS], proposed 2026)
    std::uint64_t mem_start;    // kasan_shadow_to_mem(KASAN_SHADOW_START): lowest address with metadata
};
inline constexpr ShadowEra kShadowBefore{0xefff800000000000ull, false, 0xffff000000000000ull};
inline constexpr ShadowEra kShadowAfter{0xffff800000000000ull, true, 0xffff000000000000ull};

template <class D>
struct CheckResult {
    typename D::Bool report{};  // kasan_report() is called (or the inline BRK fires)
    typename D::Bool fault{};   // the check itself loads an unmapped shadow byte (an oops, rows 7-8)
    typename D::Word size{};    // the size the report carries
};

template <class D>
struct Shadow {
    using W = typename D::Word;
    static W low56(const W& x) { return x & D::lit(0x00ffffffffffffffull); }
    static W tag(const W& p) { return D::lshr(p, 56) & D::lit(0xFF); }
    // K(p) = p | 0xFF<<56: the compiler's untag for kernel pointers
    static W K(const W& p) { return p | D::lit(0xff00000000000000ull); }
    // sext55(p): kasan_reset_tag on arm64
    static W U(const W& p) {
        return D::ite((p & D::lit(std::uint64_t(1) << 55)) != D::lit(0), p | D::lit(0xff00000000000000ull),
                      p & D::lit(0x00ffffffffffffffull));
    }
    // 1. compiler inline / fast path: OFF + (K(p) >>logical 4)
    static W inline_addr(const ShadowEra& e, const W& p) { return D::lit(e.offset) + D::lshr(K(p), 4); }
    // 2. outlined routine: OFF + sext(bits 55..4 of p)  (SBFX x16, p, #4, #52)
    static W outlined_addr(const ShadowEra& e, const W& p) { return D::lit(e.offset) + D::ashr(U(p), 4); }
    // 3./4. the kernel: kasan_mem_to_shadow(reset(p)), logical or arithmetic
    static W kernel_addr(const ShadowEra& e, const W& p) {
        return D::lit(e.offset) + (e.kernel_arith_shift ? D::ashr(U(p), 4) : D::lshr(U(p), 4));
    }
};

// §4.1 inline check of an eligible access of size 1 << k (k <= 4).
template <class D, class Mem>
CheckResult<D> inline_check(const ShadowEra& era, const Mem& mem, const typename D::Word& p, unsigned k) {
    using S = Shadow<D>;
    auto T = S::tag(p);
    auto A = S::K(p);
    auto saddr = S::low56(S::inline_addr(era, p));
    auto M = mem.shadow(saddr);
    auto s = D::lit(std::uint64_t(1) << k);
    auto last = mem.data(S::low56(A | D::lit(15)));
    auto pass = T == M || T == D::lit(0xFF) ||
                (!D::ult(D::lit(15), M) && D::ult((p & D::lit(15)) + s - D::lit(1), M) && last == T);
    CheckResult<D> r;
    r.fault = !mem.mapped(saddr);
    r.report = !r.fault && !pass;
    r.size = s;
    return r;
}

// §4.2 outlined check (no short-granule branch; the recover bit is ignored).
template <class D, class Mem>
CheckResult<D> outlined_check(const ShadowEra& era, const Mem& mem, const typename D::Word& p, unsigned k) {
    using S = Shadow<D>;
    auto T = S::tag(p);
    auto saddr = S::low56(S::outlined_addr(era, p));
    auto M = mem.shadow(saddr);
    CheckResult<D> r;
    r.fault = !mem.mapped(saddr);
    r.report = !r.fault && M != T && T != D::lit(0xFF);
    r.size = D::lit(std::uint64_t(1) << k);
    return r;
}

// §4.3: the fast path's own shadow load decides whether to call §4.2, which
// loads again (a concurrent retag between the two is the only difference).
// `later` is the memory the slow path sees: another CPU may retag in between
// (tag-checks.md §6 row 9); pass the same memory twice for a single CPU.
template <class D, class Mem>
CheckResult<D> fastpath_check(const ShadowEra& era, const Mem& mem, const Mem& later, const typename D::Word& p, unsigned k) {
    using S = Shadow<D>;
    auto T = S::tag(p);
    auto saddr = S::low56(S::inline_addr(era, p));
    auto M = mem.shadow(saddr);
    CheckResult<D> slow = outlined_check<D>(era, later, p, k);
    CheckResult<D> r;
    r.fault = !mem.mapped(saddr) || (M != T && T != D::lit(0xFF) && slow.fault);
    r.report = mem.mapped(saddr) && M != T && T != D::lit(0xFF) && slow.report;
    r.size = slow.size;
    return r;
}
template <class D, class Mem>
CheckResult<D> fastpath_check(const ShadowEra& era, const Mem& mem, const typename D::Word& p, unsigned k) {
    return fastpath_check<D>(era, mem, mem, p, k);
}

// §4.4 kasan_check_range(p, n, w), unrolled to the granules an access of n <= 16
// bytes can touch (two): wrap test first, then match-all, then metadata, then
// each shadow byte from shadow(u) to shadow(u + n - 1).
template <class D, class Mem>
CheckResult<D> call_check(const ShadowEra& era, const Mem& mem, const typename D::Word& p, const typename D::Word& n) {
    using S = Shadow<D>;
    auto T = S::tag(p);
    auto u = S::U(p);
    auto wraps = D::ult(p + n, p);
    auto has_meta = !D::ult(u, D::lit(era.mem_start));
    auto first = S::low56(S::kernel_addr(era, u)), lastg = S::low56(S::kernel_addr(era, u + n - D::lit(1)));
    auto bad = mem.shadow(first) != T || (lastg != first && mem.shadow(lastg) != T);
    CheckResult<D> r;
    r.fault = D::boolean(false);
    r.report = n != D::lit(0) && (wraps || (T != D::lit(0xFF) && (!has_meta || bad)));
    r.size = n;
    return r;
}

// §4.0: which accesses get a single-granule check (in every style).
inline bool eligible(std::uint64_t size, std::uint64_t align) {
    bool pow2 = size == 1 || size == 2 || size == 4 || size == 8 || size == 16;
    return pow2 && (align == 0 || align >= 16 || align >= size);
}

}  // namespace tagproof::kernel::checks
