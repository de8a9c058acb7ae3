// tree_lift_kasan_parts_test.cpp — vrealloc()'s KASAN calls and the
// mempool's hooks read in part (tree/lift_kasan_parts.cpp), on made-up C in
// the shape of each era (no kernel code in the project): what each shape
// reads as, the shapes refused with why, and the rows decided beside the
// hand eras by Z3, with a shape that differs as the control.
#include <gtest/gtest.h>

#include <map>

#include "lifted_rows.hpp"
#include "read_part.hpp"

using namespace tagproof;
using test::read_part;
using test::rule_line;
using test::rows_of;

namespace {

const char* kVmallocHead =
    "typedef unsigned long size_t;\n"
    "enum { KASAN_GRANULE_SIZE = 16, KASAN_VMALLOC_PROT_NORMAL = 1, KASAN_VMALLOC_VM_ALLOC = 2,\n"
    "       KASAN_VMALLOC_KEEP_TAG = 4 };\n"
    "#define round_up(x, y) ((((x) - 1) | ((y) - 1)) + 1)\n"
    "#define round_down(x, y) ((x) & ~((y) - 1))\n"
    "void __kasan_poison_vmalloc(const void *, unsigned long);\n"
    "void *__kasan_unpoison_vmalloc(const void *, unsigned long, int);\n"
    "void kasan_poison_vmalloc(const void *, unsigned long);\n"
    "void *kasan_unpoison_vmalloc(const void *, unsigned long, int);\n"
    "void kasan_poison_last_granule(const void *, unsigned long);\n";

// mm/kasan/common.c's __kasan_vrealloc: SHRINK and GROW are the two branches' bodies
std::string read_kasan_vrealloc(const std::string& shrink, const std::string& grow) {
    const std::string text = std::string(kVmallocHead) +
                             "void __kasan_vrealloc(const void *addr, unsigned long old_size, unsigned long new_size)\n"
                             "{\n\tif (new_size < old_size) {\n" + shrink + "\t} else if (new_size > old_size) {\n" + grow +
                             "\t}\n}\n";
    return read_part("mm/kasan/common.c", text, "__kasan_vrealloc", tree::read_kasan_vrealloc);
}

const char* kShrinkRounded =
    "\t\tkasan_poison_last_granule(addr, new_size);\n"
    "\t\tnew_size = round_up(new_size, KASAN_GRANULE_SIZE);\n"
    "\t\told_size = round_up(old_size, KASAN_GRANULE_SIZE);\n"
    "\t\tif (new_size < old_size)\n"
    "\t\t\t__kasan_poison_vmalloc(addr + new_size, old_size - new_size);\n";
const char* kGrowRounded =
    "\t\told_size = round_down(old_size, KASAN_GRANULE_SIZE);\n"
    "\t\t__kasan_unpoison_vmalloc(addr + old_size, new_size - old_size,\n"
    "\t\t\tKASAN_VMALLOC_PROT_NORMAL | KASAN_VMALLOC_VM_ALLOC | KASAN_VMALLOC_KEEP_TAG);\n";

// mm/vmalloc.c's vrealloc_noprof: BODY is its in-place part
std::string read_vrealloc(const std::string& body) {
    const std::string text = std::string(kVmallocHead) +
                             "struct vm_struct { size_t size; size_t requested_size; };\n"
                             "struct vm_struct *find_vm_area(const void *);\n"
                             "void kasan_vrealloc(const void *, unsigned long, unsigned long);\n"
                             "void *memset(void *, int, size_t);\nint want_init_on_free(void);\n"
                             "int want_init_on_alloc(int);\n"
                             "void *vrealloc_noprof(const void *p, size_t size, int flags)\n"
                             "{\n\tstruct vm_struct *vm = find_vm_area(p);\n\tsize_t old_size = vm->requested_size;\n" +
                             body + "\treturn (void *)p;\n}\n";
    return read_part("mm/vmalloc.c", text, "vrealloc_noprof", tree::read_vrealloc_kasan);
}

}  // namespace

