// AccessInfo: the compiler's encoding and the kernel's decoding agree for every
// access size, read or write, and register (tag-checks.md §9.9).
#include <gtest/gtest.h>

#include "checks/accessinfo.hpp"
#include "domain.hpp"
#include "error.hpp"

using namespace tagproof;
using namespace tagproof::kernel;

TEST(AccessInfo, KernelValuesRoundTrip) {
    for (unsigned k = 0; k <= 4; ++k)
        for (bool w : {false, true}) {
            AccessInfo a;
            a.size_log2 = k;
            a.is_write = w;
            std::uint64_t v = encode(a);
            EXPECT_EQ(v, (w ? 0x03FF0030u : 0x03FF0020u) + k);
            AccessInfo b = decode(v);
            EXPECT_EQ(b.size_log2, k);
            EXPECT_EQ(b.is_write, w);
            EXPECT_TRUE(b.recover && b.has_match_all && b.compile_kernel);
            EXPECT_EQ(b.match_all, 0xFF);
            // what the kernel reads from the runtime part (x1 or the BRK immediate)
            std::uint64_t rt = v & kAccessInfoRuntimeMask;
            EXPECT_EQ(accessinfo_runtime_size<Concrete>(rt), 1u << k);
            EXPECT_EQ((rt & 0x10) != 0, w);
            EXPECT_EQ(((kKasanBrkImm + rt) & ~kKasanBrkMask), kKasanBrkImm);
        }
}

TEST(AccessInfo, SymbolsForEveryRegister) {
    for (unsigned r = 0; r <= 30; ++r)
        for (unsigned k = 0; k <= 4; ++k) {
            AccessInfo a;
            a.size_log2 = k;
            std::string sym = "__hwasan_check_x" + std::to_string(r) + "_" + std::to_string(encode(a));
            CheckSymbol c = parse_check_symbol(sym);
            EXPECT_EQ(c.reg, r);
            EXPECT_EQ(c.info, encode(a));
        }
    EXPECT_EQ(describe(decode(parse_check_symbol("__hwasan_check_x8_67043362").info)),
              "4-byte load, recover, match-all 0xff, kernel");
}

TEST(AccessInfo, BadSymbolsAreNamed) {
    for (const char* bad : {"__hwasan_check_x31_67043362", "__hwasan_check_x8", "__hwasan_check_x8_abc",
                            "__hwasan_check_x8_67043365", "hwasan_check_x8_1"})
        EXPECT_THROW(parse_check_symbol(bad), InputError) << bad;
}
