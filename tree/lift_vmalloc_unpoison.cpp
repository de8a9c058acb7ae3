// lift_vmalloc_unpoison.cpp — HW_TAGS' __kasan_unpoison_vmalloc
// (mm/kasan/hw_tags.c), read in part into the three rules of
// rules_6_1.hpp's kasan_unpoison_vmalloc(). v6.1 and v6.12 write
//
//     if (!kasan_vmalloc_enabled()) {
//             if (flags & KASAN_VMALLOC_INIT)
//                     init_vmalloc_pages(start, size);       unpoison_vmalloc_off_init(init)
//             return (void *)start;
//     }
//     if (!(flags & KASAN_VMALLOC_VM_ALLOC)) { WARN_ON(...); return (void *)start; }
//     if (!(flags & KASAN_VMALLOC_PROT_NORMAL)) { WARN_ON(...); return (void *)start; }
//                                                      unpoison_vmalloc_tags(vm_alloc, prot_normal)
//     tag = kasan_random_tag();                        (v6.12: or get_tag(start) for KEEP_TAG)
//     start = set_tag(start, tag);
//     kasan_unpoison(start, size, flags & KASAN_VMALLOC_INIT);   unpoison_vmalloc_init(init)
//     ... kasan_poison((void *)redzone_start, redzone_size, KASAN_TAG_INVALID,
//                      flags & KASAN_VMALLOC_INIT);    (the same init: the model zeroes both)
//     unpoison_vmalloc_pages(start, tag);
//
// Each test of `flags & KASAN_VMALLOC_X` is read as the rule's bool for X; a
// return for an address outside vmalloc and module space (v6.1.0) is set
// aside, every area of the model being inside it.
// What the model does with the area (the range, the tag, the redzone to the
// page end, the page tags) is its own: the calls must be made as above,
// none of them under an if, and nothing else called (what else the function
// did would go unread). Anything else is refused with what it is.
#include <map>
#include <set>
#include <sstream>

#include "lift_parts.hpp"
#include "part_scan.hpp"

