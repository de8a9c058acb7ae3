// cost.hpp — the work the kernel does for KASAN, as the reference counts it
// per event (DESIGN §5, issue 5): tag-setting calls and the instructions
// mte_set_mem_tag_range() issues for them (mte_cost.hpp), pages whose tags
// tag_clear_highpage() clears, pages zeroed by clear_page, granules checked
// by accesses, and the sampling decisions of kasan_unpoison_pages().
#pragma once
#include <cstdint>
#include <ostream>

namespace tagproof::reference {

struct Cost {
    std::uint64_t events = 0;
    std::uint64_t page_allocs = 0, pages_allocated = 0, page_frees = 0;
    std::uint64_t tag_calls = 0;              // mte_set_mem_tag_range() calls
    std::uint64_t granules_tagged = 0;        // ... granules they retag (with or without init)
    std::uint64_t stg = 0, stzg = 0;          // per-granule tag stores (STZG: init, zeroing the data)
    std::uint64_t dc_gva = 0, dc_gzva = 0;    // per-block tag stores (DC GZVA: init)
    std::uint64_t pages_tag_cleared = 0;      // tag_clear_highpage(): tags := 0 (and data, with init)
    std::uint64_t pages_zeroed = 0;           // clear_page() by kernel_init_pages / clear_highpage
    std::uint64_t dc_zva = 0;                 // ... its DC ZVA blocks (zeroing without tagging)
    std::uint64_t granules_checked = 0;       // tag checks on loads and stores
    std::uint64_t random_tags = 0;            // kasan_random_tag() calls
    std::uint64_t unpoisoned_allocs = 0;      // kasan_unpoison_pages() returned true
    std::uint64_t sampled_out = 0;            // ... declined because of kasan.page_alloc.sample

    // Tag-setting instructions of any kind: what a tagging saving is about.
    std::uint64_t tag_instructions() const { return stg + stzg + dc_gva + dc_gzva; }
    // Tag setting and page zeroing together: a patch that skips tagging with
    // init moves the zeroing to clear_page, and only the difference is saved.
    std::uint64_t store_instructions() const { return tag_instructions() + dc_zva; }
};

// "name value" lines, one per counter, in a fixed order.
inline void print_cost(std::ostream& os, const Cost& c, const char* indent = "  ") {
    auto line = [&](const char* n, std::uint64_t v) { os << indent << n << ' ' << v << '\n'; };
    line("events", c.events);
    line("page_allocs", c.page_allocs);
    line("pages_allocated", c.pages_allocated);
    line("page_frees", c.page_frees);
    line("tag_calls", c.tag_calls);
    line("granules_tagged", c.granules_tagged);
    line("stg", c.stg);
    line("stzg", c.stzg);
    line("dc_gva", c.dc_gva);
    line("dc_gzva", c.dc_gzva);
    line("tag_instructions", c.tag_instructions());
    line("pages_tag_cleared", c.pages_tag_cleared);
    line("pages_zeroed", c.pages_zeroed);
    line("dc_zva", c.dc_zva);
    line("store_instructions", c.store_instructions());
    line("granules_checked", c.granules_checked);
    line("random_tags", c.random_tags);
    line("unpoisoned_allocs", c.unpoisoned_allocs);
    line("sampled_out", c.sampled_out);
}

}  // namespace tagproof::reference
