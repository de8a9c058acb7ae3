// lift_parts.cpp — see lift_parts.hpp. Each reader says in its comment which
// kernel change it tells apart, so a reader of the lifted file can check it.
#include "lift_parts.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "modelled.hpp"
#include "part_scan.hpp"

namespace tagproof::tree {

namespace {
struct ArgRule {
    const char* rule;    // the file rule it fills
    const char* params;  // "" or "(gfp)"
    const char* callee;
    int nth;             // which call to it in the function (0: the first)
    int arg;             // which argument
    std::map<std::string, std::string> bind;
    const char* bound;   // why the binding, for the comment ("" if none)
};

std::string arg_rule(const PartInput& in, const ArgRule& r, std::string& why) {
    const Call* c = nth_call(in, r.callee, r.nth);
    if (!c) {
        why = in.def.name + " makes no " + (r.nth ? "second " : "") + "call to " + r.callee + "()";
        return "";
    }
    if (c->args.size() <= std::size_t(r.arg)) {
        why = "the " + std::string(r.callee) + "() call at " + at(in, c->line) + " has no argument " + std::to_string(r.arg + 1);
        return "";
    }
    return "# " + in.def.name + ": the gfp of " + r.callee + "() at " + at(in, c->line) + (*r.bound ? ", " : "") + r.bound +
           "\nrule " + r.rule + r.params + " = " + arg_expr(in, c->args[r.arg], r.bind) + "\n";
}

std::string both(const std::string& a, const std::string& b) { return a.empty() || b.empty() ? "" : a + b; }

}  // namespace

// free_pages_prepare, in part: the line of its first should_skip_kasan_poison()
// call against the line that clears the head page's flags, which takes
// PG_skip_kasan_poison with them (487a32ec24be put the call after it in
// v6.1; the revert, in v6.3 and 6.1.y, before). Tail pages' flags ((page +
// i)->flags) do not count.
std::string read_skip_flag_order(const PartInput& in, std::string& why) {
    int call = 0, clear = 0;
    for (int l = in.def.begin_line + 1; l <= in.def.end_line && l <= int(in.lines.size()); ++l) {
        const std::string& s = in.lines[l - 1];
        if (!call && s.find("should_skip_kasan_poison(") != std::string::npos) call = l;
        const std::size_t a = s.find("page->flags");
        if (!clear && a != std::string::npos &&
            (a == 0 || !(std::isalnum((unsigned char)s[a - 1]) || s[a - 1] == '_' || s[a - 1] == ')')) &&
            s.find("&=", a) != std::string::npos && s.find("PAGE_FLAGS_CHECK_AT_PREP", a) != std::string::npos)
            clear = l;
    }
    if (!call) {
        why = "free_pages_prepare does not call should_skip_kasan_poison()";
        return "";
    }
    if (!clear) {
        why = "free_pages_prepare does not clear the head page's flags as page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP";
        return "";
    }
    return "# free_pages_prepare: should_skip_kasan_poison() at line " + std::to_string(call) +
           ", the head page's flags cleared at line " + std::to_string(clear) + "\nrule free_reads_skip_flag = " +
           (call < clear ? "true" : "false") + "\n";
}

// __do_krealloc, in part: between the in-place test (ks >= new_size) and its
// kasan_krealloc() call, a memset of the bytes from new_size under
// want_init_on_alloc(flags) ("Zero out spare memory", v6.11 and 6.1.y) or
// none (v6.1.0 .. v6.10).
std::string read_krealloc_spare_zeroing(const PartInput& in, std::string& why) {
    int branch = 0, kasan = 0, memset = 0, init = 0;
    for (int l = in.def.begin_line + 1; l <= in.def.end_line && l <= int(in.lines.size()); ++l) {
        const std::string& s = in.lines[l - 1];
        if (!branch && (s.find("ks >= new_size") != std::string::npos || s.find("new_size <= ks") != std::string::npos))
            branch = l;
        if (!branch || kasan) continue;
        if (s.find("kasan_krealloc(") != std::string::npos) kasan = l;
        else if (!init && s.find("want_init_on_alloc(") != std::string::npos) init = l;
        else if (init && !memset && s.find("memset(") != std::string::npos && s.find("new_size") != std::string::npos)
            memset = l;
    }
    if (!branch || !kasan) {
        why = "__do_krealloc has no in-place branch (ks >= new_size) that calls kasan_krealloc()";
        return "";
    }
    if (memset)
        return "# __do_krealloc: in place (line " + std::to_string(branch) + "), want_init_on_alloc() at line " +
               std::to_string(init) + ", the spare part zeroed at line " + std::to_string(memset) +
               "\nrule krealloc_zeroes_spare(gfp) = want_init_on_alloc(gfp)\n";
    return "# __do_krealloc: in place (line " + std::to_string(branch) + "), nothing zeroed before kasan_krealloc() at line " +
           std::to_string(kasan) + "\nrule krealloc_zeroes_spare(gfp) = false\n";
}

// net/core/sock.c skb_page_frag_refill(sz, pfrag, gfp): the order-3 attempt
// (its first alloc_pages()) and the order-0 fallback (its alloc_page()). The
// model's socket allocates with sk_allocation = GFP_KERNEL (sk_alloc's
// default), which sk_page_frag_refill() passes as gfp. Seed 003 adds
// __GFP_KASAN_SAMPLE to the first.
std::string read_skb_frag_refill_gfp(const PartInput& in, std::string& why) {
    const std::map<std::string, std::string> bind = {{"gfp", "GFP_KERNEL"}};
    const char* bound = "gfp = GFP_KERNEL (the socket's sk_allocation)";
    return both(arg_rule(in, {"skb_frag_gfp", "", "alloc_pages", 0, 0, bind, bound}, why),
                arg_rule(in, {"skb_frag_fallback_gfp", "", "alloc_page", 0, 0, bind, bound}, why));
}

// alloc_skb_with_frags' -EMSGSIZE test: the `if (COND)` after `*errcode =
// -EMSGSIZE;`, before anything is allocated. v6.1 .. v6.5 test npages, a local
// of the data's pages (its initializer is read in its place); v6.6+ test
// data_len against frags of the order asked for. The page size is arm64 4K's
// and MAX_SKB_FRAGS CONFIG_MAX_SKB_FRAGS' default, 17, as the model's.
std::string emsgsize_rule(const PartInput& in, std::string& why) {
    int at_line = 0;
    for (int l = in.def.begin_line + 1; l <= in.def.end_line && l <= int(in.lines.size()); ++l)
        if (in.lines[l - 1].find("-EMSGSIZE") != std::string::npos) {
            at_line = l;
            break;
        }
    if (!at_line) {
        why = "alloc_skb_with_frags sets no -EMSGSIZE";
        return "";
    }
    int cond_line = 0;
    std::string cond;
    for (int l = at_line + 1; l <= in.def.end_line && l <= at_line + 6; ++l) {
        std::string x = in.lines[l - 1];
        const std::size_t b = x.find("if (");
        if (b == std::string::npos) continue;
        const std::size_t e = x.rfind(')');
        if (e == std::string::npos || e < b + 4) break;
        cond = x.substr(b + 4, e - b - 4);
        cond_line = l;
        break;
    }
    if (!cond_line) {
        why = "no one-line `if (...)` follows the -EMSGSIZE at " + at(in, at_line);
        return "";
    }
    // the C spelling the reader does not take: unlikely(X) is X
    for (std::size_t u; (u = cond.find("unlikely(")) != std::string::npos;) {
        int depth = 0;
        std::size_t k = u + 8;
        for (; k < cond.size(); ++k) {
            if (cond[k] == '(') ++depth;
            else if (cond[k] == ')' && --depth == 0) break;
        }
        if (k >= cond.size()) break;
        cond = cond.substr(0, u) + "(" + cond.substr(u + 9, k - u - 9) + ")" + cond.substr(k + 1);
    }
    // arg_expr reads tokens separated by blanks; C's two-character operators,
    // split here, are joined again after
    auto spaced = [](const std::string& c) {
        std::string o;
        for (char ch : c) {
            if (std::string("()<>!*+-").find(ch) != std::string::npos) o += std::string(" ") + ch + " ";
            else o += ch;
        }
        return o;
    };
    auto joined = [](std::string e) {
        for (const char* op : {"< <", "> >", "> =", "< ="}) {
            const std::string o = op, j = std::string(1, o[0]) + o[2];
            for (std::size_t k; (k = e.find(o)) != std::string::npos;) e.replace(k, o.size(), j);
        }
        return e;
    };
    std::map<std::string, std::string> bind = {{"PAGE_SIZE", "4096"}, {"PAGE_SHIFT", "12"}, {"MAX_SKB_FRAGS", "17"},
                                               {"max_page_order", "order"}};
    // a local the test reads: its initializer, written `int npages = ...;` above it
    for (int l = in.def.begin_line + 1; l < cond_line; ++l) {
        const std::string& x = in.lines[l - 1];
        const std::size_t eq = x.find(" = "), semi = x.rfind(';');
        if (eq == std::string::npos || semi == std::string::npos || semi < eq || x.find("*errcode") != std::string::npos) continue;
        std::istringstream ws(x.substr(0, eq));
        std::vector<std::string> w;
        for (std::string t; ws >> t;) w.push_back(t);
        if (w.size() == 2 && is_ident(w[0]) && is_ident(w[1]) && cond.find(w[1]) != std::string::npos)
            bind[w[1]] = "(" + joined(arg_expr(in, spaced(x.substr(eq + 3, semi - eq - 3)), bind)) + ")";
    }
    const std::string expr = joined(arg_expr(in, spaced(cond), bind));
    return "# alloc_skb_with_frags: -EMSGSIZE at " + at(in, at_line) + ", unless the test at " + at(in, cond_line) +
           " (PAGE_SIZE 4096, MAX_SKB_FRAGS 17)\nrule skb_with_frags_fits(data_len, order) = !(" + expr + ")\n";
}

// net/core/skbuff.c alloc_skb_with_frags(header_len, data_len, order, errcode,
// gfp_mask): a high-order frag's alloc_pages() (the first call; the order-0
// frag is alloc_page(gfp_mask) as the caller asked in every era read), and
// the -EMSGSIZE test before it.
std::string read_skb_with_frags_gfp(const PartInput& in, std::string& why) {
    return both(arg_rule(in, {"alloc_skb_frags_gfp", "(gfp)", "alloc_pages", 0, 0, {{"gfp_mask", "gfp"}},
                              "gfp_mask = the caller's gfp"},
                         why),
                emsgsize_rule(in, why));
}

// kernel/fork.c alloc_thread_stack_node (CONFIG_VMAP_STACK): the gfp of its
// __vmalloc_node_range() (THREADINFO_GFP & ~__GFP_ACCOUNT to v6.14,
// GFP_VMAP_STACK after; seed 000 adds __GFP_SKIP_KASAN), and whether a
// cached stack is unpoisoned: kasan_unpoison_range() always (every era
// read), under `if (COND)` written on the line before it (seed 000: only
// without HW tags), or not at all.
std::string read_thread_stack(const PartInput& in, std::string& why) {
    const std::string gfp = arg_rule(in, {"GFP_VMAP_STACK", "", "__vmalloc_node_range", 0, 4, {}, ""}, why);
    if (gfp.empty()) return "";
    const Call* c = nth_call(in, "kasan_unpoison_range", 0);
    if (!c) return gfp + "# " + in.def.name + ": no kasan_unpoison_range() of a cached stack\nrule cached_stack_unpoison = false\n";
    // The conditions it is made under, out to the loop over the cached stacks.
    const std::size_t t0 = token_at(in, c->offset);
    std::vector<Guard> guards;
    if (t0 == npos || !enclosing_ifs(in, t0, "the kasan_unpoison_range() at " + at(in, c->line), guards, why)) {
        if (t0 == npos) why = "the kasan_unpoison_range() at " + at(in, c->line) + " is not among the file's tokens";
        return "";
    }
    std::vector<std::string> conds;
    for (const auto& g : guards) conds.push_back("(" + g.cond + ")");
    std::string cond;
    for (const auto& x : conds) cond += (cond.empty() ? "" : " && ") + x;
    return gfp + "# " + in.def.name + ": a cached stack's kasan_unpoison_range() at " + at(in, c->line) +
           (cond.empty() ? ", always" : ", if (" + cond + ")") + "\nrule cached_stack_unpoison = " +
           (cond.empty() ? "true" : cond) + "\n";
}

namespace {
// __vmalloc_node_range, as the model reads it: the function's gfp_mask is
// the caller's until the one statement that changes it, `gfp_mask |= FLAGS;`
// (the pages' skip flags in the tagged-prot branch); a condition written on
// gfp_mask after it sees the flags. Its locals (`bool skip_kasan = gfp_mask &
// __GFP_SKIP_KASAN;`, the Anjum series) are read as their initializers, each
// with gfp_mask as it is where the local is declared.
struct VmallocReading {
    const PartInput& in;
    std::size_t skip_flags = npos;  // the `gfp_mask |=` statement
    std::string why;

