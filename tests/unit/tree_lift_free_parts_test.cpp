// tree_lift_free_parts_test.cpp — free_pages_prepare's KASAN part read in
// part (tree/lift_free_parts.cpp), on made-up C in the shape every era
// writes (no kernel code in the project): what it reads as, the shapes
// refused with why, and the rows decided beside linux-7.0 by Z3, with the
// shapes a broken patch makes as the controls.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "lifted_rows.hpp"
#include "part_scan.hpp"
#include "read_part.hpp"

using namespace tagproof;
using test::read_part;
using test::rows_of;
using test::rule_line;

namespace {

// free_pages_prepare with DECL for init's declaration, POISON the poisoning
// block and KINIT what follows it
std::string read_free(const std::string& decl = "\tbool init = want_init_on_free();\n",
                      const std::string& poison = "\tif (!skip_kasan_poison) {\n"
                                                  "\t\tkasan_poison_pages(page, order, init);\n"
                                                  "\t\tif (kasan_has_integrated_init())\n\t\t\tinit = false;\n\t}\n",
                      const std::string& kinit = "\tif (init)\n\t\tkernel_init_pages(page, 1 << order);\n") {
    const std::string text =
        "enum { false = 0, true = 1 };  /* include/linux/stddef.h spells them so */\ntypedef _Bool bool;\nstruct page;\n"
        "bool should_skip_kasan_poison(struct page *);\nbool want_init_on_free(void);\n"
        "bool kasan_has_integrated_init(void);\n"
        "void kasan_poison_pages(struct page *, unsigned int, bool);\n"
        "void kernel_init_pages(struct page *, int);\n"
        "bool free_pages_prepare(struct page *page, unsigned int order)\n{\n"
        "\tbool skip_kasan_poison = should_skip_kasan_poison(page);\n" + decl + poison + kinit + "\treturn 1;\n}\n";
    return read_part("mm/page_alloc.c", text, "free_pages_prepare", tree::read_free_kasan_part);
}

}  // namespace

// Every era's shape: the three rules as the hand eras have them, each row
// and the plan's fields proved equal to linux-7.0.
TEST(LiftFreeParts, EveryErasShapeIsTheHandRule) {
    const std::string r = read_free();
    EXPECT_EQ(rule_line(r, "free_poison_init"), "rule free_poison_init(init) = init") << r;
    EXPECT_EQ(rule_line(r, "free_init_after_poison"),
              "rule free_init_after_poison(init) = (kasan_has_integrated_init ( )) ? (false) : init")
        << r;
    EXPECT_EQ(rule_line(r, "free_kernel_init"), "rule free_kernel_init(init) = init") << r;
    const auto rows = rows_of(r, "linux-7.0", "free_");
    for (const char* n : {"free_poison_init", "free_init_after_poison", "free_kernel_init", "free_pages_prepare"})
        EXPECT_TRUE(rows.count(n)) << n;
    for (const auto& [n, row] : rows) EXPECT_TRUE(row.equal) << n << ": " << row.witness;
}

// The controls: a patch's shapes that change the plan differ from the era,
// on the fields they change; one that only moves the zeroing (poison
// without init, then kernel_init_pages) differs in poison_init alone.
TEST(LiftFreeParts, APatchsShapeDiffersWhereItChangesThePlan) {
    auto field_equal = [](const std::string& rules, const std::string& field) {
        for (const auto& r : solver::rule_drift(
                 kernel::parse_variant_file("name lifted-x\nbase linux-7.0\n" + rules, "lifted").overrides, "linux-7.0"))
            if (r.rule == "free_pages_prepare" && r.field == field) return r.equal;
        ADD_FAILURE() << "no row free_pages_prepare." << field;
        return false;
    };
    // init dropped after every poisoning: Generic and SW_TAGS no longer zero freed pages
    const std::string dropped =
        read_free("\tbool init = want_init_on_free();\n",
                  "\tif (!skip_kasan_poison) {\n\t\tkasan_poison_pages(page, order, init);\n\t\tinit = false;\n\t}\n");
    EXPECT_EQ(rule_line(dropped, "free_init_after_poison"), "rule free_init_after_poison(init) = false") << dropped;
    EXPECT_FALSE(field_equal(dropped, "kernel_init"));
    EXPECT_TRUE(field_equal(dropped, "poison_init"));
    // no kernel_init_pages() at all
    const std::string none = read_free("\tbool init = want_init_on_free();\n", "\tif (!skip_kasan_poison) {\n"
                                       "\t\tkasan_poison_pages(page, order, init);\n"
                                       "\t\tif (kasan_has_integrated_init())\n\t\t\tinit = false;\n\t}\n", "");
    EXPECT_EQ(rule_line(none, "free_kernel_init"), "rule free_kernel_init(init) = false") << none;
    EXPECT_FALSE(field_equal(none, "kernel_init"));
    // the zeroing moved out of KASAN: the pages are still zeroed, by kernel_init_pages()
    const std::string moved = read_free("\tbool init = want_init_on_free();\n",
                                        "\tif (!skip_kasan_poison)\n\t\tkasan_poison_pages(page, order, false);\n");
    EXPECT_EQ(rule_line(moved, "free_poison_init"), "rule free_poison_init(init) = false") << moved;
    EXPECT_EQ(rule_line(moved, "free_init_after_poison"), "rule free_init_after_poison(init) = init") << moved;
    EXPECT_FALSE(field_equal(moved, "poison_init"));
}

