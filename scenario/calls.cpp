// calls.cpp — see calls.hpp. The ranges: MAX_PAGE_ORDER is 10 with 4 KiB
// pages; a tag is a byte (an MTE nibble for user tags); a size or length is
// at most what one model instance holds (ModelConfig::kMaxBytes), so an
// oversized literal is refused here rather than tried as an allocation.
#include "calls.hpp"

#include <string_view>
#include <unordered_map>

#include "error.hpp"
#include "model.hpp"

namespace tagproof::scenario {

namespace {

using K = ArgSpec;
constexpr std::uint64_t kMaxBytes = spec::ModelConfig::kMaxBytes;

const K kPtr{K::pointer, "pointer"};
const K kPage{K::page, "page"};
const K kGfp{K::gfp, "gfp"};
const K kSize{K::number, "size", 0, kMaxBytes};
const K kLen{K::number, "length", 1, kMaxBytes};
const K kOffset{K::number, "offset", 0, kMaxBytes};
const K kOrder{K::number, "order", 0, 10};  // MAX_PAGE_ORDER
const K kTag{K::number, "tag", 0, 0xFF};
K handle(const char* what) { return K{K::handle, what}; }
K words(const char* what, std::vector<std::string> w) { return K{K::word, what, 0, 0, std::move(w)}; }

const std::vector<CallSpec>& calls() {
    static const std::vector<CallSpec> t = {
        {"alloc_pages", 1, {kOrder, kGfp}},
        {"free_pages", 1, {kPage, kOrder}},
        {"page_address", 1, {kPage}},
        {"kmalloc", 1, {kSize, kGfp}},
        {"kzalloc", 1, {kSize, kGfp}},
        {"kfree", 1, {kPtr}},
        {"krealloc", 2, {kPtr, kSize, kGfp}},
        {"ksize", 1, {kPtr}},
        {"kmem_cache_create", 1, {kSize, words("flag", {"ctor", "rcu"})}},
        {"kmem_cache_alloc", 1, {handle("kmem_cache"), kGfp}},
        {"kmem_cache_free", 2, {handle("kmem_cache"), kPtr}},
        {"rcu_barrier", 0, {}},
        {"vmalloc", 1, {kSize, kGfp}},
        {"vzalloc", 1, {kSize, kGfp}},
        {"vmalloc_exec", 1, {kSize, kGfp}},
        {"vfree", 1, {kPtr}},
        {"vrealloc", 2, {kPtr, kSize, kGfp}},
        {"vmalloc_to_page_address", 1, {kPtr}},
        {"virt_to_page_address", 1, {kPtr}},
        {"kfence_kmalloc", 1, {kSize, kGfp}},
        {"vmalloc_huge", 1, {kSize, kGfp}},
        {"vmap", 1, {kPage}},
        {"vm_map_ram", 1, {kPage}},
        {"vunmap", 1, {kPtr}},
        {"vm_unmap_ram", 1, {kPtr}},
        {"stack_alloc", 0, {K{K::number, "node", 0, 1}}},
        {"stack_free", 1, {kPtr}},
        {"stack_poison_leftover", 3, {kPtr, kOffset, kLen}},
        {"pgtable_alloc", 1, {words("page table", {"kernel", "user", "pgd_slab"})}},
        {"pgtable_free", 1, {kPtr}},
        {"user_fault", 0, {words("flag", {"mte"})}},
        {"huge_zero_folio", 1, {kOrder}},
        {"user_set_tag", 3, {kPage, kOffset, K{K::number, "MTE tag nibble", 0, 15}}},
        {"munmap", 1, {kPage}},
        {"skb_alloc", 0, {}},
        {"alloc_skb_with_frags", 2, {kSize, kOrder, kGfp}},
        {"skb_frag_page", 2, {handle("skb"), K{K::number, "frag index", 0, 16}}},  // MAX_SKB_FRAGS 17
        {"skb_nr_frags", 1, {handle("skb")}},
        {"kfree_skb", 1, {handle("skb")}},
        {"mempool_create", 3, {words("pool kind", {"kmalloc", "slab", "pages"}), K{K::number, "size or order", 0, kMaxBytes},
                               K{K::number, "min_nr", 1, 1024}}},
        {"mempool_alloc", 1, {handle("mempool")}},
        {"mempool_free", 2, {handle("mempool"), kPtr}},
        {"set_tag", 2, {kPtr, kTag}},
        {"reset_tag", 1, {kPtr}},
        {"set_mem_tag", 3, {kPtr, kLen, kTag}},
        {"read", 2, {kPtr, kLen, words("access", {"insn"})}},
        {"write", 2, {kPtr, kLen, words("access", {"insn"})}},
        {"rmw", 2, {kPtr, kLen, words("access", {"insn"})}},
        {"racing_read", 3, {kPtr, kLen, kTag}},
        {"kasan_check_async", 0, {}},
    };
    return t;
}

std::string range(const ArgSpec& s) { return std::to_string(s.lo) + ".." + std::to_string(s.hi); }

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

const CallSpec* find_call(const std::string& name) {
    // by name, built once: the interpreter asks on every numeric argument
    static const std::unordered_map<std::string_view, const CallSpec*> by_name = [] {
        std::unordered_map<std::string_view, const CallSpec*> m;
        for (const auto& c : calls()) m.emplace(c.name, &c);  // the first of a name, as the scan found
        return m;
    }();
    const auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : it->second;
}

std::string call_names() {
    std::string out;
    for (const auto& c : calls()) out += (out.empty() ? "" : ", ") + std::string(c.name);
    return out;
}

void check_number(const CallSpec& c, std::size_t i, std::uint64_t v, const std::string& text, const std::string& where) {
    const ArgSpec& s = c.args[i];
    if (v < s.lo || v > s.hi)
        throw InputError(where, std::string(c.name) + "'s " + s.what + " is " + range(s) + ", got '" + text + "'" +
                                    (text == std::to_string(v) ? "" : " (" + std::to_string(v) + ")") +
                                    (s.hi == kMaxBytes ? " (the model holds at most " + std::to_string(kMaxBytes >> 20) +
                                                             " MiB: config pages=" +
                                                             std::to_string(spec::ModelConfig::kMaxPages) + ")"
                                                       : ""));
}

void check_arg(const CallSpec& c, std::size_t i, const Arg& a, const std::string& where) {
    const ArgSpec& s = c.args[i];
    const std::string& t = a.text;
    // a word that starts like a number but did not read as one
    const bool numeric = !t.empty() && (digit(t[0]) || (t.size() > 1 && t[0] == '-' && digit(t[1])));
    if (numeric && !a.is_number && a.offset == 0) {
        if (t[0] == '-')
            throw InputError(where, std::string(c.name) + "'s " + s.what + " '" + t + "' is negative" +
                                        (s.kind == ArgSpec::number ? ": expected " + range(s) : ""));
        bool all_digits = true;
        for (char ch : t) all_digits &= digit(ch);
        throw InputError(where, "'" + t + "' " + (all_digits ? "is beyond 2^64-1" : "is not a number") + " (" + c.name +
                                    "'s " + s.what + (s.kind == ArgSpec::number ? ", " + range(s) : "") + ")");
    }
    switch (s.kind) {
        case ArgSpec::number:
            if (a.is_number) check_number(c, i, a.number, t, where);
            else if (a.name.empty() || !(std::isalpha((unsigned char)a.name[0]) || a.name[0] == '_'))
                throw InputError(where, std::string(c.name) + "'s " + s.what + " is a number (" + range(s) +
                                            ") or a variable holding one, got '" + t + "'");
            return;
        case ArgSpec::gfp:
            // read when the event runs, with the variant's GFP layout (names differ
            // by era; GfpLayout::parse holds a number to gfp_t's 32 bits)
            return;
        case ArgSpec::word:
            for (const auto& w : s.words)
                if (t == w) return;
            {
                std::string list;
                for (const auto& w : s.words) list += (list.empty() ? "" : ", ") + w;
                throw InputError(where, std::string(c.name) + "'s " + s.what + " is one of " + list + ", got '" + t + "'");
            }
        case ArgSpec::pointer:
        case ArgSpec::page:
        case ArgSpec::handle:
            if (a.is_number)
                throw InputError(where, std::string(c.name) + " expects a " + s.what + " variable, got the number " + t);
            if (s.kind == ArgSpec::handle && a.offset != 0)
                throw InputError(where, std::string(c.name) + "'s " + s.what + " takes no offset: '" + t + "'");
            return;
    }
}

}  // namespace tagproof::scenario
