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
    // a property that holds got the whole budget, and says so (zeroing does
    // not: linux-7.0's huge zero folio, under the mutant too, is its cell's
    // counterexample since the walks keep what the baseline breaks as well)
    const SourceVerdict* z = cell(r, "gfp-encoding", Mode::hw_tags);
    ASSERT_NE(z, nullptr);
    EXPECT_EQ(z->status, SourceVerdict::holds);
    EXPECT_NE(z->detail.find("100 random sequences"), std::string::npos) << z->detail;
}

// The planted properties ignored (mutant-no-tcma checks match-all pointers,
// so a thread stack's own accesses fault too): the search of the others runs
// to its end. What the release under the mutant breaks too (linux-7.0's
// sampled mempool re-issue) is let pass by the baseline filter, as a review does.
TEST(ReviewMasking, IgnoredPropertyLetsTheRestComplete) {
    properties::PropertyOptions po;
    po.tests = 100;
    po.seed = 4242;
    po.baseline_filter = true;
    po.ignore = {"match-all-never-faults", "no-false-positive"};
    auto r = properties::check_invariants(kernel::find_variant("mutant-no-tcma"), po);
    EXPECT_TRUE(r.passed) << r.failure.invariant << ": " << r.failure.message;
    EXPECT_EQ(r.cases, 100);
    po.ignore.clear();
    EXPECT_FALSE(properties::check_invariants(kernel::find_variant("mutant-no-tcma"), po).passed);
}

// The baseline as a filter: a variant identical to sample-v3 shows
// sample-v3's defects, which the filtered search lets pass (they are the
// baseline's), while the unfiltered one finds them.
TEST(ReviewMasking, BaselineFilterLetsThroughOnlyWhatTheBaselineShows) {
    const auto& copy = kernel::find_variant("control-copy-of-sample-v3");
    properties::PropertyOptions po;
    po.tests = 1000;
    po.seed = 777;
    po.assert_recorded = true;
    EXPECT_FALSE(properties::check_invariants(copy, po).passed);
    po.baseline_filter = true;
    auto r = properties::check_invariants(copy, po);
    EXPECT_TRUE(r.passed) << r.failure.invariant << ": " << r.failure.message;
    // and sample-v3 filtered by its own baseline (linux-6.3, which has the fix) still fails
    EXPECT_FALSE(properties::check_invariants(kernel::find_variant("sample-v3"), po).passed);
}

// A (property, mode) pair ignored leaves the same property in other modes searched.
TEST(ReviewMasking, IgnoringOneModeKeepsTheOthers) {
    properties::PropertyOptions po;
    po.tests = 200;
    po.seed = 99;
    po.ignore = {"match-all-never-faults@hw_tags", "no-false-positive@hw_tags", "no-false-positive@sw_tags"};
    auto r = properties::check_invariants(kernel::find_variant("mutant-no-tcma"), po);
    ASSERT_FALSE(r.passed);
    EXPECT_NE(r.failure.scenario.find("modes sw_tags"), std::string::npos) << r.failure.scenario;
    EXPECT_EQ(r.failure.invariant, "match-all-never-faults");
}

}  // namespace
}  // namespace tagproof::review