    std::map<std::string, std::string> bind_at(std::size_t pos) const {
        return {{"gfp_mask", skip_flags != npos && skip_flags < pos ? "gfp_mask" : "gfp"}};
    }
    // A local of the function written `TYPE NAME = INIT;` and never assigned
    // again: INIT, bound where it is declared; "" if NAME is no such local.
    std::string local(const std::string& name) {
        const auto& T = in.parsed.tokens;
        std::size_t decl = npos;
        const auto [first, last] = def_tokens(in);
        for (std::size_t j = std::max<std::size_t>(first, 1); j + 1 < last; ++j) {
            if (T[j].text != name) continue;
            const std::string& nx = T[j + 1].text;
            const bool assigned = nx == "=" || (nx.size() == 2 && nx[1] == '=' && nx != "==" && nx != "!=" &&
                                                nx != "<=" && nx != ">=");
            if (!assigned) continue;
            if (decl != npos || !is_ident(T[j - 1].text)) return "";  // assigned again, or not a declaration
            decl = j;
        }
        if (decl == npos) return "";
        std::size_t semi = 0;
        const std::string init = to_semicolon(in, decl + 2, semi);
        return "(" + arg_expr(in, init, bind_at(decl)) + ")";
    }
    // The conditions (innermost first) of the statement at t, as a rule
    // expression; `page_kernel` is set when one of them is the PAGE_KERNEL
    // test, the model's own prot_kernel, which is left out.
    bool conditions(std::size_t t, const std::string& what, std::string& expr, bool& page_kernel) {
        std::vector<Guard> guards;
        if (!enclosing_ifs(in, t, what, guards, why)) return false;
        page_kernel = false;
        std::vector<std::string> conds;
        for (const Guard& g : guards) {
            if (g.cond.find("PAGE_KERNEL") != std::string::npos) {
                page_kernel = true;
                continue;
            }
            std::istringstream ts(g.cond);
            std::string c;
            for (std::string tok; ts >> tok;) {
                if (std::string l; is_ident(tok) && !(l = local(tok)).empty()) tok = l;
                c += (c.empty() ? "" : " ") + tok;
            }
            conds.insert(conds.begin(), "(" + arg_expr(in, c, bind_at(t)) + ")");  // outermost first
        }
        expr.clear();
        for (const auto& c : conds) expr += (expr.empty() ? "" : " && ") + c;
        if (expr.empty()) expr = "true";
        return true;
    }
};

}  // namespace

// mm/vmalloc.c __vmalloc_node_range (__vmalloc_node_range_noprof from 6.10),
// its KASAN part: the gfp of __get_vm_area_node() (rule vmalloc_meta_gfp);
// the condition of arch_vmap_pgprot_tagged() inside the PAGE_KERNEL branch
// (vmalloc_tagged_prot) and the flags the same branch adds to gfp_mask for the
// pages (vmalloc_page_skip_flags); the conditions of `kasan_flags |=
// KASAN_VMALLOC_PROT_NORMAL` (vmalloc_prot_normal), of `kasan_flags |=
// KASAN_VMALLOC_INIT` (vmalloc_init), of `kasan_flags |= KASAN_VMALLOC_VM_ALLOC`
// (vmalloc_vm_alloc: no such statement reads as never, kasan_flags starting
// at KASAN_VMALLOC_NONE) and of the kasan_unpoison_vmalloc() call
// (vmalloc_calls_unpoison). v6.1 .. v7.0: `if (kasan_hw_tags_enabled())`,
// __GFP_SKIP_KASAN_UNPOISON | __GFP_SKIP_ZERO (v6.1 .. v6.3) or
// __GFP_SKIP_KASAN | __GFP_SKIP_ZERO (v6.4 on), PROT_NORMAL for every
// PAGE_KERNEL area, INIT when `!want_init_on_free() &&
// want_init_on_alloc(gfp_mask) && (gfp_mask & __GFP_SKIP_ZERO)`, the call
// always; the Anjum series (seed 000) puts `!skip_kasan` on the first two.
std::string read_vmalloc_kasan(const PartInput& in, std::string& why) {
    const std::string meta = arg_rule(in, {"vmalloc_meta_gfp", "(gfp)", "__get_vm_area_node", 0, 7, {{"gfp_mask", "gfp"}},
                                           "gfp_mask = the caller's gfp"},
                                      why);
    if (meta.empty()) return "";
    VmallocReading r{in, npos, ""};
    const auto& T = in.parsed.tokens;
    // gfp_mask changed once, by `gfp_mask |= FLAGS;`
    const auto [first, last] = def_tokens(in);
    for (std::size_t j = first; j + 1 < last; ++j) {
        if (T[j].text != "gfp_mask") continue;
        const std::string& nx = T[j + 1].text;
        if (nx != "=" && nx != "|=" && nx != "&=") continue;
        if (nx != "|=" || r.skip_flags != npos) {
            why = "gfp_mask is changed at " + at(in, T[j].line) +
                  "; the model has it changed once, by the pages' skip flags in the tagged-prot branch";
            return "";
        }
        r.skip_flags = j;
    }
    if (r.skip_flags == npos) {
        why = in.def.name + " adds no skip flags to gfp_mask (gfp_mask |= ...)";
        return "";
    }
    const Call* tagged = nth_call(in, "arch_vmap_pgprot_tagged", 0);
    const Call* unpoison = nth_call(in, "kasan_unpoison_vmalloc", 0);
    const std::size_t prot_normal = find_statement(in, {"kasan_flags", "|=", "KASAN_VMALLOC_PROT_NORMAL"});
    const std::size_t init = find_statement(in, {"kasan_flags", "|=", "KASAN_VMALLOC_INIT"});
    const std::size_t vm_alloc = find_statement(in, {"kasan_flags", "|=", "KASAN_VMALLOC_VM_ALLOC"});
    if (!tagged || !unpoison || prot_normal == npos || init == npos) {
        why = in.def.name + " has no " +
              (!tagged ? "arch_vmap_pgprot_tagged() call"
               : !unpoison ? "kasan_unpoison_vmalloc() call"
               : prot_normal == npos ? "`kasan_flags |= KASAN_VMALLOC_PROT_NORMAL;`"
                                     : "`kasan_flags |= KASAN_VMALLOC_INIT;`");
        return "";
    }
    const std::size_t tagged_at = token_at(in, tagged->offset), unpoison_at = token_at(in, unpoison->offset);
    std::string tagged_cond, flags_cond, normal_cond, init_cond, unpoison_cond, vm_alloc_cond = "false";
    bool pk_tagged = false, pk_flags = false, pk_normal = false, pk_init = false, pk_unpoison = false,
         pk_vm_alloc = false;
    if (tagged_at == npos || unpoison_at == npos ||
        !r.conditions(tagged_at, "arch_vmap_pgprot_tagged() at " + at(in, tagged->line), tagged_cond, pk_tagged) ||
        !r.conditions(r.skip_flags, "gfp_mask |= at " + at(in, T[r.skip_flags].line), flags_cond, pk_flags) ||
        !r.conditions(prot_normal, "KASAN_VMALLOC_PROT_NORMAL at " + at(in, T[prot_normal].line), normal_cond, pk_normal) ||
        !r.conditions(init, "KASAN_VMALLOC_INIT at " + at(in, T[init].line), init_cond, pk_init) ||
        (vm_alloc != npos &&
         !r.conditions(vm_alloc, "KASAN_VMALLOC_VM_ALLOC at " + at(in, T[vm_alloc].line), vm_alloc_cond, pk_vm_alloc)) ||
        !r.conditions(unpoison_at, "kasan_unpoison_vmalloc() at " + at(in, unpoison->line), unpoison_cond, pk_unpoison)) {
        why = r.why.empty() ? why : r.why;
        if (why.empty()) why = "a call of " + in.def.name + " is not among the file's tokens";
        return "";
    }
    // The shapes the model's plan has (rules_6_1.hpp vmalloc_node_range).
    if (!pk_tagged || !pk_normal || pk_init || pk_vm_alloc || pk_unpoison) {
        why = std::string(!pk_tagged ? "arch_vmap_pgprot_tagged()" : !pk_normal ? "KASAN_VMALLOC_PROT_NORMAL"
                                       : pk_init                ? "KASAN_VMALLOC_INIT"
                                       : pk_vm_alloc            ? "KASAN_VMALLOC_VM_ALLOC"
                                                                : "kasan_unpoison_vmalloc()") +
              (!pk_tagged || !pk_normal ? " is not inside the PAGE_KERNEL branch" : " is inside the PAGE_KERNEL branch") +
              ": the model decides it " + (!pk_tagged || !pk_normal ? "there" : "for every area");
        return "";
    }
    if (!pk_flags || flags_cond != tagged_cond) {
        why = "the pages' skip flags (gfp_mask |= at " + at(in, T[r.skip_flags].line) +
              ") are not added under the condition of the tagged prot: the model adds them exactly when the area is tagged";
        return "";
    }
    if (r.skip_flags < tagged_at && tagged_cond.find("gfp_mask") != std::string::npos) {
        why = "the tagged prot's condition reads gfp_mask after the skip flags were added";
        return "";
    }
    std::size_t semi = 0;
    const std::string flags = to_semicolon(in, r.skip_flags + 2, semi);
    const std::string where = in.def.name + ", in the PAGE_KERNEL branch (" + at(in, T[r.skip_flags].line) + ")";
    return meta + "# " + where + ": the tagged prot at " + at(in, tagged->line) + " and the pages' skip flags\n" +
           "rule vmalloc_tagged_prot(gfp) = " + tagged_cond + "\nrule vmalloc_page_skip_flags = " + flags + "\n" +
           "# " + in.def.name + ": KASAN_VMALLOC_PROT_NORMAL at " + at(in, T[prot_normal].line) +
           ", KASAN_VMALLOC_INIT at " + at(in, T[init].line) + ", KASAN_VMALLOC_VM_ALLOC " +
           (vm_alloc == npos ? std::string("nowhere (never passed)") : "at " + at(in, T[vm_alloc].line)) +
           ", kasan_unpoison_vmalloc() at " +
           at(in, unpoison->line) + " (gfp_mask there: the caller's gfp with the skip flags)\n" +
           "rule vmalloc_prot_normal(gfp, gfp_mask) = " + normal_cond + "\nrule vmalloc_init(gfp, gfp_mask) = " +
           init_cond + "\nrule vmalloc_vm_alloc(gfp, gfp_mask) = " + vm_alloc_cond +
           "\nrule vmalloc_calls_unpoison(gfp, gfp_mask) = " + unpoison_cond + "\n";
}

}  // namespace tagproof::tree

