// query_digest.cpp — see query_digest.hpp.
#include "query_digest.hpp"

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tagproof::solver {

namespace {

// A node's bytes: a tag, then its fields, each length-prefixed so that
// fields cannot run into each other.
struct Bytes {
    std::string s;
    void tag(char t) { s.push_back(t); }
    void u64(std::uint64_t x) { s.append(reinterpret_cast<const char*>(&x), sizeof x); }
    void text(const char* p) {
        const std::size_t n = std::strlen(p);
        u64(n);
        s.append(p, n);
    }
    void hash(const Hash128& h) {
        u64(h.lo);
        u64(h.hi);
    }
};

class Digester {
public:
    explicit Digester(Z3_context c) : c_(c) {}

    // nullopt: a node the digest does not read whole. Iterative (children
    // first, from an explicit stack): a deep term does not deepen the C++
    // stack.
    std::optional<Hash128> ast(Z3_ast root) {
        std::vector<std::pair<Z3_ast, bool>> stack{{root, false}};
        while (!stack.empty()) {
            auto [a, children_done] = stack.back();
            stack.pop_back();
            const unsigned id = Z3_get_ast_id(c_, a);
            if (asts_.count(id)) continue;
            std::optional<Hash128> h;
            switch (Z3_get_ast_kind(c_, a)) {
                case Z3_NUMERAL_AST: h = numeral(a); break;
                case Z3_APP_AST: {
                    const Z3_app app_ = Z3_to_app(c_, a);
                    const unsigned n = Z3_get_app_num_args(c_, app_);
                    if (!children_done) {
                        stack.push_back({a, true});
                        for (unsigned i = n; i-- > 0;) {
                            const Z3_ast arg = Z3_get_app_arg(c_, app_, i);
                            if (!asts_.count(Z3_get_ast_id(c_, arg))) stack.push_back({arg, false});
                        }
                        continue;
                    }
                    h = app(app_, n);
                    break;
                }
                default: return std::nullopt;  // bound variables, quantifiers, ...
            }
            if (!h) return std::nullopt;
            asts_.emplace(id, *h);
        }
        return asts_.at(Z3_get_ast_id(c_, root));
    }

private:
    std::optional<Hash128> numeral(Z3_ast a) {
        const auto s = sort(Z3_get_sort(c_, a));
        if (!s) return std::nullopt;
        Bytes b;
        b.tag('n');
        b.hash(*s);
        b.text(Z3_get_numeral_string(c_, a));
        return hash128(b.s);
    }

    // its arguments' digests are known (ast() visits them first)
    std::optional<Hash128> app(Z3_app a, unsigned n) {
        const auto d = decl(Z3_get_app_decl(c_, a));
        if (!d) return std::nullopt;
        Bytes b;
        b.tag('a');
        b.hash(*d);
        b.u64(n);
        for (unsigned i = 0; i < n; ++i) {
            const auto it = asts_.find(Z3_get_ast_id(c_, Z3_get_app_arg(c_, a, i)));
            if (it == asts_.end()) return std::nullopt;
            b.hash(it->second);
        }
        return hash128(b.s);
    }

    void symbol(Bytes& b, Z3_symbol s) {
        if (Z3_get_symbol_kind(c_, s) == Z3_INT_SYMBOL) {
            b.tag('i');
            b.u64(std::uint64_t(std::int64_t(Z3_get_symbol_int(c_, s))));
        } else {
            b.tag('s');
            b.text(Z3_get_symbol_string(c_, s));  // copied at once: the next call reuses Z3's buffer
        }
    }

    std::optional<Hash128> decl(Z3_func_decl d) {
        const unsigned id = Z3_get_ast_id(c_, Z3_func_decl_to_ast(c_, d));
        if (auto it = decls_.find(id); it != decls_.end()) return it->second;
        Bytes b;
        b.tag('d');
        b.u64(std::uint64_t(Z3_get_decl_kind(c_, d)));
        symbol(b, Z3_get_decl_name(c_, d));
        const unsigned np = Z3_get_decl_num_parameters(c_, d);
        b.u64(np);
        for (unsigned i = 0; i < np; ++i) {
            const Z3_parameter_kind k = Z3_get_decl_parameter_kind(c_, d, i);
            b.u64(std::uint64_t(k));
            switch (k) {
                case Z3_PARAMETER_INT: b.u64(std::uint64_t(std::int64_t(Z3_get_decl_int_parameter(c_, d, i)))); break;
                case Z3_PARAMETER_DOUBLE: {
                    const double x = Z3_get_decl_double_parameter(c_, d, i);
                    std::uint64_t bits;
                    std::memcpy(&bits, &x, sizeof bits);
                    b.u64(bits);
                    break;
                }
                case Z3_PARAMETER_RATIONAL: b.text(Z3_get_decl_rational_parameter(c_, d, i)); break;
                case Z3_PARAMETER_SYMBOL: symbol(b, Z3_get_decl_symbol_parameter(c_, d, i)); break;
                case Z3_PARAMETER_SORT: {
                    const auto s = sort(Z3_get_decl_sort_parameter(c_, d, i));
                    if (!s) return std::nullopt;
                    b.hash(*s);
                    break;
                }
                case Z3_PARAMETER_AST: {
                    const auto h = ast(Z3_get_decl_ast_parameter(c_, d, i));
                    if (!h) return std::nullopt;
                    b.hash(*h);
                    break;
                }
                default: return std::nullopt;  // a declaration as parameter: not read here
            }
        }
        const unsigned arity = Z3_get_domain_size(c_, d);
        b.u64(arity);
        for (unsigned i = 0; i < arity; ++i) {
            const auto s = sort(Z3_get_domain(c_, d, i));
            if (!s) return std::nullopt;
            b.hash(*s);
        }
        const auto r = sort(Z3_get_range(c_, d));
        if (!r) return std::nullopt;
        b.hash(*r);
        const Hash128 h = hash128(b.s);
        decls_.emplace(id, h);
        return h;
    }

    std::optional<Hash128> sort(Z3_sort s) {
        const unsigned id = Z3_get_ast_id(c_, Z3_sort_to_ast(c_, s));
        if (auto it = sorts_.find(id); it != sorts_.end()) return it->second;
        Bytes b;
        b.tag('S');
        const Z3_sort_kind k = Z3_get_sort_kind(c_, s);
        b.u64(std::uint64_t(k));
        symbol(b, Z3_get_sort_name(c_, s));
        switch (k) {
            case Z3_BOOL_SORT:
            case Z3_INT_SORT:
            case Z3_REAL_SORT:
            case Z3_UNINTERPRETED_SORT: break;
            case Z3_BV_SORT: b.u64(Z3_get_bv_sort_size(c_, s)); break;
            case Z3_ARRAY_SORT: {
                const auto d = sort(Z3_get_array_sort_domain(c_, s)), r = sort(Z3_get_array_sort_range(c_, s));
                if (!d || !r) return std::nullopt;
                b.hash(*d);
                b.hash(*r);
                break;
            }
            default: return std::nullopt;  // datatypes, floating point, ...: not read here
        }
        const Hash128 h = hash128(b.s);
        sorts_.emplace(id, h);
        return h;
    }

    Z3_context c_;
    std::unordered_map<unsigned, Hash128> asts_, decls_, sorts_;
};

}  // namespace

std::optional<Hash128> query_digest(const z3::expr_vector& assertions, const std::string& context) {
    Digester d(assertions.ctx());
    Bytes b;
    b.tag('Q');
    b.text(context.c_str());
    b.u64(assertions.size());
    for (unsigned i = 0; i < assertions.size(); ++i) {
        const auto h = d.ast(assertions[int(i)]);
        if (!h) return std::nullopt;
        b.hash(*h);
    }
    return hash128(b.s);
}

}  // namespace tagproof::solver