// v6.19's __kasan_vrealloc (6.12.y): rounded starts, the grow with VM_ALLOC
// and KEEP_TAG: linux-7.0's hooks, proved equal; v6.15's unrounded,
// flagless calls differ from it (the control) and equal vrealloc-v6.15.
TEST(LiftKasanParts, KasanVreallocAsLinux70) {
    const std::string r = read_kasan_vrealloc(kShrinkRounded, kGrowRounded);
    EXPECT_EQ(rule_line(r, "vrealloc_granule_aligned"), "rule vrealloc_granule_aligned = true") << r;
    EXPECT_EQ(rule_line(r, "vrealloc_grow_vm_alloc"), "rule vrealloc_grow_vm_alloc = true") << r;
    EXPECT_EQ(rule_line(r, "vrealloc_grow_keep_tag"), "rule vrealloc_grow_keep_tag = true") << r;
    const auto era = rows_of(r, "linux-7.0", "vrealloc_gr");
    ASSERT_EQ(era.size(), 3u);
    for (const auto& [n, row] : era) EXPECT_TRUE(row.equal) << n << ": " << row.witness;

    const std::string v615 = read_vrealloc(
        "\tif (size <= old_size) {\n\t\tvm->requested_size = size;\n"
        "\t\tkasan_poison_vmalloc(p + size, old_size - size);\n\t\treturn (void *)p;\n\t}\n"
        "\tif (size <= vm->size) {\n\t\tvm->requested_size = size;\n"
        "\t\tkasan_unpoison_vmalloc(p + old_size, size - old_size, KASAN_VMALLOC_PROT_NORMAL);\n\t}\n");
    EXPECT_NE(v615.find("\nfeature vrealloc yes\n"), std::string::npos) << v615;
    EXPECT_EQ(rule_line(v615, "vrealloc_granule_aligned"), "rule vrealloc_granule_aligned = false") << v615;
    EXPECT_EQ(rule_line(v615, "vrealloc_grow_keep_tag"), "rule vrealloc_grow_keep_tag = false") << v615;
    const auto old = rows_of(v615, "linux-7.0", "vrealloc_gr");
    ASSERT_EQ(old.size(), 3u);
    for (const auto& [n, row] : old) EXPECT_FALSE(row.equal) << n;
}

// vrealloc calling kasan_vrealloc(): the tree has it; the hooks are
// __kasan_vrealloc's, no hook rule here (the two are not read twice). Its
// shrink zeroes nothing here: the one rule is that.
TEST(LiftKasanParts, VreallocThroughKasanVreallocIsTheFeatureOnly) {
    const std::string r = read_vrealloc("\tif (size <= old_size) {\n\t\tvm->requested_size = size;\n"
                                        "\t\tkasan_vrealloc(p, old_size, size);\n\t}\n");
    EXPECT_NE(r.find("\nfeature vrealloc yes\n"), std::string::npos) << r;
    EXPECT_EQ(r.find("\nrule vrealloc_gr"), std::string::npos) << r;
    EXPECT_EQ(rule_line(r, "vrealloc_shrink_zeroes"), "rule vrealloc_shrink_zeroes(gfp) = false") << r;
}

// vrealloc's shrink in place zeroing what it gives up (v6.12 on): the `if`s
// around its memset within the shrink branch are the rule, the caller's
// flags its gfp. 6.12's condition proves equal to linux-7.0's hand rule; a
// patch that drops want_init_on_alloc(flags) differs from it at a
// __GFP_ZERO caller (the control), and so does a shrink that zeroes nothing.
TEST(LiftKasanParts, VreallocShrinkZeroingFromTheIfsAroundItsMemset) {
    auto shrink = [](const std::string& zeroing) {
        return read_vrealloc("\tif (size <= old_size) {\n" + zeroing +
                             "\t\tvm->requested_size = size;\n\t\tkasan_vrealloc(p, old_size, size);\n"
                             "\t\treturn (void *)p;\n\t}\n");
    };
    const std::string v612 = shrink("\t\tif (want_init_on_free() || want_init_on_alloc(flags))\n"
                                    "\t\t\tmemset((void *)p + size, 0, old_size - size);\n");
    EXPECT_EQ(rule_line(v612, "vrealloc_shrink_zeroes"),
              "rule vrealloc_shrink_zeroes(gfp) = (want_init_on_free ( ) || want_init_on_alloc ( gfp ))")
        << v612;
    const auto same = rows_of(v612, "linux-7.0", "vrealloc_shrink");
    ASSERT_EQ(same.size(), 1u);
    EXPECT_TRUE(same.begin()->second.equal) << same.begin()->second.witness;

    const std::string free_only = shrink("\t\tif (want_init_on_free())\n\t\t\tmemset((void *)p + size, 0, old_size - size);\n");
    const auto differs = rows_of(free_only, "linux-7.0", "vrealloc_shrink");
    ASSERT_EQ(differs.size(), 1u);
    EXPECT_FALSE(differs.begin()->second.equal);
    EXPECT_NE(differs.begin()->second.witness.find("__GFP_ZERO"), std::string::npos) << differs.begin()->second.witness;

    EXPECT_EQ(rule_line(shrink("\t\tmemset((void *)p + size, 0, old_size - size);\n"), "vrealloc_shrink_zeroes"),
              "rule vrealloc_shrink_zeroes(gfp) = true");
    const auto none = rows_of(shrink(""), "linux-7.0", "vrealloc_shrink");
    ASSERT_EQ(none.size(), 1u);
    EXPECT_FALSE(none.begin()->second.equal);
    // no shrink branch to read it from: refused, with why
    EXPECT_NE(read_vrealloc("\tvm->requested_size = size;\n\tkasan_vrealloc(p, old_size, size);\n")
                  .find("WHY: vrealloc_noprof has no shrink branch"),
              std::string::npos);
}