namespace tagproof::tree {

// arch/arm64/mm/fault.c vma_alloc_zeroed_movable_folio
// (alloc_zeroed_user_highpage_movable before v6.3's folio conversion): the gfp
// of the allocation it returns, a local built over several statements, each
// folded in the order written under the `if`s it sits in (every era read:
// `gfp_t flags = GFP_HIGHUSER_MOVABLE | __GFP_ZERO;` then `if (vma->vm_flags &
// VM_MTE) flags |= __GFP_ZEROTAGS;`). The vma's VM_MTE test is the rule's
// parameter vm_mte; a condition on anything else does not read as a rule.
std::string read_user_page_gfp(const PartInput& in, std::string& why) {
    const auto& T = in.parsed.tokens;
    // the call the function returns, and its gfp (the first argument)
    const Call* ret = nullptr;
    const auto [first, last] = def_tokens(in);
    for (std::size_t j = first; j + 1 < last && !ret; ++j) {
        if (T[j].text != "return") continue;
        for (const Call* c : in.parsed.calls_in(T[j].line, in.def.end_line))
            if (c->offset == T[j + 1].offset) ret = c;
    }
    if (!ret || ret->args.empty()) {
        why = in.def.name + " returns no allocation call with a gfp argument";
        return "";
    }
    const std::string gfp = ret->args[0];
    const std::size_t ret_at = token_at(in, ret->offset);
    if (!is_ident(gfp) || gfp.find(' ') != std::string::npos) {
        return "# " + in.def.name + ": the gfp of " + ret->callee + "() at " + at(in, ret->line) +
               "\nrule user_page_gfp(vm_mte) = " + arg_expr(in, gfp, {}) + "\n";
    }
    // the local, statement by statement
    std::string value, lines;
    for (std::size_t j = std::max<std::size_t>(first, 1); j + 2 < last && j < ret_at; ++j) {
        if (T[j].text != gfp) continue;
        const std::string& op = T[j + 1].text;
        if (op != "=" && op != "|=" && op != "&=") continue;
        const bool decl = op == "=" && is_ident(T[j - 1].text) && T[j - 1].text != "else" &&
                          statement_start(in, j - 1) == j - 1;
        if (!decl && statement_start(in, j) != j) {
            why = "the local " + gfp + " is assigned inside an expression at " + at(in, T[j].line);
            return "";
        }
        std::size_t semi = 0;
        const std::string x = arg_expr(in, to_semicolon(in, j + 2, semi), {});
        std::vector<Guard> guards;
        if (!enclosing_ifs(in, decl ? j - 1 : j, gfp + " " + op + " at " + at(in, T[j].line), guards, why)) return "";
        std::string cond;
        for (const Guard& g : guards) {
            std::string c = g.cond;
            // the vma's VM_MTE test: the rule's parameter
            for (const char* w : {"vma -> vm_flags & VM_MTE", "( vma -> vm_flags & VM_MTE )"})
                if (c == w) c = "vm_mte";
            cond = cond.empty() ? "(" + c + ")" : "(" + c + ") && " + cond;
        }
        if (value.empty() && (op != "=" || !cond.empty())) {
            why = "the local " + gfp + " is changed at " + at(in, T[j].line) + " before it is given a value" +
                  (op == "=" ? " on every path" : "");
            return "";
        }
        const std::string next = op == "=" ? "(" + x + ")" : "(" + value + " " + op.substr(0, 1) + " (" + x + "))";
        value = cond.empty() ? next : "(" + cond + " ? " + next + " : " + value + ")";
        lines += (lines.empty() ? "" : ", ") + std::to_string(T[j].line);
    }
    if (value.empty()) {
        why = "the local " + gfp + " " + ret->callee + "() is given is never assigned in " + in.def.name;
        return "";
    }
    return "# " + in.def.name + ": the gfp of " + ret->callee + "() at " + at(in, ret->line) + ", the local " + gfp +
           " built at lines " + lines + " (vm_mte: the vma's VM_MTE)\nrule user_page_gfp(vm_mte) = " + value + "\n";
}

}  // namespace tagproof::tree

