// lift_slab_parts.cpp — the slab hooks' KASAN decisions read in part:
// assign_tag() (below), slab_post_alloc_hook()'s memset, the init of an
// allocated object's unpoisoning, whether a freed object is poisoned
// (poison_slab_object) and still accessible (slab_free_hook); each reader
// says what it reads above it.
//
// mm/kasan/common.c assign_tag(), read in part: which
// slab objects get a fresh random tag at every allocation (rule
// slab_tag_per_alloc(ctor_or_rcu)). Every era since v5.x writes it
//     if (IS_ENABLED(CONFIG_KASAN_GENERIC))
//             return 0xff;
//     if (!cache->ctor && !(cache->flags & SLAB_TYPESAFE_BY_RCU))
//             return init ? KASAN_TAG_KERNEL : kasan_random_tag();
//     return init ? kasan_random_tag() : get_tag(object);
// `init` is true at slab creation (__kasan_init_slab_obj) and false at each
// allocation. The model has the creation side by hand (a constructor or RCU
// cache's objects draw their tags when the slab is made, the others carry
// KASAN_TAG_KERNEL until allocated: model/spec/slab.cpp), so those two
// answers must be as written; each allocation answer may be a fresh tag
// (kasan_random_tag()) or the one the object has (get_tag(object)), and the
// rule says which. Anything else is refused with what it is.
#include <algorithm>
#include <map>

#include "lift_parts.hpp"
#include "part_scan.hpp"

namespace tagproof::tree {

namespace {

// `return init ? A : B;` at token k: A and B as written, or false.
bool init_choice(const PartInput& in, std::size_t k, std::string& a, std::string& b) {
    std::size_t semi = npos;
    const std::string s = to_semicolon(in, k, semi);
    const std::string head = "return init ? ";
    const std::size_t colon = s.find(" : ");
    if (s.rfind(head, 0) != 0 || colon == std::string::npos) return false;
    a = s.substr(head.size(), colon - head.size());
    b = s.substr(colon + 3);
    return true;
}

}  // namespace

std::string read_assign_tag(const PartInput& in, std::string& why) {
    const std::string no_ctor = "! cache -> ctor && ! ( cache -> flags & SLAB_TYPESAFE_BY_RCU )";
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    // the `if` that tells the caches apart: the first whose condition names cache->ctor
    std::size_t k_if = npos, close = npos;
    for (std::size_t k = first; k < last; ++k) {
        if (T[k].text != "if" || k + 1 >= last || T[k + 1].text != "(") continue;
        const std::size_t c = close_of(in, k + 1, last);
        if (c == npos) break;
        if (text_between(in, k + 1, c).find("ctor") != std::string::npos) {
            k_if = k, close = c;
            break;
        }
    }
    if (k_if == npos) {
        why = in.def.name + " has no if on the cache's constructor (cache->ctor)";
        return "";
    }
    const std::string cond = text_between(in, k_if + 1, close);
    if (cond != no_ctor) {
        why = "the cache test at " + at(in, T[k_if].line) + " is (" + cond + "), not (" + no_ctor + ")";
        return "";
    }
    std::string fresh_at_init, fresh_alloc, kept_at_init, kept_alloc;
    std::size_t after = close + 1;
    if (after < last && T[after].text == "return" && init_choice(in, after, fresh_at_init, fresh_alloc)) {
        std::size_t semi = npos;
        to_semicolon(in, after, semi);
        after = semi + 1;
    } else {
        why = "the cache test at " + at(in, T[k_if].line) + " is not followed by return init ? A : B";
        return "";
    }
    // the caches with a constructor: the next `return init ? ...` (v6.1 has
    // CONFIG_SLAB's obj_to_index() return before it, under #ifdef: the model's
    // allocator is SLUB, as the configured trees')
    while (after < last && !(T[after].text == "return" && after + 2 < last && T[after + 1].text == "init" &&
                             T[after + 2].text == "?"))
        ++after;
    if (after >= last || !init_choice(in, after, kept_at_init, kept_alloc)) {
        why = "after the cache test at " + at(in, T[k_if].line) + " " + in.def.name +
              " does not return init ? A : B for the caches with a constructor or SLAB_TYPESAFE_BY_RCU";
        return "";
    }
    const std::string random = "kasan_random_tag ( )", own = "get_tag ( object )";
    if (fresh_at_init != "KASAN_TAG_KERNEL" || kept_at_init != random) {
        why = in.def.name + " tags a new slab's objects otherwise than the model does (" + fresh_at_init + " without a "
              "constructor, " + kept_at_init + " with one; the model: KASAN_TAG_KERNEL and kasan_random_tag())";
        return "";
    }
    for (const std::string* x : {&fresh_alloc, &kept_alloc})
        if (*x != random && *x != own) {
            why = in.def.name + " gives an allocated object " + *x + ", neither a fresh tag (" + random +
                  ") nor its own (" + own + ")";
            return "";
        }
    auto per_alloc = [&](const std::string& x) { return x == random ? "true" : "false"; };
    return "# " + in.def.name + ": the tag an allocated object gets (init false), at " + at(in, T[k_if].line) +
           " (mm/kasan/common.c is built only with KASAN: its Generic early return read as the tag modes)\n"
           "rule slab_tag_per_alloc(ctor_or_rcu) = (IS_ENABLED(CONFIG_KASAN_SW_TAGS) || IS_ENABLED(CONFIG_KASAN_HW_TAGS)) "
           "&& (ctor_or_rcu ? " +
           per_alloc(kept_alloc) + " : " + per_alloc(fresh_alloc) + ")\n";
}

}  // namespace tagproof::tree