// Shapes the hooks cannot hold are refused, with why.
TEST(LiftKasanParts, VreallocShapesTheModelDoesNotHaveAreRefused) {
    // the shrink rounded, the grow not: one choice for both in the model
    EXPECT_NE(read_kasan_vrealloc(kShrinkRounded,
                                  "\t\t__kasan_unpoison_vmalloc(addr + old_size, new_size - old_size, "
                                  "KASAN_VMALLOC_PROT_NORMAL);\n")
                  .find("WHY: the shrink's start is rounded up and the grow's not rounded down"),
              std::string::npos);
    // a grow without PROT_NORMAL
    EXPECT_NE(read_kasan_vrealloc(kShrinkRounded,
                                  "\t\told_size = round_down(old_size, KASAN_GRANULE_SIZE);\n"
                                  "\t\t__kasan_unpoison_vmalloc(addr + old_size, new_size - old_size, KASAN_VMALLOC_VM_ALLOC);\n")
                  .find("does not pass KASAN_VMALLOC_PROT_NORMAL"),
              std::string::npos);
    // no grow at all
    EXPECT_NE(read_kasan_vrealloc(kShrinkRounded, "").find("WHY: __kasan_vrealloc makes no kasan_unpoison_vmalloc()"),
              std::string::npos);
    // v6.12.0's vrealloc, shrinking from the whole area (no requested_size)
    const std::string text = std::string(kVmallocHead) +
                             "struct vm_struct { size_t size; };\nstruct vm_struct *find_vm_area(const void *);\n"
                             "void *vrealloc_noprof(const void *p, size_t size, int flags)\n{\n"
                             "\tsize_t old_size = find_vm_area(p)->size;\n"
                             "\tif (size <= old_size) {\n\t\tkasan_poison_vmalloc(p + size, old_size - size);\n"
                             "\t\treturn (void *)p;\n\t}\n\treturn 0;\n}\n";
    EXPECT_NE(read_part("mm/vmalloc.c", text, "vrealloc_noprof", tree::read_vrealloc_kasan)
                  .find("WHY: vrealloc_noprof does not keep the size last asked"),
              std::string::npos);
}

namespace {

const char* kMempoolHead =
    "enum { KASAN_TAG_KERNEL = 0xff, KASAN_PAGE_FREE = 0xfe, PAGE_SIZE = 4096 };\n"
    "#define IS_ENABLED(x) 0\n"
    "struct page;\n"
    "int PageHighMem(struct page *);\n"
    "unsigned char page_kasan_tag(struct page *);\n"
    "void *page_address(struct page *);\n"
    "int check_page_allocation(void *, unsigned long);\n"
    "void kasan_poison(void *, unsigned long, int, int);\n";

std::string read_poison_pages(const std::string& body) {
    const std::string text = std::string(kMempoolHead) +
                             "int __kasan_mempool_poison_pages(struct page *page, unsigned int order, unsigned long ip)\n"
                             "{\n\tvoid *ptr;\n\n\tif (PageHighMem(page))\n\t\treturn 1;\n" + body +
                             "\tkasan_poison(ptr, PAGE_SIZE << order, KASAN_PAGE_FREE, 0);\n\treturn 1;\n}\n";
    return read_part("mm/kasan/common.c", text, "__kasan_mempool_poison_pages", tree::read_mempool_poison_pages);
}

const char* kSkipUntagged =
    "\t/* Bail out if allocation was excluded due to sampling. */\n"
    "\tif (!IS_ENABLED(CONFIG_KASAN_GENERIC) &&\n\t    page_kasan_tag(page) == KASAN_TAG_KERNEL)\n\t\treturn 1;\n";
const char* kCheck = "\tptr = page_address(page);\n\tif (check_page_allocation(ptr, ip))\n\t\treturn 0;\n";

const char* kPoolHead =
    "struct mempool { void **elements; int curr_nr; };\n"
    "void *kasan_mempool_unpoison_object(void *, unsigned long);\n"
    "void kasan_unpoison_range(const void *, unsigned long);\n"
    "unsigned long __ksize(const void *);\n"
    "int kasan_poison_element(struct mempool *, void *);\n";

std::string read_add_element(const std::string& body) {
    const std::string text = std::string(kPoolHead) + "static void add_element(struct mempool *pool, void *element)\n{\n" +
                             body + "}\n";
    return read_part("mm/mempool.c", text, "add_element", tree::read_mempool_add_element);
}

std::string read_unpoison_element(const std::string& body) {
    const std::string text = std::string(kPoolHead) +
                             "static void kasan_unpoison_element(struct mempool *pool, void *element)\n{\n" + body + "}\n";
    return read_part("mm/mempool.c", text, "kasan_unpoison_element", tree::read_mempool_unpoison_element);
}

}  // namespace

