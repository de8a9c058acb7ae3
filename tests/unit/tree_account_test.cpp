// tree_account_test.cpp — every hunk accounted for against a tree read with
// libclang (tree/account.cpp, issue 31 item 4), on a small tree made here: a
// comment change is no semantic change (its tokens are equal), a change in a
// function the model stands for is named as not read from the tree yet, one
// elsewhere is outside the model with its definition named, and a hunk that
// does not apply is named. A token change inside a comment-only-looking hunk
// is the negative control.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>

#include "account.hpp"
#include "choose.hpp"
#include "error.hpp"
#include "file/rule_expr.hpp"
#include "functions.hpp"
#include "gfp_lift.hpp"
#include "modelled.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;

namespace {

const char* kPageAlloc =
    "/* page allocator */\n"
    "static int helper(int a)\n"
    "{\n"
    "\treturn a + 1;\n"
    "}\n"
    "\n"
    "/*\n"
    " * The hook.\n"
    " */\n"
    "inline void post_alloc_hook(struct page *page, unsigned int order, unsigned int gfp_flags)\n"
    "{\n"
    "\tint init = gfp_flags & 1;\n"
    "\tint zero_tags = init && (gfp_flags & 2);\n"
    "\n"
    "\tif (zero_tags)\n"
    "\t\thelper(order);\n"
    "}\n"
    "\n"
    "#define GFP_KERNEL 0xcc0u\n"
    "#define __GFP_ZERO 0x100u\n"
    "void *kmalloc(unsigned long size, unsigned int flags);\n"
    "static void *driver_buf(void)\n"
    "{\n"
    "\treturn kmalloc(64, GFP_KERNEL);\n"
    "}\n";

std::string make_tree() {
    const std::string dir = test::scratch_dir("tree-account");
    std::filesystem::create_directories(dir + "/mm");
    std::ofstream(dir + "/Makefile") << "# SPDX\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\n";
    std::ofstream(dir + "/mm/page_alloc.c") << kPageAlloc;
    return dir;
}

patch::Series series_of(const std::string& diff) {
    patch::Series s;
    patch::read_patches(diff, "test.patch", s);
    return s;
}

tree::Accounting account_of(const std::string& diff) {
    const std::string root = make_tree();
    patch::Series s = series_of(diff);
    auto maps = patch::map_series(s);
    tree::SeriesApply a = tree::apply_series(s, root);
    return tree::account(s, maps, &a, root);
}

// A tree whose post_alloc_hook is read (the lifted map says so) and calls
// kernel_init_pages(), a helper the model has by hand, defined just before it.
const char* kWithHelper =
    "static void kernel_init_pages(struct page *page, int numpages)\n"
    "{\n"
    "\tclear(page, numpages);\n"
    "}\n"
    "\n"
    "inline void post_alloc_hook(struct page *page, unsigned int order, unsigned int gfp_flags)\n"
    "{\n"
    "\tif (gfp_flags & 1)\n"
    "\t\tkernel_init_pages(page, 1 << order);\n"
    "}\n";

tree::Accounting account_read(const std::string& diff) {
    const std::string root = make_tree();
    std::ofstream(root + "/mm/page_alloc.c") << kWithHelper;
    patch::Series s = series_of(diff);
    auto maps = patch::map_series(s);
    tree::SeriesApply a = tree::apply_series(s, root);
    const std::map<std::string, std::string> lifted = {{"post_alloc_hook", ""}};
    return tree::account(s, maps, &a, root, &lifted);
}

}  // namespace

// A hunk that deletes a helper the model has by hand and its call in a
// function the model reads is checked: the helper matters only where it was
// called, and there the code is read. Alone, or changed rather than deleted
// (the negative controls), the helper is what the hunk changes: not checked.
TEST(TreeAccount, ADeletedHelperBesideItsReadCallerIsNamedNotCounted) {
    auto both = account_read("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -1,10 +1,3 @@\n"
                             "-static void kernel_init_pages(struct page *page, int numpages)\n-{\n"
                             "-\tclear(page, numpages);\n-}\n-\n"
                             " inline void post_alloc_hook(struct page *page, unsigned int order, unsigned int gfp_flags)\n"
                             " {\n-\tif (gfp_flags & 1)\n-\t\tkernel_init_pages(page, 1 << order);\n }\n");
    ASSERT_EQ(both.hunks.size(), 1u);
    EXPECT_TRUE(both.hunks[0].checked()) << both.hunks[0].words;
    EXPECT_NE(both.hunks[0].words.find("deletes kernel_init_pages"), std::string::npos) << both.hunks[0].words;

    auto alone = account_read("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -1,5 +1,0 @@\n"
                              "-static void kernel_init_pages(struct page *page, int numpages)\n-{\n"
                              "-\tclear(page, numpages);\n-}\n-\n");
    ASSERT_EQ(alone.hunks.size(), 1u);
    EXPECT_FALSE(alone.hunks[0].checked()) << alone.hunks[0].words;
    EXPECT_NE(alone.hunks[0].words.find("kernel_init_pages"), std::string::npos) << alone.hunks[0].words;

    auto changed = account_read("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -3,8 +3,7 @@\n"
                                "-\tclear(page, numpages);\n+\tclear(page, 1);\n }\n \n"
                                " inline void post_alloc_hook(struct page *page, unsigned int order, unsigned int gfp_flags)\n"
                                " {\n-\tif (gfp_flags & 1)\n-\t\tkernel_init_pages(page, 1 << order);\n+\tkernel_init_pages(page, 1);\n }\n");
    ASSERT_EQ(changed.hunks.size(), 1u);
    EXPECT_FALSE(changed.hunks[0].checked()) << changed.hunks[0].words;
}