namespace tagproof::tree {

// slab_post_alloc_hook (mm/slab.h to v6.7, mm/slub.c from v6.8), read in
// part: when it zeroes an allocated object with memset() itself rather than
// leaving it to KASAN (rule slab_memset_init(init)). Every era writes
//     p[i] = kasan_slab_alloc(s, p[i], flags, init);          (v6.1)
//     if (p[i] && init && !kasan_has_integrated_init())
//             memset(p[i], 0, s->object_size);
// or, from v6.9, with `bool kasan_init = init;` (false under slab_debug,
// which the model does not have) passed to kasan_slab_alloc() and the memset
// under `init && (!kasan_init || !kasan_has_integrated_init())`. The memset's
// condition is the rule, the object read as allocated (p[i] non-NULL) and
// kasan_init as init; KASAN's own init argument must be init (or kasan_init):
// the model's slab_alloc_effect gives KASAN init && HW_TAGS, by hand.
std::string read_slab_memset_init(const PartInput& in, std::string& why) {
    const Call* kasan = nth_call(in, "kasan_slab_alloc", 0);
    if (!kasan || kasan->args.size() != 4) {
        why = in.def.name + (kasan ? "'s kasan_slab_alloc() at " + at(in, kasan->line) + " does not take four arguments"
                                   : " does not call kasan_slab_alloc()");
        return "";
    }
    std::map<std::string, std::string> bind = {{"init", "init"}};
    if (kasan->args[3] == "kasan_init") {
        const std::size_t d = find_statement(in, {"bool", "kasan_init", "="});
        std::size_t semi = npos;
        if (d == npos || to_semicolon(in, d, semi) != "bool kasan_init = init") {
            why = in.def.name + "'s kasan_init is not declared as `bool kasan_init = init;`";
            return "";
        }
        bind["kasan_init"] = "init";  // slab_debug's `kasan_init = false` is outside the model
    } else if (kasan->args[3] != "init") {
        why = "kasan_slab_alloc() at " + at(in, kasan->line) + " is given " + kasan->args[3] +
              " for init, not the hook's init: the model's KASAN init is init (with HW tags)";
        return "";
    }
    const Call* zero = nth_call(in, "memset", 0);
    std::string rule = "false";  // no memset: never zeroed here
    if (zero) {
        std::vector<Guard> g;
        if (!enclosing_ifs(in, token_at(in, zero->offset), "memset()", g, why)) return "";
        if (g.size() > 1) {
            why = "memset() at " + at(in, zero->line) + " is under more than one if";
            return "";
        }
        std::string cond = g.empty() ? "true" : g[0].cond;
        // the object as allocated: the slot p[i] holds it
        cond = replace_all(cond, "p [ i ]", "true");
        rule = arg_expr(in, cond, bind);
    }
    return "# " + in.def.name + ": the memset() of an allocated object" +
           (zero ? " at " + at(in, zero->line) : std::string(": none")) + ", KASAN's init at " + at(in, kasan->line) +
           "\nrule slab_memset_init(init) = " + rule + "\n";
}

}  // namespace tagproof::tree