// v6.8's __kasan_mempool_poison_pages: checked, sampled-out pages left alone:
// linux-7.0's rules; without the check and the test, linux-6.1's (the
// control: they differ from linux-7.0).
TEST(LiftKasanParts, MempoolPoisonPagesAsTheErasWriteIt) {
    const std::string now = read_poison_pages(std::string(kSkipUntagged) + kCheck);
    EXPECT_EQ(rule_line(now, "mempool_check_page_frees"), "rule mempool_check_page_frees = true") << now;
    EXPECT_EQ(rule_line(now, "mempool_skip_untagged_pages"), "rule mempool_skip_untagged_pages = true") << now;
    for (const auto& [n, row] : rows_of(now, "linux-7.0", "mempool_")) EXPECT_TRUE(row.equal) << n << ": " << row.witness;
    const std::string bare = read_poison_pages("\tptr = page_address(page);\n");
    EXPECT_EQ(rule_line(bare, "mempool_check_page_frees"), "rule mempool_check_page_frees = false") << bare;
    const auto rows = rows_of(bare, "linux-7.0", "mempool_");
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& [n, row] : rows) EXPECT_FALSE(row.equal) << n;
    for (const auto& [n, row] : rows_of(bare, "linux-6.1", "mempool_")) EXPECT_TRUE(row.equal) << n << ": " << row.witness;
    // a skip that holds for Generic too (whose page tags are all 0xff) is refused
    EXPECT_NE(read_poison_pages("\tif (page_kasan_tag(page) == KASAN_TAG_KERNEL)\n\t\treturn 1;\n" + std::string(kCheck))
                  .find("holds for Generic too"),
              std::string::npos);
}

// add_element: gated on kasan_poison_element() (v6.8) or not (before).
TEST(LiftKasanParts, MempoolAddElementGatedOrNot) {
    const std::string gated = read_add_element(
        "\tif (kasan_poison_element(pool, element))\n\t\tpool->elements[pool->curr_nr++] = element;\n");
    EXPECT_EQ(rule_line(gated, "mempool_keep_bad_element"), "rule mempool_keep_bad_element = false") << gated;
    const std::string always =
        read_add_element("\tkasan_poison_element(pool, element);\n\tpool->elements[pool->curr_nr++] = element;\n");
    EXPECT_EQ(rule_line(always, "mempool_keep_bad_element"), "rule mempool_keep_bad_element = true") << always;
    EXPECT_TRUE(rows_of(gated, "linux-7.0", "mempool_").at("mempool_keep_bad_element").equal);
    EXPECT_FALSE(rows_of(always, "linux-7.0", "mempool_").at("mempool_keep_bad_element").equal);
    EXPECT_NE(read_add_element("\tint ok = kasan_poison_element(pool, element);\n"
                               "\tpool->elements[pool->curr_nr++] = element;\n")
                  .find("neither a statement of its own nor the store's condition"),
              std::string::npos);
}

// kasan_unpoison_element: over __ksize() (before v6.8) or the element's size.
TEST(LiftKasanParts, MempoolUnpoisonElementWholeSlotOrNot) {
    const std::string whole = read_unpoison_element("\tkasan_unpoison_range(element, __ksize(element));\n");
    EXPECT_EQ(rule_line(whole, "mempool_unpoison_whole_slot"), "rule mempool_unpoison_whole_slot = true") << whole;
    const std::string sized = read_unpoison_element("\tkasan_mempool_unpoison_object(element, 64);\n");
    EXPECT_EQ(rule_line(sized, "mempool_unpoison_whole_slot"), "rule mempool_unpoison_whole_slot = false") << sized;
    EXPECT_TRUE(rows_of(sized, "linux-7.0", "mempool_").at("mempool_unpoison_whole_slot").equal);
    EXPECT_FALSE(rows_of(whole, "linux-7.0", "mempool_").at("mempool_unpoison_whole_slot").equal);
    EXPECT_NE(read_unpoison_element("\tkasan_unpoison_range(element, 64);\n").find("is not over __ksize(element)"),
              std::string::npos);
}

