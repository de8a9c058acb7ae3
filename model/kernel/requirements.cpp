// requirements.cpp — caller names and the text of claims.
#include "claims.hpp"
#include "requirements.hpp"

namespace tagproof::kernel {

namespace {
struct CallerRow {
    Caller c;
    const char* name;
    const char* title;
};
const CallerRow rows[] = {
    {Caller::alloc_pages, "alloc_pages", "page allocations (alloc_pages with the caller's gfp)"},
    {Caller::pgtable_kernel, "pgtable_kernel", "kernel page tables (pagetable_alloc, GFP_PGTABLE_KERNEL)"},
    {Caller::pgtable_user, "pgtable_user", "user page tables (pagetable_alloc, GFP_PGTABLE_USER)"},
    {Caller::pgd_slab, "pgd_slab", "pgds from pgd_cache (arm64 pgd_alloc, GFP_PGTABLE_USER)"},
    {Caller::thread_stack, "thread_stack", "thread stacks (alloc_thread_stack_node: THREADINFO_GFP, GFP_VMAP_STACK)"},
    {Caller::kmalloc, "kmalloc", "kmalloc objects (kmalloc / kzalloc with the caller's gfp)"},
    {Caller::kmem_cache, "kmem_cache", "kmem_cache objects (kmem_cache_alloc)"},
    {Caller::kmalloc_large, "kmalloc_large", "large kmalloc (pages, kasan_kmalloc_large)"},
    {Caller::vmalloc, "vmalloc", "vmalloc areas (vmalloc / vzalloc / __vmalloc)"},
    {Caller::vmalloc_page, "vmalloc_page", "vmalloc's backing pages (__vmalloc_area_node)"},
    {Caller::slab_page, "slab_page", "slab pages (allocate_slab)"},
    {Caller::user_page, "user_page", "user pages (vma_alloc_zeroed_movable_folio)"},
    {Caller::huge_zero_folio, "huge_zero_folio", "the huge zero folio (get_huge_zero_folio)"},
    {Caller::skb_frag, "skb_frag", "skb frag pages (skb_page_frag_refill, alloc_skb_with_frags)"},
    {Caller::mempool_page, "mempool_page", "mempool pages (mempool_alloc_pages)"},
    {Caller::kfence, "kfence", "KFENCE objects (kfence_alloc from slab_alloc_node)"},
    {Caller::vmap, "vmap", "vmap / vm_map_ram aliases of pages the caller owns"},
};
}  // namespace

const char* caller_name(Caller c) {
    for (const auto& r : rows)
        if (r.c == c) return r.name;
    return "?";
}

const char* caller_title(Caller c) {
    for (const auto& r : rows)
        if (r.c == c) return r.title;
    return "?";
}

const std::vector<Caller>& all_callers() {
    static const std::vector<Caller> all = [] {
        std::vector<Caller> v;
        for (const auto& r : rows) v.push_back(r.c);
        return v;
    }();
    return all;
}

Caller parse_caller(const std::string& name, const std::string& where) {
    std::string known;
    for (const auto& r : rows) {
        if (name == r.name) return r.c;
        known += (known.empty() ? "" : ", ") + std::string(r.name);
    }
    throw InputError(where, "unknown caller '" + name + "'; callers: " + known);
}

const char* change_scope_name(ChangeScope s) {
    switch (s) {
        case ChangeScope::none: return "no change";
        case ChangeScope::hw_tags_active: return "changes only with HW_TAGS active";
        case ChangeScope::any: return "changes any mode";
    }
    return "?";
}

std::vector<std::string> describe_claims(const Claims& cl) {
    std::vector<std::string> out;
    out.push_back(std::string("behaviour: ") + change_scope_name(cl.changes) +
                  (cl.text.empty() ? "" : " (\"" + cl.text + "\")"));
    for (const auto& u : cl.untags) {
        std::string s = std::string("untags ") + caller_name(u.caller);
        if (!u.when_gfp.empty()) s += " with " + u.when_gfp;
        if (u.when_sampled) s += " when sampled (kasan.page_alloc.sample > 1)";
        s += " in HW_TAGS";
        if (!u.why.empty()) s += ": " + u.why;
        out.push_back(s);
    }
    return out;
}

}  // namespace tagproof::kernel
