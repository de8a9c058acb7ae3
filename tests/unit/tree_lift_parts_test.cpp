// tree_lift_parts_test.cpp — the functions read in part (tree/lift_parts.cpp)
// on made-up C (no kernel code in the project): the cached stack's
// unpoisoning under each shape of condition, and a call's gfp as written.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

#include "file/variant_file.hpp"
#include "functions.hpp"
#include "lift_parts.hpp"
#include "rule_drift.hpp"
#include "read_part.hpp"

using namespace tagproof;
using test::read_part;
using test::rule_line;

namespace {

const char* kHead =
    "struct vm_struct { void *addr; };\n"
    "void *__vmalloc_node_range(unsigned long, unsigned long, unsigned long, unsigned long, unsigned int, int, int, int, void *);\n"
    "void kasan_unpoison_range(void *, unsigned long);\n"
    "int kasan_hw_tags_enabled(void);\n"
    "int kasan_enabled(void);\n"
    "#define THREADINFO_GFP 0xcc0u\n"
    "#define __GFP_ACCOUNT 0x400000u\n"
    "static struct vm_struct *cached[2];\n";

// BODY is what the loop over the cached stacks does with s
std::string file_with(const std::string& body) {
    return std::string(kHead) +
           "static int alloc_thread_stack_node(int node)\n"
           "{\n"
           "\tint i;\n"
           "\tvoid *stack;\n"
           "\tfor (i = 0; i < 2; i++) {\n"
           "\t\tstruct vm_struct *s = cached[i];\n"
           "\t\tif (!s)\n"
           "\t\t\tcontinue;\n" +
           body +
           "\t\treturn 0;\n"
           "\t}\n"
           "\tstack = __vmalloc_node_range(16384, 16384, 0, 0, THREADINFO_GFP & ~__GFP_ACCOUNT, 0, 0, node, 0);\n"
           "\treturn stack ? 0 : -12;\n"
           "}\n";
}

// the made-up fork.c's rules
std::string read(const std::string& body) {
    return read_part("kernel/fork.c", file_with(body), "alloc_thread_stack_node", tree::read_thread_stack);
}

// A made-up vmalloc.c in the shape of __vmalloc_node_range's KASAN part:
// DECL at the PAGE_KERNEL branch's top, TAGGED the tagged branch's condition,
// FLAGS its gfp_mask statement, NORMAL the PROT_NORMAL statement (with its
// guard), UNPOISON the unpoisoning statement.
struct VmallocShape {
    std::string top = "";  // after the function's first declaration
    std::string decl = "";
    std::string tagged = "kasan_hw_tags_enabled()";
    std::string flags = "\t\t\tgfp_mask |= __GFP_SKIP_KASAN | __GFP_SKIP_ZERO;\n";
    std::string normal = "\t\tkasan_flags |= KASAN_VMALLOC_PROT_NORMAL;\n";
    std::string after_branch = "";
    std::string vm_alloc = "\tkasan_flags |= KASAN_VMALLOC_VM_ALLOC;\n";
    std::string unpoison = "\taddr = kasan_unpoison_vmalloc(addr, size, kasan_flags);\n";
};

std::string vmalloc_file(const VmallocShape& v) {
    return "typedef unsigned int gfp_t;\n"
           // the flags are include/linux/gfp_types.h's, not the file's: not expanded
           "enum { __GFP_SKIP_ZERO = 0x1000000, __GFP_SKIP_KASAN = 0x2000000 };\n"
           "#define KASAN_VMALLOC_INIT 1\n#define KASAN_VMALLOC_VM_ALLOC 2\n#define KASAN_VMALLOC_PROT_NORMAL 4\n"
           "#define PAGE_KERNEL 3\n"
           "int kasan_hw_tags_enabled(void);\nint want_init_on_free(void);\nint want_init_on_alloc(gfp_t);\n"
           "int arch_vmap_pgprot_tagged(int);\nvoid *get_area(unsigned long, gfp_t);\n"
           "void *kasan_unpoison_vmalloc(void *, unsigned long, int);\n"
           "void *__get_vm_area_node(unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, "
           "unsigned long, int, gfp_t, const void *);\n"
           "void *__vmalloc_node_range_noprof(unsigned long size, gfp_t gfp_mask, int prot)\n"
           "{\n"
           "\tint kasan_flags = 0;\n" + v.top +
           "\tvoid *addr = __get_vm_area_node(size, 1, 12, 0, 0, 0, -1, gfp_mask, 0);\n"
           "\tif (!addr)\n\t\treturn 0;\n"
           "\t/* the branch */\n"
           "\tif (prot == PAGE_KERNEL) {\n" + v.decl +
           "\t\tif (" + v.tagged + ") {\n"
           "\t\t\tprot = arch_vmap_pgprot_tagged(prot);\n" + v.flags +
           "\t\t}\n" + v.normal +
           "\t}\n" + v.after_branch + v.vm_alloc +
           "\tif (!want_init_on_free() && want_init_on_alloc(gfp_mask) &&\n"
           "\t    (gfp_mask & __GFP_SKIP_ZERO))\n"
           "\t\tkasan_flags |= KASAN_VMALLOC_INIT;\n" + v.unpoison +
           "\treturn addr;\n"
           "}\n";
}

std::string read_vmalloc(const VmallocShape& v) {
    return read_part("mm/vmalloc.c", vmalloc_file(v), "__vmalloc_node_range_noprof", tree::read_vmalloc_kasan);
}

}  // namespace