namespace {

// mm/kasan/kasan.h's kasan_sample_page_alloc: TESTS before the counter,
// the counter's if written COUNTER, its reset RESET
std::string read_sample(const std::string& params, const std::string& tests,
                        const std::string& counter = "\tif (this_cpu_dec_return(kasan_page_alloc_skip) < 0) {\n",
                        const std::string& reset = "kasan_page_alloc_sample - 1") {
    const std::string text =
        "typedef unsigned int gfp_t;\n"
        "enum { __GFP_ZERO = 0x100 };\n"
        "extern unsigned long kasan_page_alloc_sample;\nextern unsigned int kasan_page_alloc_sample_order;\n"
        "extern long kasan_page_alloc_skip;\n"
        "long this_cpu_dec_return(long);\nvoid this_cpu_write(long, long);\n"
        "static inline _Bool kasan_sample_page_alloc(" + params + ")\n{\n"
        "\t/* Fast-path for when sampling is disabled. */\n"
        "\tif (kasan_page_alloc_sample == 1)\n\t\treturn 1;\n" + tests +
        counter + "\t\tthis_cpu_write(kasan_page_alloc_skip, " + reset + ");\n\t\treturn 1;\n\t}\n"
        "\treturn 0;\n}\n";
    // (true and false as the kernel spells them)
    std::string t = text;
    for (std::size_t at; (at = t.find("return 1;")) != std::string::npos;) t.replace(at, 9, "return true;");
    for (std::size_t at; (at = t.find("return 0;")) != std::string::npos;) t.replace(at, 9, "return false;");
    return read_part("mm/kasan/kasan.h", "#define true 1\n#define false 0\n" + t, "kasan_sample_page_alloc",
                     tree::read_sample_eligible);
}

}  // namespace

// v6.4's order test: linux-7.0's sample_eligible, proved equal; every order
// counted (the test dropped) differs (the control); a gfp parameter binds
// to the rule's gfp; an early `return false` is refused.
TEST(LiftKasanParts, SampleEligibleFromTheTestsBeforeTheCounter) {
    const std::string r = read_sample("unsigned int order", "\tif (order < kasan_page_alloc_sample_order)\n\t\treturn 1;\n");
    EXPECT_EQ(rule_line(r, "sample_eligible"), "rule sample_eligible(order, gfp) = !(order < kasan_page_alloc_sample_order)")
        << r;
    EXPECT_TRUE(rows_of(r, "linux-7.0", "sample_").at("sample_eligible").equal);
    const std::string every = read_sample("unsigned int order", "");
    EXPECT_EQ(rule_line(every, "sample_eligible"), "rule sample_eligible(order, gfp) = true") << every;
    const auto row = rows_of(every, "linux-7.0", "sample_").at("sample_eligible");
    EXPECT_FALSE(row.equal);
    EXPECT_NE(row.witness.find("order"), std::string::npos) << row.witness;
    const std::string gfp = read_sample("unsigned int order, gfp_t flags", "\tif (flags & __GFP_ZERO)\n\t\treturn 1;\n");
    EXPECT_EQ(rule_line(gfp, "sample_eligible"), "rule sample_eligible(order, gfp) = !(gfp & __GFP_ZERO)") << gfp;
    EXPECT_NE(read_sample("unsigned int order", "\tif (order > 10)\n\t\treturn 0;\n").find("returns false before the counter"),
              std::string::npos);
}

