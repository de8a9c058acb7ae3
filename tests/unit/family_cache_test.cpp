// family_cache_test.cpp — a family exploration kept with the questions it
// asked (explore/family_cache.hpp) is, when reused by another variant, the
// exploration that variant makes afresh: the same vertices, the same edges in
// the same order (out- and in-edges), the same verdicts. Every family of
// linux-7.0 at its default boot is kept, then explored under mutants and a
// release of another era with the cache and without. Negative controls: a
// mutant that changes a rule a family asks is not served the kept graph (it
// is explored, and its verdict differs from linux-7.0's); a torn entry is a
// miss.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "family_cache.hpp"
#include "family_explorer.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;
using namespace tagproof::explore;

namespace {

struct Cache {
    explicit Cache(const std::string& dir) { ::setenv("TAGPROOF_CORPUS_CACHE", dir.c_str(), 1); }
    ~Cache() { ::unsetenv("TAGPROOF_CORPUS_CACHE"); }
};

FamilyOptions options_of(const std::string& variant, const Family& f) {
    FamilyOptions o;
    o.variant = variant;
    o.family = f;
    o.depth = 2;
    return o;
}

void expect_same(const FamilyResult& a, const FamilyResult& b) {
    EXPECT_EQ(a.states, b.states);
    EXPECT_EQ(a.transitions, b.transitions);
    // the edges as the cross-check reads them, without the graph (a kept
    // result's are read from its entry: before graph() builds it)
    auto edges = [](const FamilyResult& r) {
        std::vector<std::string> out;
        r.for_each_edge([&](std::size_t s, std::size_t t, const std::string& line, const std::vector<std::string>& violated,
                            const std::string& message) {
            std::string x = std::to_string(s) + ">" + std::to_string(t) + " " + line + " | " + message + " |";
            for (const auto& v : violated) x += " " + v;
            out.push_back(x);
        });
        return out;
    };
    EXPECT_EQ(edges(a), edges(b));
    const FamilyGraph &ga = a.graph(), &gb = b.graph();
    ASSERT_EQ(boost::num_vertices(ga), boost::num_vertices(gb));
    ASSERT_EQ(boost::num_edges(ga), boost::num_edges(gb));
    EXPECT_EQ(a.initial, b.initial);
    EXPECT_EQ(a.truncated, b.truncated);
    EXPECT_EQ(a.refused, b.refused);
    EXPECT_EQ(a.sampled_events, b.sampled_events);
    auto ea = boost::edges(ga).first;
    for (auto [eb, end] = boost::edges(gb); eb != end; ++eb, ++ea) {
        EXPECT_EQ(boost::source(*ea, ga), boost::source(*eb, gb));
        EXPECT_EQ(boost::target(*ea, ga), boost::target(*eb, gb));
        EXPECT_EQ(ga[*ea].line, gb[*eb].line);
        EXPECT_EQ(ga[*ea].violated, gb[*eb].violated);
        EXPECT_EQ(ga[*ea].message, gb[*eb].message);
    }
    for (std::size_t v = 0; v < boost::num_vertices(ga); ++v) {
        auto ia = boost::in_edges(v, ga).first;
        for (auto [ib, end] = boost::in_edges(v, gb); ib != end; ++ib, ++ia)
            ASSERT_EQ(boost::source(*ia, ga), boost::source(*ib, gb)) << "in-edges of " << v;
    }
    ASSERT_EQ(a.verdicts.size(), b.verdicts.size());
    for (std::size_t i = 0; i < a.verdicts.size(); ++i) {
        EXPECT_EQ(a.verdicts[i].invariant, b.verdicts[i].invariant);
        EXPECT_EQ(a.verdicts[i].violated, b.verdicts[i].violated);
        EXPECT_EQ(a.verdicts[i].recorded, b.verdicts[i].recorded);
        EXPECT_EQ(a.verdicts[i].path, b.verdicts[i].path);
        EXPECT_EQ(a.verdicts[i].message, b.verdicts[i].message);
    }
}

bool violates(const FamilyResult& r, const std::string& inv) {
    for (const auto& v : r.verdicts)
        if (v.invariant == inv) return v.violated;
    return false;
}

}  // namespace

TEST(FamilyCache, AReusedExplorationIsTheExplorationAfresh) {
    const std::string dir = test::scratch_dir("family-cache") + "/kept";
    const auto fams = families(kernel::find_variant("linux-7.0"));
    {
        Cache on(dir);
        for (const auto& f : fams) explore_family(options_of("linux-7.0", f));
    }
    std::size_t served = 0;
    FamilyResult scratch;
    for (const std::string v : {"mutant-skip-drops-zero", "mutant-no-free-poison", "mutant-no-tcma", "linux-6.4"}) {
        for (const auto& f : families(kernel::find_variant(v))) {
            SCOPED_TRACE(v + " " + f.name);
            const FamilyOptions o = options_of(v, f);
            FamilyResult afresh;
            {
                Cache off("off");
                afresh = explore_family(o);
            }
            Cache on(dir);
            served += bool(family_kept(family_key(o), o, kernel::find_variant(v), scratch));
            expect_same(explore_family(o), afresh);
        }
    }
    EXPECT_GT(served, 0u);
}

TEST(FamilyCache, AVariantThatAnswersOtherwiseIsExplored) {
    const std::string dir = test::scratch_dir("family-cache-control") + "/kept";
    Cache on(dir);
    Family pages;
    for (const auto& f : families(kernel::find_variant("linux-7.0")))
        if (f.name == "pages") pages = f;
    ASSERT_EQ(pages.name, "pages");
    // depth 3: not the key of the test above, which keeps the mutant's own exploration at depth 2
    FamilyOptions base = options_of("linux-7.0", pages);
    base.depth = 3;
    const FamilyResult b = explore_family(base);
    FamilyResult scratch;
    EXPECT_TRUE(family_kept(family_key(base), base, kernel::find_variant("linux-7.0"), scratch));
    // mutant-no-free-poison answers free_pages_prepare otherwise: not served, and its
    // exploration finds the use-after-free (alloc, free, read) linux-7.0's does not
    FamilyOptions m = options_of("mutant-no-free-poison", pages);
    m.depth = 3;
    EXPECT_FALSE(family_kept(family_key(m), m, kernel::find_variant("mutant-no-free-poison"), scratch));
    EXPECT_NE(violates(explore_family(m), "detection"), violates(b, "detection"));
    // a torn entry is a miss: its graph is read from the file when it answers
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.path().extension() == ".graph") std::filesystem::resize_file(e.path(), std::filesystem::file_size(e.path()) / 2);
    EXPECT_FALSE(family_kept(family_key(base), base, kernel::find_variant("linux-7.0"), scratch));
    expect_same(explore_family(base), b);
}

