// tree_lift_vmalloc_unpoison_test.cpp — HW_TAGS' __kasan_unpoison_vmalloc
// read in part (tree/lift_vmalloc_unpoison.cpp) from made-up C in the shape
// v6.1 and v6.12 write it: the eras' shape reads as the hand rules and is
// proved equal to linux-7.0's; each change a reviewer might make reads as the
// rule it changes (the controls: that rule, alone, then differs); shapes the
// model is not are refused with why.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "lifted_rows.hpp"
#include "read_part.hpp"

using tagproof::test::read_part;
using tagproof::test::rule_line;
using namespace tagproof;

namespace {

const std::string kOff = "\tif (!kasan_vmalloc_enabled()) {\n\t\tif (flags & KASAN_VMALLOC_INIT)\n"
                         "\t\t\tinit_vmalloc_pages(start, size);\n\t\treturn (void *)start;\n\t}\n";
const std::string kReturns = "\tif (!(flags & KASAN_VMALLOC_VM_ALLOC)) {\n\t\tWARN_ON(flags & KASAN_VMALLOC_INIT);\n"
                             "\t\treturn (void *)start;\n\t}\n"
                             "\tif (!(flags & KASAN_VMALLOC_PROT_NORMAL)) {\n\t\tWARN_ON(flags & KASAN_VMALLOC_INIT);\n"
                             "\t\treturn (void *)start;\n\t}\n";
const std::string kTag = "\ttag = kasan_random_tag();\n\tstart = set_tag(start, tag);\n";
const std::string kUnpoison = "\tkasan_unpoison(start, size, flags & KASAN_VMALLOC_INIT);\n";
const std::string kRedzone = "\tredzone_start = round_up((unsigned long)start + size, KASAN_GRANULE_SIZE);\n"
                             "\tredzone_size = round_up(redzone_start, PAGE_SIZE) - redzone_start;\n"
                             "\tkasan_poison((void *)redzone_start, redzone_size, KASAN_TAG_INVALID,\n"
                             "\t\t     flags & KASAN_VMALLOC_INIT);\n";
const std::string kPages = "\tunpoison_vmalloc_pages(start, tag);\n";

std::string read_unpoison(const std::string& body = kOff + kReturns + kTag + kUnpoison + kRedzone + kPages) {
    const std::string text =
        "enum { false = 0, true = 1 };\ntypedef _Bool bool;\ntypedef unsigned char u8;\n"
        "typedef unsigned int kasan_vmalloc_flags_t;\n#define KASAN_VMALLOC_INIT 1u\n#define KASAN_VMALLOC_VM_ALLOC 2u\n"
        "#define KASAN_VMALLOC_PROT_NORMAL 4u\n#define KASAN_VMALLOC_KEEP_TAG 8u\n#define KASAN_TAG_INVALID 0xFE\n"
        "#define KASAN_GRANULE_SIZE 16\n#define PAGE_SIZE 4096UL\n#define WARN_ON(x) ((void)(x))\n"
        "#define round_up(x, y) ((((x) - 1) | ((y) - 1)) + 1)\n"
        "bool kasan_vmalloc_enabled(void);\nu8 kasan_random_tag(void);\nvoid *set_tag(const void *, u8);\n"
        "u8 get_tag(const void *);\nvoid kasan_unpoison(const void *, unsigned long, bool);\n"
        "void kasan_poison(const void *, unsigned long, u8, bool);\nvoid unpoison_vmalloc_pages(const void *, u8);\n"
        "void init_vmalloc_pages(const void *, unsigned long);\nvoid flush(const void *);\n"
        "bool is_vmalloc_or_module_addr(const void *);\n"
        "void *__kasan_unpoison_vmalloc(const void *start, unsigned long size, kasan_vmalloc_flags_t flags)\n{\n"
        "\tu8 tag;\n\tunsigned long redzone_start, redzone_size;\n\n" + body + "\treturn (void *)start;\n}\n";
    return read_part("mm/kasan/hw_tags.c", text, "__kasan_unpoison_vmalloc", tree::read_unpoison_vmalloc);
}

// rule -> equal to linux-7.0's, for the three rules the reader gives
std::map<std::string, bool> rows(const std::string& rules) {
    std::map<std::string, bool> m;
    for (const auto& [n, r] : test::rows_of(rules, "linux-7.0", "unpoison_vmalloc_")) m[n] = r.equal;
    return m;
}

}  // namespace

TEST(LiftVmallocUnpoison, TheErasShapeReadsAsTheHandRules) {
    const std::string r = read_unpoison();
    EXPECT_EQ(rule_line(r, "unpoison_vmalloc_off_init"), "rule unpoison_vmalloc_off_init(init) = init") << r;
    EXPECT_EQ(rule_line(r, "unpoison_vmalloc_init"), "rule unpoison_vmalloc_init(init) = init") << r;
    const auto m = rows(r);
    EXPECT_EQ(m.size(), 3u) << r;
    for (const auto& [n, equal] : m) EXPECT_TRUE(equal) << n << "\n" << r;
    // v6.12's tag for vrealloc's grow (KASAN_VMALLOC_KEEP_TAG) reads the same
    const std::string keep = read_unpoison(kOff + kReturns +
                                           "\ttag = (flags & KASAN_VMALLOC_KEEP_TAG) ? get_tag(start) : "
                                           "kasan_random_tag();\n\tstart = set_tag(start, tag);\n" +
                                           kUnpoison + kRedzone + kPages);
    EXPECT_EQ(keep, r);
}