TEST(TreeAccount, OpenTreeReadsTheVersionAndRefusesANonTree) {
    const std::string root = make_tree();
    tree::SourceTree t = tree::open_tree(root);
    EXPECT_EQ(t.version, "6.1.99");
    EXPECT_EQ(t.era(), "tree:6.1.99");
    EXPECT_THROW(tree::open_tree(root + "/mm"), InputError);
}

TEST(TreeAccount, DefinitionsAreReadWithTheirLines) {
    tree::ParsedFile pf = tree::read_definitions(make_tree(), "mm/page_alloc.c", kPageAlloc);
    const tree::Definition* d = pf.find("post_alloc_hook");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->begin_line, 10);
    EXPECT_EQ(d->end_line, 17);
    EXPECT_EQ(pf.at(13, 13), d);
    EXPECT_EQ(pf.at(4, 4)->name, "helper");
    EXPECT_EQ(pf.at(8, 8), nullptr);  // a comment between definitions
}

TEST(TreeAccount, ACommentChangeIsNoSemanticChange) {
    auto acc = account_of("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -7,3 +7,3 @@\n /*\n- * The hook.\n+ * The hook, said better.\n  */\n");
    ASSERT_EQ(acc.hunks.size(), 1u);
    EXPECT_EQ(acc.hunks[0].what, tree::HunkAccount::What::no_change) << acc.hunks[0].words;
    EXPECT_EQ(acc.headline(), "1 of 1 hunk checked");
}

TEST(TreeAccount, ATokenChangeIsNotNoChange_NegativeControl) {
    // Same place, but a token changes (a rename inside the function).
    auto acc = account_of(
        "--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -12,2 +12,2 @@\n \tint init = gfp_flags & 1;\n-\tint zero_tags = init && (gfp_flags & 2);\n+\tint zero_tags = init && (gfp_flags & 4);\n");
    ASSERT_EQ(acc.hunks.size(), 1u);
    EXPECT_EQ(acc.hunks[0].what, tree::HunkAccount::What::modelled_unread) << acc.hunks[0].words;
    EXPECT_EQ(acc.hunks[0].function, "post_alloc_hook");
    EXPECT_FALSE(acc.hunks[0].checked());
    EXPECT_NE(acc.hunks[0].words.find("does not read from the tree yet"), std::string::npos);
}

TEST(TreeAccount, BlanksOnlyInsideAFunctionIsNoChange) {
    auto acc = account_of(
        "--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -3,2 +3,2 @@\n {\n-\treturn a + 1;\n+\treturn a  +  1;\n");
    ASSERT_EQ(acc.hunks.size(), 1u);
    EXPECT_EQ(acc.hunks[0].what, tree::HunkAccount::What::no_change);
}

TEST(TreeAccount, AChangeElsewhereIsOutsideTheModelWithItsDefinition) {
    auto acc = account_of("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -3,2 +3,2 @@\n {\n-\treturn a + 1;\n+\treturn a + 2;\n");
    ASSERT_EQ(acc.hunks.size(), 1u);
    EXPECT_EQ(acc.hunks[0].what, tree::HunkAccount::What::outside);
    EXPECT_NE(acc.hunks[0].words.find("helper (mm/page_alloc.c:4)"), std::string::npos) << acc.hunks[0].words;
}

TEST(TreeAccount, AHunkThatDoesNotApplyIsNamed) {
    auto acc = account_of("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -3,2 +3,2 @@\n {\n-\treturn b * 3;\n+\treturn b * 4;\n");
    ASSERT_EQ(acc.hunks.size(), 1u);
    EXPECT_EQ(acc.hunks[0].what, tree::HunkAccount::What::not_applied);
    EXPECT_EQ(acc.headline(), "0 of 1 hunk checked");
}

