// parse_cache_test.cpp — what libclang read from a tree's own file is kept
// between processes (tree/parse_cache.hpp, issue 33) and used only while it
// is still true: the same definitions, calls and tokens read back; a file
// changed on disk (its bytes, or only its time), a header a patched text
// read, another patched text, and a cache turned off are parsed again (the
// negative controls).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "functions.hpp"
#include "parse_cache.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;

namespace {

const char* kFile =
    "static int helper(int a)\n"
    "{\n"
    "\treturn a + 1;\n"
    "}\n"
    "#define GFP_KERNEL 0xcc0u\n"
    "void post_alloc_hook(unsigned int order, unsigned int gfp_flags)\n"
    "{\n"
    "\tif (gfp_flags & GFP_KERNEL)\n"
    "\t\thelper(order);\n"
    "}\n";

struct Tree {
    std::string root, cache;
    Tree() {
        const std::string d = test::scratch_dir("parse-cache");
        root = d + "/tree";
        cache = d + "/cache";
        std::filesystem::create_directories(root + "/mm");
        std::ofstream(root + "/mm/page_alloc.c") << kFile;
        ::setenv("TAGPROOF_PARSE_CACHE", cache.c_str(), 1);
    }
    ~Tree() { ::unsetenv("TAGPROOF_PARSE_CACHE"); }
    tree::ParsedFile read(const std::string& text = kFile) const {
        return tree::read_definitions(root, "mm/page_alloc.c", text);
    }
    std::size_t entries() const {
        std::size_t n = 0;
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(cache, ec)) n += e.is_regular_file();
        return n;
    }
};

void expect_same(const tree::ParsedFile& a, const tree::ParsedFile& b) {
    ASSERT_EQ(a.defs.size(), b.defs.size());
    for (std::size_t i = 0; i < a.defs.size(); ++i) {
        EXPECT_EQ(a.defs[i].name, b.defs[i].name);
        EXPECT_EQ(a.defs[i].kind, b.defs[i].kind);
        EXPECT_EQ(a.defs[i].begin_line, b.defs[i].begin_line);
        EXPECT_EQ(a.defs[i].end_line, b.defs[i].end_line);
    }
    ASSERT_EQ(a.calls.size(), b.calls.size());
    for (std::size_t i = 0; i < a.calls.size(); ++i) {
        EXPECT_EQ(a.calls[i].callee, b.calls[i].callee);
        EXPECT_EQ(a.calls[i].args, b.calls[i].args);
        EXPECT_EQ(a.calls[i].line, b.calls[i].line);
    }
    ASSERT_EQ(a.tokens.size(), b.tokens.size());
    for (std::size_t i = 0; i < a.tokens.size(); ++i) EXPECT_EQ(a.tokens[i].text, b.tokens[i].text);
    EXPECT_EQ(a.errors, b.errors);
    EXPECT_EQ(a.first_error, b.first_error);
    EXPECT_EQ(a.configured, b.configured);
}

}  // namespace

TEST(ParseCache, TheTreesOwnFileIsReadBackAsParsed) {
    Tree t;
    const tree::ParsedFile first = t.read();
    EXPECT_FALSE(first.from_cache);
    ASSERT_NE(first.find("post_alloc_hook"), nullptr);
    EXPECT_EQ(t.entries(), 1u);
    const tree::ParsedFile again = t.read();
    EXPECT_TRUE(again.from_cache);
    expect_same(first, again);
}

TEST(ParseCache, AFileChangedOnDiskIsParsedAgain) {
    Tree t;
    t.read();
    // new bytes: the entry no longer vouches for the file
    const std::string changed = std::string(kFile) + "int added;\n";
    std::ofstream(t.root + "/mm/page_alloc.c") << changed;
    const tree::ParsedFile pf = t.read(changed);
    EXPECT_FALSE(pf.from_cache);
    EXPECT_NE(pf.find("added"), nullptr);
    // the same bytes, a new time (a tree re-extracted): parsed again too
    EXPECT_TRUE(t.read(changed).from_cache);
    const auto when = std::filesystem::last_write_time(t.root + "/mm/page_alloc.c");
    std::filesystem::last_write_time(t.root + "/mm/page_alloc.c", when + std::chrono::seconds(5));
    EXPECT_FALSE(t.read(changed).from_cache);
}

TEST(ParseCache, APatchedTextIsKeptByItsText) {
    Tree t;
    const std::string patched = std::string(kFile) + "int patched;\n";
    const tree::ParsedFile first = t.read(patched);
    EXPECT_FALSE(first.from_cache);
    EXPECT_NE(first.find("patched"), nullptr);
    const tree::ParsedFile again = t.read(patched);
    EXPECT_TRUE(again.from_cache);
    expect_same(first, again);
    // controls: another patched text of the same file, and the file on disk,
    // are not read back as that one
    const std::string other = std::string(kFile) + "int other;\n";
    const tree::ParsedFile o = t.read(other);
    EXPECT_FALSE(o.from_cache);
    EXPECT_NE(o.find("other"), nullptr);
    EXPECT_EQ(o.find("patched"), nullptr);
    const tree::ParsedFile own = t.read();
    EXPECT_FALSE(own.from_cache);
    EXPECT_EQ(own.find("patched"), nullptr);
    EXPECT_EQ(t.entries(), 3u);
}

TEST(ParseCache, APatchedTextIsParsedAgainWhenAHeaderItReadChanges) {
    Tree t;
    std::ofstream(t.root + "/mm/internal.h") << "#define ONE 1\n";
    const std::string patched = std::string("#include \"internal.h\"\n") + kFile + "int patched = ONE;\n";
    t.read(patched);
    EXPECT_TRUE(t.read(patched).from_cache);
    std::ofstream(t.root + "/mm/internal.h") << "#define ONE 1\n#define TWO 2\n";
    EXPECT_FALSE(t.read(patched).from_cache);
}

TEST(ParseCache, OffMeansOff) {
    Tree t;
    ::setenv("TAGPROOF_PARSE_CACHE", "off", 1);
    EXPECT_EQ(tree::parse_cache_dir(), "");
    t.read();
    EXPECT_FALSE(t.read().from_cache);
}

TEST(ParseCache, ADamagedEntryIsParsedAgain) {
    Tree t;
    t.read();
    for (const auto& e : std::filesystem::directory_iterator(t.cache)) {
        std::filesystem::resize_file(e.path(), std::filesystem::file_size(e.path()) / 2);
    }
    const tree::ParsedFile pf = t.read();
    EXPECT_FALSE(pf.from_cache);
    EXPECT_NE(pf.find("post_alloc_hook"), nullptr);
}
