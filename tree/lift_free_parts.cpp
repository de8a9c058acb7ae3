// lift_free_parts.cpp — the page free's KASAN part read in part: the init
// __kasan_poison_pages() passes on (below), and free_pages_prepare's
// (mm/page_alloc.c): every era writes it
//     bool init = want_init_on_free();
//     ...
//     if (!skip_kasan_poison) {
//             kasan_poison_pages(page, order, init);
//             /* Memory is already initialized if KASAN did it internally. */
//             if (kasan_has_integrated_init())
//                     init = false;
//     }
//     if (init)
//             kernel_init_pages(page, 1 << order);
// and the model's free plan asks three rules of it (rules_6_1.hpp): the init
// kasan_poison_pages() is given (free_poison_init(init)), init after the
// block (free_init_after_poison(init)) and the condition kernel_init_pages()
// is called under (free_kernel_init(init)). A patch that changes any of
// them is read; a shape the plan is not (init declared from anything but
// want_init_on_free(), the poisoning under another condition, more than an
// update of init after it) is refused with what it is, so that its hunk is
// "not checked", never "holds".
#include <map>

#include "lift_parts.hpp"
#include "part_scan.hpp"

namespace tagproof::tree {

namespace {

const std::string kInitDecl = "bool init = want_init_on_free ( )";

}  // namespace

std::string read_free_kasan_part(const PartInput& in, std::string& why) {
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    const std::map<std::string, std::string> bind = {{"init", "init"}};
    // bool init = want_init_on_free();
    const std::size_t decl = find_statement(in, {"bool", "init"});
    std::size_t semi = npos;
    if (decl == npos || to_semicolon(in, decl, semi) != kInitDecl) {
        why = in.def.name + " does not declare its init as `bool init = want_init_on_free();`" +
              (decl == npos ? "" : " (" + to_semicolon(in, decl, semi) + " at " + at(in, T[decl].line) + ")");
        return "";
    }
    // if (!skip_kasan_poison) { kasan_poison_pages(page, order, INIT); ... }
    const Call* poison = nth_call(in, "kasan_poison_pages", 0);
    if (!poison || poison->args.size() != 3) {
        why = in.def.name + (poison ? "'s kasan_poison_pages() at " + at(in, poison->line) + " does not take three arguments"
                                    : " does not call kasan_poison_pages()");
        return "";
    }
    const std::size_t pt = token_at(in, poison->offset);
    // under one if: !skip_kasan_poison, or the call itself (v6.1's 487a32ec24be
    // shape; when it is made is free_reads_skip_flag's, read beside this)
    std::vector<Guard> guards;
    if (!enclosing_ifs(in, pt, "kasan_poison_pages()", guards, why)) return "";
    // !NAME of a local `bool NAME = should_skip_kasan_poison(...);`, whatever its name
    auto skip_local = [&](const std::string& cond) {
        if (cond.size() < 3 || cond.rfind("! ", 0) != 0 || !is_ident(cond.substr(2))) return false;
        const std::string name = cond.substr(2);
        const std::size_t d = find_statement(in, {"bool", name, "="});
        std::size_t end = npos;
        return d != npos && to_semicolon(in, d, end).rfind("bool " + name + " = should_skip_kasan_poison (", 0) == 0;
    };
    const std::string skip_call = "! should_skip_kasan_poison (";
    const bool skip_guard =
        guards.size() == 1 && (skip_local(guards[0].cond) ||
                               (guards[0].cond.rfind(skip_call, 0) == 0 && guards[0].cond.back() == ')' &&
                                guards[0].cond.find("&&") == std::string::npos &&
                                guards[0].cond.find("||") == std::string::npos));
    if (!skip_guard) {
        why = "kasan_poison_pages() at " + at(in, poison->line) + " is called under " +
              (guards.empty() ? std::string("no if") : "if (" + guards[0].cond + ")" + (guards.size() > 1 ? " and more" : "")) +
              ", not under if (!skip_kasan_poison) alone (skip_kasan_poison: should_skip_kasan_poison()'s answer)";
        return "";
    }
    const std::size_t body = guards[0].close + 1;  // the token after the if's ')'
    // what follows the call in the block: nothing, `init = V;` or `if (C) init = V;`
    std::size_t call_end = npos;
    to_semicolon(in, pt, call_end);
    std::size_t block_end = call_end + 1;  // an unbraced if: the call is the block
    if (body < last && T[body].text == "{") {
        int depth = 0;
        for (block_end = body; block_end < last; ++block_end) {
            if (T[block_end].text == "{") ++depth;
            else if (T[block_end].text == "}" && --depth == 0) break;
        }
    }
    // init and the skip local are written where the plan says and nowhere
    // else: an assignment elsewhere (a patch's `init = false;` before the
    // block) would change what is read without being read
    const std::string skip_name = guards[0].cond.rfind("! ", 0) == 0 && is_ident(guards[0].cond.substr(2))
                                      ? guards[0].cond.substr(2) : "";
    for (std::size_t j = first; j + 1 < last; ++j) {
        const std::string& op = T[j + 1].text;
        if (op != "=" && op != "|=" && op != "&=" && op != "^=") continue;
        const bool at_decl = j > first && T[j - 1].text == "bool";
        const bool in_block = j > call_end && j < block_end;
        if ((T[j].text == "init" && !at_decl && !in_block) || (!skip_name.empty() && T[j].text == skip_name && !at_decl)) {
            why = T[j].text + " is assigned at " + at(in, T[j].line) + ", outside what the plan reads of " + in.def.name;
            return "";
        }
    }
    std::string after = "init";
    std::size_t k = call_end + 1;
    if (k < block_end) {
        std::string cond;
        if (T[k].text == "if" && k + 1 < block_end && T[k + 1].text == "(") {
            const std::size_t close = close_of(in, k + 1, block_end);
            if (close == npos) {
                why = "the if at " + at(in, T[k].line) + " after kasan_poison_pages() is not closed";
                return "";
            }
            cond = text_between(in, k + 1, close);
            k = close + 1;
        }
        const bool braced = k < block_end && T[k].text == "{";
        if (braced) ++k;
        std::size_t end = npos;
        const std::string stmt = k < block_end ? to_semicolon(in, k, end) : "";
        const bool assigns = stmt.rfind("init = ", 0) == 0 && end != npos && end < block_end;
        std::size_t rest = assigns ? end + 1 + (braced ? 1 : 0) : npos;
        if (!assigns || rest != block_end || (braced && T[end + 1].text != "}")) {
            why = "after kasan_poison_pages() at " + at(in, poison->line) +
                  " the block does more than update init (the plan's shape: `if (COND) init = VALUE;`)";
            return "";
        }
        const std::string value = arg_expr(in, stmt.substr(7), bind);
        after = cond.empty() ? value : "(" + arg_expr(in, cond, bind) + ") ? (" + value + ") : init";
    }
    // if (COND) kernel_init_pages(page, 1 << order);  after the block (none: never)
    std::string kernel = "false";
    if (const Call* ki = nth_call(in, "kernel_init_pages", 0)) {
        const std::size_t kt = token_at(in, ki->offset);
        if (kt < block_end) {
            why = "kernel_init_pages() at " + at(in, ki->line) + " comes before the poisoning block ends";
            return "";
        }
        std::vector<Guard> kg;
        if (!enclosing_ifs(in, kt, "kernel_init_pages()", kg, why)) return "";
        if (kg.size() > 1) {
            why = "kernel_init_pages() at " + at(in, ki->line) + " is under more than one if";
            return "";
        }
        kernel = kg.empty() ? "true" : arg_expr(in, kg[0].cond, bind);
    }
    return "# " + in.def.name + ": its KASAN part, init = want_init_on_free() at " + at(in, T[decl].line) +
           ", kasan_poison_pages() at " + at(in, poison->line) +
           "\nrule free_poison_init(init) = " + arg_expr(in, poison->args[2], bind) +
           "\nrule free_init_after_poison(init) = " + after + "\nrule free_kernel_init(init) = " + kernel + "\n";
}

// __kasan_poison_pages (mm/kasan/common.c), read in part: the init its
// kasan_poison() is given (rule kasan_poison_pages_init(init)). v6.1 and
// v6.12 write
//     if (likely(!PageHighMem(page)))
//             kasan_poison(page_address(page), PAGE_SIZE << order,
//                          KASAN_PAGE_FREE, init);
// With HW_TAGS that init is the only zeroing of a block freed under
// init_on_free: free_pages_prepare() leaves kernel_init_pages() out where
// KASAN initialises memory itself (rule free_init_after_poison). The call's
// range and value must be the model's (the block at page_address(page),
// PAGE_SIZE << order, KASAN_PAGE_FREE) and the call made whenever the
// function runs, but for the highmem test (arm64 has no highmem): no other
// if around it, no return before it. Nothing else may be called (what else
// the function did would go unread). Anything else is refused with what it
// is.
std::string read_kasan_poison_pages(const PartInput& in, std::string& why) {
    for (const Call* c : in.parsed.calls_in(in.def.begin_line, in.def.end_line))
        if (c->callee != "kasan_poison" && c->callee != "page_address" && c->callee != "PageHighMem" &&
            c->callee != "likely" && c->callee != "unlikely") {
            why = in.def.name + " calls " + c->callee + "() at " + at(in, c->line) +
                  ": the model reads only its kasan_poison() of the block";
            return "";
        }
    const Call* p = nth_call(in, "kasan_poison", 0);
    if (!p || p->args.size() != 4) {
        why = in.def.name + (p ? "'s kasan_poison() at " + at(in, p->line) + " does not take four arguments"
                               : " does not call kasan_poison()");
        return "";
    }
    if (p->args[0] != "page_address ( page )" || p->args[1] != "PAGE_SIZE << order" || p->args[2] != "KASAN_PAGE_FREE") {
        why = "kasan_poison() at " + at(in, p->line) + " poisons (" + p->args[0] + ", " + p->args[1] + ", " +
              p->args[2] + "), not the model's (page_address(page), PAGE_SIZE << order, KASAN_PAGE_FREE)";
        return "";
    }
    auto highmem_test = [](const std::string& cond, bool negated) {
        return bare(cond) == std::string(negated ? "! " : "") + "PageHighMem ( page )";
    };
    const std::size_t k = token_at(in, p->offset);
    std::vector<Guard> g;
    if (!enclosing_ifs(in, k, "kasan_poison()", g, why)) return "";
    if (g.size() > 1 || (g.size() == 1 && !highmem_test(g[0].cond, true))) {
        why = "kasan_poison() at " + at(in, p->line) + " is under if (" + g[0].cond +
              "): the model poisons every block free_pages_prepare() hands it";
        return "";
    }
    std::vector<Guard> returns;
    if (!returns_before(in, k, "kasan_poison()", returns, why)) return "";
    for (const Guard& r : returns)
        if (!highmem_test(r.cond, false)) {
            why = "the return under the if at " + at(in, r.line) + " (" + r.cond +
                  ") comes before kasan_poison(): the model poisons every block free_pages_prepare() hands it";
            return "";
        }
    return "# " + in.def.name + ": kasan_poison(page_address(page), PAGE_SIZE << order, KASAN_PAGE_FREE, init) at " +
           at(in, p->line) + "\nrule kasan_poison_pages_init(init) = " + arg_expr(in, p->args[3], {{"init", "init"}}) +
           "\n";
}

// The whole part of free_pages_prepare the model reads: the order of its
// should_skip_kasan_poison() call (lift_parts.cpp) and its KASAN part.
std::string read_free_pages_prepare(const PartInput& in, std::string& why) {
    const std::string order = read_skip_flag_order(in, why);
    if (order.empty()) return "";
    const std::string kasan = read_free_kasan_part(in, why);
    return kasan.empty() ? "" : order + kasan;
}

}  // namespace tagproof::tree