TEST(TreeChoose, TheNamedReleaseIsRefusedWhenTheNearestTreeDoesNotTakeEveryHunk) {
    const std::string root = make_tree();
    const std::string cache = test::scratch_dir("tree-cache");
    std::filesystem::remove_all(cache);
    std::filesystem::create_directories(cache);
    std::filesystem::create_symlink(root, cache + "/linux-source-6.1");
    std::ofstream(root + "/.tagproof-ready") << "";
    setenv("TAGPROOF_TREES", cache.c_str(), 1);
    patch::Series good = series_of("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -3,2 +3,2 @@\n {\n-\treturn a + 1;\n+\treturn a + 2;\n");
    patch::Series bad = series_of("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -3,2 +3,2 @@\n {\n-\treturn b * 3;\n+\treturn b * 4;\n");
    tree::BaseHints h;
    h.release = "7.0";
    h.release_words = "the series says \"Applies on v7.0-rc1\"";
    tree::TreeChoice c = tree::choose_tree(bad, h, "");
    EXPECT_EQ(c.tree(), nullptr);
    ASSERT_EQ(c.tries.size(), 1u);
    EXPECT_NE(c.tries[0].verdict.find("refused"), std::string::npos) << c.tries[0].verdict;
    // negative control: everything applies on the nearest tree, so it is taken
    tree::TreeChoice g = tree::choose_tree(good, h, "");
    ASSERT_NE(g.tree(), nullptr);
    EXPECT_EQ(g.tree()->tree.era(), "tree:6.1.99");
    // no named release: the tree where most hunks apply
    tree::TreeChoice n = tree::choose_tree(good, tree::BaseHints{}, "");
    ASSERT_NE(n.tree(), nullptr);
    // ... but not a tree that lacks the code a failed hunk changes: the
    // series was written on another version (seed 000 on 6.1 and 6.12)
    patch::Series other = series_of(
        "--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -3,2 +3,2 @@\n {\n-\treturn a + 1;\n+\treturn a + 2;\n"
        "@@ -40,5 +40,5 @@\n static void *vmalloc_fix_flags(void)\n {\n \tint q = 3;\n-\treturn x;\n+\treturn y;\n }\n");
    tree::TreeChoice o = tree::choose_tree(other, tree::BaseHints{}, "");
    EXPECT_EQ(o.tree(), nullptr);
    ASSERT_EQ(o.tries.size(), 1u);
    EXPECT_NE(o.tries[0].verdict.find("lacks the code mm/page_alloc.c hunk 2 changes"), std::string::npos)
        << o.tries[0].verdict;
    unsetenv("TAGPROOF_TREES");
}

// The two tables that say where a rule lives agree: every rule a variant file
// may override (its kernel site, model/kernel/file) is, or names, a function
// or macro of the modelled list the accounting reads (tree/modelled.cpp), so a
// hunk there is never called outside the model.
TEST(TreeModelled, EveryOverridableRuleSitsInAModelledDefinition) {
    for (const auto& r : tagproof::kernel::overridable_rules()) {
        bool found = tree::find_modelled(r.name) != nullptr;
        std::string word;
        for (const char* c = r.what;; ++c) {
            if (*c && (std::isalnum((unsigned char)*c) || *c == '_')) {
                word += *c;
                continue;
            }
            found |= !word.empty() && tree::find_modelled(word) != nullptr;
            word.clear();
            if (!*c) break;
        }
        EXPECT_TRUE(found) << r.name << " sits in '" << r.what << "', which names no modelled definition";
    }
    // negative control: a name the model does not stand for
    EXPECT_EQ(tree::find_modelled("sock_kfree_s"), nullptr);
    EXPECT_NE(tree::find_modelled("__vmalloc_node_range_noprof"), nullptr);
}

// An unconfigured tree's GFP values are not the kernel's (no autoconf.h: no
// CONFIG_KASAN_HW_TAGS): lifting them is refused, naming the tree.
TEST(TreeGfpLift, AnUnconfiguredTreeIsRefused) {
    const std::string root = make_tree();
    try {
        tree::lift_gfp_constants(root, {"GFP_KERNEL"});
        FAIL() << "lifted from an unconfigured tree";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not configured"), std::string::npos) << e.what();
    }
}

// A call site of an entry point the model has (issue 31 item 4), found from
// the AST: a driver's kmalloc gaining __GFP_ZERO is named with its gfp, not
// called "outside the model"; changing another argument of a call the model
// does not have stays outside (the control).
TEST(TreeAccount, ACallSiteOfAModelledEntryPointIsNamedWithItsGfp) {
    auto acc = account_of("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -24,3 +24,3 @@\n {\n"
                          "-\treturn kmalloc(64, GFP_KERNEL);\n+\treturn kmalloc(64, GFP_KERNEL | __GFP_ZERO);\n }\n");
    ASSERT_EQ(acc.hunks.size(), 1u);
    EXPECT_EQ(acc.hunks[0].what, tree::HunkAccount::What::call_site) << acc.hunks[0].words;
    EXPECT_NE(acc.hunks[0].words.find("kmalloc()'s gfp goes from GFP_KERNEL to GFP_KERNEL | __GFP_ZERO"), std::string::npos)
        << acc.hunks[0].words;
    EXPECT_NE(acc.hunks[0].words.find("driver_buf"), std::string::npos) << acc.hunks[0].words;
    EXPECT_FALSE(acc.hunks[0].checked());
    auto other = account_of("--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -15,2 +15,2 @@\n \tif (zero_tags)\n"
                            "-\t\thelper(order);\n+\t\thelper(order + 1);\n");
    ASSERT_EQ(other.hunks.size(), 1u);
    EXPECT_NE(other.hunks[0].what, tree::HunkAccount::What::call_site);
}