namespace tagproof::tree {

namespace {

// a condition of the free as a rule expression over still_accessible (v6.1's
// test of the cache's flags is that)
std::string as_still_accessible(const PartInput& in, std::string cond) {
    for (const std::string flags : {"cache -> flags & SLAB_TYPESAFE_BY_RCU", "( cache -> flags & SLAB_TYPESAFE_BY_RCU )"})
        cond = replace_all(cond, flags, "still_accessible");
    return arg_expr(in, cond, {{"still_accessible", "still_accessible"}});
}

}  // namespace

// poison_slab_object (mm/kasan/common.c; ____kasan_slab_free in older trees,
// v6.1's), read in part: whether a freed slab object is poisoned (rule
// slab_free_poisons(still_accessible)). v6.12 writes
//     if (unlikely(still_accessible))
//             return;
//     kasan_poison(object, round_up(cache->object_size, KASAN_GRANULE_SIZE),
//                  KASAN_SLAB_FREE, init);
// and v6.1 tests `cache->flags & SLAB_TYPESAFE_BY_RCU` itself, among the
// free's other early returns. The rule is the kasan_poison() call's
// reachability: its own if, if it has one, and every `if (C) ... return`
// before it, C negated, but for those the model has elsewhere:
// !kasan_arch_is_ready() (arm64 is ready from boot), is_kfence_address()
// (the model has no KFENCE objects) and an if whose block reports an invalid
// or double free (the model's pre-free checks, which come first). The
// poison's size, value and init must be the model's (round_up(object_size,
// G), KASAN_SLAB_FREE, the free's init); anything else is refused with what
// it is. v6.1's flags test is read as still_accessible: at a
// kmem_cache_free() v6.12's slab_free_hook makes still_accessible exactly
// that.
std::string read_slab_free_poison(const PartInput& in, std::string& why) {
    const Call* poison = nth_call(in, "kasan_poison", 0);
    if (!poison || poison->args.size() != 4) {
        why = in.def.name + (poison ? "'s kasan_poison() at " + at(in, poison->line) + " does not take four arguments"
                                    : " does not call kasan_poison()");
        return "";
    }
    const std::string size = "round_up ( cache -> object_size , KASAN_GRANULE_SIZE )";
    if (poison->args[1] != size || poison->args[2] != "KASAN_SLAB_FREE" || poison->args[3] != "init") {
        why = "kasan_poison() at " + at(in, poison->line) + " poisons (" + poison->args[1] + ", " + poison->args[2] +
              ", " + poison->args[3] + "), not the model's (" + size + ", KASAN_SLAB_FREE, init)";
        return "";
    }
    const std::size_t k_poison = token_at(in, poison->offset);
    std::vector<Guard> g;
    if (!enclosing_ifs(in, k_poison, "kasan_poison()", g, why)) return "";
    if (g.size() > 1) {
        why = "kasan_poison() at " + at(in, poison->line) + " is under more than one if";
        return "";
    }
    // the ifs whose blocks report a bad free: the model's pre-free checks
    std::vector<std::size_t> reporting;
    for (int n = 0; const Call* r = nth_call(in, "kasan_report_invalid_free", n); ++n) {
        std::vector<Guard> rg;
        if (enclosing_ifs(in, token_at(in, r->offset), "kasan_report_invalid_free()", rg, why) && !rg.empty())
            reporting.push_back(rg[0].close);
    }
    why.clear();
    std::vector<Guard> returns;
    if (!returns_before(in, k_poison, "kasan_poison()", returns, why)) return "";
    std::string rule, read, own_if;
    for (const Guard& r : returns) {
        if (bare(r.cond) == "! kasan_arch_is_ready ( )" || bare(r.cond) == "is_kfence_address ( object )" ||
            std::find(reporting.begin(), reporting.end(), r.close) != reporting.end())
            continue;
        rule += " && !(" + as_still_accessible(in, r.cond) + ")";
        read += (read.empty() ? "" : ", ") + at(in, r.line);
    }
    // or the call itself under an if (`if (likely(!still_accessible)) kasan_poison(...);`)
    if (!g.empty()) {
        rule += " && (" + as_still_accessible(in, unhinted(g[0].cond)) + ")";
        own_if = ", under its if at " + at(in, g[0].line);
    }
    return "# " + in.def.name + ": kasan_poison(object, KASAN_SLAB_FREE) at " + at(in, poison->line) +
           own_if + (read.empty() ? std::string(", no return before it") : ", the returns before it at " + read) +
           " (kasan_enabled(): include/linux/kasan.h's kasan_slab_free() calls in only then)\n"
           "rule slab_free_poisons(still_accessible) = kasan_enabled" + rule + "\n";
}

}  // namespace tagproof::tree

