// address_map.hpp — the arm64 kernel address layout both the model and the
// reference use (48-bit VA, 4 KiB pages): where the linear map and the
// vmalloc area start, and the mask that drops a pointer's top byte.
#pragma once
#include <cstdint>

namespace tagproof {

inline constexpr std::uint64_t PAGE_SIZE = 4096;
// arm64 48-bit VA: the linear map and the vmalloc area, with the top byte a
// reset (match-all) kernel pointer has.
inline constexpr std::uint64_t LINEAR_BASE = 0xffff000000000000ull;
inline constexpr std::uint64_t VMALLOC_BASE = 0xffff800080000000ull;
inline constexpr std::uint64_t ADDR_MASK = 0x00ffffffffffffffull;

}  // namespace tagproof
