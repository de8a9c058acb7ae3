// proof_cache_test.cpp — proofs kept between processes (solver/proof_cache.hpp,
// issue 33) and the digest they are kept under (solver/query_digest.hpp).
//
// The digest is the whole of a proof's identity, so what it must tell apart
// is tested one idea at a time, each beside its control: the same query built
// in two contexts has one digest; a query differing in an extract's bounds, a
// numeral's width or value, a variable's name or sort, the order of an
// operation's arguments, or the context string (the solver's parameters) has
// another. The cache keeps only unsat: a kept proof answers its own query in
// a fresh context without Z3, never a satisfiable neighbour, and a sat or a
// cache turned off keeps nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>

#include "proof_cache.hpp"
#include "query_digest.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;

namespace {

using Build = std::function<z3::expr_vector(z3::context&)>;

Hash128 digest(const Build& build, const std::string& ctx_text = "QF_BV timeout=20000") {
    z3::context c;
    const auto h = solver::query_digest(build(c), ctx_text);
    EXPECT_TRUE(h.has_value());
    return h.value_or(Hash128{});
}

z3::expr_vector one(z3::context& c, const z3::expr& e) {
    z3::expr_vector v(c);
    v.push_back(e);
    return v;
}

// x[7:0] == 0x12 over a 64-bit x, and its neighbours
Build low_byte(unsigned hi, unsigned lo, unsigned width, std::uint64_t value, const char* name = "x") {
    return [=](z3::context& c) {
        const z3::expr x = c.bv_const(name, width);
        return one(c, x.extract(hi, lo) == c.bv_val(value, hi - lo + 1));
    };
}

}  // namespace

TEST(QueryDigest, TheSameQueryInTwoContextsHasOneDigest) {
    EXPECT_EQ(digest(low_byte(7, 0, 64, 0x12)), digest(low_byte(7, 0, 64, 0x12)));
}

TEST(QueryDigest, AnExtractsBoundsAreRead) {
    EXPECT_NE(digest(low_byte(7, 0, 64, 0x12)), digest(low_byte(8, 1, 64, 0x12)));
}

TEST(QueryDigest, ANumeralsValueAndAVariablesWidthAreRead) {
    EXPECT_NE(digest(low_byte(7, 0, 64, 0x12)), digest(low_byte(7, 0, 64, 0x13)));
    EXPECT_NE(digest(low_byte(7, 0, 64, 0x12)), digest(low_byte(7, 0, 32, 0x12)));
}

TEST(QueryDigest, AVariablesNameIsRead) {
    EXPECT_NE(digest(low_byte(7, 0, 64, 0x12, "x")), digest(low_byte(7, 0, 64, 0x12, "y")));
}

TEST(QueryDigest, ArgumentOrderIsRead) {
    auto diff = [](bool swapped) {
        return [=](z3::context& c) {
            const z3::expr a = c.bv_const("a", 8), b = c.bv_const("b", 8);
            return one(c, (swapped ? b - a : a - b) == c.bv_val(1, 8));
        };
    };
    EXPECT_EQ(digest(diff(false)), digest(diff(false)));
    EXPECT_NE(digest(diff(false)), digest(diff(true)));
}

TEST(QueryDigest, ZeroExtendsWidthIsRead) {
    auto ext = [](unsigned by) {
        return [=](z3::context& c) {
            const z3::expr a = c.bv_const("a", 8);
            return one(c, z3::zext(a, by).extract(8, 8) == c.bv_val(0, 1));
        };
    };
    EXPECT_NE(digest(ext(1)), digest(ext(2)));
}

TEST(QueryDigest, TheContextIsRead) {
    EXPECT_NE(digest(low_byte(7, 0, 64, 0x12), "QF_BV timeout=20000"), digest(low_byte(7, 0, 64, 0x12), "QF_BV timeout=1"));
}

TEST(QueryDigest, AssertionsAreReadInOrderAndEachCounts) {
    auto two = [](bool swapped, bool both) {
        return [=](z3::context& c) {
            const z3::expr a = c.bv_const("a", 8);
            z3::expr_vector v(c);
            const z3::expr p = a == c.bv_val(1, 8), q = a != c.bv_val(2, 8);
            v.push_back(swapped ? q : p);
            if (both) v.push_back(swapped ? p : q);
            return v;
        };
    };
    EXPECT_NE(digest(two(false, true)), digest(two(true, true)));
    EXPECT_NE(digest(two(false, true)), digest(two(false, false)));
}

TEST(QueryDigest, AQuantifierIsNotDigested) {
    z3::context c;
    const z3::expr x = c.bv_const("x", 8);
    EXPECT_FALSE(solver::query_digest(one(c, z3::forall(x, x == x)), "QF_BV").has_value());
}

namespace {

struct ProofCache {
    std::string dir;
    ProofCache() {
        // a directory per test: this process remembers what it kept in each
        dir = test::scratch_dir(std::string("proof-cache-") +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        ::setenv("TAGPROOF_PROOF_CACHE", dir.c_str(), 1);
    }
    ~ProofCache() { ::unsetenv("TAGPROOF_PROOF_CACHE"); }
    std::size_t entries() const {
        std::size_t n = 0;
        for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
            if (e.is_regular_file()) ++n;
        return n;
    }
};

// a + 1 == a over 8 bits (unsat), or a + 0 == a (sat)
z3::check_result check(std::uint64_t k) {
    z3::context c;
    z3::solver s(c, "QF_BV");
    const z3::expr a = c.bv_const("a", 8);
    s.add(a + c.bv_val(k, 8) == a);
    return solver::check_kept(s, "QF_BV test");
}

}  // namespace

TEST(ProofCache, AProofIsKeptAndAnswersItsQueryInAFreshContext) {
    ProofCache pc;
    const std::size_t before = solver::proof_cache_hits();
    EXPECT_EQ(check(1), z3::unsat);
    EXPECT_EQ(pc.entries(), 1u);
    EXPECT_EQ(solver::proof_cache_hits(), before);
    EXPECT_EQ(check(1), z3::unsat);
    EXPECT_EQ(solver::proof_cache_hits(), before + 1);
}

TEST(ProofCache, ASatisfiableNeighbourIsAskedOfZ3) {
    ProofCache pc;
    EXPECT_EQ(check(1), z3::unsat);
    const std::size_t before = solver::proof_cache_hits();
    EXPECT_EQ(check(0), z3::sat);
    EXPECT_EQ(solver::proof_cache_hits(), before);
    EXPECT_EQ(pc.entries(), 1u);  // a sat answer is not kept
}

TEST(ProofCache, OffKeepsNothing) {
    ProofCache pc;
    ::setenv("TAGPROOF_PROOF_CACHE", "off", 1);
    const std::size_t before = solver::proof_cache_hits();
    EXPECT_EQ(check(1), z3::unsat);
    EXPECT_EQ(check(1), z3::unsat);
    EXPECT_EQ(solver::proof_cache_hits(), before);
    EXPECT_EQ(pc.entries(), 0u);
}