namespace tagproof::tree {

// mm/huge_memory.c get_huge_zero_folio (get_huge_zero_page in older trees): whether
// the huge zero folio is allocated with __GFP_ZEROTAGS (adfb6609c680,
// "mm/huge_memory: initialise the tags of the huge zero folio", 2025), which
// the model's huge zero folio event stands for: without it the tree gets no
// such event (before it, arm64's set_pmd_at() cleared the tags when mapped:
// no KASAN decision is involved). The rest of the gfp is taken as the
// model's, (GFP_TRANSHUGE | __GFP_ZERO | __GFP_ZEROTAGS) & ~__GFP_MOVABLE.
std::string read_huge_zero_folio_zerotags(const PartInput& in, std::string& why) {
    const Call* c = nullptr;
    for (const char* callee : {"folio_alloc", "alloc_pages", "folio_alloc_gigantic"})
        if (!c) c = nth_call(in, callee, 0);
    if (!c || c->args.empty()) {
        why = in.def.name + " makes no folio_alloc() or alloc_pages() call";
        return "";
    }
    const bool zerotags = (" " + c->args[0] + " ").find(" __GFP_ZEROTAGS ") != std::string::npos;
    return "# " + in.def.name + ": the gfp of " + c->callee + "() at " + at(in, c->line) + " is " + c->args[0] +
           (zerotags ? "" : ", without __GFP_ZEROTAGS") + "\nfeature huge_zero_folio_zerotags " + (zerotags ? "yes" : "no") +
           "\n";
}

}  // namespace tagproof::tree

