// tree_lift_parts_test.cpp — the functions read in part (tree/lift_parts.cpp)
// on made-up C (no kernel code in the project): the cached stack's
// unpoisoning under each shape of condition, and a call's gfp as written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "functions.hpp"
#include "lift_parts.hpp"

using namespace tagproof;

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

// the rule text read from the made-up fork.c, or "WHY: ..." when not read
std::string read(const std::string& body) {
    const std::string dir = testing::TempDir() + "/tree_lift_parts";
    std::filesystem::create_directories(dir + "/kernel");
    const std::string text = file_with(body);
    std::ofstream(dir + "/kernel/fork.c") << text;
    const tree::ParsedFile pf = tree::read_definitions(dir, "kernel/fork.c", text);
    const tree::Definition* d = pf.find("alloc_thread_stack_node");
    if (!d) return "WHY: no definition";
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string why;
    const std::string r = tree::read_thread_stack(tree::PartInput{lines, *d, pf, "kernel/fork.c"}, why);
    return r.empty() ? "WHY: " + why : r;
}

std::string rule_line(const std::string& text, const std::string& rule) {
    const std::size_t at = text.find("rule " + rule);
    return at == std::string::npos ? "" : text.substr(at, text.find('\n', at) - at);
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
