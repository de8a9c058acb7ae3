// decided_cache_test.cpp — counterexamples kept between processes
// (solver/decided_cache.hpp, issue 33).
//
// A kept decision stands for a whole prove() of one obligation, so the tests
// hold it to that: read back, every scope's verdict, text, scenario and
// replay is what Z3 and the model gave the first time; its key reads each of
// the variant's and the baseline's code, the obligation, the options and
// the query; a proof alone, an unknown, a cache turned off and a call that
// writes scenarios of its own keep nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "decided_cache.hpp"
#include "file/variant_file.hpp"
#include "prove.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;

namespace {

struct Cache {
    std::string dir;
    Cache() {
        dir = test::scratch_dir(std::string("decided-cache-") +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        ::setenv("TAGPROOF_PROOF_CACHE", dir.c_str(), 1);
    }
    ~Cache() { ::unsetenv("TAGPROOF_PROOF_CACHE"); }
    std::size_t decided() const {
        std::size_t n = 0;
        for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
            n += e.is_regular_file() && e.path().extension() == ".decided";
        return n;
    }
};

// sample-v2 marks a fresh page __GFP_SKIP_KASAN_UNPOISON with __GFP_ZEROTAGS:
// a counterexample, minimised and replayed (tests/proof/expected.tsv)
solver::ProveOptions alloc_pages_of_sample_v2() {
    solver::ProveOptions o;
    o.variant = "sample-v2";
    o.only = {"no-false-positive/alloc_pages"};
    return o;
}

void expect_same(const std::vector<solver::Verdict>& a, const std::vector<solver::Verdict>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].id, b[i].id);
        EXPECT_EQ(a[i].entry, b[i].entry);
        EXPECT_EQ(a[i].method, b[i].method);
        ASSERT_EQ(a[i].scopes.size(), b[i].scopes.size()) << a[i].id;
        for (std::size_t k = 0; k < a[i].scopes.size(); ++k) {
            const auto &x = a[i].scopes[k], &y = b[i].scopes[k];
            EXPECT_EQ(x.scope, y.scope);
            EXPECT_EQ(x.verdict, y.verdict);
            EXPECT_EQ(x.details, y.details);
            EXPECT_EQ(x.broken, y.broken);
            EXPECT_EQ(x.scenario, y.scenario);
            EXPECT_EQ(x.replay, y.replay);
            EXPECT_EQ(x.replay_ok, y.replay_ok);
        }
    }
}

}  // namespace

TEST(DecidedCache, ACounterexampleIsReadBackAsZ3AndTheModelGaveIt) {
    Cache c;
    const std::size_t before = solver::decided_cache_hits();
    const auto first = solver::prove(alloc_pages_of_sample_v2());
    ASSERT_EQ(first.size(), 1u);
    ASSERT_EQ(first[0].primary()->verdict, "counterexample");
    EXPECT_FALSE(first[0].primary()->scenario.empty());
    EXPECT_EQ(c.decided(), 1u);
    EXPECT_EQ(solver::decided_cache_hits(), before);
    const auto second = solver::prove(alloc_pages_of_sample_v2());
    EXPECT_EQ(solver::decided_cache_hits(), before + 1);
    expect_same(first, second);
    // the control: with the cache off, Z3 and the model give the same again
    ::setenv("TAGPROOF_PROOF_CACHE", "off", 1);
    expect_same(first, solver::prove(alloc_pages_of_sample_v2()));
    EXPECT_EQ(solver::decided_cache_hits(), before + 1);
}

