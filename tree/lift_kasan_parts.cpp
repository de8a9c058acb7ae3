// lift_kasan_parts.cpp — the KASAN hooks of vrealloc() and of the mempool,
// read from the tree in part (lift_parts.hpp): each reader fills the rules of
// one hook struct of the model (plans.hpp VreallocHooks, MempoolHooks) from
// the calls the function makes, their arguments and the `if`s around them,
// and refuses, saying why, a shape the struct cannot hold. Each comment names
// the kernel change the reader tells apart.
#include <map>
#include <sstream>

#include "lift_parts.hpp"
#include "part_scan.hpp"

namespace tagproof::tree {

namespace {

// Whether `text`, read as tokens, holds the token `tok`.
bool has_token(const std::string& text, const std::string& tok) {
    std::istringstream ts(text);
    for (std::string t; ts >> t;)
        if (t == tok) return true;
    return false;
}

// The first call to any of `callees` in the function, and which it was.
const Call* first_call(const PartInput& in, std::initializer_list<const char*> callees) {
    const Call* best = nullptr;
    for (const char* c : callees)
        if (const Call* x = nth_call(in, c, 0); x && (!best || x->offset < best->offset)) best = x;
    return best;
}

// Whether the start offset a call passes (its first argument, `addr + SIZE`)
// is rounded with `round` (round_up / round_down to KASAN_GRANULE_SIZE):
// written in the argument, or SIZE assigned `SIZE = round(...)` before the call.
bool start_rounded(const PartInput& in, const Call& c, const std::string& round) {
    if (c.args.empty()) return false;
    if (has_token(c.args[0], round)) return true;
    const std::size_t t = token_at(in, c.offset);
    std::istringstream ts(c.args[0]);
    for (std::string name; ts >> name;) {
        if (!is_ident(name)) continue;
        const std::size_t s = find_statement(in, {name, "=", round});
        if (s != npos && t != npos && s < t) return true;
    }
    return false;
}

// vrealloc()'s two KASAN calls on the part that changes, as the rules of
// VreallocHooks: the shrink's poison call and the grow's unpoison call, their
// start offsets rounded or not, and the grow's flags.
std::string vrealloc_hook_rules(const PartInput& in, std::initializer_list<const char*> poison,
                                std::initializer_list<const char*> unpoison, std::string& why) {
    const Call* p = first_call(in, poison);
    const Call* u = first_call(in, unpoison);
    if (!p || !u) {
        why = in.def.name + " makes no " + (p ? "" : "kasan_poison_vmalloc() ") + (p || u ? "" : "and no ") +
              (u ? "" : "kasan_unpoison_vmalloc() ") + "call on the part that shrinks or grows";
        return "";
    }
    if (u->args.size() < 3) {
        why = "the " + u->callee + "() at " + at(in, u->line) + " passes no flags";
        return "";
    }
    const std::string& flags = u->args[2];
    if (!has_token(flags, "KASAN_VMALLOC_PROT_NORMAL")) {
        why = "the grow's " + u->callee + "() at " + at(in, u->line) + " does not pass KASAN_VMALLOC_PROT_NORMAL (" + flags +
              "): the model's grow is a PAGE_KERNEL area's";
        return "";
    }
    const bool shrink_up = start_rounded(in, *p, "round_up"), grow_down = start_rounded(in, *u, "round_down");
    if (shrink_up != grow_down) {
        why = std::string("the shrink's start is ") + (shrink_up ? "" : "not ") + "rounded up and the grow's " +
              (grow_down ? "" : "not ") + "rounded down: the model has one choice for both (vrealloc_granule_aligned)";
        return "";
    }
    const bool vm_alloc = has_token(flags, "KASAN_VMALLOC_VM_ALLOC"), keep = has_token(flags, "KASAN_VMALLOC_KEEP_TAG");
    return "# " + in.def.name + ": the shrink's " + p->callee + "() at " + at(in, p->line) + ", from " +
           (shrink_up ? "round_up(new)" : "p + new as it is") + "; the grow's " + u->callee + "() at " + at(in, u->line) +
           ", from " + (grow_down ? "round_down(old)" : "p + old as it is") + ", flags " + flags +
           "\nrule vrealloc_granule_aligned = " + (shrink_up ? "true" : "false") +
           "\nrule vrealloc_grow_vm_alloc = " + (vm_alloc ? "true" : "false") +
           "\nrule vrealloc_grow_keep_tag = " + (keep ? "true" : "false") + "\n";
}

// The `if` whose condition holds the token sequence `seq`, and the first
// token of the statement it guards; npos if the function has none.
std::size_t guarded_by(const PartInput& in, const std::vector<std::string>& seq, std::string& cond) {
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    for (std::size_t j = first; j + seq.size() <= last; ++j) {
        bool match = true;
        for (std::size_t i = 0; i < seq.size() && match; ++i) match = T[j + i].text == seq[i];
        if (!match) continue;
        // out to the `if (` that holds it
        int depth = 0;
        for (std::size_t k = j; k-- > first;) {
            if (T[k].text == ")") ++depth;
            else if (T[k].text == "(" && depth-- == 0 && k > 0 && T[k - 1].text == "if") {
                const std::size_t m = close_of(in, k, last);
                if (m == npos) return npos;
                cond = text_between(in, k, m);
                return m + 1;
            }
        }
    }
    return npos;
}

// vrealloc's shrink test as written, `size <= old_size` (or `old_size >= size`), in tokens.
const std::vector<std::vector<std::string>>& shrink_tests() {
    static const std::vector<std::vector<std::string>> t = {{"size", "<=", "old_size"}, {"old_size", ">=", "size"}};
    return t;
}
bool is_shrink_test(const std::string& cond) {
    for (const auto& seq : shrink_tests()) {
        std::string s;
        for (const auto& tok : seq) s += (s.empty() ? "" : " ") + tok;
        if (cond == s) return true;
    }
    return false;
}

// vrealloc()'s shrink in place zeroing the bytes given up, "potentially for
// future realloc" (v6.12 on; 6.12.118: `if (want_init_on_free() ||
// want_init_on_alloc(flags)) memset((void *)p + size, 0, old_size - size);`
// inside `if (size <= old_size)`): the `if`s the memset is made under within
// the shrink branch become the rule's condition, the caller's flags its gfp.
// A memset under no `if` of its own is `true`; none in the branch `false`.
std::string vrealloc_shrink_zeroing(const PartInput& in, std::string& why) {
    for (int n = 0;; ++n) {
        const Call* m = nth_call(in, "memset", n);
        if (!m) break;
        const std::size_t t = token_at(in, m->offset);
        std::vector<Guard> guards;
        std::string w;
        if (t == npos || m->args.empty() || !has_token(m->args[0], "size") ||
            !enclosing_ifs(in, t, "the memset at " + at(in, m->line), guards, w))
            continue;
        std::size_t branch = 0;
        while (branch < guards.size() && !is_shrink_test(guards[branch].cond)) ++branch;
        if (branch == guards.size()) continue;  // not the shrink's
        std::string cond, said;
        for (std::size_t g = 0; g < branch; ++g) {
            cond += std::string(cond.empty() ? "" : " && ") + "(" + arg_expr(in, guards[g].cond, {{"flags", "gfp"}}) + ")";
            said += std::string(said.empty() ? "" : ", ") + "if (" + guards[g].cond + ") at " + at(in, guards[g].line);
        }
        return "# " + in.def.name + ": the shrink (if (" + guards[branch].cond + ") at " + at(in, guards[branch].line) +
               ") zeroes the bytes given up, memset() at " + at(in, m->line) + (said.empty() ? ", always" : ", under " + said) +
               "; flags = the caller's gfp\nrule vrealloc_shrink_zeroes(gfp) = " + (cond.empty() ? "true" : cond) + "\n";
    }
    std::string cond;
    bool branch = false;
    for (const auto& seq : shrink_tests()) branch = branch || guarded_by(in, seq, cond) != npos;
    if (!branch) {
        why = in.def.name + " has no shrink branch, if (size <= old_size), to read its zeroing from";
        return "";
    }
    return "# " + in.def.name + ": the shrink (if (" + cond + ")) zeroes nothing it gives up (no memset(p + size, ...) in it)"
           "\nrule vrealloc_shrink_zeroes(gfp) = false\n";
}

}  // namespace

// mm/vmalloc.c vrealloc (vrealloc_noprof from 6.10, vrealloc_node_align_noprof
// from v6.17): that the tree has it (feature vrealloc), and that it is the
// vrealloc the model has: one that keeps the size last asked
// (vm->requested_size, a0309faf1cb0, v6.15; 6.12.y has it) and grows in place
// up to the pages it has. Its KASAN calls on the part that changes are
// kasan_vrealloc()'s (v6.19, 9b47d4eea3f7; 6.12.y), read from
// mm/kasan/common.c __kasan_vrealloc, or, as v6.15 .. v6.18 wrote them, its
// own kasan_poison_vmalloc(p + size, ...) and kasan_unpoison_vmalloc(p +
// old_size, ..., KASAN_VMALLOC_PROT_NORMAL), read here. v6.12.0's, which
// shrinks from the whole area, is refused.
std::string read_vrealloc_kasan(const PartInput& in, std::string& why) {
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    bool requested = false;
    for (std::size_t j = first; j < last && !requested; ++j) requested = T[j].text == "requested_size";
    if (!requested) {
        why = in.def.name + " does not keep the size last asked (vm->requested_size, v6.15): it shrinks from the whole "
              "area, which the model's vrealloc does not";
        return "";
    }
    const std::string zeroing = vrealloc_shrink_zeroing(in, why);
    if (zeroing.empty()) return "";
    const std::string has = "# " + in.def.name + ": the tree has vrealloc(), keeping vm->requested_size\nfeature vrealloc yes\n" +
                            zeroing;
    if (const Call* k = nth_call(in, "kasan_vrealloc", 0))
        return has + "# its KASAN calls in place are kasan_vrealloc()'s (at " + at(in, k->line) +
               "): mm/kasan/common.c __kasan_vrealloc\n";
    const std::string rules = vrealloc_hook_rules(in, {"kasan_poison_vmalloc"}, {"kasan_unpoison_vmalloc"}, why);
    return rules.empty() ? "" : has + rules;
}

// mm/kasan/common.c __kasan_vrealloc (v6.19, 9b47d4eea3f7 "mm/kasan: fix KASAN
// poisoning in vrealloc()"; 6.12.y): the shrink's __kasan_poison_vmalloc()
// from round_up(new_size) and the grow's __kasan_unpoison_vmalloc() from
// round_down(old_size) with PROT_NORMAL | VM_ALLOC | KEEP_TAG (007f5da43b3d).
std::string read_kasan_vrealloc(const PartInput& in, std::string& why) {
    return vrealloc_hook_rules(in, {"__kasan_poison_vmalloc", "kasan_poison_vmalloc"},
                               {"__kasan_unpoison_vmalloc", "kasan_unpoison_vmalloc"}, why);
}

// mm/kasan/common.c __kasan_mempool_poison_pages (v6.8, "kasan: add mempool
// API"): whether a page element's free is checked (check_page_allocation()
// reports an invalid or double free) and whether a page whose tag is
// KASAN_TAG_KERNEL, sampled out and never tagged, is left alone. The model's
// skip holds for the tag modes only, as the kernel's `!IS_ENABLED(
// CONFIG_KASAN_GENERIC) &&` says (Generic's page tag is always 0xff): a
// skip without it is refused. Before v6.8 mempool.c called
// kasan_poison_pages(), neither (the function is not in the tree then).
std::string read_mempool_poison_pages(const PartInput& in, std::string& why) {
    const Call* check = nth_call(in, "check_page_allocation", 0);
    std::string cond;
    const std::size_t then = guarded_by(in, {"page_kasan_tag", "(", "page", ")", "==", "KASAN_TAG_KERNEL"}, cond);
    const auto& T = in.parsed.tokens;
    const bool skip = then != npos;
    if (skip && (then >= T.size() || T[then].text != "return")) {
        why = "the test page_kasan_tag(page) == KASAN_TAG_KERNEL in " + in.def.name + " is not followed by a return";
        return "";
    }
    if (skip && cond.find("! IS_ENABLED ( CONFIG_KASAN_GENERIC )") == std::string::npos) {
        why = "the test of KASAN_TAG_KERNEL in " + in.def.name + " (" + cond +
              ") holds for Generic too, whose page tags are all 0xff: the model skips in the tag modes only";
        return "";
    }
    return "# " + in.def.name + ": " +
           (check ? "check_page_allocation() at " + at(in, check->line) : std::string("no check_page_allocation()")) +
           (skip ? "; a page tagged KASAN_TAG_KERNEL returns before it is poisoned, if (" + cond + ") at " +
                       at(in, T[then].line)
                 : std::string("; no test of KASAN_TAG_KERNEL")) +
           "\nrule mempool_check_page_frees = " + (check ? "true" : "false") +
           "\nrule mempool_skip_untagged_pages = " + (skip ? "true" : "false") + "\n";
}

// mm/mempool.c add_element: whether the element goes into the reserve only
// when kasan_poison_element() found nothing wrong (`if
// (kasan_poison_element(pool, element))`, v6.8) or whatever it found (its
// value unused, before).
std::string read_mempool_add_element(const PartInput& in, std::string& why) {
    const Call* k = nth_call(in, "kasan_poison_element", 0);
    const std::size_t store = find_statement(in, {"pool", "->", "elements", "["});
    if (!k || store == npos) {
        why = in.def.name + (k ? " does not store the element as pool->elements[...] = element"
                               : " makes no kasan_poison_element() call");
        return "";
    }
    std::vector<Guard> guards;
    if (!enclosing_ifs(in, store, "the store of the element", guards, why)) return "";
    bool gated = false;
    for (const Guard& g : guards) gated = gated || has_token(g.cond, "kasan_poison_element");
    const std::size_t kt = token_at(in, k->offset);
    if (!gated && (kt == npos || statement_start(in, kt) != kt)) {
        why = "the kasan_poison_element() at " + at(in, k->line) + " is neither a statement of its own nor the store's condition";
        return "";
    }
    return "# " + in.def.name + ": kasan_poison_element() at " + at(in, k->line) +
           (gated ? ", the store made only if it returns true" : ", its value unused: the element is stored whatever it found") +
           "\nrule mempool_keep_bad_element = " + (gated ? "false" : "true") + "\n";
}

// mm/mempool.c kasan_unpoison_element: a slab or kmalloc element unpoisoned as
// kasan_unpoison_range(element, __ksize(element)), the whole slot and no
// redzone (before v6.8), or kasan_mempool_unpoison_object(element, size),
// the element's size and kmalloc's redzone (v6.8 on).
std::string read_mempool_unpoison_element(const PartInput& in, std::string& why) {
    const Call* obj = nth_call(in, "kasan_mempool_unpoison_object", 0);
    const Call* range = nth_call(in, "kasan_unpoison_range", 0);
    if (obj && range) {
        why = in.def.name + " calls both kasan_mempool_unpoison_object() and kasan_unpoison_range(): the model has one for "
              "every slab element";
        return "";
    }
    if (range && (range->args.size() < 2 || !has_token(range->args[1], "__ksize"))) {
        why = "the kasan_unpoison_range() at " + at(in, range->line) + " is not over __ksize(element)";
        return "";
    }
    if (!obj && !range) {
        why = in.def.name + " unpoisons no slab element (no kasan_mempool_unpoison_object() or kasan_unpoison_range())";
        return "";
    }
    const Call* c = obj ? obj : range;
    return "# " + in.def.name + ": a slab element unpoisoned by " + c->callee + "() at " + at(in, c->line) +
           "\nrule mempool_unpoison_whole_slot = " + (range ? "true" : "false") + "\n";
}

// kasan_sample_page_alloc's counter (v6.4, seed 002 as merged):
//     if (this_cpu_dec_return(kasan_page_alloc_skip) < 0) {
//             this_cpu_write(kasan_page_alloc_skip, kasan_page_alloc_sample - 1);
//             return true;
//     }
//     return false;
// The `if`'s condition, with what this_cpu_dec_return() returned named
// `left` (a long, compared signed: rule sample_wrapped(left)), and the value
// this_cpu_write() stores (rule sample_reset). Any other shape (the counter
// used outside an `if`, more than the reset and `return true` under it,
// anything but `return false` after it) is refused with what it is: the
// model's sampling is this shape with those two read.
static std::string read_sample_counter(const PartInput& in, std::size_t ct, const Call* counter,
                                       const std::map<std::string, std::string>& bind, std::string& why) {
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    // the `if (` whose parentheses hold the call
    std::size_t k_if = npos, close = npos;
    for (std::size_t k = ct; k-- > first;) {
        if (T[k].text != "if" || k + 1 >= ct || T[k + 1].text != "(") continue;
        const std::size_t c = close_of(in, k + 1, last);
        if (c != npos && c > ct) k_if = k, close = c;
        break;
    }
    if (k_if == npos) {
        why = "this_cpu_dec_return() at " + at(in, counter->line) + " is not the condition of an if";
        return "";
    }
    // the call's own tokens, replaced by `left`
    const std::size_t call_close = ct + 1 < close && T[ct + 1].text == "(" ? close_of(in, ct + 1, close) : npos;
    if (call_close == npos) {
        why = "this_cpu_dec_return() at " + at(in, counter->line) + " is not written as a call";
        return "";
    }
    const std::string cond = text_between(in, k_if + 1, ct) + (k_if + 2 < ct ? " " : "") + "left" +
                             (call_close + 1 < close ? " " : "") + text_between(in, call_close, close);
    for (std::size_t k = k_if + 2; k < close; ++k)
        if (T[k].text == "-" && (k == k_if + 2 || !(is_ident(T[k - 1].text) || T[k - 1].text == ")" ||
                                                     std::isdigit((unsigned char)T[k - 1].text[0])))) {
            why = "the counter's test (" + text_between(in, k_if + 1, close) + ") at " + at(in, T[k_if].line) +
                  " has a negative number, which the rules cannot hold";
            return "";
        }
    // { this_cpu_write(kasan_page_alloc_skip, RESET); return true; } return false;
    std::size_t r = close + 1;
    const Call* reset = nth_call(in, "this_cpu_write", 0);
    const std::size_t rt = reset ? token_at(in, reset->offset) : npos;
    const bool braced = r < last && T[r].text == "{";
    if (!braced || rt != r + 1 || reset->args.size() != 2) {
        why = "the counter's if at " + at(in, T[k_if].line) +
              " does not begin with this_cpu_write(counter, value) in braces";
        return "";
    }
    if (counter->args.size() != 1 || reset->args[0] != counter->args[0]) {
        why = "this_cpu_write() at " + at(in, reset->line) + " resets " + reset->args[0] + ", not the counter " +
              (counter->args.empty() ? std::string("") : counter->args[0]) + " this_cpu_dec_return() counts with";
        return "";
    }
    const std::size_t rc = close_of(in, rt + 1, last);
    std::size_t q = rc == npos ? npos : rc + 1;
    auto expect = [&](std::initializer_list<const char*> toks) {
        for (const char* t : toks) {
            if (q == npos || q >= last || T[q].text != t) return false;
            ++q;
        }
        return true;
    };
    if (!expect({";", "return", "true", ";", "}", "return", "false", ";", "}"}) || q != last) {
        why = "after the counter's reset at " + at(in, reset->line) +
              " the function does more than return true, then false: the model's sampling is that shape";
        return "";
    }
    return "# the counter's test at " + at(in, T[k_if].line) + ", on what this_cpu_dec_return() returned\n" +
           "rule sample_wrapped(left) = " + arg_expr(in, cond, bind) + "\n" + "# the counter's reset at " +
           at(in, reset->line) + "\nrule sample_reset = " + arg_expr(in, reset->args[1], bind) + "\n";
}

// mm/kasan/kasan.h kasan_sample_page_alloc (v6.4, seed 002 as merged): which
// allocations the per-CPU counter counts. Each `if (COND) return true;`
// before the this_cpu_dec_return() counter tags the allocation without
// counting it; the rule is that none of them holds. The fast path
// `kasan_page_alloc_sample == 1` is the plan's own (rules_6_3.hpp: no
// sampling) and is left out. The function's parameters are bound to the
// rule's: its gfp_t one to gfp (sample v2's `gfp & __GFP_KASAN_SAMPLE`),
// the other to order. An early `return false` (untagged whatever the
// counter) is outside the plan and refused.
std::string read_sample_eligible(const PartInput& in, std::string& why) {
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    const Call* counter = nth_call(in, "this_cpu_dec_return", 0);
    const std::size_t ct = counter ? token_at(in, counter->offset) : npos;
    if (ct == npos) {
        why = in.def.name + " has no per-CPU counter (this_cpu_dec_return()) to sample with";
        return "";
    }
    // the parameters: NAME ( TYPE... P , ... )
    std::map<std::string, std::string> bind;
    std::size_t j = first;
    while (j < ct && !(T[j].text == in.def.name && j + 1 < ct && T[j + 1].text == "(")) ++j;
    if (j >= ct) {
        why = "the parameters of " + in.def.name + " are not written NAME(...)";
        return "";
    }
    std::string type, prev;
    for (std::size_t k = j + 2; k < ct; ++k) {
        const std::string& t = T[k].text;
        if (t == "," || t == ")") {
            if (is_ident(prev) && prev != "void") bind[prev] = type.find("gfp_t") != std::string::npos ? "gfp" : "order";
            type.clear();
            prev.clear();
            if (t == ")") break;
            continue;
        }
        type += " " + prev;
        prev = t;
    }
    std::vector<std::string> conds;
    for (std::size_t k = first; k < ct; ++k) {
        if (T[k].text != "if" || k + 1 >= ct || T[k + 1].text != "(") continue;
        const std::size_t close = close_of(in, k + 1, ct);
        if (close == npos) break;  // the counter's own if
        std::size_t r = close + 1;
        const bool braced = r < last && T[r].text == "{";
        if (braced) ++r;
        const std::string cond = text_between(in, k + 1, close);
        if (r + 2 >= last || T[r].text != "return" || T[r + 2].text != ";" || (braced && T[r + 3].text != "}")) {
            why = "the if (" + cond + ") at " + at(in, T[k].line) + " before the counter does more than return";
            return "";
        }
        if (T[r + 1].text != "true") {
            why = "the if (" + cond + ") at " + at(in, T[k].line) + " returns " + T[r + 1].text +
                  " before the counter: the model's sampling tags every allocation it does not count";
            return "";
        }
        if (cond == "kasan_page_alloc_sample == 1") continue;
        conds.push_back("!(" + arg_expr(in, cond, bind) + ")");
        k = r + 2;
    }
    std::string rule;
    for (const auto& c : conds) rule += (rule.empty() ? "" : " && ") + c;
    const std::string counter_rules = read_sample_counter(in, ct, counter, bind, why);
    if (counter_rules.empty()) return "";
    return "# " + in.def.name + ": the allocations it counts, before this_cpu_dec_return() at " + at(in, counter->line) +
           " (the kasan_page_alloc_sample == 1 fast path is the plan's)\nrule sample_eligible(order, gfp) = " +
           (rule.empty() ? "true" : rule) + "\n" + counter_rules;
}

}  // namespace tagproof::tree