namespace tagproof::tree {

namespace {

// A condition on the function's flags as a rule expression over the rule's
// parameters `allowed` (of init, vm_alloc, prot_normal); "" with `why` when
// it tests anything else.
std::string flags_expr(const std::string& cond, const std::set<std::string>& allowed,
                       const std::string& where, std::string& why) {
    static const std::map<std::string, std::string> bit = {{"KASAN_VMALLOC_INIT", "init"},
                                                           {"KASAN_VMALLOC_VM_ALLOC", "vm_alloc"},
                                                           {"KASAN_VMALLOC_PROT_NORMAL", "prot_normal"}};
    std::string e = bare(cond);
    for (const auto& [flag, name] : bit) {
        e = replace_all(e, "( flags & " + flag + " )", name);
        e = replace_all(e, "flags & " + flag, name);
    }
    std::istringstream ts(e);
    for (std::string t; ts >> t;) {
        if (!is_ident(t) || t == "true" || t == "false") continue;
        if (t == "flags" || t.rfind("KASAN_VMALLOC_", 0) == 0 || !allowed.count(t)) {
            std::string names;
            for (const auto& [flag, name] : bit)
                if (allowed.count(name)) names += (names.empty() ? "" : ", ") + ("flags & " + flag);
            why = where + " tests (" + cond + "), of which the model reads only " + names;
            return "";
        }
    }
    return e;
}

bool under_no_if(const PartInput& in, const Call* c, std::string& why) {
    std::vector<Guard> g;
    if (!enclosing_ifs(in, token_at(in, c->offset), c->callee + "()", g, why)) return false;
    if (!g.empty()) {
        why = c->callee + "() at " + at(in, c->line) + " is under if (" + g[0].cond +
              "): the model makes it whenever the area is tagged";
        return false;
    }
    return true;
}

const Call* only_call(const PartInput& in, const std::string& callee, std::size_t nargs, std::string& why) {
    const Call* c = nth_call(in, callee, 0);
    if (!c || nth_call(in, callee, 1) || c->args.size() != nargs) {
        why = in.def.name + (c ? " calls " + callee + "() more than once, or not with " + std::to_string(nargs) +
                                         " arguments"
                               : " does not call " + callee + "()");
        return nullptr;
    }
    return c;
}

}  // namespace

std::string read_unpoison_vmalloc(const PartInput& in, std::string& why) {
    static const std::set<std::string> known = {"kasan_vmalloc_enabled", "init_vmalloc_pages", "WARN_ON",
                                                "kasan_random_tag",      "get_tag",            "set_tag",
                                                "kasan_unpoison",        "round_up",           "kasan_poison",
                                                "unpoison_vmalloc_pages", "likely",            "unlikely",
                                                "is_vmalloc_or_module_addr"};
    for (const Call* c : in.parsed.calls_in(in.def.begin_line, in.def.end_line))
        if (!known.count(c->callee)) {
            why = in.def.name + " calls " + c->callee + "() at " + at(in, c->line) +
                  ": the model reads only its tests of the flags and its KASAN calls";
            return "";
        }
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    // the kasan.vmalloc=off block: `if (!kasan_vmalloc_enabled()) { ... return ...; }`
    const Call* en = only_call(in, "kasan_vmalloc_enabled", 0, why);
    if (!en) return "";
    const std::string off_test = "! kasan_vmalloc_enabled ( )";
    std::size_t k_if = token_at(in, en->offset);
    while (k_if > first && T[k_if].text != "if") --k_if;
    const std::size_t off_close = k_if + 1 < last ? close_of(in, k_if + 1, last) : npos;
    if (T[k_if].text != "if" || off_close == npos || bare(text_between(in, k_if + 1, off_close)) != off_test) {
        why = "kasan_vmalloc_enabled() at " + at(in, en->line) + " is not tested as if (!kasan_vmalloc_enabled())";
        return "";
    }
    // init_vmalloc_pages(start, size) in that block, under at most one if of its own
    std::string off_init = "false";
    if (const Call* ip = nth_call(in, "init_vmalloc_pages", 0)) {
        std::vector<Guard> g;
        if (nth_call(in, "init_vmalloc_pages", 1) || ip->args != std::vector<std::string>{"start", "size"}) {
            why = "init_vmalloc_pages() at " + at(in, ip->line) + " is called more than once or not on (start, size)";
            return "";
        }
        if (!enclosing_ifs(in, token_at(in, ip->offset), "init_vmalloc_pages()", g, why)) return "";
        if (g.empty() || bare(g.back().cond) != off_test || g.size() > 2) {
            why = "init_vmalloc_pages() at " + at(in, ip->line) +
                  " is not in the if (!kasan_vmalloc_enabled()) block under at most one if of its own";
            return "";
        }
        off_init = g.size() == 1 ? "true"
                                 : flags_expr(g[0].cond, {"init"}, "the if at " + at(in, g[0].line), why);
        if (off_init.empty()) return "";
    }
    // the tagging: kasan_unpoison(start, size, INIT), made unconditionally past the returns
    const Call* un = only_call(in, "kasan_unpoison", 3, why);
    if (!un) return "";
    if (un->args[0] != "start" || un->args[1] != "size") {
        why = "kasan_unpoison() at " + at(in, un->line) + " unpoisons (" + un->args[0] + ", " + un->args[1] +
              "), not the area (start, size)";
        return "";
    }
    if (!under_no_if(in, un, why)) return "";
    const std::string init = flags_expr(un->args[2], {"init"}, "kasan_unpoison() at " + at(in, un->line), why);
    if (init.empty()) return "";
    std::vector<Guard> returns;
    if (!returns_before(in, token_at(in, un->offset), "kasan_unpoison()", returns, why)) return "";
    bool off_returns = false;
    std::string tags;
    for (const Guard& r : returns) {
        if (bare(r.cond) == off_test) {
            off_returns = true;
            continue;
        }
        // v6.1.0 (before 6c2f761dad78, "kasan: fix zeroing vmalloc memory with
        // HW_TAGS") returned for an address outside vmalloc and module space:
        // the model's areas are all inside it
        if (bare(r.cond) == "! is_vmalloc_or_module_addr ( start )") continue;
        const std::string c =
                flags_expr(r.cond, {"vm_alloc", "prot_normal"}, "the return under the if at " + at(in, r.line), why);
        if (c.empty()) return "";
        tags += (tags.empty() ? "" : " && ") + ("!(" + c + ")");
    }
    if (!off_returns) {
        why = "the if (!kasan_vmalloc_enabled()) block at " + at(in, T[k_if].line) +
              " does not return: the model tags nothing with kasan.vmalloc=off";
        return "";
    }
    // the tag and the pointer: a fresh tag (v6.12: or the area's own for KASAN_VMALLOC_KEEP_TAG,
    // the vrealloc rules' concern), set on start
    std::size_t semi = npos;
    const std::size_t ts = find_statement(in, {"tag", "="});
    const std::string tag_stmt = ts == npos ? "" : to_semicolon(in, ts, semi);
    if (tag_stmt != "tag = kasan_random_tag ( )" &&
        tag_stmt != "tag = ( flags & KASAN_VMALLOC_KEEP_TAG ) ? get_tag ( start ) : kasan_random_tag ( )") {
        why = in.def.name + " draws its tag as " + (tag_stmt.empty() ? std::string("nothing") : "`" + tag_stmt + "`") +
              ", not kasan_random_tag() (or the area's own for KASAN_VMALLOC_KEEP_TAG)";
        return "";
    }
    const std::size_t ss = find_statement(in, {"start", "="});
    if (ss == npos || to_semicolon(in, ss, semi) != "start = set_tag ( start , tag )") {
        why = in.def.name + " does not set the tag on start (start = set_tag(start, tag))";
        return "";
    }
    // the in-page redzone, with the same init, and the page tags
    const Call* rz = only_call(in, "kasan_poison", 4, why);
    if (!rz) return "";
    if (rz->args[2] != "KASAN_TAG_INVALID" || !under_no_if(in, rz, why)) {
        if (why.empty()) why = "kasan_poison() at " + at(in, rz->line) + " poisons with " + rz->args[2];
        return "";
    }
    const std::string rz_init = flags_expr(rz->args[3], {"init"}, "kasan_poison() at " + at(in, rz->line), why);
    if (rz_init.empty()) return "";
    if (rz_init != init) {
        why = "the redzone's kasan_poison() at " + at(in, rz->line) + " is given init " + rz_init +
              ", the area's kasan_unpoison() " + init + ": the model zeroes both or neither";
        return "";
    }
    const Call* pages = only_call(in, "unpoison_vmalloc_pages", 2, why);
    if (!pages) return "";
    if (pages->args != std::vector<std::string>{"start", "tag"} || !under_no_if(in, pages, why)) {
        if (why.empty()) why = "unpoison_vmalloc_pages() at " + at(in, pages->line) + " is not given (start, tag)";
        return "";
    }
    return "# " + in.def.name + ": kasan.vmalloc=off at " + at(in, T[k_if].line) + ", kasan_unpoison() at " +
           at(in, un->line) + "\nrule unpoison_vmalloc_off_init(init) = " + off_init +
           "\nrule unpoison_vmalloc_tags(vm_alloc, prot_normal) = " + (tags.empty() ? "true" : tags) +
           "\nrule unpoison_vmalloc_init(init) = " + init + "\n";
}

}  // namespace tagproof::tree
