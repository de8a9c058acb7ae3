// primitives.cpp — the primitive table (primitives.hpp). The effects are
// applied in rule_body.hpp apply_primitive(), in the same order as here.
#include "primitives.hpp"

namespace tagproof::kernel {

const std::vector<Primitive>& primitives() {
    static const std::vector<Primitive> p = {
        {"kasan_unpoison_pages", "(struct page *page, unsigned int order, bool init)",
         "when kasan_enabled(): a fresh random tag on the block's memory and page tags (HW_TAGS) or its "
         "shadow (Generic, SW_TAGS); with init and HW_TAGS the data is zeroed on the way (integrated init). "
         "From v6.3 it first asks the sampler (kasan_sample_page_alloc, the era's rule, fed the allocation's "
         "gfp) and returns whether it tagged; before v6.3 it is void and tags whenever KASAN is on (its value, "
         "if a body uses it, is then that).",
         "mm/kasan/common.c __kasan_unpoison_pages; include/linux/kasan.h kasan_unpoison_pages"},
        {"tag_clear_highpage", "(struct page *page)",
         "the page's MTE tags := 0 and its data := 0 (mte_zero_clear_page_tags), whatever the machine",
         "arch/arm64/mm/fault.c tag_clear_highpage (v5.14 .. v6.x; read in 6.1.192 and 6.12.118)"},
        {"tag_clear_highpages", "(struct page *page, int numpages)",
         "as tag_clear_highpage for every page when the era's tag_clear_highpages_clears rule says so "
         "(v7.0: only with MTE), returning whether it did",
         "arch/arm64/mm/fault.c tag_clear_highpages (v7.0)"},
        {"page_kasan_tag_reset", "(struct page *page)",
         "the page's stored tag := KASAN_TAG_KERNEL (0xFF): page_address() is a match-all pointer",
         "include/linux/mm.h page_kasan_tag_reset"},
        {"kernel_init_pages", "(struct page *page, int numpages)",
         "the block's data := 0, written through a match-all pointer (clear_highpage_kasan_tagged), "
         "tags untouched",
         "mm/page_alloc.c kernel_init_pages"},
        {"SetPageSkipKASanPoison", "(struct page *page)",
         "PG_skip_kasan_poison set on the head page: the free path may skip poisoning (v6.0 .. v6.3)",
         "include/linux/page-flags.h PAGEFLAG(SkipKASanPoison)"},
        // what the free path reads of the page (should_skip_kasan_poison's body)
        {"PageSkipKASanPoison", "(struct page *page)",
         "whether PG_skip_kasan_poison is set on the head page when free_pages_prepare() asks: set by "
         "post_alloc_hook, and still there only where free_pages_prepare() calls should_skip_kasan_poison() "
         "before it clears the page flags (the era's free_reads_skip_flag rule; tagproof lift reads it from "
         "the tree's free_pages_prepare). Read in should_skip_kasan_poison only.",
         "include/linux/page-flags.h PAGEFLAG(SkipKASanPoison); mm/page_alloc.c free_pages_prepare"},
        {"page_kasan_tag", "(struct page *page)",
         "the head page's stored KASAN tag as the free path reads it (0xFF: match-all, never tagged or reset). "
         "Read in should_skip_kasan_poison only.",
         "include/linux/mm.h page_kasan_tag"},
    };
    return p;
}

const Primitive* find_primitive(const std::string& name) {
    for (const auto& p : primitives())
        if (name == p.name) return &p;
    return nullptr;
}

bool is_primitive(const std::string& name) { return find_primitive(name) != nullptr; }
bool is_page_read(const std::string& name) { return name == "PageSkipKASanPoison" || name == "page_kasan_tag"; }
bool is_effect_primitive(const std::string& name) { return is_primitive(name) && !is_page_read(name); }

}  // namespace tagproof::kernel
