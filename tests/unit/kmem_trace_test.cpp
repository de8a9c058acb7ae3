// Reading kmem tracepoint text as /sys/kernel/tracing/trace, trace-cmd report
// and perf script print it, and what replay makes of each tracepoint (issue 16).
#include <gtest/gtest.h>

#include <sstream>

#include "config.hpp"
#include "error.hpp"
#include "kmem_trace.hpp"
#include "replay.hpp"
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
        "     bash-1234    [002] .....  5312.5: mm_page_alloc: page=0x1 pfn=0 order=0 migratetype=1 gfp_flags=none\n");
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

namespace {
std::string what_of(const std::string& text, bool lenient = false) {
    try {
        KmemTrace t = read(text, lenient);
        check_is_trace(t);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}
const char* kAlloc = "page=0xfffffc0000c8d400 pfn=0x48d00 order=0 migratetype=0 gfp_flags=GFP_KERNEL";
}  // namespace

TEST(KmemTrace, ReadsEveryToolsLineForm) {
    const std::string a = kAlloc;
    const std::string lines[] = {
        "mm_page_alloc: " + a,                                                        // column 0, a mail's quote
        "   mm_page_alloc: " + a,                                                     // the same, indented
        "            bash-1234    [001] d..2.  5312.123456: mm_page_alloc: " + a,     // /sys/kernel/tracing/trace
        "            bash-1234    (   1234) [001] d..2.  5312.123456: mm_page_alloc: " + a,  // ... with record-tgid
        "            bash-1234    [001]  5312.123456: mm_page_alloc: " + a,            // ... without irq-info
        "            bash-1234  [001]  5312.123456: mm_page_alloc:        " + a,       // trace-cmd report
        "            bash  1234 [001]  5312.123456: kmem:mm_page_alloc: " + a,        // perf script
        "     Web Content  1234/1240 [001]  5312.123456: kmem:mm_page_alloc: " + a,   // perf script, tid, a comm with a space
        "            bash  1234 [001] kmem:mm_page_alloc: " + a,                      // perf script -F comm,pid,cpu,event,trace
    };
    for (const std::string& l : lines) {
        KmemTrace t = read(l + "\n");
        ASSERT_EQ(t.events.size(), 1u) << l;
        EXPECT_EQ(t.events[0].kind, KmemEvent::page_alloc) << l;
        EXPECT_EQ(t.events[0].pfn, 0x48d00u) << l;
        EXPECT_EQ(t.events[0].cpu, l.find("[001]") == std::string::npos ? -1 : 1) << l;
        EXPECT_EQ(t.other_events + t.non_event_lines, 0u) << l;
    }
    // CRLF line ends and a byte-order mark, as an editor on another system saves a quote
    KmemTrace crlf = read("\xEF\xBB\xBFmm_page_alloc: " + a + "\r\nmm_page_free: page=1 pfn=0x48d00 order=0\r\n");
    EXPECT_EQ(crlf.events.size(), 2u);
    // another system's event of the same name is not kmem's
    KmemTrace t = read("            bash  1234 [001]  5312.1: mykmem:mm_page_alloc: " + a + "\n");
    EXPECT_EQ(t.events.size(), 0u);
    EXPECT_EQ(t.other_by_name.at("mykmem:mm_page_alloc"), 1u);
}

TEST(KmemTrace, FreeTracepointsOfEveryEra) {
    auto t = read(
        "x-1 [000] ..... 1.0: mm_page_free_direct: page=fffffc0000800000 pfn=131072 order=2\n"
        "x-1 [000] ..... 1.1: mm_page_free_batched: page=0xfffffc0000800000 pfn=0x20004 order=0\n"
        "x-1 [000] ..... 1.2: mm_page_free_batched: page=0xfffffc0000800000 pfn=0x20005\n"
        "x-1 [000] ..... 1.3: mm_pagevec_free: page=fffffc0000800000 pfn=131078 order=0 cold=1\n"
        "x-1 [000] ..... 1.4: mm_page_pcpu_drain: page=0xfffffc0000800000 pfn=0x20008 order=3 migratetype=1\n"
        "x-1 [000] ..... 1.5: kmalloc_node: call_site=f ptr=ffff000000001000 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=0\n");
    ASSERT_EQ(t.events.size(), 6u);
    using Tp = KmemEvent::Tp;
    const Tp want[] = {Tp::mm_page_free_direct, Tp::mm_page_free_batched, Tp::mm_page_free_batched,
                       Tp::mm_pagevec_free,     Tp::mm_page_pcpu_drain,   Tp::kmalloc_node};
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(t.events[i].tp, want[i]) << i;
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(t.events[i].kind, KmemEvent::page_free) << i;
    EXPECT_EQ(t.events[0].order, 2u);
    EXPECT_EQ(t.events[2].order, 0u);  // batched: no order printed, always 0
    EXPECT_EQ(t.events[4].order, 3u);
    EXPECT_EQ(t.events[5].kind, KmemEvent::kmalloc);
    EXPECT_NE(what_of("x-1 [000] ..... 1.1: mm_page_free_batched: page=0 pfn=0x20004 order=1\n").find(
                  "t.trace:1: order=1: mm_page_free_batched always prints order=0"),
              std::string::npos);
}

TEST(KmemTrace, KfreeOfNullIsANoOpInEveryPrintForm) {
    auto t = read(
        "x-1 [000] ..... 1.0: kfree: call_site=f ptr=(null)\n"
        "x-1 [000] ..... 1.0: kfree: call_site=f ptr=0000000000000000\n"
        "x-1 [000] ..... 1.0: kfree: call_site=f ptr=0x0\n"
        "x-1 [000] ..... 1.0: kfree: call_site=f ptr=0\n"
        "x 1 [000] 1.0: kmem:kfree: call_site=f ptr=(nil)\n"
        "x-1 [000] ..... 1.0: kfree: call_site=f ptr=0000000000000010\n"  // ZERO_SIZE_PTR
        "x-1 [000] ..... 1.0: kmalloc: call_site=f ptr=(null) bytes_req=99999999999 bytes_alloc=0 gfp_flags=GFP_KERNEL\n"
        "x-1 [000] ..... 1.0: mm_page_alloc: page=(null) pfn=0 order=10 migratetype=0 gfp_flags=GFP_KERNEL\n"
        "x-1 [000] ..... 1.0: mm_page_alloc: page=0000000000000000 pfn=0x0 order=9 migratetype=0 gfp_flags=GFP_KERNEL\n");
    EXPECT_EQ(t.events.size(), 0u);
    EXPECT_EQ(t.kfree_null, 5u);
    EXPECT_EQ(t.kfree_zero_size, 1u);
    EXPECT_EQ(t.failed_kmallocs, 1u);
    EXPECT_EQ(t.failed_page_allocs, 2u);
    EXPECT_EQ(t.noops(), 9u);
    EXPECT_EQ(t.accounted(), t.lines);
}

TEST(KmemTrace, CountsLinesNotReplayedByReason) {
    auto t = read(
        "cpus=2\n"                                       // trace-cmd report
        "version = 6\n"
        "CPU 1 is empty\n"
        "# tracer: nop\n"
        "\n"
        "x-1 [000] ..... 1.0: sched_switch: prev_comm=x ==> next_comm=y\n"
        "x-1 [000] ..... 1.1: sched_switch: prev_comm=y ==> next_comm=x\n"
        "x 1 [000] 1.2: sched:sched_wakeup: comm=x pid=1\n"
        "x-1 [000] ..... 1.3: kmem_cache_alloc: call_site=f ptr=ffff000000001000 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL\n"
        "x-1 [000] ..... 1.4: kmem_cache_free: call_site=f ptr=ffff000000001000 name=dentry\n"
        "x-1 [000] ..... 1.5: mm_page_alloc_zone_locked: page=0 pfn=0x1 order=0 migratetype=0 percpu_refill=1\n"
        "CPU:1 [LOST 12 EVENTS]\n"
        "CPU:0 [7 EVENTS DROPPED]\n"
        "x-1 [000] ..... 1.6: do_sys_open <-__arm64_sys_openat\n"  // the function tracer
        "Quoted from a mail: nothing here is an event\n"
        "x-1 [000] ..... 1.7: kfree: call_site=f ptr=(null)\n"
        "x-1 [000] ..... 1.8: kfree: call_site=f ptr=ffff000000002000\n"
        "x-1 [000] ..... 1.9: kfree: call_site=f ptr=zz\n",
        true);
    EXPECT_EQ(t.lines, 18u);
    EXPECT_EQ(t.header_lines, 5u);
    EXPECT_EQ(t.other_events, 4u);
    EXPECT_EQ(t.other_by_name.at("sched_switch"), 2u);
    EXPECT_EQ(t.other_by_name.at("sched:sched_wakeup"), 1u);
    EXPECT_EQ(t.kmem_not_replayed, 3u);
    EXPECT_EQ(t.kmem_not_replayed_by_name.at("kmem_cache_free"), 1u);
    EXPECT_EQ(t.lost_markers, 2u);
    EXPECT_EQ(t.lost_events, 19u);
    EXPECT_EQ(t.non_event_lines, 1u);
    EXPECT_EQ(t.kfree_null, 1u);
    EXPECT_EQ(t.events.size(), 1u);
    EXPECT_EQ(t.malformed, 1u);
    EXPECT_EQ(t.not_replayed(), 16u);
    EXPECT_EQ(t.accounted(), t.lines);
}

TEST(KmemTrace, NumbersOutOfRangeNameFieldAndRange) {
    const std::string h = "x-1 [000] ..... 1.0: ";
    struct Case {
        std::string line, want;
    } cases[] = {
        {h + "mm_page_free: page=0 pfn=0x10000000000 order=0", "t.trace:1: pfn=0x10000000000: out of range 0..0xffffffffff (2^40 pages"},
        {h + "mm_page_free: page=0 pfn=99999999999999999999999 order=0", "pfn=99999999999999999999999: out of range 0..0xffffffffff"},
        {h + "mm_page_free: page=0 pfn=0x48d01 order=3", "pfn=0x48d01 order=3: not the head of an order-3 block"},
        {h + "mm_page_free: page=0 pfn=1 order=11", "order=11: out of range 0..10 (MAX_PAGE_ORDER"},
        {h + "mm_page_free: page=0 pfn=1 order=-1", "order=-1: expected a number 0..10"},
        {h + "kmalloc: ptr=0x1000 bytes_req=64 bytes_alloc=1099511627776 gfp_flags=GFP_KERNEL",
         "bytes_alloc=1099511627776: out of range 0..4194304 (KMALLOC_MAX_SIZE"},
        {h + "kmalloc: ptr=0x1000 bytes_req=4194305 bytes_alloc=4194305 gfp_flags=GFP_KERNEL", "bytes_req=4194305: out of range"},
        {h + "kmalloc: ptr=0x1000 bytes_req=18446744073709551616 bytes_alloc=0 gfp_flags=GFP_KERNEL", "bytes_req=18446744073709551616: out of range"},
        {h + "kfree: call_site=f ptr=ffff0000000010000", "ptr=ffff0000000010000: out of range: a pointer has 64 bits"},
        {h + "kfree: call_site=f ptr=(____ptrval____)", "ptr=(____ptrval____): the kernel printed no pointer"},
        {"x-1 [8192] ..... 1.0: kfree: call_site=f ptr=1000", "CPU [8192]: out of range 0..8191 (NR_CPUS)"},
        {h + "mm_page_alloc: page=1 pfn=1 order=0 migratetype=0", "t.trace:1: missing gfp_flags="},
    };
    for (const Case& c : cases) {
        const std::string w = what_of(c.line + "\n");
        EXPECT_NE(w.find(c.want), std::string::npos) << c.line << "\n  -> " << w;
    }
}

TEST(KmemTrace, LongTokensAreCutInMessages) {
    const std::string big(2 << 20, '7');  // a 2 MiB line: a 2 MiB pfn
    std::string w = what_of("x-1 [000] ..... 1.0: mm_page_free: page=0 pfn=" + big + " order=0\n");
    EXPECT_LT(w.size(), 300u) << w.substr(0, 300);
    EXPECT_NE(w.find("t.trace:1: pfn=7777777"), std::string::npos) << w;
    EXPECT_NE(w.find("... (2097156 bytes)"), std::string::npos) << w;
    w = what_of("x-1 [000] ..... 1.0: mm_page_alloc: page=1 pfn=1 order=0 gfp_flags=GFP_KERNEL|" + big + "\n");
    EXPECT_LT(w.size(), 300u) << w.substr(0, 300);
    EXPECT_NE(w.find("(2097152 bytes): no GFP flag is that long"), std::string::npos) << w;
}

TEST(KmemTrace, InputThatIsNoTraceIsAnError) {
    EXPECT_EQ(what_of(""), "t.trace: empty file: no trace lines");
    EXPECT_EQ(what_of("", true), "t.trace: empty file: no trace lines");
    // binary: the line, the byte and where it is
    std::string w = what_of(std::string("x-1 [000] ..... 1.0: kfree: call_site=f ptr=(null)\nab\0cd\n", 57));
    EXPECT_NE(w.find("t.trace:2: not text: byte 0x00 at column 3 (file offset 53): a binary file"), std::string::npos) << w;
    w = what_of(std::string("\x17\x08\x44tracing6\0", 13));
    EXPECT_NE(w.find("t.trace:1: not text: byte 0x17 at column 1"), std::string::npos) << w;
    EXPECT_NE(w.find("trace-cmd report"), std::string::npos) << w;
    // lenient skips binary lines, and a file of nothing else is still no trace
    w = what_of(std::string("\x01\x02\n\x7f\n", 5), true);
    EXPECT_NE(w.find("t.trace: not text: 2 of 2 lines are not text (first: line 1: byte 0x01 at column 1"), std::string::npos) << w;
    w = what_of("# tracer: nop\n#\n\nhello world\n");
    EXPECT_NE(w.find("t.trace: no trace event lines: 4 lines (3 headers or blank, 1 other text), none of the form"), std::string::npos) << w;
    // a trace of other tracepoints only is a trace: 0 kmem events
    EXPECT_EQ(what_of("x-1 [000] ..... 1.0: sched_switch: prev_comm=x ==> next_comm=y\n"), "no error");
    // a line longer than any trace line
    w = what_of(std::string(kMaxLineBytes + 1, 'a') + "\n");
    EXPECT_NE(w.find("t.trace:1: line of 16777217 bytes, longer than any trace line"), std::string::npos) << w;
}

namespace {
ReplayResult replay_text(const std::string& text) {
    const auto& v = kernel::find_variant("linux-7.0");
    RefConfig c;
    c.build.mode = Mode::hw_tags;
    return replay_kmem_trace(v, c, read(text));
}
}  // namespace

TEST(KmemReplay, BatchedFreesAndDrainsAreNeverSecondFrees) {
    const std::string alloc = " mm_page_alloc: page=1 pfn=0x20000 order=0 migratetype=0 gfp_flags=GFP_KERNEL\n";
    // v6.x: mm_page_free, then mm_page_free_batched, then the drain: one free
    ReplayResult r = replay_text("x-1 [000] ..... 1.0:" + alloc +
                                 "x-1 [000] ..... 1.1: mm_page_free: page=1 pfn=0x20000 order=0\n"
                                 "x-1 [000] ..... 1.2: mm_page_free_batched: page=1 pfn=0x20000 order=0\n"
                                 "x-1 [000] ..... 1.3: mm_page_pcpu_drain: page=1 pfn=0x20000 order=0 migratetype=0\n"
                                 "x-1 [000] ..... 1.4:" + alloc);
    EXPECT_EQ(r.uaf_probes, 1u);
    EXPECT_EQ(r.free_told_twice, 1u);
    EXPECT_EQ(r.drains, 1u);
    EXPECT_EQ(r.frees_before_trace + r.missed_frees + r.drained_unfreed, 0u);
    // v3.3: the batched event first, then its mm_page_free
    r = replay_text("x-1 [000] ..... 1.0:" + alloc +
                    "x-1 [000] ..... 1.2: mm_page_free_batched: page=1 pfn=131072 order=0 cold=0\n"
                    "x-1 [000] ..... 1.1: mm_page_free: page=1 pfn=131072 order=0\n"
                    "x-1 [000] ..... 1.4:" + alloc);
    EXPECT_EQ(r.uaf_probes, 1u);
    EXPECT_EQ(r.free_told_twice, 1u);
    EXPECT_EQ(r.frees_before_trace + r.missed_frees, 0u);
    // only mm_page_free_batched recorded: it is the free
    r = replay_text("x-1 [000] ..... 1.0:" + alloc + "x-1 [000] ..... 1.2: mm_page_free_batched: page=1 pfn=0x20000\n" +
                    "x-1 [000] ..... 1.4:" + alloc);
    EXPECT_EQ(r.uaf_probes, 1u);
    EXPECT_EQ(r.free_told_twice + r.frees_before_trace + r.missed_frees, 0u);
    // a drain of a page the trace has allocated: its free was lost
    r = replay_text("x-1 [000] ..... 1.0:" + alloc +
                    "x-1 [000] ..... 1.3: mm_page_pcpu_drain: page=1 pfn=0x20000 order=0 migratetype=0\n"
                    "x-1 [000] ..... 1.4:" + alloc);
    EXPECT_EQ(r.drained_unfreed, 1u);
    EXPECT_EQ(r.missed_frees + r.frees_before_trace + r.drains, 0u);
    EXPECT_TRUE(r.violation_counts.empty());
}

TEST(KmemReplay, KmallocZeroAndItsKfreeAreNoOps) {
    // %p hashes ZERO_SIZE_PTR like any pointer: the kfree names what kmalloc(0) printed
    ReplayResult r = replay_text(
        "x-1 [000] ..... 1.0: kmalloc: call_site=f ptr=00000000c0ffee11 bytes_req=0 bytes_alloc=0 gfp_flags=GFP_KERNEL\n"
        "x-1 [000] ..... 1.1: kfree: call_site=f ptr=00000000c0ffee11\n");
    EXPECT_EQ(r.kmalloc_zero, 1u);
    EXPECT_EQ(r.kfree_zero_size, 1u);
    EXPECT_EQ(r.frees_before_trace, 0u);
    EXPECT_EQ(r.noops(), 2u);
}

TEST(KmemReplay, TooManyChunksIsAnErrorBeforeAnyMemoryIsTaken) {
    std::string text;
    for (std::uint64_t c = 0; c <= kMaxChunks; ++c)
        text += "x-1 [000] ..... 1.0: mm_page_free: page=1 pfn=" + std::to_string(c * kChunkPages) + " order=0\n";
    try {
        replay_text(text);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where(), "t.trace:4097");
        EXPECT_NE(std::string(e.what()).find("pfn=0x400000: the trace's page events span more than 4096 chunks"),
                  std::string::npos)
            << e.what();
    }
}
