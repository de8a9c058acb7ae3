// z3_domain.hpp — the symbolic value domain (DESIGN §3).
//
// Bool is a Z3 Boolean, Word a 64-bit bit-vector. Decision structs
// default-construct their fields, so the expression type has a default
// constructor bound to the context of the current ContextScope.
#pragma once
#include <z3++.h>

#include <cstdint>

namespace tagproof::solver {

z3::context& current_context();

// Makes `c` the context of default-constructed expressions on this thread.
class ContextScope {
public:
    explicit ContextScope(z3::context& c);
    ~ContextScope();
    ContextScope(const ContextScope&) = delete;
    ContextScope& operator=(const ContextScope&) = delete;

private:
    z3::context* prev_;
};

struct SymExpr : z3::expr {
    SymExpr() : z3::expr(current_context().bool_val(false)) {}
    SymExpr(const z3::expr& e) : z3::expr(e) {}  // NOLINT: implicit on purpose, results of operators
};

struct Symbolic {
    using Bool = SymExpr;
    using Word = SymExpr;
    using Long = SymExpr;  // a C long: a Word compared signed (domain.hpp)
    static constexpr unsigned kBits = 64;

    static Bool boolean(bool b) { return current_context().bool_val(b); }
    static Word lit(std::uint64_t v) { return current_context().bv_val(v, kBits); }
    static Bool any(const z3::expr& w, const z3::expr& mask) { return (w & mask) != lit(0); }
    static z3::expr ite(const z3::expr& c, const z3::expr& a, const z3::expr& b) { return z3::ite(c, a, b); }
    static Bool slt(const z3::expr& a, const z3::expr& b) { return z3::slt(a, b); }
    static Bool ult(const z3::expr& a, const z3::expr& b) { return z3::ult(a, b); }
    static Word add(const z3::expr& a, const z3::expr& b) { return a + b; }
    static Word sub(const z3::expr& a, const z3::expr& b) { return a - b; }
    static Word mul(const z3::expr& a, const z3::expr& b) { return a * b; }
    static Word lshr(const z3::expr& a, unsigned n) { return z3::lshr(a, current_context().bv_val(n, kBits)); }
    static Word shl(const z3::expr& a, const z3::expr& n) { return z3::shl(a, n); }
    static Word shr(const z3::expr& a, const z3::expr& n) { return z3::lshr(a, n); }
    static Word ashr(const z3::expr& a, unsigned n) { return z3::ashr(a, current_context().bv_val(n, kBits)); }
};

}  // namespace tagproof::solver
