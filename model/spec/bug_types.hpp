// bug_types.hpp — every bug type a model report carries: the words after
// "BUG: KASAN: " (mm/kasan/report_*.c get_bug_type), KFENCE's and the page
// allocator's own, and the model's "page-fault" for a tag-check fault that
// is not a KASAN report. Model::report() refuses a type not listed here, so a
// scenario's `=> report(TYPE)` is checked against the same list at parse time.
#pragma once
#include <string>

namespace tagproof::spec {

inline constexpr const char* kBugTypes[] = {
    "invalid-access",        // HW_TAGS / SW_TAGS: the tag check failed (report_hw_tags.c)
    "out-of-bounds",         // Generic: the shadow says a redzone, no better name
    "slab-out-of-bounds",    // an object's redzone or the next slot
    "slab-use-after-free",   // a freed slab object
    "use-after-free",        // a freed page or vmalloc area
    "stack-out-of-bounds",   // a thread stack's leftover or guard
    "vmalloc-out-of-bounds", // past a vmalloc area's size
    "double-free",           // kasan_slab_pre_free / check_page_allocation
    "invalid-free",
    "bad-page-state",        // mm/page_alloc.c bad_page(): a tag in page->flags at free
    "page-fault",            // a tag-check fault that is not a KASAN report
    "KFENCE: invalid-free",
};

inline bool known_bug_type(const std::string& t) {
    for (const char* k : kBugTypes)
        if (t == k) return true;
    return false;
}

inline std::string bug_type_list() {
    std::string out;
    for (const char* k : kBugTypes) out += (out.empty() ? "" : ", ") + std::string(k);
    return out;
}

}  // namespace tagproof::spec
