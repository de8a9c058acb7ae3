// corpus_cache_test.cpp — a corpus result kept between processes
// (scenario/corpus_cache.hpp, issue 33) is read back whole and only under
// the very key it was kept with: a result read back equals what was run; a
// changed corpus file, another variant text (a base file's included), a
// struct registered without its text, a torn entry, an entry kept under
// another key and a cache turned off are misses (the negative controls).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "build_cache.hpp"
#include "corpus.hpp"
#include "corpus_cache.hpp"
#include "file/variant_file.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;

namespace {

struct Cache {
    std::string dir;
    Cache() {
        dir = test::scratch_dir("corpus-cache");
        ::setenv("TAGPROOF_CORPUS_CACHE", (dir + "/cache").c_str(), 1);
    }
    ~Cache() { ::unsetenv("TAGPROOF_CORPUS_CACHE"); }
    std::string write(const std::string& name, const std::string& text) const {
        const std::string p = dir + "/" + name;
        std::ofstream(p) << text;
        return p;
    }
};

const std::string kScenarios = std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/kunit";

std::vector<std::string> two_files() {
    std::vector<std::string> f = scenario::corpus_files({kScenarios});
    f.resize(2);
    return f;
}

void expect_same(const scenario::CorpusResult& a, const scenario::CorpusResult& b) {
    EXPECT_EQ(a.variant, b.variant);
    EXPECT_EQ(a.runs, b.runs);
    EXPECT_EQ(a.not_applicable, b.not_applicable);
    EXPECT_EQ(a.counterexamples, b.counterexamples);
    ASSERT_EQ(a.entries.size(), b.entries.size());
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        EXPECT_EQ(a.entries[i].file, b.entries[i].file);
        EXPECT_EQ(a.entries[i].name, b.entries[i].name);
        EXPECT_EQ(a.entries[i].mode, b.entries[i].mode);
        EXPECT_EQ(a.entries[i].hw_tags_active, b.entries[i].hw_tags_active);
        EXPECT_EQ(a.entries[i].outcome, b.entries[i].outcome);
        EXPECT_EQ(a.entries[i].violations, b.entries[i].violations);
    }
}

}  // namespace

TEST(CorpusCache, TheBinaryHasABuildId) { EXPECT_GE(own_build_id().size(), 16u); }

// What was run is what is read back, field by field, under its key.
TEST(CorpusCache, AResultReadBackEqualsTheRun) {
    Cache c;
    const auto files = two_files();
    const std::string key = scenario::corpus_cache_key(files, "linux-7.0", "opts");
    ASSERT_FALSE(key.empty());
    EXPECT_FALSE(scenario::corpus_cache_load(key));
    scenario::CorpusResult r = scenario::run_corpus(files, "linux-7.0");
    ASSERT_FALSE(r.entries.empty());
    r.counterexamples["zeroing"] = "a: b\nwith a line break";  // any bytes
    r.not_applicable.push_back("x: y");
    scenario::corpus_cache_store(key, r);
    const auto back = scenario::corpus_cache_load(key);
    ASSERT_TRUE(back);
    expect_same(r, *back);
}

// The key holds all a result depends on: a corpus file's bytes, the runner's
// options, the variant.
TEST(CorpusCache, TheKeyChangesWithTheFilesTheOptionsAndTheVariant) {
    Cache c;
    const std::string f = c.write("a.litmus", "name a\n");
    const std::string k = scenario::corpus_cache_key({f}, "linux-7.0", "opts");
    ASSERT_FALSE(k.empty());
    EXPECT_EQ(k, scenario::corpus_cache_key({f}, "linux-7.0", "opts"));
    EXPECT_NE(k, scenario::corpus_cache_key({f}, "linux-7.0", "other opts"));
    EXPECT_NE(k, scenario::corpus_cache_key({f}, "linux-6.4", "opts"));
    c.write("a.litmus", "name b\n");
    EXPECT_NE(k, scenario::corpus_cache_key({f}, "linux-7.0", "opts"));
    EXPECT_EQ(scenario::corpus_cache_key({c.dir + "/missing.litmus"}, "linux-7.0", "opts"), "");
    EXPECT_EQ(scenario::corpus_cache_key({f}, "no-such-variant", "opts"), "");
}

