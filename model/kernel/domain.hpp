// domain.hpp — the value domain decisions are written over.
//
// A decision uses only: the Bool operators && || !, the Word operators & | ~ ==
// + -, and the static helpers below (lit,
// any, ite, slt, ult, add, sub, mul, lshr, ashr, shl, shr). Concrete
// instantiates them with bool / uint64_t; solver/z3_domain.hpp instantiates
// them with z3::expr (Bool sort and 64-bit bit-vectors). Nothing else may be
// used in a decision: no `if` on a Bool, no early return on data.
#pragma once
#include <cstdint>

namespace tagproof::kernel {

struct Concrete {
    using Bool = bool;
    using Word = std::uint64_t;  // gfp masks, orders, tags, counters (two's complement)
    // A C `long` (the per-CPU sampling counter): the same bits as a Word; a
    // rule parameter of this type compares signed (rule_expr.hpp)
    using Long = Word;

    static Bool boolean(bool b) { return b; }
    static Word lit(std::uint64_t v) { return v; }
    static Bool any(Word w, Word mask) { return (w & mask) != 0; }  // gfp & __GFP_X
    template <class T>
    static T ite(Bool c, T a, T b) { return c ? a : b; }
    static Bool slt(Word a, Word b) { return std::int64_t(a) < std::int64_t(b); }
    static Bool ult(Word a, Word b) { return a < b; }
    static Word add(Word a, Word b) { return a + b; }
    static Word sub(Word a, Word b) { return a - b; }
    static Word mul(Word a, Word b) { return a * b; }
    static Word lshr(Word a, unsigned n) { return a >> n; }
    // C's << and >> of a lifted body (1 << order): 0 past the word, as the bit-vector gives
    static Word shl(Word a, Word n) { return n >= 64 ? 0 : a << n; }
    static Word shr(Word a, Word n) { return n >= 64 ? 0 : a >> n; }
    static Word ashr(Word a, unsigned n) { return Word(std::int64_t(a) >> n); }
};

}  // namespace tagproof::kernel
