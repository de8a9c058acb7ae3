// lift_parts.hpp — the functions the model reads from a tree in part
// (issue 31 item 3): where a function as a whole is outside the body
// reader's C subset (free_pages_prepare, __do_krealloc, the skb and stack
// allocators), the one thing of it the model depends on is read and written
// as a rule of a variant file (file_rules.hpp):
//  - an order of two statements (free_pages_prepare: rule free_reads_skip_flag);
//  - a statement present or absent (__do_krealloc's spare zeroing);
//  - the gfp argument of a call, as written, with the function's own
//    variables bound to what the model gives them (skb_page_frag_refill's
//    gfp is the socket's sk_allocation, GFP_KERNEL), and the file's own
//    object-like macros expanded (kernel/fork.c's GFP_VMAP_STACK);
//  - a call made, made under a condition, or not made
//    (alloc_thread_stack_node's kasan_unpoison_range() of a cached stack);
//  - the conditions statements are made under, the function's locals read as
//    their initializers (__vmalloc_node_range's KASAN part);
//  - a local built over several statements, folded in order under their
//    conditions (the gfp of arm64's user page allocation).
//  - an argument's flag present or absent, as a `feature` line (the huge
//    zero folio's __GFP_ZEROTAGS).
// The rule text is read back by the variant-file reader like any other: what
// it cannot read is the function's reason for not being lifted.
#pragma once
#include <string>
#include <vector>

#include "functions.hpp"

namespace tagproof::tree {

struct PartInput {
    const std::vector<std::string>& lines;  // the file, by line
    const Definition& def;                  // the function
    const ParsedFile& parsed;               // its calls, tokens and macros
    std::string file;                       // the tree path, for the comments
};

// Each returns the rule text (comment lines first, saying where it was read)
// or "" with `why` set.
using PartReader = std::string (*)(const PartInput&, std::string& why);

std::string read_skip_flag_order(const PartInput& in, std::string& why);
// lift_free_parts.cpp: free_pages_prepare's KASAN part, and both parts together
std::string read_free_kasan_part(const PartInput& in, std::string& why);
std::string read_free_pages_prepare(const PartInput& in, std::string& why);
std::string read_kasan_poison_pages(const PartInput& in, std::string& why);
// lift_vmalloc_unpoison.cpp: HW_TAGS' __kasan_unpoison_vmalloc
std::string read_unpoison_vmalloc(const PartInput& in, std::string& why);
std::string read_krealloc_spare_zeroing(const PartInput& in, std::string& why);
std::string read_skb_frag_refill_gfp(const PartInput& in, std::string& why);
std::string read_skb_with_frags_gfp(const PartInput& in, std::string& why);
std::string read_thread_stack(const PartInput& in, std::string& why);
std::string read_vmalloc_kasan(const PartInput& in, std::string& why);
std::string read_user_page_gfp(const PartInput& in, std::string& why);
std::string read_huge_zero_folio_zerotags(const PartInput& in, std::string& why);
std::string read_pte_alloc_one_kernel(const PartInput& in, std::string& why);
std::string read_pte_alloc_one(const PartInput& in, std::string& why);
// lift_kasan_parts.cpp: vrealloc()'s KASAN calls and the mempool's hooks
std::string read_vrealloc_kasan(const PartInput& in, std::string& why);
std::string read_kasan_vrealloc(const PartInput& in, std::string& why);
std::string read_mempool_poison_pages(const PartInput& in, std::string& why);
std::string read_mempool_add_element(const PartInput& in, std::string& why);
std::string read_mempool_unpoison_element(const PartInput& in, std::string& why);
std::string read_sample_eligible(const PartInput& in, std::string& why);
std::string read_kmalloc_redzone(const PartInput& in, std::string& why);
std::string read_kmalloc_large_redzone(const PartInput& in, std::string& why);
// lift_slab_parts.cpp: the slab hooks (assign_tag, the memset, the free's poisoning, the alloc's init)
std::string read_assign_tag(const PartInput& in, std::string& why);
std::string read_slab_memset_init(const PartInput& in, std::string& why);
std::string read_slab_free_poison(const PartInput& in, std::string& why);
std::string read_slab_free_hook(const PartInput& in, std::string& why);
std::string read_slab_alloc_unpoison(const PartInput& in, std::string& why);

}  // namespace tagproof::tree