TEST(DecidedCache, TheKeyReadsTheCodeTheObligationTheOptionsAndTheQuery) {
    Cache c;
    const Hash128 q{1, 2};
    const auto k = solver::decided_key("sample-v2", "linux-6.3", "zeroing/krealloc", "o", q);
    ASSERT_TRUE(k.has_value());
    EXPECT_EQ(k, solver::decided_key("sample-v2", "linux-6.3", "zeroing/krealloc", "o", q));
    EXPECT_NE(k, solver::decided_key("sample-v3", "linux-6.3", "zeroing/krealloc", "o", q));
    EXPECT_NE(k, solver::decided_key("sample-v2", "linux-6.4", "zeroing/krealloc", "o", q));
    EXPECT_NE(k, solver::decided_key("sample-v2", "linux-6.3", "zeroing/kmalloc", "o", q));
    EXPECT_NE(k, solver::decided_key("sample-v2", "linux-6.3", "zeroing/krealloc", "p", q));
    EXPECT_NE(k, solver::decided_key("sample-v2", "linux-6.3", "zeroing/krealloc", "o", Hash128{1, 3}));
    // a variant no text stands for keeps nothing
    EXPECT_FALSE(solver::decided_key("no-such-variant", "", "zeroing/krealloc", "o", q).has_value());
    // a variant file is its text, its base files' included
    const kernel::Variant& f =
        kernel::load_variant_file(std::string(TAGPROOF_SOURCE_DIR) + "/tests/mutation/mutants/m09-vmalloc-supported-no-zero.variant");
    const std::string id = kernel::variant_identity(f.name());
    EXPECT_EQ(id.rfind("file\n", 0), 0u);
    EXPECT_NE(id.find("GFP_VMALLOC_SUPPORTED"), std::string::npos);
    EXPECT_EQ(kernel::variant_identity("linux-7.0"), "built-in");
}

TEST(DecidedCache, AProofAloneAnUnknownAndAFileOfItsOwnAreNotKept) {
    Cache c;
    const auto k = solver::decided_key("sample-v2", "", "x", "o", Hash128{5, 6});
    ASSERT_TRUE(k.has_value());
    solver::ScopeVerdict proved, cx, unknown;
    proved.verdict = "proved";
    cx.verdict = "counterexample";
    unknown.verdict = "unknown";
    solver::keep_decided(*k, {proved});
    solver::keep_decided(*k, {cx, unknown});
    solver::ScopeVerdict written = cx;
    written.smt2_file = "/tmp/x.smt2";
    solver::keep_decided(*k, {written});
    EXPECT_EQ(c.decided(), 0u);
    EXPECT_FALSE(solver::decided_kept(*k).has_value());
    solver::keep_decided(*k, {cx, proved});  // the control: a counterexample beside a proof is kept
    EXPECT_EQ(c.decided(), 1u);
    ASSERT_TRUE(solver::decided_kept(*k).has_value());
}

TEST(DecidedCache, ACallWritingItsScenariosNeitherReadsNorKeeps) {
    Cache c;
    solver::prove(alloc_pages_of_sample_v2());
    ASSERT_EQ(c.decided(), 1u);
    const std::size_t before = solver::decided_cache_hits();
    auto o = alloc_pages_of_sample_v2();
    o.scenario_dir = test::scratch_dir("decided-cache-scenarios");
    const auto v = solver::prove(o);
    EXPECT_EQ(solver::decided_cache_hits(), before);
    std::size_t written = 0;
    for (const auto& e : std::filesystem::directory_iterator(o.scenario_dir)) written += e.path().extension() == ".litmus";
    EXPECT_GE(written, 1u);
}

TEST(DecidedCache, OffKeepsNothing) {
    Cache c;
    ::setenv("TAGPROOF_PROOF_CACHE", "off", 1);
    EXPECT_FALSE(solver::decided_key("sample-v2", "", "x", "o", Hash128{5, 6}).has_value());
    solver::prove(alloc_pages_of_sample_v2());
    EXPECT_EQ(c.decided(), 0u);
}

// The negative control of "a counterexample the model does not reproduce is
// a modelling gap" plants one in the replay (TAGPROOF_PLANT_MODELLING_GAP):
// that changes a kept decision's text, so it is in the key. A planted run
// after a kept one must still see its gap (cli.review_modelling_gap failed
// on a warm cache before it was).
TEST(DecidedCache, APlantedModellingGapIsNotReadFromAnUnplantedRun) {
    Cache c;
    const auto clean = solver::prove(alloc_pages_of_sample_v2());
    ASSERT_TRUE(clean[0].primary()->replay_ok);
    const std::size_t before = solver::decided_cache_hits();
    ::setenv("TAGPROOF_PLANT_MODELLING_GAP", "1", 1);
    const auto planted = solver::prove(alloc_pages_of_sample_v2());
    ::unsetenv("TAGPROOF_PLANT_MODELLING_GAP");
    EXPECT_EQ(solver::decided_cache_hits(), before);
    EXPECT_FALSE(planted[0].primary()->replay_ok) << planted[0].primary()->replay;
    // the control: unplanted again, the kept decision is read
    expect_same(clean, solver::prove(alloc_pages_of_sample_v2()));
    EXPECT_EQ(solver::decided_cache_hits(), before + 1);
}
