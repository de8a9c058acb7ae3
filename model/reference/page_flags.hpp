// page_flags.hpp — struct page's flags word as the reference keeps it: the
// KASAN tag bits in a field (KASAN_TAG_WIDTH, include/linux/page-flags-layout.h)
// holding whatever the variant's page_kasan_tag_field rule stores (tag XOR
// 0xff in every modelled era: the all-zero flags of a fresh page read as
// 0xff, match-all); RefKernel decodes them with the variant's page_kasan_tag
// rule (include/linux/mm.h). Without KASAN enabled the getter returns 0xff
// and the setter does nothing, as there.
//
// The field's position depends on the configuration (sections, nodes, zones,
// last_cpupid above it); KASAN_TAG_PGSHIFT below is one such layout. No
// decision depends on it, only on the field sharing the word with the page
// flag bits, which is why the setter masks.
#pragma once
#include <cstdint>

#include "tag.hpp"

namespace tagproof::reference {

inline constexpr unsigned KASAN_TAG_PGSHIFT = 40;
inline constexpr std::uint64_t KASAN_TAG_MASK = 0xFF;

// The page flag bits the KASAN decisions read or write (bit numbers are the
// reference's own; the kernel's depend on the configuration too).
enum PageFlagBit : unsigned {
    PG_skip_kasan_poison = 0,  // CONFIG_KASAN_HW_TAGS: do not poison at free
    PG_head = 1,               // compound head (the tag of a folio is its head's)
};

struct PageFlags {
    std::uint64_t word = 0;

    bool test(PageFlagBit b) const { return (word >> b) & 1; }
    void set(PageFlagBit b) { word |= std::uint64_t(1) << b; }
    void clear(PageFlagBit b) { word &= ~(std::uint64_t(1) << b); }

    std::uint64_t kasan_field() const { return (word >> KASAN_TAG_PGSHIFT) & KASAN_TAG_MASK; }
    void set_kasan_field(std::uint64_t stored) {
        word = (word & ~(KASAN_TAG_MASK << KASAN_TAG_PGSHIFT)) | ((stored & KASAN_TAG_MASK) << KASAN_TAG_PGSHIFT);
    }
};

}  // namespace tagproof::reference
