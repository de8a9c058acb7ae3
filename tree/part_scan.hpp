// part_scan.hpp — how the part readers (lift_parts.cpp, lift_kasan_parts.cpp)
// walk a function of the tree: its calls and tokens as libclang gave them
// (functions.hpp), the statements they make up and the `if`s a statement is
// made under. Written once here so that every reader finds a statement, a
// call's argument or a condition the same way.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lift_parts.hpp"

namespace tagproof::tree {

constexpr std::size_t npos = std::string::npos;

// "FILE:LINE" of the function's file.
std::string at(const PartInput& in, int line);
bool is_ident(const std::string& t);

// The `nth` call to `callee` in the function, in the order written (a
// `_noprof` callee counts as its name without it); nullptr if none.
const Call* nth_call(const PartInput& in, const std::string& callee, int nth);

// An object-like macro of the file itself, its replacement tokens; "" if none.
std::string file_macro(const PartInput& in, const std::string& name);

// A call's argument as a rule expression: the function's variables replaced
// by what the model binds them to, the file's own macros expanded once.
std::string arg_expr(const PartInput& in, const std::string& arg, const std::map<std::string, std::string>& bind);

// The function's own tokens: the indices [first, last) into the file's.
std::pair<std::size_t, std::size_t> def_tokens(const PartInput& in);
// The index of the token written at `offset`, or npos.
std::size_t token_at(const PartInput& in, unsigned offset);
// The index of the "(" matching the ")" at k, or npos.
std::size_t open_of(const PartInput& in, std::size_t k);
// The index of the ")" matching the "(" at k, before `end`, or npos.
std::size_t close_of(const PartInput& in, std::size_t k, std::size_t end);
// The tokens strictly between a and b, joined by one blank.
std::string text_between(const PartInput& in, std::size_t a, std::size_t b);
// The first token of the statement the token at k is in.
std::size_t statement_start(const PartInput& in, std::size_t k);

// An `if (COND)` a statement is made under: its condition's tokens as
// written, and the line of the `if`.
struct Guard {
    std::string cond;
    int line = 0;
    std::size_t close = 0;  // the index of the `)` closing its condition
};
// The `if (COND)` conditions the statement holding token t0 is made under,
// innermost first, out to the function's body or the first loop. False with
// `why` when the statement sits in an else branch.
bool enclosing_ifs(const PartInput& in, std::size_t t0, const std::string& what, std::vector<Guard>& guards,
                   std::string& why);

// The first statement of the function that begins with `seq` (tokens as
// written), from token `from` on: the index of its first token, or npos.
std::size_t find_statement(const PartInput& in, const std::vector<std::string>& seq, std::size_t from = 0);
// The tokens of a statement from `first` to its `;` (exclusive), joined;
// `semi` is set to the `;`.
std::string to_semicolon(const PartInput& in, std::size_t first, std::size_t& semi);

// A condition with a leading likely()/unlikely() dropped: a branch hint,
// `unlikely ( X )` is `( X )`.
std::string unhinted(const std::string& cond);
// A condition as readers compare it: its hint dropped and the parentheses
// that enclose all of it (`unlikely(object == NULL)`, `(object == NULL)` and
// `object == NULL` are all `object == NULL`; `( a ) && ( b )` is kept).
std::string bare(const std::string& cond);

// The `if` each `return` of the function before token `k` is made under, in
// order (what a call at k is reachable past), its condition with a leading
// likely()/unlikely() hint dropped. False with `why` (naming `what`, the call)
// when a return is under no if (k is never reached) or under more than one.
bool returns_before(const PartInput& in, std::size_t k, const std::string& what, std::vector<Guard>& guards,
                    std::string& why);

// `text` with every `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to);

}  // namespace tagproof::tree