TEST(LiftParts, CachedStackUnpoisonedAlways) {
    const std::string r = read("\t\tkasan_unpoison_range(s->addr, 16384);\n");
    EXPECT_EQ(rule_line(r, "cached_stack_unpoison"), "rule cached_stack_unpoison = true");
    // the argument as written, the file's own macros expanded (here both are the file's)
    EXPECT_EQ(rule_line(r, "GFP_VMAP_STACK"), "rule GFP_VMAP_STACK = (0xcc0u) & ~ (0x400000u)");
}

TEST(LiftParts, CachedStackUnderAnUnbracedIf) {
    const std::string r = read("\t\t/* only without HW tags */\n\t\tif (!kasan_hw_tags_enabled())\n"
                               "\t\t\tkasan_unpoison_range(s->addr, 16384);\n");
    EXPECT_EQ(rule_line(r, "cached_stack_unpoison"), "rule cached_stack_unpoison = (! kasan_hw_tags_enabled ( ))");
}

TEST(LiftParts, CachedStackUnderABracedIfWithAStatementBeforeIt) {
    // the case a line-by-line reading got wrong: the line before the call is a statement
    const std::string r = read("\t\tif (kasan_enabled()) {\n\t\t\tstack = s->addr;\n"
                               "\t\t\t/* reset */\n\t\t\tkasan_unpoison_range(s->addr, 16384);\n\t\t}\n");
    EXPECT_EQ(rule_line(r, "cached_stack_unpoison"), "rule cached_stack_unpoison = (kasan_enabled ( ))");
}

TEST(LiftParts, CachedStackInAnElseBranchIsNotRead) {
    const std::string r = read("\t\tif (kasan_enabled())\n\t\t\tstack = s->addr;\n\t\telse\n"
                               "\t\t\tkasan_unpoison_range(s->addr, 16384);\n");
    EXPECT_NE(r.find("WHY: "), std::string::npos) << r;
    EXPECT_NE(r.find("else"), std::string::npos) << r;
}

TEST(LiftParts, NoCachedStackUnpoisoningIsFalse) {
    const std::string r = read("\t\tstack = s->addr;\n");
    EXPECT_EQ(rule_line(r, "cached_stack_unpoison"), "rule cached_stack_unpoison = false");
}

// The era's shape (v6.4 .. v7.0): every rule as the hand era has it. The
// INIT test reads gfp_mask after the skip flags were added: the rule's
// second parameter.
TEST(LiftParts, VmallocKasanPartAsTheErasWriteIt) {
    const std::string r = read_vmalloc({});
    EXPECT_EQ(rule_line(r, "vmalloc_meta_gfp"), "rule vmalloc_meta_gfp(gfp) = gfp") << r;
    EXPECT_EQ(rule_line(r, "vmalloc_tagged_prot"), "rule vmalloc_tagged_prot(gfp) = (kasan_hw_tags_enabled ( ))") << r;
    EXPECT_EQ(rule_line(r, "vmalloc_page_skip_flags"), "rule vmalloc_page_skip_flags = __GFP_SKIP_KASAN | __GFP_SKIP_ZERO");
    EXPECT_EQ(rule_line(r, "vmalloc_prot_normal"), "rule vmalloc_prot_normal(gfp, gfp_mask) = true");
    EXPECT_EQ(rule_line(r, "vmalloc_init"),
              "rule vmalloc_init(gfp, gfp_mask) = (! want_init_on_free ( ) && want_init_on_alloc ( gfp_mask ) && "
              "( gfp_mask & __GFP_SKIP_ZERO ))");
    EXPECT_EQ(rule_line(r, "vmalloc_calls_unpoison"), "rule vmalloc_calls_unpoison(gfp, gfp_mask) = true");
}

