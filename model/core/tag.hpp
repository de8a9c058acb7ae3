// tag.hpp — KASAN tags and MTE tag nibbles.
//
// Values from include/linux/kasan-tags.h and arch/arm64/include/asm/kasan-tags.h
// (unchanged for arm64 from v5.15 to the 2026 mm tree):
//   KASAN_TAG_KERNEL  0xFF  native pointer tag; match-all under TCR_EL1.TCMA1
//   KASAN_TAG_INVALID 0xFE  poison: freed memory and redzones
//   KASAN_TAG_MAX     0xFD  largest random tag
//   KASAN_TAG_MIN     0xF0 with HW_TAGS (GCR_EL1 exclude mask admits nibbles
//                    0x0..0xD only), 0x00 with SW_TAGS
// An MTE allocation tag is 4 bits per 16-byte granule; mte_get_ptr_tag() reads
// a pointer's tag as 0xF0 | (top byte & 0xF), so KASAN tag k <-> nibble k & 0xF.
#pragma once
#include <cstdint>
#include <string>

namespace tagproof {

using Tag = std::uint8_t;

inline constexpr Tag KASAN_TAG_KERNEL = 0xFF;
inline constexpr Tag KASAN_TAG_INVALID = 0xFE;
inline constexpr Tag KASAN_TAG_MAX = 0xFD;
inline constexpr Tag KASAN_TAG_MIN_HW = 0xF0;
inline constexpr Tag KASAN_TAG_MIN_SW = 0x00;

// Poison values stored in memory tags (tag modes): all of KASAN_PAGE_FREE,
// KASAN_PAGE_REDZONE, KASAN_SLAB_REDZONE, KASAN_SLAB_FREE and
// KASAN_VMALLOC_INVALID are KASAN_TAG_INVALID (mm/kasan/kasan.h).
// Generic shadow codes (mm/kasan/kasan.h, Generic branch):
inline constexpr std::uint8_t KASAN_PAGE_FREE_GENERIC = 0xFF;
inline constexpr std::uint8_t KASAN_PAGE_REDZONE_GENERIC = 0xFE;
inline constexpr std::uint8_t KASAN_SLAB_REDZONE_GENERIC = 0xFC;
inline constexpr std::uint8_t KASAN_SLAB_FREE_GENERIC = 0xFB;
inline constexpr std::uint8_t KASAN_VMALLOC_INVALID_GENERIC = 0xF8;

// MTE: the nibble the hardware stores for a KASAN tag, and back.
inline constexpr std::uint8_t mte_nibble(Tag t) { return t & 0x0F; }
inline constexpr Tag mte_tag_from_nibble(std::uint8_t n) { return Tag(0xF0 | (n & 0x0F)); }

inline std::string tag_hex(Tag t) {
    static const char* d = "0123456789abcdef";
    return std::string{d[t >> 4], d[t & 15]};
}

}  // namespace tagproof
