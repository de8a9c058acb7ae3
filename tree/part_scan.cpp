// part_scan.cpp — see part_scan.hpp.
#include "part_scan.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "modelled.hpp"

namespace tagproof::tree {

std::string at(const PartInput& in, int line) { return in.file + ":" + std::to_string(line); }

bool is_ident(const std::string& t) { return !t.empty() && (std::isalpha((unsigned char)t[0]) || t[0] == '_'); }

// The `nth` call to `callee` in the function, in the order written.
const Call* nth_call(const PartInput& in, const std::string& callee, int nth) {
    int seen = 0;
    for (const Call* c : in.parsed.calls_in(in.def.begin_line, in.def.end_line))
        // (alloc_pages() is a macro around 6.10's alloc_pages_noprof())
        if (without_noprof(c->callee) == callee && seen++ == nth) return c;
    return nullptr;
}

// An object-like macro of the file itself (#define GFP_VMAP_STACK (...) in
// kernel/fork.c from v6.15), its replacement tokens; "" if there is none.
std::string file_macro(const PartInput& in, const std::string& name) {
    for (const Definition& d : in.parsed.defs) {
        if (d.kind != Definition::Kind::macro || d.name != name) continue;
        const std::vector<std::string> t = in.parsed.tokens_in(d.begin_line, d.end_line);
        std::string out;
        bool after = false;
        for (const auto& x : t) {
            if (after) out += (out.empty() ? "" : " ") + x;
            else if (x == name) after = true;
        }
        return out;
    }
    return "";
}

// A call's argument as a rule expression: the function's variables replaced
// by what the model binds them to, the file's own macros expanded once.
std::string arg_expr(const PartInput& in, const std::string& arg, const std::map<std::string, std::string>& bind) {
    std::istringstream ts(arg);
    std::vector<std::string> toks;
    for (std::string t; ts >> t;) toks.push_back(t);
    std::string out;
    for (std::size_t i = 0; i < toks.size(); ++i) {
        std::string t = toks[i];
        const bool member = i > 0 && (toks[i - 1] == "->" || toks[i - 1] == ".");
        if (is_ident(t) && !member) {
            if (auto b = bind.find(t); b != bind.end()) t = b->second;
            else if (i + 1 >= toks.size() || toks[i + 1] != "(")
                if (std::string m = file_macro(in, t); !m.empty()) t = "(" + m + ")";
        }
        out += (out.empty() ? "" : " ") + t;
    }
    return out;
}

// The function's own tokens: the indices [first, last) into the file's (the
// readers' scans stay inside the definition, not the whole file).
std::pair<std::size_t, std::size_t> def_tokens(const PartInput& in) {
    const auto& T = in.parsed.tokens;
    std::size_t a = 0;
    while (a < T.size() && T[a].line < in.def.begin_line) ++a;
    std::size_t b = a;
    while (b < T.size() && T[b].line <= in.def.end_line) ++b;
    return {a, b};
}

// The index of the token written at `offset`, or npos.
std::size_t token_at(const PartInput& in, unsigned offset) {
    const auto& T = in.parsed.tokens;
    for (std::size_t j = 0; j < T.size(); ++j)
        if (T[j].offset == offset) return j;
    return npos;
}

// The index of the "(" matching the ")" at k, or npos.
std::size_t open_of(const PartInput& in, std::size_t k) {
    const auto& T = in.parsed.tokens;
    int depth = 0;
    for (std::size_t j = k + 1; j-- > 0;) {
        if (T[j].text == ")") ++depth;
        else if (T[j].text == "(" && --depth == 0) return j;
    }
    return npos;
}

std::size_t close_of(const PartInput& in, std::size_t k, std::size_t end) {
    const auto& T = in.parsed.tokens;
    int depth = 0;
    for (std::size_t j = k; j < end && j < T.size(); ++j) {
        if (T[j].text == "(") ++depth;
        else if (T[j].text == ")" && --depth == 0) return j;
    }
    return npos;
}

// The tokens strictly between a and b, joined by one blank.
std::string text_between(const PartInput& in, std::size_t a, std::size_t b) {
    std::string x;
    for (std::size_t j = a + 1; j < b; ++j) x += (x.empty() ? "" : " ") + in.parsed.tokens[j].text;
    return x;
}

// The first token of the statement the token at k is in: back past the
// expression to a `;`, `{`, `}`, `else`, or the `)` that closes an if, for
// or while head (a parenthesised part of the expression is stepped over).
std::size_t statement_start(const PartInput& in, std::size_t k) {
    const auto& T = in.parsed.tokens;
    while (k > 0) {
        const std::string& p = T[k - 1].text;
        if (p == ";" || p == "{" || p == "}" || p == "else") return k;
        if (p == ")") {
            const std::size_t o = open_of(in, k - 1);
            if (o == npos) return k;
            const std::string kw = o > 0 ? T[o - 1].text : "";
            if (kw == "if" || kw == "for" || kw == "while") return k;
            k = o;
            continue;
        }
        --k;
    }
    return k;
}

// The `if (COND)` conditions the statement holding token t0 is made under,
// innermost first, braced or not, out to the function's body or the first
// loop (a loop's own condition is not one: the model runs its body once per
// element). False with `why` when the statement sits in an else branch,
// which the readers do not read.
bool enclosing_ifs(const PartInput& in, std::size_t t0, const std::string& what, std::vector<Guard>& guards,
                   std::string& why) {
    const auto& T = in.parsed.tokens;
    std::size_t k = statement_start(in, t0);
    for (bool braced = false;;) {
        // the statement's head: a `)` just before it (an unbraced if / for), or the block's `{`
        std::size_t head = k;
        if (!braced && k > 0 && (T[k - 1].text == ")" || T[k - 1].text == "else")) head = k - 1;
        if (head != k && T[head].text == "else") {
            why = what + " is in an else branch";
            return false;
        }
        if (head != k || braced) {
            const std::size_t close = braced ? k - 1 : head;
            if (close < T.size() && T[close].text == ")") {
                const std::size_t open = open_of(in, close);
                const std::string kw = open != npos && open > 0 ? T[open - 1].text : "";
                if (kw != "if") return true;  // a loop, or a block the reader does not know: no condition past it
                guards.push_back({text_between(in, open, close), T[open - 1].line, close});
                k = open - 1;
                braced = false;
                if (k > 0 && T[k - 1].text == "else") {
                    why = what + " is in an else-if branch";
                    return false;
                }
                continue;
            }
            if (braced && close < T.size() && T[close].text == "else") {
                why = what + " is in an else branch";
                return false;
            }
            return true;  // the function's body: no condition
        }
        // walk back to the `{` that opens the block holding the statement
        int depth = 0;
        std::size_t j = k;
        bool found = false;
        while (j-- > 0) {
            if (T[j].line < in.def.begin_line) break;
            if (T[j].text == "}") ++depth;
            else if (T[j].text == "{") {
                if (depth == 0) {
                    found = true;
                    break;
                }
                --depth;
            }
        }
        if (!found) return true;
        k = j;
        braced = true;
    }
}


// The first statement of the function that begins with `seq` (tokens as
// written), from token `from` on: the index of its first token, or npos.
std::size_t find_statement(const PartInput& in, const std::vector<std::string>& seq, std::size_t from) {
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    for (std::size_t j = std::max(from, first); j + seq.size() <= last; ++j) {
        bool match = true;
        for (std::size_t i = 0; i < seq.size() && match; ++i) match = T[j + i].text == seq[i];
        if (match && statement_start(in, j) == j) return j;
    }
    return npos;
}

// The tokens of a statement from `first` to its `;` (exclusive), joined.
std::string to_semicolon(const PartInput& in, std::size_t first, std::size_t& semi) {
    const auto& T = in.parsed.tokens;
    int depth = 0;
    for (semi = first; semi < T.size(); ++semi) {
        if (T[semi].text == "(") ++depth;
        else if (T[semi].text == ")") --depth;
        else if (T[semi].text == ";" && depth == 0) break;
    }
    return text_between(in, first - 1, semi);
}

std::string unhinted(const std::string& cond) {
    for (const char* h : {"unlikely ( ", "likely ( "})
        if (cond.rfind(h, 0) == 0 && cond.back() == ')') return cond.substr(std::string(h).size() - 2);
    return cond;
}

std::string bare(const std::string& cond) {
    std::string c = unhinted(cond);
    while (c.size() >= 4 && c.rfind("( ", 0) == 0 && c.compare(c.size() - 2, 2, " )") == 0) {
        // the first `(` must close at the very end
        int depth = 0;
        std::size_t close = std::string::npos;
        for (std::size_t i = 0; i < c.size() && close == std::string::npos; ++i) {
            if (c[i] == '(') ++depth;
            else if (c[i] == ')' && --depth == 0) close = i;
        }
        if (close != c.size() - 1) break;
        c = c.substr(2, c.size() - 4);
    }
    return c;
}

bool returns_before(const PartInput& in, std::size_t k, const std::string& what, std::vector<Guard>& guards,
                    std::string& why) {
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    for (std::size_t r = first; r < k && r < last; ++r) {
        if (T[r].text != "return") continue;
        std::vector<Guard> g;
        if (!enclosing_ifs(in, r, "a return", g, why)) return false;
        if (g.size() != 1) {
            why = "the return at " + at(in, T[r].line) + " before " + what + " is " +
                  (g.empty() ? std::string("under no if: ") + what + " is never reached" : "under more than one if");
            return false;
        }
        g[0].cond = unhinted(g[0].cond);
        guards.push_back(g[0]);
    }
    return true;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t p = 0; (p = text.find(from, p)) != std::string::npos; p += to.size()) text.replace(p, from.size(), to);
    return text;
}

}  // namespace tagproof::tree