// The counter itself: what this_cpu_dec_return() returned, compared as the
// long it is (rule sample_wrapped(left)), and the reset value (rule
// sample_reset), v6.4's proved equal to both eras; the off-by-one (`<= 0`)
// and a reset to the interval itself differ (the controls), a test written
// as `left + 1 <= 0` does not; shapes the model's sampling is not are refused.
TEST(LiftKasanParts, SampleCounterTestAndResetFromTheCode) {
    const std::string order = "\tif (order < kasan_page_alloc_sample_order)\n\t\treturn 1;\n";
    const std::string r = read_sample("unsigned int order", order);
    EXPECT_EQ(rule_line(r, "sample_wrapped"), "rule sample_wrapped(left) = left < 0") << r;
    EXPECT_EQ(rule_line(r, "sample_reset"), "rule sample_reset = kasan_page_alloc_sample - 1") << r;
    for (const char* era : {"linux-6.4", "linux-7.0"}) {
        EXPECT_TRUE(rows_of(r, era, "sample_").at("sample_wrapped").equal) << era;
        EXPECT_TRUE(rows_of(r, era, "sample_").at("sample_reset").equal) << era;
    }
    const std::string off_by_one =
        read_sample("unsigned int order", order, "\tif (this_cpu_dec_return(kasan_page_alloc_skip) <= 0) {\n");
    EXPECT_EQ(rule_line(off_by_one, "sample_wrapped"), "rule sample_wrapped(left) = left <= 0") << off_by_one;
    const auto row = rows_of(off_by_one, "linux-7.0", "sample_").at("sample_wrapped");
    EXPECT_FALSE(row.equal);
    EXPECT_NE(row.witness.find("left 0"), std::string::npos) << row.witness;
    const std::string interval = read_sample("unsigned int order", order,
                                             "\tif (this_cpu_dec_return(kasan_page_alloc_skip) < 0) {\n",
                                             "kasan_page_alloc_sample");
    EXPECT_FALSE(rows_of(interval, "linux-7.0", "sample_").at("sample_reset").equal) << interval;
    const std::string same =
        read_sample("unsigned int order", order, "\tif (this_cpu_dec_return(kasan_page_alloc_skip) + 1 <= 0) {\n");
    EXPECT_TRUE(rows_of(same, "linux-7.0", "sample_").at("sample_wrapped").equal) << same;
    EXPECT_NE(read_sample("unsigned int order", order, "\tif (this_cpu_dec_return(kasan_page_alloc_skip) < -1) {\n")
                  .find("negative number"),
              std::string::npos);
    EXPECT_NE(read_sample("unsigned int order", order, "\tif (this_cpu_dec_return(kasan_page_alloc_skip) < 0) {\n",
                          "kasan_page_alloc_sample - 1);\n\t\tthis_cpu_write(kasan_page_alloc_skip, 0")
                  .find("does more than return true"),
              std::string::npos);
    EXPECT_NE(read_sample("unsigned int order", order,
                              "\tlong left = this_cpu_dec_return(kasan_page_alloc_skip);\n\tif (left < 0) {\n")
                  .find("is not the condition of an if"),
              std::string::npos);
}

namespace {

// include/asm-generic/pgalloc.h's two page-table allocators, KERNEL_DEF the
// GFP_PGTABLE_KERNEL line, ALLOC the kernel table's allocation, USER_GFP
// what pte_alloc_one() passes
std::string pgalloc(const std::string& kernel_def, const std::string& alloc,
                    const std::string& user_gfp = "GFP_PGTABLE_USER") {
    return "typedef unsigned int gfp_t;\n"
           "enum { GFP_KERNEL = 0xcc0, __GFP_ZERO = 0x100, __GFP_ACCOUNT = 0x400000, __GFP_HIGHMEM = 0x2 };\n"
           "struct mm_struct;\nstruct page;\n"
           "unsigned long __get_free_page(gfp_t);\nstruct page *pagetable_alloc(gfp_t, unsigned int);\n" + kernel_def +
           "#define GFP_PGTABLE_USER\t(GFP_PGTABLE_KERNEL | __GFP_ACCOUNT)\n"
           "static inline void *__pte_alloc_one_kernel(struct mm_struct *mm)\n{\n" + alloc + "}\n"
           "static inline struct page *__pte_alloc_one(struct mm_struct *mm, gfp_t gfp)\n{\n"
           "\treturn pagetable_alloc(gfp, 0);\n}\n"
           "static inline struct page *pte_alloc_one(struct mm_struct *mm)\n{\n"
           "\treturn __pte_alloc_one(mm, " + user_gfp + ");\n}\n";
}

// The rows of both allocators' rules: the calls' and the macros'.
std::map<std::string, solver::RuleDriftRow> pgtable_rows(const std::string& text) {
    auto rules = read_part("include/asm-generic/pgalloc.h", text, "__pte_alloc_one_kernel", tree::read_pte_alloc_one_kernel) +
                 read_part("include/asm-generic/pgalloc.h", text, "pte_alloc_one", tree::read_pte_alloc_one);
    auto m = rows_of(rules, "linux-7.0", "GFP_PGTABLE");
    m.merge(rows_of(rules, "linux-7.0", "pte_alloc_one"));
    return m;
}

}  // namespace