namespace tagproof::tree {

namespace {
// A page-table macro of the file (include/asm-generic/pgalloc.h) as a rule
// of its own: the macro and the call that names it are read apart, because
// other callers name the macro too (arm64's pgd_alloc() passes
// GFP_PGTABLE_USER, __pmd_alloc_one() either), so a patch to one call
// changes that call alone and a patch to the #define changes them all.
// Empty when the file does not define it (the base's rule stands).
std::string macro_rule(const PartInput& in, const std::string& name) {
    const std::string m = file_macro(in, name);
    return m.empty() ? "" : "# " + in.file + ": #define " + name + "\nrule " + name + " = " + m + "\n";
}
}  // namespace

// include/asm-generic/pgalloc.h __pte_alloc_one_kernel (arm64 takes the
// generic one): the gfp of its page allocation, `__get_free_page(
// GFP_PGTABLE_KERNEL)` to v6.5, `pagetable_alloc(GFP_PGTABLE_KERNEL &
// ~__GFP_HIGHMEM, 0)` after (__GFP_HIGHMEM is nothing on arm64's kernel
// pages; the rule keeps it as written), and the file's GFP_PGTABLE_KERNEL,
// which the call names and is read as its own rule.
std::string read_pte_alloc_one_kernel(const PartInput& in, std::string& why) {
    for (const char* callee : {"pagetable_alloc", "__get_free_page", "alloc_page", "alloc_pages"})
        if (nth_call(in, callee, 0)) {
            const std::string call = arg_rule(in, {"pte_alloc_one_kernel_gfp", "", callee, 0, 0,
                                                   {{"GFP_PGTABLE_KERNEL", "GFP_PGTABLE_KERNEL"}},
                                                   "GFP_PGTABLE_KERNEL the rule below"}, why);
            return call.empty() ? "" : call + macro_rule(in, "GFP_PGTABLE_KERNEL");
        }
    why = in.def.name + " makes no pagetable_alloc(), __get_free_page() or alloc_page() call";
    return "";
}

// include/asm-generic/pgalloc.h pte_alloc_one: the gfp it passes to
// __pte_alloc_one(), and the file's GFP_PGTABLE_USER, which it names (its
// GFP_PGTABLE_KERNEL part is the rule above, as the file composes them).
std::string read_pte_alloc_one(const PartInput& in, std::string& why) {
    const std::string call = arg_rule(in, {"pte_alloc_one_gfp", "", "__pte_alloc_one", 0, 1,
                                           {{"GFP_PGTABLE_USER", "GFP_PGTABLE_USER"}}, "GFP_PGTABLE_USER the rule below"},
                                      why);
    return call.empty() ? "" : call + macro_rule(in, "GFP_PGTABLE_USER");
}

}  // namespace tagproof::tree
