// recorded_defects.cpp — the defects each built-in variant is recorded to
// have, by name. A record belongs to the variant named in it: a variant
// derived from another starts with none of its base's records (the review
// replays each finding on the baseline and says "also in <baseline>" where
// the base shows it too). Each entry says where in the kernel it lives.
#include <algorithm>
#include <map>

#include "variant.hpp"

namespace tagproof::kernel {

namespace {
const std::map<std::string, std::vector<RecordedDefect>>& table() {
    static const std::map<std::string, std::vector<RecordedDefect>> t = {
        {"linux-6.1",
         {{"page-tag-consistency",
           "v6.1 free_pages_prepare() clears the page flags before should_skip_kasan_poison() reads "
           "PG_skip_kasan_poison (487a32ec24be), so pages allocated with __GFP_SKIP_KASAN_POISON are "
           "poisoned at free anyway; reverted for v6.3 (mm/page_alloc.c, v6.1)"},
          {"detection",
           "kasan_unpoison_element() unpoisons a kmalloc / slab mempool element over __ksize(), the whole "
           "slot, with no redzone: an overflow past the element inside its slot is not detected "
           "(mm/mempool.c, v6.1 .. v6.7; fixed by the v6.8 mempool API rework, whose KUnit "
           "mempool_kmalloc_oob_right shows it)"},
          {"zeroing",
           "krealloc() in place zeroes nothing before v6.11: with __GFP_ZERO on every call, a shrink keeps the "
           "owner's bytes past the new size and a later grow in place hands them back (mm/slab_common.c "
           "__do_krealloc; fixed by \"mm: krealloc: consider spare memory for __GFP_ZERO\", v6.11, and 6.1.y)"}}},
        {"linux-6.3",
         {{"no-false-positive",
           "a page mempool's element goes back to the reserve poisoned (kasan_poison_pages, later "
           "kasan_mempool_poison_pages: memory tags := KASAN_TAG_INVALID, the page tag kept) and is handed out "
           "again through kasan_unpoison_pages / __kasan_mempool_unpoison_pages, which asks the sampler: "
           "sampled out, nothing is done, so page_address() still carries the old tag over 0xFE memory and "
           "the caller's first access faults (mm/mempool.c, mm/kasan/common.c __kasan_unpoison_pages; v6.3 on, "
           "with kasan.page_alloc.sample > 1 and a pool order >= kasan.page_alloc.sample.order; read in "
           "6.12.118)"},
          {"page-tag-consistency",
           "the same element: page_address()'s tag disagrees with the memory tags after the re-issue"},
          {"zeroing", "krealloc() in place zeroes nothing before v6.11: with __GFP_ZERO on every call, a shrink keeps the "
           "owner's bytes past the new size and a later grow in place hands them back (mm/slab_common.c "
           "__do_krealloc; fixed by \"mm: krealloc: consider spare memory for __GFP_ZERO\", v6.11, and 6.1.y)"}}},
        {"linux-6.4", {{"zeroing", "krealloc() in place zeroes nothing before v6.11: with __GFP_ZERO on every call, a shrink keeps the "
           "owner's bytes past the new size and a later grow in place hands them back (mm/slab_common.c "
           "__do_krealloc; fixed by \"mm: krealloc: consider spare memory for __GFP_ZERO\", v6.11, and 6.1.y)"}}},
        {"linux-7.0",
         {{"no-false-positive",
           "linux-6.3's page mempool defect (an element re-issued sampled out keeps its old page tag over "
           "0xFE memory), and since the v6.8 mempool rework its free is checked too: __kasan_mempool_poison_pages "
           "finds the page tagged and its memory 0xFE, and reports a double-free of a live element "
           "(mm/kasan/common.c check_page_allocation; with kasan.page_alloc.sample > 1)"},
          {"detection",
           "vrealloc() shrinking in place calls kasan_poison_vmalloc() on the tail, a no-op under "
           "HW_TAGS: the tail keeps the allocation's tag (mm/vmalloc.c vrealloc_node_align_noprof, "
           "mm/kasan/hw_tags.c, v7.0-rc1)"},
          {"zeroing",
           "post_alloc_hook() computes zero_tags = init && __GFP_ZEROTAGS; with init_on_free=1 init is "
           "false, so the huge zero folio keeps stale MTE tags, on every MTE machine whatever the KASAN mode "
           "(Generic, SW_TAGS and KASAN-less kernels too) (mm/page_alloc.c v7.0-rc1; fixed in the 2026 mm tree)"}}},
        {"vrealloc-v6.15",
         {{"no-false-positive",
           "vrealloc() growing in place calls kasan_unpoison_vmalloc(p + old, size - old, "
           "KASAN_VMALLOC_PROT_NORMAL): HW_TAGS ignores it without VM_ALLOC, so the grown bytes keep the "
           "0xFE redzone; SW_TAGS gives them a new tag the returned pointer lacks; an unaligned p + old "
           "WARNs and unpoisons nothing (mm/vmalloc.c v6.15 .. v6.18; fixed by 007f5da43b3d and "
           "9b47d4eea3f7)"},
          {"detection",
           "vrealloc() shrinking in place to a size that is not granule-aligned calls "
           "kasan_poison_vmalloc(p + size, old - size): kasan_poison() WARNs at the unaligned address and "
           "poisons nothing, so under Generic and SW_TAGS the bytes given up stay accessible (mm/vmalloc.c "
           "v6.15 .. v6.18; fixed by 9b47d4eea3f7, which poisons from round_up(size, KASAN_GRANULE_SIZE))"}}},
        {"sample-v3",
         {{"no-false-positive",
           "post_alloc_hook() as posted starts with reset_tags = !zero_tags: a __GFP_ZEROTAGS page keeps "
           "its old page tag, and an access through page_address() faults (seed 002; fixed by \"kasan: "
           "reset page tags properly with sampling\" before v6.3)"},
          {"page-tag-consistency", "the same stale page tag: page_address() disagrees with the memory tags"}}},
        {"sample-v2",
         {{"no-false-positive", "sample-v2 is built on sample-v3's post_alloc_hook: the same stale page tag"},
          {"page-tag-consistency", "the same stale page tag: page_address() disagrees with the memory tags"},
          {"mode-isolation",
           "patch 1/2 grows __GFP_BITS_SHIFT to 28 + IS_ENABLED(CONFIG_LOCKDEP) and moves ___GFP_NOLOCKDEP "
           "to 0x10000000 in every build, Generic and SW_TAGS too, although __GFP_KASAN_SAMPLE is 0 outside "
           "HW_TAGS: a GFP layout change outside the claimed scope (no KASAN decision differs) "
           "(include/linux/gfp_types.h, seed 003's series, patch 1/2)"}}},
        {"sample-v3-as-posted",
         {{"no-false-positive", "sample-v3's reset_tags = !zero_tags: a __GFP_ZEROTAGS page keeps its old page tag"},
          {"page-tag-consistency",
           "the same stale page tag; and on the v6.1 base the series was posted on, free_pages_prepare() "
           "reads PG_skip_kasan_poison after clearing the page flags (487a32ec24be), so a sampled-out page "
           "is poisoned at free although it was never unpoisoned (mm/page_alloc.c, v6.1 + seed 002)"}}},
        {"sample-v2-as-posted",
         {{"no-false-positive", "sample-v3's reset_tags = !zero_tags: a __GFP_ZEROTAGS page keeps its old page tag"},
          {"mode-isolation", "sample-v2's __GFP_BITS_SHIFT grown in every build (patch 1/2)"},
          {"page-tag-consistency",
           "the same stale page tag; and a sampled-out skb page is poisoned at free on the v6.1 base "
           "(487a32ec24be's ordering; seed 003 on v6.1)"}}},
    };
    return t;
}
}  // namespace

std::vector<RecordedDefect> recorded_defects_of(const std::string& variant) {
    auto it = table().find(variant);
    return it == table().end() ? std::vector<RecordedDefect>{} : it->second;
}

std::vector<std::string> expected_defects(const Variant& v) {
    std::vector<std::string> out = v.known_defects();
    if (v.is_mutant()) return out;  // a negative control hides nothing
    std::string b = v.baseline();
    for (int depth = 0; !b.empty() && depth < 16; ++depth) {
        const Variant* bv = nullptr;
        for (const Variant* x : all_variants())
            if (x->name() == b) bv = x;
        if (!bv) break;
        for (const auto& d : bv->known_defects())
            if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
        b = bv->baseline();
    }
    return out;
}

}  // namespace tagproof::kernel