// Seed 000's 1/3: a local read as its initializer, with gfp_mask as it is
// where the local is declared (before the skip flags: the caller's gfp).
TEST(LiftParts, VmallocLocalsAreReadAsTheirInitializers) {
    VmallocShape v;
    v.decl = "\t\tint skip_kasan = gfp_mask & __GFP_SKIP_KASAN;\n\n";
    v.tagged = "kasan_hw_tags_enabled() && !skip_kasan";
    v.normal = "\t\tif (!skip_kasan)\n\t\t\tkasan_flags |= KASAN_VMALLOC_PROT_NORMAL;\n";
    const std::string r = read_vmalloc(v);
    EXPECT_EQ(rule_line(r, "vmalloc_tagged_prot"),
              "rule vmalloc_tagged_prot(gfp) = (kasan_hw_tags_enabled ( ) && ! (gfp & __GFP_SKIP_KASAN))") << r;
    EXPECT_EQ(rule_line(r, "vmalloc_prot_normal"), "rule vmalloc_prot_normal(gfp, gfp_mask) = (! (gfp & __GFP_SKIP_KASAN))");
    // the v3 shape: the call itself skipped
    v.normal = "\t\tkasan_flags |= KASAN_VMALLOC_PROT_NORMAL;\n";
    v.unpoison = "\tif (!skip_kasan)\n\t\taddr = kasan_unpoison_vmalloc(addr, size, kasan_flags);\n";
    v.decl = "";
    v.top = "\tint skip_kasan = gfp_mask & __GFP_SKIP_KASAN;\n";
    const std::string r3 = read_vmalloc(v);
    EXPECT_EQ(rule_line(r3, "vmalloc_calls_unpoison"), "rule vmalloc_calls_unpoison(gfp, gfp_mask) = (! (gfp & __GFP_SKIP_KASAN))")
        << r3;
    EXPECT_EQ(rule_line(r3, "vmalloc_prot_normal"), "rule vmalloc_prot_normal(gfp, gfp_mask) = true");
    // a local assigned again is not read as its initializer: the rule is not lifted
    v.after_branch = "\tskip_kasan = 0;\n";
    EXPECT_EQ(rule_line(read_vmalloc(v), "vmalloc_calls_unpoison"), "rule vmalloc_calls_unpoison(gfp, gfp_mask) = (! skip_kasan)");
}

// The negative controls: shapes the model's plan cannot hold are refused with why.
TEST(LiftParts, VmallocShapesTheModelDoesNotHaveAreRefused) {
    VmallocShape outside;  // the skip flags added for every PAGE_KERNEL area, not only a tagged one
    outside.flags = "";
    outside.normal = "\t\tgfp_mask |= __GFP_SKIP_ZERO;\n\t\tkasan_flags |= KASAN_VMALLOC_PROT_NORMAL;\n";
    std::string r = read_vmalloc(outside);
    EXPECT_NE(r.find("WHY: the pages' skip flags"), std::string::npos) << r;
    VmallocShape twice;  // gfp_mask changed again after the branch
    twice.after_branch = "\tgfp_mask &= ~__GFP_SKIP_KASAN;\n";
    r = read_vmalloc(twice);
    EXPECT_NE(r.find("WHY: gfp_mask is changed at mm/vmalloc.c:"), std::string::npos) << r;
    VmallocShape normal_everywhere;  // PROT_NORMAL for every area
    normal_everywhere.normal = "";
    normal_everywhere.after_branch = "\tkasan_flags |= KASAN_VMALLOC_PROT_NORMAL;\n";
    r = read_vmalloc(normal_everywhere);
    EXPECT_NE(r.find("WHY: KASAN_VMALLOC_PROT_NORMAL is not inside the PAGE_KERNEL branch"), std::string::npos) << r;
    VmallocShape in_else;  // the call in an else branch
    in_else.unpoison = "\tif (!addr)\n\t\treturn 0;\n\telse\n\t\taddr = kasan_unpoison_vmalloc(addr, size, kasan_flags);\n";
    r = read_vmalloc(in_else);
    EXPECT_NE(r.find("else branch"), std::string::npos) << r;
}