// Each change reads as its rule, and that rule alone differs from the era's.
TEST(LiftVmallocUnpoison, EachChangeReadsAsItsRuleAndDiffers) {
    auto only_differs = [](const std::string& r, const std::string& rule) {
        const auto m = rows(r);
        EXPECT_EQ(m.size(), 3u) << r;
        for (const auto& [n, equal] : m) EXPECT_EQ(equal, n != rule) << n << "\n" << r;
    };
    // kasan.vmalloc=off no longer clears
    const std::string off = read_unpoison("\tif (!kasan_vmalloc_enabled())\n\t\treturn (void *)start;\n" + kReturns +
                                          kTag + kUnpoison + kRedzone + kPages);
    EXPECT_EQ(rule_line(off, "unpoison_vmalloc_off_init"), "rule unpoison_vmalloc_off_init(init) = false") << off;
    only_differs(off, "unpoison_vmalloc_off_init");
    // v6.1.0's shape before 6c2f761dad78 ("kasan: fix zeroing vmalloc memory with HW_TAGS"): no
    // clearing, and a return outside vmalloc space (set aside): the same rule, nothing else changed
    const std::string pre_fix = read_unpoison("\tif (!kasan_vmalloc_enabled())\n\t\treturn (void *)start;\n"
                                              "\tif (!is_vmalloc_or_module_addr(start))\n\t\treturn (void *)start;\n" +
                                              kReturns + kTag + kUnpoison + kRedzone + kPages);
    EXPECT_EQ(rule_line(pre_fix, "unpoison_vmalloc_off_init"), "rule unpoison_vmalloc_off_init(init) = false") << pre_fix;
    only_differs(pre_fix, "unpoison_vmalloc_off_init");
    // executable memory tagged too: the PROT_NORMAL return dropped
    const std::string exec = read_unpoison(kOff + kReturns.substr(0, kReturns.find("\tif (!(flags & KASAN_VMALLOC_PROT")) +
                                           kTag + kUnpoison + kRedzone + kPages);
    only_differs(exec, "unpoison_vmalloc_tags");
    // no init while tagging
    std::string noinit = kOff + kReturns + kTag + "\tkasan_unpoison(start, size, false);\n" + kRedzone + kPages;
    noinit.replace(noinit.find("\t\t     flags & KASAN_VMALLOC_INIT);"), 34, "\t\t     false);");
    const std::string n = read_unpoison(noinit);
    EXPECT_EQ(rule_line(n, "unpoison_vmalloc_init"), "rule unpoison_vmalloc_init(init) = false") << n;
    only_differs(n, "unpoison_vmalloc_init");
}

TEST(LiftVmallocUnpoison, ShapesTheModelIsNotAreRefused) {
    // the object zeroed and its redzone not (or the other way): the model zeroes both or neither
    EXPECT_NE(read_unpoison(kOff + kReturns + kTag + "\tkasan_unpoison(start, size, false);\n" + kRedzone + kPages)
                  .find("the model zeroes both or neither"),
              std::string::npos);
    // a return testing what the rule does not take
    EXPECT_NE(read_unpoison(kOff + "\tif (flags & KASAN_VMALLOC_INIT)\n\t\treturn (void *)start;\n" + kTag + kUnpoison +
                            kRedzone + kPages)
                  .find("of which the model reads only flags & KASAN_VMALLOC_PROT_NORMAL, flags & KASAN_VMALLOC_VM_ALLOC"),
              std::string::npos);
    // kasan.vmalloc=off falling through to the tagging
    EXPECT_NE(read_unpoison("\tif (!kasan_vmalloc_enabled())\n\t\tinit_vmalloc_pages(start, size);\n" + kReturns + kTag +
                            kUnpoison + kRedzone + kPages)
                  .find("does not return"),
              std::string::npos);
    // the tagging under an if, a tag of its own, an unread call
    EXPECT_NE(read_unpoison(kOff + kReturns + kTag + "\tif (size > PAGE_SIZE)\n" + kUnpoison + kRedzone + kPages)
                  .find("is under if (size > PAGE_SIZE)"),
              std::string::npos);
    EXPECT_NE(read_unpoison(kOff + kReturns + "\ttag = 0xF3;\n\tstart = set_tag(start, tag);\n" + kUnpoison + kRedzone +
                            kPages)
                  .find("draws its tag as `tag = 0xF3`"),
              std::string::npos);
    EXPECT_NE(read_unpoison(kOff + kReturns + kTag + kUnpoison + kRedzone + kPages + "\tflush(start);\n")
                  .find("calls flush()"),
              std::string::npos);
    // the page tags left alone
    EXPECT_NE(read_unpoison(kOff + kReturns + kTag + kUnpoison + kRedzone).find("does not call unpoison_vmalloc_pages()"),
              std::string::npos);
}
