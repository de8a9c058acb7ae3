// accessinfo.hpp — the AccessInfo immediate of llvm.hwasan.check.memaccess, as
// the compiler encodes it for SW_TAGS kernels and the kernel decodes it
// (HWASanAccessInfo in LLVM's HWAddressSanitizer.h; arch/arm64 kasan_handler,
// __hwasan_tag_mismatch; ../shared/reference/tag-checks.md §3).
//
//   bits 0-3   log2(access size), 0..4 -> 1, 2, 4, 8, 16 bytes
//   bit  4     is write (stores, atomicrmw, cmpxchg)
//   bit  5     recover (always for kernel-hwaddress)
//   bits 16-23 the match-all tag (0xFF in the kernel)
//   bit  24    has match-all
//   bit  25    compile kernel (direct B __hwasan_tag_mismatch, no GOT)
// Only bits 0-15 reach the runtime (x1, or the BRK immediate 0x900 + them).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace tagproof::kernel {

inline constexpr unsigned kAccessSizeShift = 0, kIsWriteShift = 4, kRecoverShift = 5, kMatchAllShift = 16,
                          kHasMatchAllShift = 24, kCompileKernelShift = 25;
inline constexpr std::uint64_t kAccessInfoRuntimeMask = 0xFFFF;
inline constexpr std::uint64_t kKasanBrkImm = 0x900, kKasanBrkMask = 0xFF;

struct AccessInfo {
    unsigned size_log2 = 0;  // 0..4
    bool is_write = false;
    bool recover = true;
    bool has_match_all = true;
    std::uint8_t match_all = 0xFF;
    bool compile_kernel = true;
};

// Over the value domain, so the solver can prove the round trip (tag-checks.md §9.9).
template <class D>
typename D::Word accessinfo_encode(typename D::Word size_log2, typename D::Bool is_write, typename D::Bool recover,
                                   typename D::Word match_all, typename D::Bool has_match_all,
                                   typename D::Bool compile_kernel) {
    auto bit = [](typename D::Bool b, unsigned shift) { return D::ite(b, D::lit(std::uint64_t(1) << shift), D::lit(0)); };
    return (size_log2 & D::lit(0xF)) | bit(is_write, kIsWriteShift) | bit(recover, kRecoverShift) |
           ((match_all & D::lit(0xFF)) * D::lit(std::uint64_t(1) << kMatchAllShift)) |
           bit(has_match_all, kHasMatchAllShift) | bit(compile_kernel, kCompileKernelShift);
}
// What the kernel reads from the runtime part: size = 1 << (info & 0xf), write = info & 0x10.
template <class D>
typename D::Word accessinfo_runtime_size(typename D::Word info) {
    return D::ite((info & D::lit(0xF)) == D::lit(0), D::lit(1),
                  D::ite((info & D::lit(0xF)) == D::lit(1), D::lit(2),
                         D::ite((info & D::lit(0xF)) == D::lit(2), D::lit(4),
                                D::ite((info & D::lit(0xF)) == D::lit(3), D::lit(8), D::lit(16)))));
}

std::uint64_t encode(const AccessInfo& a);
AccessInfo decode(std::uint64_t value);  // the full immediate
std::string describe(const AccessInfo& a);

// "__hwasan_check_x8_67043362" -> register 8 and the immediate; nullopt if not one.
struct CheckSymbol {
    unsigned reg = 0;
    std::uint64_t info = 0;
};
// Throws InputError naming what is wrong with the symbol.
CheckSymbol parse_check_symbol(const std::string& symbol);

}  // namespace tagproof::kernel
