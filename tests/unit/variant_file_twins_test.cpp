// Every built-in variant that is a patch on a release also exists as a variant
// file (variants/*.variant). Both forms must give the same verdict on every
// solver obligation (in every scope) and the same outcome and violations on
// every corpus scenario in every mode: the file form is not a second model,
// and this is what shows it.
#include <gtest/gtest.h>

#include <map>

#include "file/variant_file.hpp"
#include "verdicts.hpp"

using namespace tagproof;
using tagproof::test::corpus_outcomes;
using tagproof::test::obligation_verdicts;

namespace {

struct Twin {
    const char* file;
    const char* builtin;
};
const Twin kTwins[] = {{"anjum-v2", "anjum-v2"}, {"anjum-v3", "anjum-v3"}, {"anjum-v4", "anjum-v4"},
                       {"mm-2026", "mm-2026"},   {"sample-v2", "sample-v2"}, {"sample-v3", "sample-v3"}};

std::string file_of(const Twin& t) { return std::string(TAGPROOF_SOURCE_DIR) + "/variants/" + t.file + ".variant"; }

class VariantFileTwins : public ::testing::TestWithParam<Twin> {};

TEST_P(VariantFileTwins, SameVerdictOnEveryObligation) {
    const Twin t = GetParam();
    const kernel::Variant& f = kernel::load_variant_file(file_of(t));
    const kernel::Variant& b = kernel::find_variant(t.builtin);
    EXPECT_EQ(f.baseline(), b.baseline());
    EXPECT_EQ(f.next_version(), b.next_version());
    auto fv = obligation_verdicts(f.name(), b.baseline()), bv = obligation_verdicts(t.builtin, b.baseline());
    ASSERT_FALSE(bv.empty());
    EXPECT_EQ(fv.size(), bv.size());
    for (const auto& [id, verdict] : bv) EXPECT_EQ(fv[id], verdict) << t.file << ": " << id;
}

TEST_P(VariantFileTwins, SameOutcomeOnEveryCorpusScenario) {
    const Twin t = GetParam();
    const kernel::Variant& f = kernel::load_variant_file(file_of(t));
    auto fo = corpus_outcomes(f.name()), bo = corpus_outcomes(t.builtin);
    ASSERT_GT(bo.size(), 100u);
    EXPECT_EQ(fo.size(), bo.size());
    for (const auto& [k, v] : bo) EXPECT_EQ(fo[k], v) << t.file << ": " << k;
}

INSTANTIATE_TEST_SUITE_P(Variants, VariantFileTwins, ::testing::ValuesIn(kTwins),
                         [](const auto& info) {
                             std::string n = info.param.file;
                             for (char& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

}  // namespace

namespace {
// The negative control: the v2 file without one of its rules (2/3's
// cached-stack hunk) is told apart from anjum-v2 by some obligation.
TEST(VariantFileTwinsControl, ADroppedRuleIsToldApart) {
    kernel::VariantFile f = kernel::read_variant_file(std::string(TAGPROOF_SOURCE_DIR) + "/variants/anjum-v2.variant");
    f.name = "anjum-v2-without-pgtable";
    f.path = "(anjum-v2 without its GFP_PGTABLE_KERNEL rule)";
    ASSERT_EQ(f.overrides.rules.erase("GFP_PGTABLE_KERNEL"), 1u);
    const kernel::Variant& v = kernel::register_variant_file(f);
    auto fv = obligation_verdicts(v.name(), "linux-7.0"), bv = obligation_verdicts("anjum-v2", "linux-7.0");
    EXPECT_NE(fv, bv);
}
}  // namespace
