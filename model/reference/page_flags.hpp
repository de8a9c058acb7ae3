// page_flags.hpp — struct page's flags word as the reference keeps it: the
// KASAN tag in an 8-bit field (KASAN_TAG_WIDTH, include/linux/page-flags-layout.h)
// stored XOR KASAN_TAG_KERNEL, so that the all-zero flags of a fresh page
// read as 0xFF, the match-all tag, with no initialisation pass
// (include/linux/mm.h page_kasan_tag / page_kasan_tag_set). Without KASAN
// enabled the getter returns 0xFF and the setter does nothing, as there.
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

    std::uint8_t page_kasan_tag(bool kasan_enabled) const {
        if (!kasan_enabled) return 0xFF;
        return std::uint8_t(((word >> KASAN_TAG_PGSHIFT) & KASAN_TAG_MASK) ^ KASAN_TAG_KERNEL);
    }
    void page_kasan_tag_set(bool kasan_enabled, std::uint8_t tag) {
        if (!kasan_enabled) return;
        std::uint64_t stored = std::uint64_t(tag ^ KASAN_TAG_KERNEL) & KASAN_TAG_MASK;
        word = (word & ~(KASAN_TAG_MASK << KASAN_TAG_PGSHIFT)) | (stored << KASAN_TAG_PGSHIFT);
    }
    void page_kasan_tag_reset(bool kasan_enabled) { page_kasan_tag_set(kasan_enabled, KASAN_TAG_KERNEL); }
};

}  // namespace tagproof::reference
