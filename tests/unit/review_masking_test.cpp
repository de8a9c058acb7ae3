// review_masking_test.cpp — one finding does not hide another: the review's
// RapidCheck burst keeps searching every other property, each on a whole
// budget, after a counterexample of one.
#include <gtest/gtest.h>

#include "property.hpp"
#include "review.hpp"
#include "variant.hpp"

namespace tagproof::review {
namespace {

const SourceVerdict* cell(const VariantReview& r, const std::string& p, Mode m) {
    for (const auto& pv : r.verdicts)
        if (pv.property == p && pv.mode == m)
            for (const auto& s : pv.sources)
                if (s.source == "rapidcheck") return &s;
    return nullptr;
}

// mutant-match-all-tag has a planted counterexample of tag-range (random tags
// up to 0xFF), which also loses coverage (detection). The burst must report
// both, and still finish its budget for the properties that hold.
TEST(ReviewMasking, ACounterexampleDoesNotEndTheOtherSearches) {
    ReviewOptions opt;
    opt.solver = opt.explorer = opt.corpus = false;
    opt.rapidcheck_cases = 100;
    VariantReview r = review_variant("mutant-match-all-tag", opt);
    add_rapidcheck(r, opt);
    bool tag_range = false, detection = false;
    for (const auto& f : r.findings) {
        tag_range |= f.property == "tag-range" && f.source == "rapidcheck";
        detection |= f.property == "detection" && f.source == "rapidcheck";
    }
    EXPECT_TRUE(tag_range);
    EXPECT_TRUE(detection) << "the second property's counterexample was masked by the first";
    // a property that holds got the whole budget, and says so
    const SourceVerdict* z = cell(r, "zeroing", Mode::hw_tags);
    ASSERT_NE(z, nullptr);
    EXPECT_EQ(z->status, SourceVerdict::holds);
    EXPECT_NE(z->detail.find("100 random sequences"), std::string::npos) << z->detail;
}

// The planted properties ignored (mutant-no-tcma checks match-all pointers,
// so a thread stack's own accesses fault too): the search of the others runs
// to its end.
TEST(ReviewMasking, IgnoredPropertyLetsTheRestComplete) {
    properties::PropertyOptions po;
    po.tests = 100;
    po.seed = 4242;
    po.ignore = {"match-all-never-faults", "no-false-positive"};
    auto r = properties::check_invariants(kernel::find_variant("mutant-no-tcma"), po);
    EXPECT_TRUE(r.passed) << r.failure.invariant << ": " << r.failure.message;
    EXPECT_EQ(r.cases, 100);
    po.ignore.clear();
    EXPECT_FALSE(properties::check_invariants(kernel::find_variant("mutant-no-tcma"), po).passed);
}

}  // namespace
}  // namespace tagproof::review