// Shapes the plan is not are refused with what they are.
TEST(LiftFreeParts, OtherShapesAreRefused) {
    EXPECT_NE(read_free("\tbool init = want_init_on_free() && order;\n").find("does not declare its init"),
              std::string::npos);
    EXPECT_NE(read_free("\tbool init = want_init_on_free();\n",
                        "\tif (!skip_kasan_poison && order) {\n\t\tkasan_poison_pages(page, order, init);\n\t}\n")
                  .find("not under if (!skip_kasan_poison)"),
              std::string::npos);
    EXPECT_NE(read_free("\tbool init = want_init_on_free();\n",
                        "\tif (!skip_kasan_poison) {\n\t\tkasan_poison_pages(page, order, init);\n"
                        "\t\tkernel_init_pages(page, 1);\n\t}\n")
                  .find("does more than update init"),
              std::string::npos);
    // init written outside the block: what is read would not be what runs
    EXPECT_NE(read_free("\tbool init = want_init_on_free();\n\tif (order > 3)\n\t\tinit = 0;\n")
                  .find("init is assigned at"),
              std::string::npos);
}

// The skip test as v6.1's 487a32ec24be writes it (the call itself in the
// if) or through a renamed local reads as every era's shape; a local that is
// not should_skip_kasan_poison()'s answer is refused.
TEST(LiftFreeParts, TheSkipTestAsTheCallOrARenamedLocal) {
    const std::string era = read_free();
    const std::string tail = "\t\tkasan_poison_pages(page, order, init);\n"
                             "\t\tif (kasan_has_integrated_init())\n\t\t\tinit = false;\n\t}\n";
    const std::string call = read_free("\tbool init = want_init_on_free();\n",
                                       "\tif (!should_skip_kasan_poison(page)) {\n" + tail);
    const std::string renamed =
        read_free("\tbool skip = should_skip_kasan_poison(page);\n\tbool init = want_init_on_free();\n",
                  "\tif (!skip) {\n" + tail);
    for (const char* r : {"free_poison_init", "free_init_after_poison", "free_kernel_init"}) {
        EXPECT_EQ(rule_line(call, r), rule_line(era, r)) << call;
        EXPECT_EQ(rule_line(renamed, r), rule_line(era, r)) << renamed;
    }
    EXPECT_NE(read_free("\tbool big = order > 3;\n\tbool init = want_init_on_free();\n", "\tif (!big) {\n" + tail)
                  .find("not under if (!skip_kasan_poison) alone"),
              std::string::npos);
}

namespace {

// __kasan_poison_pages with BODY, in the shape v6.1 and v6.12 write it
std::string read_poison_pages(const std::string& body = "\tif (likely(!PageHighMem(page)))\n"
                                                        "\t\tkasan_poison(page_address(page), PAGE_SIZE << order,\n"
                                                        "\t\t\t     KASAN_PAGE_FREE, init);\n") {
    const std::string text =
        "enum { false = 0, true = 1 };\ntypedef _Bool bool;\nstruct page;\n#define PAGE_SIZE 4096UL\n"
        "#define KASAN_PAGE_FREE 0xFF\n#define likely(x) __builtin_expect(!!(x), 1)\n"
        "bool PageHighMem(struct page *);\nvoid *page_address(struct page *);\n"
        "void kasan_poison(const void *, unsigned long, unsigned char, bool);\n"
        "void kasan_unpoison(const void *, unsigned long, bool);\n"
        "void __kasan_poison_pages(struct page *page, unsigned int order, bool init)\n{\n" + body + "}\n";
    return read_part("mm/kasan/common.c", text, "__kasan_poison_pages", tree::read_kasan_poison_pages);
}

}  // namespace