// The gfp each page-table allocator passes, and the file's macros it names,
// read apart: v6.1's and v6.12's shapes are linux-7.0's, proved equal.
TEST(LiftKasanParts, PageTableGfpFromTheAllocatorsAndTheFilesMacros) {
    const std::string kdef = "#define GFP_PGTABLE_KERNEL\t(GFP_KERNEL | __GFP_ZERO)\n";
    const std::string v61 = pgalloc(kdef, "\treturn (void *)__get_free_page(GFP_PGTABLE_KERNEL);\n");
    const std::string v612 = pgalloc(kdef, "\treturn pagetable_alloc(GFP_PGTABLE_KERNEL &\n\t\t\t~__GFP_HIGHMEM, 0);\n");
    const std::string k61 = read_part("include/asm-generic/pgalloc.h", v61, "__pte_alloc_one_kernel", tree::read_pte_alloc_one_kernel);
    EXPECT_EQ(rule_line(k61, "pte_alloc_one_kernel_gfp"), "rule pte_alloc_one_kernel_gfp = GFP_PGTABLE_KERNEL") << k61;
    EXPECT_EQ(rule_line(k61, "GFP_PGTABLE_KERNEL"), "rule GFP_PGTABLE_KERNEL = ( GFP_KERNEL | __GFP_ZERO )") << k61;
    const std::string k612 = read_part("include/asm-generic/pgalloc.h", v612, "__pte_alloc_one_kernel", tree::read_pte_alloc_one_kernel);
    EXPECT_EQ(rule_line(k612, "pte_alloc_one_kernel_gfp"), "rule pte_alloc_one_kernel_gfp = GFP_PGTABLE_KERNEL & ~ __GFP_HIGHMEM")
        << k612;
    const std::string u = read_part("include/asm-generic/pgalloc.h", v612, "pte_alloc_one", tree::read_pte_alloc_one);
    EXPECT_EQ(rule_line(u, "pte_alloc_one_gfp"), "rule pte_alloc_one_gfp = GFP_PGTABLE_USER") << u;
    EXPECT_EQ(rule_line(u, "GFP_PGTABLE_USER"), "rule GFP_PGTABLE_USER = ( GFP_PGTABLE_KERNEL | __GFP_ACCOUNT )") << u;
    for (const auto& text : {v61, v612}) {
        const auto rows = pgtable_rows(text);
        ASSERT_EQ(rows.size(), 4u);
        for (const auto& [n, row] : rows) EXPECT_TRUE(row.equal) << n << ": " << row.witness;
    }
}

// The control: a #define without __GFP_ZERO changes every rule that names
// it, the calls' and the macros' alike (arm64's pgd_alloc() names
// GFP_PGTABLE_USER too).
TEST(LiftKasanParts, APageTableMacroChangeReachesEveryRuleNamingIt) {
    const auto rows = pgtable_rows(pgalloc("#define GFP_PGTABLE_KERNEL\tGFP_KERNEL\n",
                                           "\treturn pagetable_alloc(GFP_PGTABLE_KERNEL & ~__GFP_HIGHMEM, 0);\n"));
    ASSERT_EQ(rows.size(), 4u);
    for (const auto& [n, row] : rows) EXPECT_FALSE(row.equal) << n;
}

// A change to pte_alloc_one()'s call alone changes what it passes and not
// the macro: the user page tables differ, GFP_PGTABLE_USER (and so the
// pgds of pgd_alloc()) does not. Before the two were read apart the call
// was written into GFP_PGTABLE_USER and the pgds lost their zeroing too.
TEST(LiftKasanParts, APageTableCallChangeStaysInItsCall) {
    const auto rows = pgtable_rows(pgalloc("#define GFP_PGTABLE_KERNEL\t(GFP_KERNEL | __GFP_ZERO)\n",
                                           "\treturn pagetable_alloc(GFP_PGTABLE_KERNEL & ~__GFP_HIGHMEM, 0);\n",
                                           "GFP_PGTABLE_USER & ~__GFP_ZERO"));
    ASSERT_EQ(rows.size(), 4u);
    for (const auto& [n, row] : rows) EXPECT_EQ(row.equal, n != "pte_alloc_one_gfp") << n << ": " << row.witness;
}

namespace {

// mm/kasan/common.c's poison_kmalloc_redzone: STMT computes redzone_start
std::string read_redzone(const std::string& stmt) {
    const std::string text = std::string(kVmallocHead) +
                             "struct kmem_cache { unsigned long object_size; };\n"
                             "void kasan_poison(const void *, unsigned long, int, _Bool);\n"
                             "static inline void poison_kmalloc_redzone(struct kmem_cache *cache, const void *object,\n"
                             "\t\t\t\tsize_t size, unsigned int flags)\n{\n"
                             "\tunsigned long redzone_start;\n\tunsigned long redzone_end;\n\n" + stmt +
                             "\tredzone_end = round_up((unsigned long)(object + cache->object_size), KASAN_GRANULE_SIZE);\n"
                             "\tkasan_poison((void *)redzone_start, redzone_end - redzone_start, 0xfc, 0);\n}\n";
    return read_part("mm/kasan/common.c", text, "poison_kmalloc_redzone", tree::read_kmalloc_redzone);
}

}  // namespace