// What the lifted rules are for: Z3 decides each beside the hand era's
// (solver/rule_drift.cpp). The era's shape is linux-7.0's in every vmalloc
// row; seed 000's shape differs from it in the two rules the series changes,
// with a witness that passes __GFP_SKIP_KASAN (the control).
TEST(LiftParts, VmallocRowsAreDecidedBesideTheEra) {
    auto rows_of = [](const std::string& rules) {
        const kernel::VariantFile vf = kernel::parse_variant_file("name lifted-x\nbase linux-7.0\n" + rules, "lifted");
        std::map<std::string, solver::RuleDriftRow> m;
        for (const auto& r : solver::rule_drift(vf.overrides, "linux-7.0"))
            if (r.rule.rfind("vmalloc_", 0) == 0) m[r.rule] = r;
        return m;
    };
    const auto era = rows_of(read_vmalloc({}));
    ASSERT_EQ(era.size(), 7u);
    for (const auto& [n, r] : era) EXPECT_TRUE(r.equal) << n << ": " << r.witness;
    VmallocShape v;
    v.decl = "\t\tint skip_kasan = gfp_mask & __GFP_SKIP_KASAN;\n\n";
    v.tagged = "kasan_hw_tags_enabled() && !skip_kasan";
    v.normal = "\t\tif (!skip_kasan)\n\t\t\tkasan_flags |= KASAN_VMALLOC_PROT_NORMAL;\n";
    const auto seed = rows_of(read_vmalloc(v));
    for (const char* n : {"vmalloc_tagged_prot", "vmalloc_prot_normal"}) {
        ASSERT_TRUE(seed.count(n)) << n;
        EXPECT_FALSE(seed.at(n).equal) << n;
        EXPECT_NE(seed.at(n).witness.find("__GFP_SKIP_KASAN"), std::string::npos) << n << ": " << seed.at(n).witness;
    }
    EXPECT_TRUE(seed.at("vmalloc_init").equal);
    // KASAN_VMALLOC_VM_ALLOC never passed (a "redundant" flag dropped): the
    // row reads false and differs from every era's, where it is always passed
    VmallocShape no_vm_alloc;
    no_vm_alloc.vm_alloc = "";
    const auto dropped = rows_of(read_vmalloc(no_vm_alloc));
    ASSERT_TRUE(dropped.count("vmalloc_vm_alloc"));
    EXPECT_FALSE(dropped.at("vmalloc_vm_alloc").equal);
    EXPECT_TRUE(era.at("vmalloc_vm_alloc").equal);
}

namespace {

// A made-up fault.c in the shape of arm64's user page allocation: BODY
// builds the local flags, then the function returns the allocation.
std::string read_user_page(const std::string& body) {
    const std::string text =
        "typedef unsigned int gfp_t;\n"
        "enum { GFP_HIGHUSER_MOVABLE = 0x140cca, __GFP_ZERO = 0x100, __GFP_ZEROTAGS = 0x800000, VM_MTE = 0x400 };\n"
        "struct vm_area_struct { unsigned long vm_flags; };\n"
        "struct folio;\n"
        "struct folio *vma_alloc_folio(gfp_t, int, struct vm_area_struct *, unsigned long, int);\n"
        "struct folio *vma_alloc_zeroed_movable_folio(struct vm_area_struct *vma, unsigned long vaddr)\n"
        "{\n" +
        body +
        "\treturn vma_alloc_folio(flags, 0, vma, vaddr, 0);\n"
        "}\n";
    return read_part("arch/arm64/mm/fault.c", text, "vma_alloc_zeroed_movable_folio", tree::read_user_page_gfp);
}

}  // namespace