namespace {

// Every row of the free plan that RULES decide beside linux-7.0: field -> equal
std::map<std::string, bool> free_plan_rows(const std::string& rules) {
    std::map<std::string, bool> m;
    for (const auto& r : solver::rule_drift(
             kernel::parse_variant_file("name lifted-x\nbase linux-7.0\n" + rules, "lifted").overrides, "linux-7.0"))
        if (r.rule == "free_pages_prepare") m[r.field] = r.equal;
    return m;
}

}  // namespace

// The eras' shape reads as the hand rule (init passed on), every row of the
// free plan proved equal to linux-7.0's; the highmem test written as a
// return reads the same.
TEST(LiftFreeParts, PoisonPagesPassesItsInit) {
    const std::string r = read_poison_pages();
    EXPECT_EQ(rule_line(r, "kasan_poison_pages_init"), "rule kasan_poison_pages_init(init) = init") << r;
    const auto rows = free_plan_rows(r);
    EXPECT_TRUE(rows.count("poison_init")) << r;
    for (const auto& [field, equal] : rows) EXPECT_TRUE(equal) << field;
    const std::string ret = read_poison_pages("\tif (PageHighMem(page))\n\t\treturn;\n"
                                              "\tkasan_poison(page_address(page), PAGE_SIZE << order, KASAN_PAGE_FREE, init);\n");
    EXPECT_EQ(rule_line(ret, "kasan_poison_pages_init"), rule_line(r, "kasan_poison_pages_init")) << ret;
}

// The control: init no longer passed on ("free_pages_prepare() clears the
// page anyway") reads as false, and the free plan's poison_init (alone)
// then differs from linux-7.0's; shapes the model is not are refused with why.
TEST(LiftFreeParts, PoisonPagesWithoutInitDiffersAndOtherShapesAreRefused) {
    const std::string dropped = read_poison_pages("\tif (likely(!PageHighMem(page)))\n"
                                                  "\t\tkasan_poison(page_address(page), PAGE_SIZE << order,\n"
                                                  "\t\t\t     KASAN_PAGE_FREE, false);\n");
    EXPECT_EQ(rule_line(dropped, "kasan_poison_pages_init"), "rule kasan_poison_pages_init(init) = false") << dropped;
    for (const auto& [field, equal] : free_plan_rows(dropped)) EXPECT_EQ(equal, field != "poison_init") << field;
    EXPECT_NE(read_poison_pages("\tif (order < 3)\n\t\tkasan_poison(page_address(page), PAGE_SIZE << order, "
                                "KASAN_PAGE_FREE, init);\n")
                  .find("is under if (order < 3)"),
              std::string::npos);
    EXPECT_NE(read_poison_pages("\tif (order > 3)\n\t\treturn;\n\tkasan_poison(page_address(page), PAGE_SIZE << order, "
                                "KASAN_PAGE_FREE, init);\n")
                  .find("comes before kasan_poison()"),
              std::string::npos);
    EXPECT_NE(read_poison_pages("\tkasan_poison(page_address(page), PAGE_SIZE, KASAN_PAGE_FREE, init);\n")
                  .find("not the model's"),
              std::string::npos);
    // a call besides the poisoning would go unread
    EXPECT_NE(read_poison_pages("\tkasan_poison(page_address(page), PAGE_SIZE << order, KASAN_PAGE_FREE, init);\n"
                                "\tkasan_unpoison(page_address(page), PAGE_SIZE << order, init);\n")
                  .find("calls kasan_unpoison()"),
              std::string::npos);
}

// Conditions are compared bare (tree/part_scan.cpp): a hint and enclosing
// parentheses dropped; the control, parentheses that do not enclose the
// whole condition, kept.
TEST(PartScan, ConditionsAreComparedBare) {
    EXPECT_EQ(tree::bare("unlikely ( object == NULL )"), "object == NULL");
    EXPECT_EQ(tree::bare("( object == NULL )"), "object == NULL");
    EXPECT_EQ(tree::bare("likely ( ! PageHighMem ( page ) )"), "! PageHighMem ( page )");
    EXPECT_EQ(tree::bare("is_kfence_address ( object )"), "is_kfence_address ( object )");
    EXPECT_EQ(tree::bare("( a ) && ( b )"), "( a ) && ( b )");
}
