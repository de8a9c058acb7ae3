// Reading kmem tracepoint text as /sys/kernel/tracing/trace and trace-cmd print it.
#include <gtest/gtest.h>

#include <sstream>

#include "config.hpp"
#include "error.hpp"
#include "kmem_trace.hpp"
#include "variant.hpp"

using namespace tagproof;
using namespace tagproof::reference;

namespace {
GfpLayout layout() {
    BuildConfig b;
    b.mode = Mode::hw_tags;
    return kernel::find_variant("linux-7.0").gfp_layout(b);
}
KmemTrace read(const std::string& text, bool lenient = false) {
    std::istringstream in(text);
    return read_kmem_trace(in, "t.trace", layout(), lenient);
}
}  // namespace

TEST(KmemTrace, ReadsEachEventInBothPrintFormats) {
    auto t = read(
        "# tracer: nop\n"
        "#\n"
        "     bash-1234    [001] d..2.  5312.123456: mm_page_alloc: page=0xfffffc0000c8d400 pfn=0x48d00 order=3 "
        "migratetype=0 gfp_flags=GFP_KERNEL|__GFP_ZERO\n"
        "     bash-1234    [001] .....  5312.123470: mm_page_free: page=fffffc0000c8d400 pfn=298240 order=3\n"
        "  kworker/0:1-42  [000] .....  5312.2: kmalloc: call_site=kmalloc_trace+0x2c/0x40 ptr=0xf2ff000004a1c000 "
        "bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
        "  kworker/0:1-42  [000] .....  5312.3: kfree: call_site=kfree_skb+0x1c/0x40 ptr=f2ff000004a1c000\n"
        "  kworker/0:1-42  [000] .....  5312.4: sched_switch: prev_comm=kworker\n"
        "     bash-1234    [002] .....  5312.5: mm_page_alloc: page=0x0 pfn=0 order=0 migratetype=1 gfp_flags=none\n");
    ASSERT_EQ(t.events.size(), 5u);
    EXPECT_EQ(t.header_lines, 2u);
    EXPECT_EQ(t.other_events, 1u);
    const auto& a = t.events[0];
    EXPECT_EQ(a.kind, KmemEvent::page_alloc);
    EXPECT_EQ(a.cpu, 1);
    EXPECT_EQ(a.pfn, 0x48d00u);
    EXPECT_EQ(a.order, 3u);
    EXPECT_EQ(a.gfp, layout().parse("GFP_KERNEL|__GFP_ZERO", "test"));
    EXPECT_EQ(t.events[1].pfn, 298240u);  // decimal pfn (before v5.19) is the same page
    EXPECT_EQ(t.events[2].ptr, 0xf2ff000004a1c000u);
    EXPECT_EQ(t.events[2].bytes_alloc, 128u);
    EXPECT_EQ(t.events[3].ptr, t.events[2].ptr);  // %p without 0x
    EXPECT_EQ(t.events[4].gfp, 0u);                // "none"
    EXPECT_EQ(t.events[4].line, 8u);
}

TEST(KmemTrace, BadLinesNameFileAndLine) {
    const std::string good = "x-1 [000] ..... 1.0: mm_page_free: page=0 pfn=5 order=0\n";
    try {
        read(good + "x-1 [000] ..... 1.0: mm_page_alloc: page=0 pfn=5 order=0 gfp_flags=GFP_KERNAL\n");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where(), "t.trace:2");
        EXPECT_NE(std::string(e.what()).find("GFP_KERNAL"), std::string::npos) << e.what();
    }
    EXPECT_THROW(read("x-1 [000] ..... 1.0: mm_page_free: page=0 order=0\n"), InputError);         // no pfn
    EXPECT_THROW(read("x-1 [000] ..... 1.0: mm_page_free: page=0 pfn=12ab order=0\n"), InputError);  // not decimal
    EXPECT_THROW(read("x-1 [000] ..... 1.0: mm_page_free: page=0 pfn=1 order=11\n"), InputError);
    EXPECT_THROW(read("x-1 [000] ..... 1.0: kmalloc: ptr=0x1 bytes_req=64 bytes_alloc=32 gfp_flags=GFP_KERNEL\n"),
                 InputError);
}

TEST(KmemTrace, LenientSkipsAndCounts) {
    auto t = read(
        "x-1 [000] ..... 1.0: mm_page_free: page=0 order=0\n"
        "x-1 [000] ..... 1.0: mm_page_free: page=0 pfn=7 order=0\n"
        "x-1 [000] ..... 1.0: kfree: call_site=f ptr=zz\n",
        true);
    EXPECT_EQ(t.events.size(), 1u);
    EXPECT_EQ(t.malformed, 2u);
    ASSERT_EQ(t.first_errors.size(), 2u);
    EXPECT_NE(t.first_errors[0].find("t.trace:1: missing pfn="), std::string::npos) << t.first_errors[0];
}