// The local folded statement by statement: its value at the return, the
// vma's VM_MTE test as the rule's parameter.
TEST(LiftParts, UserPageGfpFoldsTheLocalInOrder) {
    const std::string r = read_user_page(
        "\tgfp_t flags = GFP_HIGHUSER_MOVABLE | __GFP_ZERO;\n\n\t/* tags */\n\tif (vma->vm_flags & VM_MTE)\n"
        "\t\tflags |= __GFP_ZEROTAGS;\n\n");
    EXPECT_EQ(rule_line(r, "user_page_gfp"),
              "rule user_page_gfp(vm_mte) = ((vm_mte) ? ((GFP_HIGHUSER_MOVABLE | __GFP_ZERO) | (__GFP_ZEROTAGS)) : "
              "(GFP_HIGHUSER_MOVABLE | __GFP_ZERO))")
        << r;
    // decided beside the era (Z3): equal; the patch that drops __GFP_ZERO is not (the control)
    auto row = [](const std::string& rules) {
        const kernel::VariantFile vf = kernel::parse_variant_file("name lifted-x\nbase linux-7.0\n" + rules, "lifted");
        for (const auto& d : solver::rule_drift(vf.overrides, "linux-7.0"))
            if (d.rule == "user_page_gfp") return d;
        return solver::RuleDriftRow{};
    };
    EXPECT_TRUE(row(r).equal) << row(r).witness;
    const std::string broken = read_user_page("\tgfp_t flags = GFP_HIGHUSER_MOVABLE;\n\tif (vma->vm_flags & VM_MTE)\n"
                                              "\t\tflags |= __GFP_ZEROTAGS;\n");
    EXPECT_EQ(row(broken).rule, "user_page_gfp");
    EXPECT_FALSE(row(broken).equal);
}

// Shapes the fold refuses, with why.
TEST(LiftParts, UserPageGfpRefusesWhatItCannotFold) {
    EXPECT_NE(read_user_page("\tgfp_t flags;\n\tflags |= __GFP_ZERO;\n").find("WHY: the local flags is changed at"),
              std::string::npos);
    EXPECT_NE(read_user_page("\tgfp_t flags;\n\tif (vma->vm_flags & VM_MTE)\n\t\tflags = __GFP_ZERO;\n")
                  .find("before it is given a value on every path"),
              std::string::npos);
    EXPECT_NE(read_user_page("\tgfp_t flags = 0;\n\tif (vma->vm_flags & VM_MTE)\n\t\tflags = __GFP_ZERO;\n\telse\n"
                             "\t\tflags = __GFP_ZEROTAGS;\n")
                  .find("else branch"),
              std::string::npos);
    EXPECT_NE(read_user_page("\tgfp_t flags;\n").find("WHY: the local flags vma_alloc_folio() is given is never assigned"),
              std::string::npos);
}

// The huge zero folio's __GFP_ZEROTAGS, present or not, as a feature line.
TEST(LiftParts, HugeZeroFolioZerotagsIsAFeature) {
    auto read_hz = [](const std::string& gfp) {
        const std::string text =
            "typedef unsigned int gfp_t;\n"
            "enum { GFP_TRANSHUGE = 0x1, __GFP_ZERO = 0x100, __GFP_ZEROTAGS = 0x800000, __GFP_MOVABLE = 0x8 };\n"
            "struct folio;\nstruct folio *folio_alloc(gfp_t, int);\nstatic struct folio *zero;\n"
            "static int get_huge_zero_page(void)\n{\n\tzero = folio_alloc(" + gfp + ",\n\t\t\t9);\n\treturn zero != 0;\n}\n";
        return read_part("mm/huge_memory.c", text, "get_huge_zero_page", tree::read_huge_zero_folio_zerotags);
    };
    EXPECT_NE(read_hz("(GFP_TRANSHUGE | __GFP_ZERO | __GFP_ZEROTAGS) & ~__GFP_MOVABLE").find("\nfeature huge_zero_folio_zerotags yes\n"),
              std::string::npos);
    const std::string no = read_hz("(GFP_TRANSHUGE | __GFP_ZERO) & ~__GFP_MOVABLE");
    EXPECT_NE(no.find("without __GFP_ZEROTAGS\nfeature huge_zero_folio_zerotags no\n"), std::string::npos) << no;
}