namespace tagproof::tree {

// mm/kasan/common.c poison_kmalloc_redzone (v6.2 on; __kasan_kmalloc itself
// before): where a kmalloc object's redzone starts, `redzone_start =
// round_up((unsigned long)(object + size), KASAN_GRANULE_SIZE)`, read as the
// offset from the object: rule kmalloc_redzone_start(size). The rounding
// (round_up, round_down, or ALIGN / ALIGN_DOWN, their kernel.h spellings) is
// read as written; anything but the object plus `size`, rounded to
// KASAN_GRANULE_SIZE, is refused with what it is.
namespace {

// `redzone_start = round_up((unsigned long)(OBJECT + size), KASAN_GRANULE_SIZE)`
// of the function, as rule RULE(size).
std::string read_redzone_start(const PartInput& in, const std::string& rule, std::string& why) {
    const std::size_t st = find_statement(in, {"redzone_start", "="});
    if (st == npos) {
        why = in.def.name + " assigns no redzone_start";
        return "";
    }
    const int line = in.parsed.tokens[st].line;
    std::size_t semi = npos;
    const std::string stmt = to_semicolon(in, st, semi);
    // the rounding macro and its two arguments, from the statement's tokens
    // (a macro: the AST has only what it expands to)
    const auto& T = in.parsed.tokens;
    std::string callee;
    std::vector<std::string> args;
    for (std::size_t k = st; semi != npos && k + 1 < semi && callee.empty(); ++k) {
        const std::string& x = T[k].text;
        if ((x != "round_up" && x != "round_down" && x != "ALIGN" && x != "ALIGN_DOWN") || T[k + 1].text != "(") continue;
        const std::size_t close = close_of(in, k + 1, semi);
        if (close == npos) break;
        callee = x;
        std::string cur;
        int depth = 0;
        for (std::size_t j = k + 2; j < close; ++j) {
            const std::string& y = T[j].text;
            if (y == "," && depth == 0) {
                args.push_back(cur);
                cur.clear();
                continue;
            }
            depth += y == "(" ? 1 : y == ")" ? -1 : 0;
            cur += (cur.empty() ? "" : " ") + y;
        }
        args.push_back(cur);
    }
    if (callee.empty() || args.size() != 2) {
        why = "redzone_start at " + at(in, line) + " is not rounded by round_up() or round_down(): " + stmt;
        return "";
    }
    if (args[1] != "KASAN_GRANULE_SIZE") {
        why = "redzone_start at " + at(in, line) + " is rounded to " + args[1] + ", not KASAN_GRANULE_SIZE";
        return "";
    }
    // the first argument: the object's address plus size, a cast to unsigned long and brackets aside
    std::istringstream ts(args[0]);
    std::vector<std::string> t;
    for (std::string x; ts >> x;) t.push_back(x);
    const std::vector<std::string> cast = {"(", "unsigned", "long", ")"};
    if (t.size() >= cast.size() && std::equal(cast.begin(), cast.end(), t.begin())) t.erase(t.begin(), t.begin() + 4);
    while (t.size() >= 2 && t.front() == "(" && t.back() == ")") t = std::vector<std::string>(t.begin() + 1, t.end() - 1);
    const bool plus_size = t.size() == 3 && t[1] == "+" && ((is_ident(t[0]) && t[2] == "size") || (t[0] == "size" && is_ident(t[2])));
    if (!plus_size) {
        why = "redzone_start at " + at(in, line) + " rounds " + args[0] + ", not the object's address plus size";
        return "";
    }
    const bool up = callee == "round_up" || callee == "ALIGN";
    return "# " + in.def.name + ": " + stmt + " at " + at(in, line) + "\nrule " + rule + "(size) = " +
           (up ? "round_up" : "round_down") + "(size, KASAN_GRANULE_SIZE)\n";
}

}  // namespace

std::string read_kmalloc_redzone(const PartInput& in, std::string& why) {
    return read_redzone_start(in, "kmalloc_redzone_start", why);
}

// mm/kasan/common.c poison_kmalloc_large_redzone (v6.10 on; __kasan_kmalloc_large
// before): the same statement for a kmalloc above KMALLOC_MAX_CACHE_SIZE, its
// `ptr + size`: rule kmalloc_large_redzone_start(size). The redzone's end (the
// block's, page_size(virt_to_page(ptr))) is the model's.
std::string read_kmalloc_large_redzone(const PartInput& in, std::string& why) {
    return read_redzone_start(in, "kmalloc_large_redzone_start", why);
}

}  // namespace tagproof::tree