// A variant file's key is its text and its base file's: a change to the
// base alone is another key.
TEST(CorpusCache, AVariantFilesSourceHoldsItsBaseFiles) {
    Cache c;
    c.write("base.variant", "name cc-base\nbase linux-7.0\nrule GFP_PGTABLE_KERNEL = GFP_KERNEL\n");
    const std::string top = c.write("top.variant", "name cc-top\nbase base.variant\n");
    const kernel::VariantFile a = kernel::read_variant_file(top);
    EXPECT_NE(a.source.find("rule GFP_PGTABLE_KERNEL = GFP_KERNEL"), std::string::npos) << a.source;
    c.write("base.variant", "name cc-base\nbase linux-7.0\nrule GFP_PGTABLE_KERNEL = GFP_KERNEL | __GFP_ZERO\n");
    const kernel::VariantFile b = kernel::read_variant_file(top);
    EXPECT_NE(a.source, b.source);

    // the same text at another path (a review writes the tree's era into
    // each --out): the same source, so the same key
    std::filesystem::create_directories(c.dir + "/elsewhere");
    c.write("elsewhere/base.variant", "name cc-base\nbase linux-7.0\nrule GFP_PGTABLE_KERNEL = GFP_KERNEL | __GFP_ZERO\n");
    const std::string copy = c.write("elsewhere/top.variant", "name cc-top\nbase base.variant\n");
    EXPECT_EQ(kernel::read_variant_file(copy).source, b.source);

    const std::string f = c.write("a.litmus", "name a\n");
    kernel::load_variant_file(top);
    const std::string k = scenario::corpus_cache_key({f}, "cc-top", "opts");
    EXPECT_NE(k.find("GFP_PGTABLE_KERNEL = GFP_KERNEL | __GFP_ZERO"), std::string::npos);
}

// A struct registered as it is may have been changed after it was read: no
// text stands for it, so it is never kept.
TEST(CorpusCache, AVariantRegisteredFromAStructIsNotKept) {
    Cache c;
    const std::string p = c.write("s.variant", "name cc-struct\nbase linux-7.0\nrule GFP_PGTABLE_KERNEL = GFP_KERNEL\n");
    kernel::VariantFile f = kernel::read_variant_file(p);
    f.overrides.rules.erase("GFP_PGTABLE_KERNEL");
    kernel::register_variant_file(f);
    EXPECT_EQ(kernel::variant_file_source("cc-struct"), "");
    EXPECT_EQ(scenario::corpus_cache_key({c.write("a.litmus", "name a\n")}, "cc-struct", "opts"), "");
}

// A torn entry, an entry that holds another key, a cache turned off: misses.
TEST(CorpusCache, ATornOrForeignEntryOrNoCacheIsAMiss) {
    Cache c;
    const std::string f = c.write("a.litmus", "name a\n");
    const std::string k1 = scenario::corpus_cache_key({f}, "linux-7.0", "one");
    const std::string k2 = scenario::corpus_cache_key({f}, "linux-7.0", "two");
    scenario::CorpusResult r;
    r.variant = "linux-7.0";
    r.runs = 7;
    r.entries.push_back({f, "a", Mode::sw_tags, false, "Always 1/1 reports=0", {"zeroing: x"}});
    scenario::corpus_cache_store(k1, r);
    ASSERT_TRUE(scenario::corpus_cache_load(k1));
    // the entry of k1 where k2's would be: its key text is compared
    std::filesystem::copy_file(scenario::corpus_cache_entry(k1), scenario::corpus_cache_entry(k2));
    EXPECT_FALSE(scenario::corpus_cache_load(k2));
    // cut short
    const auto size = std::filesystem::file_size(scenario::corpus_cache_entry(k1));
    std::filesystem::resize_file(scenario::corpus_cache_entry(k1), size - 5);
    EXPECT_FALSE(scenario::corpus_cache_load(k1));
    scenario::corpus_cache_store(k1, r);
    ASSERT_TRUE(scenario::corpus_cache_load(k1));
    ::setenv("TAGPROOF_CORPUS_CACHE", "off", 1);
    EXPECT_EQ(scenario::corpus_cache_dir(), "");
    EXPECT_FALSE(scenario::corpus_cache_load(k1));
}
