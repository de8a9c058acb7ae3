// tree_apply_test.cpp — a series applied to a scratch copy of a tree's files
// (tree/apply.cpp, issue 31 item 2): exact, at an offset, with fuzz, with
// blanks compared loosely, in reverse when the tree has the series, and a
// hunk that fails named with why. Each acceptance has its negative control.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "apply.hpp"
#include "mail.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;

namespace {

patch::Series series_of(const std::string& diff) {
    patch::Series s;
    patch::read_patches(diff, "test.patch", s);
    return s;
}

std::string numbered(int from, int to, const std::string& prefix = "line ") {
    std::string s;
    for (int i = from; i <= to; ++i) s += prefix + std::to_string(i) + "\n";
    return s;
}

const char* kDiff =
    "diff --git a/f.c b/f.c\n"
    "--- a/f.c\n"
    "+++ b/f.c\n"
    "@@ -4,7 +4,7 @@\n"
    " line 4\n"
    " line 5\n"
    " line 6\n"
    "-line 7\n"
    "+line seven\n"
    " line 8\n"
    " line 9\n"
    " line 10\n";

std::vector<tree::HunkPlace> apply(const std::string& text, const std::string& diff, bool reverse, std::string* out) {
    patch::Series s = series_of(diff);
    std::vector<tree::HunkPlace> places;
    *out = tree::apply_file(text, s.patches.at(0).files.at(0), reverse, 0, 0, places);
    return places;
}

}  // namespace

TEST(TreeApply, ExactWhereTheAtLineSays) {
    std::string out;
    auto p = apply(numbered(1, 20), kDiff, false, &out);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].how, tree::HunkPlace::How::exact);
    EXPECT_EQ(p[0].describe(), "applied");
    EXPECT_NE(out.find("line seven\nline 8\n"), std::string::npos);
    EXPECT_EQ(out.find("line 7\n"), std::string::npos);
    EXPECT_EQ(p[0].old_line, 4);
}

TEST(TreeApply, AtAnOffsetWhenLinesMoved) {
    std::string out;
    auto p = apply("a\nb\nc\n" + numbered(1, 20), kDiff, false, &out);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].how, tree::HunkPlace::How::moved);
    EXPECT_EQ(p[0].offset, 3);
    EXPECT_EQ(p[0].describe(), "applied at offset 3 lines");
    EXPECT_NE(out.find("line seven"), std::string::npos);
}

TEST(TreeApply, WithFuzzWhenAnEndContextLineDiffers) {
    std::string text = numbered(1, 20);
    text.replace(text.find("line 4\n"), 7, "LINE FOUR\n");
    std::string out;
    auto p = apply(text, kDiff, false, &out);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].fuzz, 1);
    EXPECT_NE(out.find("LINE FOUR\nline 5\nline 6\nline seven\n"), std::string::npos) << out;
}

TEST(TreeApply, FuzzNeverPlacesAHunkByItsChangedLinesAlone) {
    // Every context line differs: with all context dropped, "line 7" alone
    // would match; it must fail instead.
    std::string text = "x\ny\nz\nline 7\nu\nv\nw\n";
    std::string out;
    auto p = apply(text, kDiff, false, &out);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].how, tree::HunkPlace::How::failed);
    EXPECT_EQ(out, text);
    EXPECT_NE(p[0].why.find("match nowhere in f.c"), std::string::npos) << p[0].why;
}

TEST(TreeApply, BlanksComparedLooselyAsPatchL) {
    // A mail client turned the tree's tabs into spaces.
    std::string text = "int f(void)\n{\n\tint a;\n\ta = 1;\n\treturn a;\n}\n";
    const char* diff =
        "--- a/f.c\n+++ b/f.c\n@@ -1,6 +1,6 @@\n int f(void)\n {\n     int a;\n-    a = 1;\n+    a = 2;\n     return a;\n }\n";
    std::string out;
    auto p = apply(text, diff, false, &out);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_TRUE(p[0].loose);
    EXPECT_EQ(p[0].describe(), "applied with blanks compared loosely");
    // context keeps the tree's own text; the added line is the patch's
    EXPECT_EQ(out, "int f(void)\n{\n\tint a;\n    a = 2;\n\treturn a;\n}\n");
}

TEST(TreeApply, ASeriesTheTreeHasIsTakenInReverse) {
    std::string text = numbered(1, 20);
    text.replace(text.find("line 7\n"), 7, "line seven\n");  // the tree is the "after"
    const std::string dir = test::scratch_dir("tree-apply-reverse");
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/f.c") << text;
    patch::Series s = series_of(std::string("diff --git a/f.c b/f.c\n") + (kDiff + std::string(kDiff).find("--- a")));
    tree::SeriesApply a = tree::apply_series(s, dir);
    EXPECT_TRUE(a.reversed);
    EXPECT_EQ(a.applied(), 1u);
    EXPECT_EQ(a.before("f.c", 0), numbered(1, 20));
    EXPECT_EQ(a.after("f.c", 0), text);
    // negative control: the tree without the change takes it forward
    std::ofstream(dir + "/f.c") << numbered(1, 20);
    tree::SeriesApply f = tree::apply_series(s, dir);
    EXPECT_FALSE(f.reversed);
    EXPECT_EQ(f.after("f.c", 0), text);
}

TEST(TreeApply, AFailedHunkIsNamedAndTheOthersStillApply) {
    const char* diff =
        "--- a/f.c\n+++ b/f.c\n"
        "@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n"
        "@@ -12,3 +12,3 @@\n nothing\n-like\n+this\n here\n";
    std::string out;
    auto p = apply(numbered(1, 20), diff, false, &out);
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p[0].how, tree::HunkPlace::How::exact);
    EXPECT_EQ(p[1].how, tree::HunkPlace::How::failed);
    EXPECT_EQ(p[1].hunk, 1u);
    EXPECT_NE(p[1].describe().find("failed: its 3 context and removed lines match nowhere"), std::string::npos)
        << p[1].describe();
    EXPECT_NE(out.find("line three"), std::string::npos);
}

TEST(TreeApply, ANewFileAppliesOnAnEmptyOne) {
    const std::string dir = test::scratch_dir("tree-apply-new");
    std::filesystem::create_directories(dir);
    patch::Series s = series_of("diff --git a/n.c b/n.c\nnew file mode 100644\n--- /dev/null\n+++ b/n.c\n@@ -0,0 +1,2 @@\n+int x;\n+int y;\n");
    tree::SeriesApply a = tree::apply_series(s, dir);
    EXPECT_EQ(a.applied(), 1u);
    EXPECT_FALSE(a.files.at("n.c").in_tree);
    EXPECT_EQ(a.after("n.c", 0), "int x;\nint y;\n");
}