// round_up of the object plus size to KASAN_GRANULE_SIZE: the hand eras'
// kmalloc_redzone_start (granule_up), proved equal in every build; the same
// written on one line, the cast on the pointer alone, reads the same;
// round_down differs (the control: the redzone covers the object's last
// bytes); another granule, or not the object plus size, is refused.
TEST(LiftKasanParts, KmallocRedzoneFromItsRounding) {
    const std::string up =
        read_redzone("\tredzone_start = round_up((unsigned long)(object + size),\n\t\t\t\tKASAN_GRANULE_SIZE);\n");
    EXPECT_EQ(rule_line(up, "kmalloc_redzone_start"),
              "rule kmalloc_redzone_start(size) = round_up(size, KASAN_GRANULE_SIZE)") << up;
    EXPECT_TRUE(rows_of(up, "linux-7.0", "kmalloc_redzone").at("kmalloc_redzone_start").equal);
    EXPECT_TRUE(rows_of(up, "linux-6.1", "kmalloc_redzone").at("kmalloc_redzone_start").equal);
    const std::string one_line = read_redzone("\tredzone_start = round_up((unsigned long)object + size, KASAN_GRANULE_SIZE);\n");
    EXPECT_EQ(rule_line(one_line, "kmalloc_redzone_start"), rule_line(up, "kmalloc_redzone_start")) << one_line;
    const std::string down =
        read_redzone("\tredzone_start = round_down((unsigned long)(object + size), KASAN_GRANULE_SIZE);\n");
    EXPECT_EQ(rule_line(down, "kmalloc_redzone_start"),
              "rule kmalloc_redzone_start(size) = round_down(size, KASAN_GRANULE_SIZE)") << down;
    EXPECT_FALSE(rows_of(down, "linux-7.0", "kmalloc_redzone").at("kmalloc_redzone_start").equal);
    EXPECT_NE(read_redzone("\tredzone_start = round_up((unsigned long)(object + size), 64);\n").find("not KASAN_GRANULE_SIZE"),
              std::string::npos);
    EXPECT_NE(read_redzone("\tredzone_start = round_up((unsigned long)(object + 8), KASAN_GRANULE_SIZE);\n")
                  .find("not the object's address plus size"),
              std::string::npos);
    EXPECT_NE(read_redzone("\tredzone_start = (unsigned long)(object + size);\n").find("is not rounded"), std::string::npos);
}

namespace {

// mm/kasan/common.c's poison_kmalloc_large_redzone (v6.10 on): STMT computes redzone_start
std::string read_large_redzone(const std::string& stmt) {
    const std::string text = std::string(kVmallocHead) +
                             "struct page;\nstruct page *virt_to_page(const void *);\nunsigned long page_size(struct page *);\n"
                             "void kasan_poison(const void *, unsigned long, int, _Bool);\n"
                             "static inline void poison_kmalloc_large_redzone(const void *ptr, size_t size, unsigned int flags)\n{\n"
                             "\tunsigned long redzone_start;\n\tunsigned long redzone_end;\n\n" + stmt +
                             "\tredzone_end = (unsigned long)ptr + page_size(virt_to_page(ptr));\n"
                             "\tkasan_poison((void *)redzone_start, redzone_end - redzone_start, 0xfe, 0);\n}\n";
    return read_part("mm/kasan/common.c", text, "poison_kmalloc_large_redzone", tree::read_kmalloc_large_redzone);
}

}  // namespace

// A large kmalloc's redzone (a block of pages) from the same statement over
// `ptr + size`: rule kmalloc_large_redzone_start, equal to the eras' where
// it rounds up, differing where it rounds down (the control), and it is the
// large rule only: kmalloc_redzone_start is not touched.
TEST(LiftKasanParts, KmallocLargeRedzoneFromItsRounding) {
    const std::string up =
        read_large_redzone("\tredzone_start = round_up((unsigned long)(ptr + size), KASAN_GRANULE_SIZE);\n");
    EXPECT_EQ(rule_line(up, "kmalloc_large_redzone_start"),
              "rule kmalloc_large_redzone_start(size) = round_up(size, KASAN_GRANULE_SIZE)") << up;
    EXPECT_EQ(rule_line(up, "kmalloc_redzone_start"), "") << up;
    EXPECT_TRUE(rows_of(up, "linux-7.0", "kmalloc_large").at("kmalloc_large_redzone_start").equal);
    EXPECT_TRUE(rows_of(up, "linux-6.1", "kmalloc_large").at("kmalloc_large_redzone_start").equal);
    const std::string down =
        read_large_redzone("\tredzone_start = round_down((unsigned long)(ptr + size), KASAN_GRANULE_SIZE);\n");
    EXPECT_FALSE(rows_of(down, "linux-7.0", "kmalloc_large").at("kmalloc_large_redzone_start").equal) << down;
    EXPECT_NE(read_large_redzone("\tredzone_start = round_up((unsigned long)ptr, KASAN_GRANULE_SIZE);\n")
                  .find("not the object's address plus size"),
              std::string::npos);
}
