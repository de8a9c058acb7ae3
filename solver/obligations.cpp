// obligations.cpp — the registry of the invariants of DESIGN §4 as
// obligations per entry point, and the oracle's notions they share (a
// mismatch, a checked access). Each obligation's builder lives in a room of
// solver/obligations/ (parts.hpp lists them): it builds one query over the
// variant's own rules (instantiated with the Z3 domain), the oracle side —
// what must hold — stated there in its own words.
#include "obligation.hpp"
#include "obligations/parts.hpp"
#include "trace_bmc.hpp"

namespace tagproof::solver {

using kernel::TagCheckInput;
using S = Symbolic;

z3::expr Builder::tag(const std::string& name, std::vector<z3::expr>& domain) {
    z3::expr t = word(name);
    domain.push_back(z3::ule(t, c.bv_val(0xFF, 64)));
    return t;
}

// The oracle's notion of "the tags differ" (nibbles for MTE, bytes for SW_TAGS).
z3::expr oracle_mismatch(const SEnv& e, const z3::expr& ptr, const z3::expr& mem) {
    z3::context& c = ptr.ctx();
    auto f = c.bv_val(0xF, 64);
    return z3::ite(e.hw_tags, (ptr & f) != (mem & f), ptr != mem);
}

// The oracle's notion of "this access is checked": HW tags active, TCF on,
// a Normal-Tagged mapping, not a load under kasan.write_only; SW_TAGS always.
z3::expr oracle_checking(const SEnv& e, const TagCheckInput<S>& in) {
    return (e.kasan_hw_tags_enabled() && in.tcf_on && in.tagged_mapping && !(in.write_only && !in.is_write)) ||
           (e.sw_tags && e.kasan_enabled);
}

namespace {

using namespace ob;

std::vector<Obligation> build_list() {
    std::vector<Obligation> v = {
        {"match-all-never-faults/access", "match-all-never-faults",
         "an access through a pointer with tag 0xFF never faults", false, false,
         [](Builder& b) { return access_query(b, true); }},
        {"mismatch-faults/access", "mismatch-faults",
         "with checking on, a pointer tag that differs from the memory tag faults", false, false,
         [](Builder& b) { return access_query(b, false); }},
        {"no-false-positive/alloc_pages", "no-false-positive",
         "an access through page_address() of a fresh allocation never faults", false, false,
         [](Builder& b) { return alloc_pages_query(b, false); }},
        {"detection/free_pages", "detection",
         "a use-after-free of a tagged page through its old pointer is detected", false, false,
         [](Builder& b) { return free_pages_query(b, false); }},
        {"zeroing/alloc_pages", "zeroing",
         "memory promised zero by __GFP_ZERO or init_on_alloc is zeroed", false, false,
         [](Builder& b) { return zeroing_query(b); }},
        {"detection/coverage/alloc_pages", "detection",
         "page_address() of an allocation carries a random tag unless the caller may have match-all", false, false,
         [](Builder& b) { return coverage_alloc_pages_query(b); }},
        {"zeroing/huge_zero_folio", "zeroing",
         "the huge zero folio, mapped into PROT_MTE vmas as is, has zero tags", false, false,
         [](Builder& b) { return huge_zero_query(b); }},
        {"zeroing/user_page_mte", "zeroing",
         "a user page mapped PROT_MTE has zero tags in every KASAN mode (ZEROTAGS or mte_sync_tags)", false, false,
         [](Builder& b) { return user_page_mte_query(b); }},
        {"page-tag-consistency/alloc_pages", "page-tag-consistency",
         "after allocation the page tag is match-all or equals the memory tag", false, false,
         [](Builder& b) { return alloc_pages_query(b, true); }},
        {"page-tag-consistency/free_pages", "page-tag-consistency",
         "free-time poisoning matches the allocation: skipped iff tagging was skipped", false, false,
         [](Builder& b) { return free_pages_query(b, true); }},
        {"zeroing/vmalloc", "zeroing", "an area __vmalloc's caller asks zeroed (__GFP_ZERO, init_on_alloc) reads zero",
         false, false, [](Builder& b) { return zeroing_vmalloc_query(b); }},
        {"zeroing/vmap_stack", "zeroing", "a fresh vmap stack reads zero, whatever GFP_VMAP_STACK asks for", false,
         false, [](Builder& b) { return zeroing_vmap_stack_query(b); }},
        {"detection/coverage/vmalloc", "detection",
         "a PAGE_KERNEL vmalloc area is tagged and (HW) mapped MT_NORMAL_TAGGED unless match-all is allowed or claimed",
         false, false, [](Builder& b) { return coverage_vmalloc_query(b); }},
        {"no-false-positive/vmalloc", "no-false-positive",
         "an access through __vmalloc's pointer to its own area never faults", false, false,
         [](Builder& b) { return no_false_positive_vmalloc_query(b); }},
        {"no-false-positive/vmalloc_exec", "no-false-positive",
         "executable memory (a prot other than PAGE_KERNEL) is handed out through a match-all pointer", false, false,
         [](Builder& b) { return no_false_positive_vmalloc_exec_query(b); }},
        {"zeroing/kmalloc", "zeroing", "a kmalloc object its caller asks zeroed (__GFP_ZERO, init_on_alloc) reads zero",
         false, false, [](Builder& b) { return zeroing_kmalloc_query(b); }},
        {"detection/coverage/kmalloc", "detection",
         "kmalloc's pointer carries a random tag unless the caller may have match-all", false, false,
         [](Builder& b) { return coverage_kmalloc_query(b); }},
        {"no-false-positive/kmalloc", "no-false-positive",
         "an access through kmalloc's pointer below the size it asked for never faults", false, false,
         [](Builder& b) { return no_false_positive_kmalloc_query(b); }},
        {"no-false-positive/krealloc", "no-false-positive",
         "after krealloc in place, an access below the new size through the same pointer never faults", false, false,
         [](Builder& b) { return no_false_positive_krealloc_query(b); }},
        {"no-false-positive/vmap", "no-false-positive",
         "neither a vmap alias's first access nor the page owner's own through page_address() faults", false, false,
         [](Builder& b) { return no_false_positive_vmap_query(b); }},
        {"zeroing/krealloc", "zeroing",
         "bytes krealloc() grows an object by in place read zero when every call asked zeroed memory", false, false,
         [](Builder& b) { return zeroing_krealloc_query(b); }},
        {"zeroing/skb_with_frags", "zeroing",
         "alloc_skb_with_frags' frags are zeroed where its caller asks (__GFP_ZERO, init_on_alloc)", false, false,
         [](Builder& b) { return zeroing_skb_with_frags_query(b); }},
        {"detection/oob/kmalloc", "detection",
         "a read past kmalloc's rounded size, inside the object's slot, faults (kmalloc_oob_right)", false, false,
         [](Builder& b) { return detection_oob_kmalloc_query(b); }},
        {"no-false-positive/mempool", "no-false-positive",
         "an access below the size of a mempool element taken from the reserve never faults", false, false,
         [](Builder& b) { return no_false_positive_mempool_query(b); }},
        {"no-false-positive/mempool_page", "no-false-positive",
         "a page mempool's element handed out again from the reserve is accessible through page_address()", false,
         false, [](Builder& b) { return no_false_positive_mempool_page_query(b); }},
        {"page-tag-consistency/mempool_page", "page-tag-consistency",
         "a page mempool's element handed out again carries its memory's tag in page_address()", false, false,
         [](Builder& b) { return page_tag_mempool_page_query(b); }},
        {"detection/oob/mempool", "detection",
         "a read past a kmalloc mempool element's rounded size, inside its slot, faults (mempool_kmalloc_oob_right)",
         false, false, [](Builder& b) { return detection_oob_mempool_query(b); }},
        {"no-false-positive/vrealloc", "no-false-positive",
         "after vrealloc in place, a read below the new size through the returned pointer never faults", false, false,
         [](Builder& b) { return no_false_positive_vrealloc_query(b); }},
        {"zeroing/vrealloc_huge", "zeroing",
         "bytes vrealloc() grows a huge vmalloc area by in place read zero when every call asked __GFP_ZERO", false,
         false, [](Builder& b) { return zeroing_vrealloc_huge_query(b); }},
        {"zeroing/vrealloc_shrink", "zeroing",
         "bytes vrealloc() grows an area by in place, after shrinking it in place, read zero when every call asked "
         "__GFP_ZERO",
         false, false, [](Builder& b) { return zeroing_vrealloc_shrink_query(b); }},
        {"detection/vrealloc", "detection",
         "after vrealloc shrinks in place, a read of the bytes given up faults wherever the area's redzone was poisoned",
         false, false, [](Builder& b) { return detection_vrealloc_query(b); }},
        {"detection/kmem_cache_free", "detection",
         "a freed slab object is poisoned once no reader may use it, wherever KASAN promises to catch its use",
         false, false, [](Builder& b) { return detection_slab_free_query(b); }},
        {"no-false-positive/kmem_cache_free", "no-false-positive",
         "a SLAB_TYPESAFE_BY_RCU object stays readable until the grace period ends", false, false,
         [](Builder& b) { return no_false_positive_slab_free_query(b); }},
        {"no-false-positive/cached_stack", "no-false-positive",
         "a stack reused from the per-CPU cache is accessible to its new task, whatever the old one left", false,
         false, [](Builder& b) { return no_false_positive_cached_stack_query(b); }},
        {"tag-range/random_tag", "tag-range", "random tags lie in 0xF0..0xFD (HW) / 0x00..0xFD (SW)", false, false,
         [](Builder& b) { return tag_range_query(b); }},
        {"sampling-accounting/bmc", "sampling-accounting",
         "of k eligible allocations on a CPU exactly the 1st, (N+1)th, ... are tagged", false, false,
         [](Builder& b) { return sampling_bmc_query(b); }},
        {"sampling-accounting/induction", "sampling-accounting",
         "the per-CPU counter stays in [0, N-1] and tags exactly when it is 0", false, false,
         [](Builder& b) { return sampling_induction_query(b); }},
        {"gfp-encoding/layout", "gfp-encoding", "every GFP bit lies inside __GFP_BITS_MASK, none shared", false, false,
         [](Builder& b) { return gfp_encoding_query(b); }},
    };
    for (Region rg : {Region::none, Region::generic, Region::sw_tags, Region::hw_inactive})
        for (Entry en : {Entry::alloc_pages, Entry::free_pages, Entry::vmalloc, Entry::vmap_stack, Entry::cached_stack,
                         Entry::pgtable_kernel, Entry::pgtable_user, Entry::thread_info, Entry::user_page, Entry::skb,
                         Entry::skb_fallback, Entry::skb_frags, Entry::kfence, Entry::gfp_layout, Entry::slab, Entry::mempool}) {
            v.push_back({std::string("mode-isolation/") + region_name(rg) + "/" + entry_name(en), "mode-isolation",
                         std::string("in the state ") + region_name(rg) +
                             " the entry point behaves exactly as under the baseline",
                         true, false, [en, rg](Builder& b) { return isolation_query(b, en, rg); }});
        }
    for (Site s : {Site::pgtable_kernel, Site::pgtable_user, Site::thread_info, Site::skb, Site::skb_frags}) {
        if (s != Site::skb && s != Site::skb_frags)
            v.push_back({std::string("zeroing/") + site_name(s), "zeroing",
                         "what the caller needs zeroed is zeroed, whatever its GFP constant asks for", false, false,
                         [s](Builder& b) { return zeroing_site_query(b, s); }});
        if (s != Site::thread_info)  // tsk->stack is match-all by design
            v.push_back({std::string("detection/coverage/") + site_name(s), "detection",
                         "the caller's pointer carries a random tag unless match-all is allowed or claimed", false,
                         false, [s](Builder& b) { return coverage_site_query(b, s); }});
    }
    for (const char* inv : {"match-all-never-faults", "mismatch-faults", "no-false-positive", "detection", "zeroing",
                            "page-tag-consistency"})
        v.push_back({std::string(inv) + "/trace", inv,
                     "no sequence of page allocations, frees and accesses on 2 pages and 2 CPUs breaks it", false,
                     false, [inv](Builder& b) { return trace_query(b, inv); }});
    const char* internal[] = {"call", "prot_normal", "metadata_gfp", "page_gfp"};
    for (int i = 0; i < 4; ++i)
        v.push_back({std::string("internals/vmalloc.") + internal[i], "mode-isolation",
                     "an intermediate value of __vmalloc_node_range (not an outcome) that differs from the baseline",
                     true, true, [i](Builder& b) { return vmalloc_internals_query(b, i); }});
    // every entry point mode-isolation has, free_pages and the per-CPU stack cache too
    for (Entry en : {Entry::alloc_pages, Entry::free_pages, Entry::vmalloc, Entry::vmap_stack, Entry::cached_stack,
                     Entry::pgtable_kernel, Entry::pgtable_user, Entry::thread_info, Entry::user_page, Entry::skb,
                     Entry::skb_fallback, Entry::skb_frags, Entry::kfence, Entry::gfp_layout, Entry::slab, Entry::mempool}) {
        v.push_back({std::string("changes/") + entry_name(en), "mode-isolation",
                     "with HW_TAGS active: what the entry point does differently from the baseline", true, true,
                     [en](Builder& b) { return isolation_query(b, en, Region::hw_active); }});
    }
    return v;
}

}  // namespace

std::size_t steps_shown(const z3::model& m, const std::vector<z3::expr>& violation_at) {
    for (std::size_t k = 0; k < violation_at.size(); ++k)
        if (m.eval(violation_at[k], true).is_true()) return k + 1;
    return violation_at.size();
}

const std::vector<Obligation>& all_obligations() {
    static const std::vector<Obligation> list = build_list();
    return list;
}

}  // namespace tagproof::solver

