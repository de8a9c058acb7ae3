// The reference kernel on its own: state kept the kernel's way, the cost it
// charges, trace replay's bookkeeping, and the seed workloads' tagging work.
// (That it agrees with the model is tests/property/differential_property_test.cpp.)
#include <gtest/gtest.h>

#include <sstream>

#include "boot_params.hpp"
#include "error.hpp"
#include "ref_kernel.hpp"
#include "replay.hpp"
#include "variant.hpp"
#include "workloads.hpp"

using namespace tagproof;
using namespace tagproof::reference;

namespace {

RefConfig config(const std::string& boot = "", std::uint64_t pages = 64, const char* variant = "linux-7.0") {
    RefConfig c;
    c.pages = pages;
    c.boot = parse_boot_params_strict(boot, "test", kernel::find_variant(variant).boot_syntax());
    return c;
}

TEST(RefKernel, PageTagLivesInTheFlagsWordAndOnMemory) {
    const auto& v = kernel::find_variant("linux-7.0");
    XorshiftTags tags(3);
    RefKernel k(v, config(), tags);
    std::int64_t pfn = k.alloc_pages(1, k.gfp_mask("GFP_KERNEL"), 0);
    ASSERT_EQ(pfn, 2);  // first fit, naturally aligned; pfn 0 is reserved
    const Tag t = k.page_kasan_tag(std::uint64_t(pfn));
    EXPECT_NE(t, KASAN_TAG_KERNEL);
    // stored XOR 0xFF in the flags word, as include/linux/mm.h does
    EXPECT_EQ((k.page_flags(std::uint64_t(pfn)).word >> KASAN_TAG_PGSHIFT) & 0xFF, std::uint64_t(t ^ 0xFF));
    for (std::size_t g = 2 * 256; g < 4 * 256; ++g) ASSERT_EQ(k.mem_tag_nibble(g), mte_nibble(t));
    EXPECT_EQ(k.page_address(std::uint64_t(pfn)) >> 56, t);
    k.free_pages(std::uint64_t(pfn));
    for (std::size_t g = 2 * 256; g < 4 * 256; ++g) ASSERT_EQ(k.mem_tag_nibble(g), 0xE);  // poisoned
}

TEST(RefKernel, ChargesMteSetMemTagRangeInstructions) {
    const auto& v = kernel::find_variant("linux-7.0");
    XorshiftTags tags;
    RefKernel k(v, config(), tags);
    k.alloc_pages(0, k.gfp_mask("GFP_KERNEL"), 0);
    // one page, 64-byte DC GVA blocks: STG to the first block boundary (4), then 63 DC GVA
    EXPECT_EQ(k.cost().tag_calls, 1u);
    EXPECT_EQ(k.cost().stg, 4u);
    EXPECT_EQ(k.cost().dc_gva, 63u);
    EXPECT_EQ(k.cost().granules_tagged, 256u);
    RefConfig dzp = config();
    dzp.dczid = 0x14;  // DZP: DC G(Z)VA prohibited, STG granule by granule
    RefKernel k2(v, dzp, tags);
    k2.alloc_pages(0, k2.gfp_mask("GFP_KERNEL") | k2.gfp_mask("__GFP_ZERO"), 0);
    EXPECT_EQ(k2.cost().stzg, 256u);
    EXPECT_EQ(k2.cost().dc_gzva, 0u);
}

TEST(RefKernel, SyncFaultReportsOnceAndTurnsChecksOff) {
    const auto& v = kernel::find_variant("linux-7.0");
    XorshiftTags tags;
    RefKernel k(v, config("kasan_multi_shot"), tags);
    std::uint64_t p = k.kmalloc(100, k.gfp_mask("GFP_KERNEL"), 0);
    k.access(p + 100, 16, false, 0);  // into the redzone granule
    ASSERT_EQ(k.reports().size(), 1u);
    EXPECT_STREQ(k.reports()[0].bug_type, "slab-out-of-bounds");
    EXPECT_EQ(k.reports()[0].mem_tag, KASAN_TAG_INVALID);
    EXPECT_FALSE(k.tag_checks_on(0));
    k.access(p + 100, 16, false, 0);  // TCF is off on this CPU: no second report
    EXPECT_EQ(k.reports().size(), 1u);
    k.kfree(p);
    k.access(p, 1, false, 1);  // the other CPU still checks: use-after-free
    ASSERT_EQ(k.reports().size(), 2u);
    EXPECT_STREQ(k.reports()[1].bug_type, "slab-use-after-free");
}

TEST(RefKernel, RefusesSoftwareModes) {
    const auto& v = kernel::find_variant("linux-7.0");
    XorshiftTags tags;
    RefConfig c = config();
    c.build.mode = Mode::generic;
    EXPECT_THROW(RefKernel(v, c, tags), InputError);
}

TEST(Replay, CountsTraceGapsInsteadOfFailing) {
    const auto& v = kernel::find_variant("linux-7.0");
    std::istringstream in(
        "a-1 [000] ..... 1.0: mm_page_free: page=0x1 pfn=0x5000 order=0\n"                                  // freed before the trace
        "a-1 [000] d..2. 1.1: mm_page_alloc: page=0x1 pfn=0x6000 order=0 migratetype=0 gfp_flags=GFP_KERNEL\n"
        "a-1 [000] d..2. 1.2: mm_page_alloc: page=0x1 pfn=0x6000 order=1 migratetype=0 gfp_flags=GFP_KERNEL\n"  // missed free
        "a-1 [001] ..... 1.3: kfree: call_site=x ptr=0xffff000000001000\n");
    BuildConfig b;
    KmemTrace t = read_kmem_trace(in, "gaps.trace", v.gfp_layout(b));
    ReplayResult r = replay_kmem_trace(v, config(), t);
    EXPECT_EQ(r.frees_before_trace, 2u);
    EXPECT_EQ(r.missed_frees, 1u);
    EXPECT_EQ(r.page_allocs, 2u);
    EXPECT_TRUE(r.violation_counts.empty());
    EXPECT_EQ(r.cpus, 2u);
}

std::uint64_t tag_instructions(const char* workload, const char* variant, const std::string& boot, std::uint64_t it) {
    const auto& w = find_workload(workload);
    RefConfig c = config(boot, workload_pages(w), variant);
    XorshiftTags tags;
    RefKernel k(kernel::find_variant(variant), c, tags);
    run_workload(w, k, it);
    return k.cost().tag_instructions();
}

TEST(Workloads, TheSeedsSavingsAreWhereTheySayTheyAre) {
    // anjum series: kernel stacks and page tables are no longer tagged at all
    EXPECT_GT(tag_instructions("thread-creation", "linux-7.0", "", 2), 0u);
    EXPECT_EQ(tag_instructions("thread-creation", "anjum-v4", "", 2), 0u);
    EXPECT_GT(tag_instructions("fork", "linux-7.0", "", 2), 0u);
    EXPECT_EQ(tag_instructions("fork", "anjum-v4", "", 2), 0u);
    // sampling: 1 in 10 skb frag pages tagged; the slab still is
    const std::uint64_t all = tag_instructions("loopback", "sample-v3", "kasan.page_alloc.sample=1", 1000);
    const std::uint64_t sampled = tag_instructions("loopback", "sample-v3", "kasan.page_alloc.sample=10", 1000);
    EXPECT_LT(sampled, all / 4);
    EXPECT_GT(sampled, all / 20);
    EXPECT_THROW(find_workload("forks"), InputError);
}

TEST(Workloads, OnItsV61BaseSamplingSavesOnlyTheAllocationSide) {
    // seed 002 on v6.1: PG_skip_kasan_poison is never seen at free, so every
    // sampled-out frag is poisoned anyway (4 KiB granule blocks per page)
    const std::uint64_t posted = tag_instructions("loopback-on-6.1", "sample-v3-as-posted", "kasan.page_alloc.sample=10", 1000);
    const std::uint64_t merged = tag_instructions("loopback", "sample-v3", "kasan.page_alloc.sample=10", 1000);
    const std::uint64_t all = tag_instructions("loopback-on-6.1", "sample-v3-as-posted", "kasan.page_alloc.sample=1", 1000);
    EXPECT_GT(posted, merged * 3);
    EXPECT_LT(posted, all);
}

}  // namespace