namespace tagproof::tree {

// slab_free_hook (mm/slub.c, v6.12 on), read in part: whether the object is
// still accessible at the free (rule slab_free_still_accessible(
// typesafe_by_rcu, after_rcu_delay)). v6.12 writes
//     bool still_accessible = (s->flags & SLAB_TYPESAFE_BY_RCU) && !after_rcu_delay;
//     ...
//     return !kasan_slab_free(s, x, init, still_accessible);
// The local's initializer is the rule, the cache's flags test read as
// typesafe_by_rcu; the local must be what the KASAN hook is given and must
// not be written again. The CONFIG_SLUB_RCU_DEBUG deferral under
// `if (still_accessible)` stays a hand rule (rules_7_0.hpp). v6.1 .. v6.11
// have no such local (the KASAN hook tests the cache's flags itself, rule
// slab_free_poisons): refused, and the hand rule stands.
std::string read_slab_free_hook(const PartInput& in, std::string& why) {
    const Call* kasan = nth_call(in, "kasan_slab_free", 0);
    if (!kasan || kasan->args.size() != 4 || kasan->args[3] != "still_accessible") {
        why = in.def.name + (kasan ? "'s kasan_slab_free() at " + at(in, kasan->line) +
                                         " is not given still_accessible (before v6.12 the KASAN hook tests the "
                                         "cache's flags itself: rule slab_free_poisons)"
                                   : " does not call kasan_slab_free()");
        return "";
    }
    const std::size_t d = find_statement(in, {"bool", "still_accessible", "="});
    if (d == npos) {
        why = in.def.name + " does not declare `bool still_accessible = ...;`";
        return "";
    }
    std::size_t semi = npos;
    std::string init = to_semicolon(in, d, semi).substr(std::string("bool still_accessible = ").size());
    const auto& T = in.parsed.tokens;
    const auto [first, last] = def_tokens(in);
    for (std::size_t k = semi; k + 1 < last; ++k)
        if (T[k].text == "still_accessible" && (T[k + 1].text == "=" || T[k + 1].text == "|=" || T[k + 1].text == "&=")) {
            why = "still_accessible is written again at " + at(in, T[k].line) + ": the model reads its initializer";
            return "";
        }
    for (const std::string flags : {"( s -> flags & SLAB_TYPESAFE_BY_RCU )", "s -> flags & SLAB_TYPESAFE_BY_RCU"})
        init = replace_all(init, flags, "typesafe_by_rcu");
    if (init.find("s ->") != std::string::npos) {
        why = "still_accessible at " + at(in, T[d].line) + " reads the cache otherwise than its SLAB_TYPESAFE_BY_RCU flag: " +
              init;
        return "";
    }
    return "# " + in.def.name + ": still_accessible at " + at(in, T[d].line) + ", given to kasan_slab_free() at " +
           at(in, kasan->line) + "\nrule slab_free_still_accessible(typesafe_by_rcu, after_rcu_delay) = " +
           arg_expr(in, init, {{"after_rcu_delay", "after_rcu_delay"}, {"typesafe_by_rcu", "typesafe_by_rcu"}}) + "\n";
}

}  // namespace tagproof::tree

namespace tagproof::tree {

// unpoison_slab_object (mm/kasan/common.c, v6.8 on; __kasan_slab_alloc in
// older trees, v6.1's), read in part: the init an allocated object's
// kasan_unpoison() is given (rule slab_alloc_kasan_init(init)). Every era
// writes
//     kasan_unpoison(object, cache->object_size, init);
// (tagged_object in v6.1). With HW_TAGS on the same write zeroes the object,
// which slab_post_alloc_hook() then does not (rule slab_memset_init): the
// two must agree. The size must be the model's (object_size), the call made
// whenever the function runs: no if around it, and no return before it but
// those the model has elsewhere (a NULL object, a KFENCE object); anything
// else is refused with what it is.
std::string read_slab_alloc_unpoison(const PartInput& in, std::string& why) {
    const Call* un = nth_call(in, "kasan_unpoison", 0);
    if (!un || un->args.size() != 3) {
        why = in.def.name + (un ? "'s kasan_unpoison() at " + at(in, un->line) + " does not take three arguments"
                                : " does not call kasan_unpoison()");
        return "";
    }
    if (un->args[1] != "cache -> object_size") {
        why = "kasan_unpoison() at " + at(in, un->line) + " unpoisons " + un->args[1] +
              " bytes, not the model's cache->object_size";
        return "";
    }
    const std::size_t k_un = token_at(in, un->offset);
    std::vector<Guard> g;
    if (!enclosing_ifs(in, k_un, "kasan_unpoison()", g, why)) return "";
    if (!g.empty()) {
        why = "kasan_unpoison() at " + at(in, un->line) + " is under if (" + g[0].cond + ")";
        return "";
    }
    std::vector<Guard> returns;
    if (!returns_before(in, k_un, "kasan_unpoison()", returns, why)) return "";
    for (const Guard& r : returns)
        if (bare(r.cond) != "object == NULL" && bare(r.cond) != "is_kfence_address ( object )") {
            why = "the return under the if at " + at(in, r.line) + " (" + r.cond +
                  ") comes before kasan_unpoison(): the model unpoisons every object it hands out";
            return "";
        }
    return "# " + in.def.name + ": kasan_unpoison(object, cache->object_size, init) at " + at(in, un->line) +
           "\nrule slab_alloc_kasan_init(init) = " + arg_expr(in, un->args[2], {{"init", "init"}}) + "\n";
}

}  // namespace tagproof::tree
