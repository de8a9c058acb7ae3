// The patch reader (patch/): the seed series read from their mails give the
// built-in variants' verdicts obligation by obligation; each kind of place a
// hunk may change maps to its rule; everything else is listed with why; bad
// input names file:line:column; the reply keeps to 72 columns.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "error.hpp"
#include "file/variant_file.hpp"
#include "patch_variant.hpp"
#include "reply.hpp"
#include "verdicts.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;
using tagproof::test::corpus_outcomes;
using tagproof::test::obligation_verdicts;

namespace {

std::string src(const std::string& p) { return std::string(TAGPROOF_SOURCE_DIR) + "/" + p; }

// The generated file, written and loaded as `tagproof review PATCH` does.
const kernel::Variant& load_reading(const patch::PatchReading& r, const std::string& tag) {
    const std::string f = test::scratch_dir("patch-test-" + tag) + "/" + r.name + ".variant";
    std::ofstream(f) << r.file_text;
    return kernel::load_variant_file(f);
}

patch::PatchReading read_text(const std::string& text, const std::string& base = "linux-7.0") {
    const std::string f = test::scratch_dir("patch-test-diff") + "/patch.diff";
    std::ofstream(f) << text;
    return patch::read_patch_series({f}, base);
}

std::vector<std::string> rule_lines(const patch::PatchReading& r) {
    std::vector<std::string> v;
    for (const auto& h : r.hunks)
        for (const auto& m : h.rules) v.push_back(m.line);
    return v;
}

}  // namespace

// Seed 000 (anjum v2) as mailed: every hunk maps, and the variant it makes
// gives anjum-v2's verdict on every obligation and every corpus scenario.
TEST(PatchReader, Seed000GivesAnjumV2sVerdicts) {
    patch::PatchReading r = patch::read_patch_series({src("tests/patches/seeds/000_anjum_v2.txt")}, "");
    EXPECT_EQ(r.base, "linux-7.0");
    EXPECT_EQ(r.series.patches.size(), 3u);
    EXPECT_EQ(r.hunks.size(), 8u);
    EXPECT_EQ(r.hunks_unmapped(), 0u);
    EXPECT_EQ(r.rules, 7u);
    const kernel::Variant& v = load_reading(r, "000");
    EXPECT_EQ(v.claims().changes, kernel::ChangeScope::hw_tags_active);
    EXPECT_EQ(v.claims().untags.size(), kernel::find_variant("anjum-v2").claims().untags.size());
    auto fv = obligation_verdicts(v.name(), "linux-7.0"), bv = obligation_verdicts("anjum-v2", "linux-7.0");
    ASSERT_FALSE(bv.empty());
    EXPECT_EQ(fv.size(), bv.size());
    for (const auto& [id, verdict] : bv) EXPECT_EQ(fv[id], verdict) << id;
    auto fo = corpus_outcomes(v.name()), bo = corpus_outcomes("anjum-v2");
    for (const auto& [k, out] : bo) EXPECT_EQ(fo[k], out) << k;
}

// Seed 003 (sample v2 2/2) needs the base that defines __GFP_KASAN_SAMPLE
// (patch 1/2, not in the seeds): on it, sample-v2's verdicts; without it, the
// tool says the flag is undefined and maps nothing.
TEST(PatchReader, Seed003OnItsPatch1GivesSampleV2sVerdicts) {
    patch::PatchReading r =
        patch::read_patch_series({src("tests/patches/seeds/003_sample_v2_2of2.txt")}, src("variants/sample-v2-1.variant"));
    EXPECT_EQ(r.hunks_unmapped(), 0u);
    EXPECT_EQ(r.rules, 2u);
    const kernel::Variant& v = load_reading(r, "003");
    EXPECT_EQ(v.baseline(), "sample-v2-1");
    auto fv = obligation_verdicts(v.name(), "linux-6.3"), bv = obligation_verdicts("sample-v2", "linux-6.3");
    ASSERT_FALSE(bv.empty());
    for (const auto& [id, verdict] : bv) EXPECT_EQ(fv[id], verdict) << id;
    EXPECT_EQ(fv.size(), bv.size());
}

TEST(PatchReader, Seed003WithoutPatch1SaysTheFlagIsUndefined) {
    patch::PatchReading r = patch::read_patch_series({src("tests/patches/seeds/003_sample_v2_2of2.txt")}, "");
    EXPECT_EQ(r.rules, 0u);
    ASSERT_EQ(r.hunks_unmapped(), 2u);
    for (const auto& h : r.hunks) {
        ASSERT_FALSE(h.unmapped.empty());
        EXPECT_NE(h.unmapped[0].why.find("unknown name '__GFP_KASAN_SAMPLE': linux-7.0 defines no such GFP flag"), std::string::npos)
            << h.unmapped[0].why;
    }
}

// A hunk that shows only part of a multi-line #define: the base's value with
// the flags the hunk adds and drops.
TEST(PatchReader, PartOfADefineIsTheBasesWithTheFlagsChanged) {
    auto r = read_text(
        "--- a/mm/vmalloc.c\n+++ b/mm/vmalloc.c\n@@ -3939,3 +3939,3 @@ static void *__vmalloc_area_node(struct vm_struct *area,\n"
        " \t\t\t\t__GFP_NOFAIL | __GFP_ZERO |\\\n-\t\t\t\tGFP_USER | __GFP_NOLOCKDEP)\n+\t\t\t\tGFP_USER | __GFP_SKIP_KASAN)\n \n");
    ASSERT_EQ(rule_lines(r).size(), 1u);
    EXPECT_EQ(rule_lines(r)[0], "rule GFP_VMALLOC_SUPPORTED = (GFP_VMALLOC_SUPPORTED | __GFP_SKIP_KASAN) & ~(__GFP_NOLOCKDEP)");
}

// An allocation call's mask: flags in and out; a call that changes more is not mapped.
TEST(PatchReader, ACallsMaskMapsAndAnyOtherChangeToItDoesNot) {
    auto r = read_text(
        "--- a/net/core/sock.c\n+++ b/net/core/sock.c\n@@ -2842,3 +2842,3 @@ bool skb_page_frag_refill(unsigned int sz, struct page_frag *pfrag, gfp_t gfp)\n"
        " \t\tpfrag->page = alloc_pages((gfp & ~__GFP_DIRECT_RECLAIM) |\n-\t\t\t\t\t  __GFP_COMP | __GFP_NOWARN | __GFP_NORETRY,\n"
        "+\t\t\t\t\t  __GFP_COMP | __GFP_NORETRY | __GFP_ZERO,\n \t\t\t\t\t  SKB_FRAG_PAGE_ORDER);\n");
    ASSERT_EQ(rule_lines(r).size(), 1u);
    EXPECT_EQ(rule_lines(r)[0], "rule skb_frag_gfp = (skb_frag_gfp | __GFP_ZERO) & ~(__GFP_NOWARN)");
    auto q = read_text(
        "--- a/net/core/sock.c\n+++ b/net/core/sock.c\n@@ -2842,3 +2842,3 @@ bool skb_page_frag_refill(unsigned int sz, struct page_frag *pfrag, gfp_t gfp)\n"
        " \t\tpfrag->page = alloc_pages((gfp & ~__GFP_DIRECT_RECLAIM) |\n-\t\t\t\t\t  __GFP_COMP, SKB_FRAG_PAGE_ORDER);\n"
        "+\t\t\t\t\t  __GFP_COMP, SKB_FRAG_PAGE_ORDER - 1);\n \t\tif (likely(pfrag->page)) {\n");
    EXPECT_TRUE(rule_lines(q).empty());
    ASSERT_EQ(q.hunks_unmapped(), 1u);
    EXPECT_NE(q.hunks[0].unmapped[0].why.find("changes in more than its GFP flags"), std::string::npos);
}

// A condition: the new side's, with the hunk's locals put in and gfp_mask the rule's gfp.
TEST(PatchReader, AConditionIsTheNewSidesWithItsLocals) {
    auto r = read_text(
        "--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -1540,3 +1540,3 @@ inline void post_alloc_hook(struct page *page, unsigned int order,\n"
        " \tbool init = !want_init_on_free() && want_init_on_alloc(gfp_flags) &&\n \t\t\t!should_skip_init(gfp_flags);\n"
        "-\tbool zero_tags = init && (gfp_flags & __GFP_ZEROTAGS);\n+\tbool zero_tags = gfp_flags & __GFP_ZEROTAGS;\n");
    ASSERT_EQ(rule_lines(r).size(), 1u);
    EXPECT_EQ(rule_lines(r)[0], "rule zero_tags(gfp, init) = gfp & __GFP_ZEROTAGS");
    const kernel::Variant& v = load_reading(r, "zero-tags");
    EXPECT_EQ(v.name(), r.name);
}

// What the model has no rule for is listed with the function and file; a
// comment-only hunk is no change to check.
TEST(PatchReader, UnmodelledCodeIsListedWithWhy) {
    auto r = read_text(
        "--- a/mm/slub.c\n+++ b/mm/slub.c\n@@ -10,3 +10,3 @@ static int calculate_order(unsigned int size)\n"
        " \tint a;\n-\tint b;\n+\tint c;\n \tint d;\n"
        "@@ -20,3 +20,3 @@ static int calculate_order(unsigned int size)\n \tint a;\n-\t/* Teh */\n+\t/* The */\n \tint d;\n");
    EXPECT_EQ(r.rules, 0u);
    ASSERT_EQ(r.hunks.size(), 2u);
    ASSERT_EQ(r.hunks[0].unmapped.size(), 1u);
    EXPECT_NE(r.hunks[0].unmapped[0].why.find("calculate_order() in mm/slub.c: the model has no rule"), std::string::npos);
    EXPECT_TRUE(r.hunks[1].comments_only);
    EXPECT_TRUE(r.hunks[1].mapped());
}

TEST(PatchReader, BadInputNamesFileLineAndColumn) {
    auto error_of = [](const std::string& text) {
        try {
            patch::Series s;
            patch::read_patches(text, "p.diff", s);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(error_of("--- a/x.c\n+++ b/x.c\n@@ -1,2 +1,2 @\n a\n").find("p.diff:3:"), std::string::npos);
    EXPECT_NE(error_of("--- a/x.c\n+++ b/x.c\n@@ -1,2 +1,2 @@\n a\n").find("p.diff:4:1: the file ends inside the hunk"),
              std::string::npos);
    EXPECT_NE(error_of("--- a/x.c\n+++ b/x.c\n@@ -1,1 +1,1 @@\n?a\n").find("p.diff:4:1: a hunk line starting '?'"),
              std::string::npos);
    EXPECT_NE(error_of("hello\n").find("p.diff: no patch in it"), std::string::npos);
    EXPECT_NE(error_of(std::string("--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\0\n+b\n", 36)).find("NUL"), std::string::npos);
    EXPECT_NE(error_of("--- a/x.c\n+++ b/x.c\n@@ -99999999999,1 +1 @@\n-a\n+b\n").find("p.diff:3:"), std::string::npos);
}

// The base a series names; a base file's flag is known to the hunks.
TEST(PatchReader, TheBaseComesFromTheSeries) {
    std::string how;
    EXPECT_EQ(patch::base_from_text("Applies on 7-0-rc1.", &how), "linux-7.0");
    EXPECT_EQ(patch::base_from_text("This is based on v6.3-rc2", &how), "linux-6.3");
    EXPECT_EQ(patch::base_from_text("applies to v6.12", &how), "linux-6.4");
    EXPECT_NE(how.find("nearest modelled release at or below v6.12"), std::string::npos);
    EXPECT_EQ(patch::base_from_text("no words about it", &how), "");
    // the tree is chosen by the version itself, not by the hand release standing for it
    patch::Series s;
    s.all_text = "applies to v6.12";
    EXPECT_EQ(patch::named_release(s, "", &how), "6.12");
    EXPECT_EQ(how, "the series says \"applies to v6.12\"");
    EXPECT_EQ(patch::named_release(s, "linux-6.3", &how), "linux-6.3");
    s.all_text = "no words about it";
    EXPECT_EQ(patch::named_release(s, "", &how), "");
}

// The reply: prose at most 72 columns, the hunk quoted with "> ", the
// finding under it.
TEST(PatchReader, TheReplyQuotesTheHunkAndKeepsTo72Columns) {
    patch::PatchReading r = patch::read_patch_series({src("tests/patches/pgtable_no_zero.diff")}, "");
    review::VariantReview v;
    v.variant = r.name;
    v.baseline = "linux-7.0";
    review::Finding f;
    f.variant = r.name;
    f.property = "zeroing";
    f.origin = "zeroing/pgtable_kernel";
    f.scenario = "t0 = pgtable_alloc(kernel)\n";
    f.expected = "the caller gets zeroed memory";
    f.happened = "stale data";
    v.findings.push_back(f);
    review::Reply reply;
    reply.reading = &r;
    reply.review = &v;
    reply.variant_file = "/tmp/x.variant";
    const std::string t = review::reply_text(reply);
    EXPECT_EQ(review::hunk_of(r, f), 0);
    const std::size_t quote = t.find("> -#define GFP_PGTABLE_KERNEL"), sev = t.find("[Severity:");
    ASSERT_NE(quote, std::string::npos);
    ASSERT_NE(sev, std::string::npos);
    EXPECT_LT(quote, sev);
    std::istringstream in(t);
    for (std::string l; std::getline(in, l);) {
        if (l.rfind("> ", 0) != 0 && l.rfind("  tagproof run", 0) != 0) {
            EXPECT_LE(l.size(), 72u) << l;
        }
    }
    EXPECT_NE(t.find("Verdict: 1 finding the series introduces"), std::string::npos);
}

// "No functional change" claims no change; qualified ("... for callers that
// do not pass __GFP_ZERO") it claims nothing of the callers it leaves out, so
// the series is taken to change behaviour (the claim quoted as written).
TEST(PatchReader, AQualifiedNoFunctionalChangeIsNoClaimOfNoChange) {
    auto claims = [](const std::string& words, std::string* how = nullptr) {
        const patch::PatchReading r = read_text("From: A <a@example.org>\nSubject: [PATCH] mm: tidy\n\n" + words +
                                                "\n---\ndiff --git a/mm/x.c b/mm/x.c\n--- a/mm/x.c\n+++ b/mm/x.c\n"
                                                "@@ -1,1 +1,1 @@\n-int a;\n+int b;\n");
        if (how) *how = r.claims_how;
        const std::size_t at = r.file_text.find("\nclaims ");
        return at == std::string::npos ? std::string() : r.file_text.substr(at + 8, r.file_text.find(' ', at + 8) - at - 8);
    };
    EXPECT_EQ(claims("No functional change intended."), "none");
    std::string how;
    EXPECT_EQ(claims("No functional change intended for callers that do not pass __GFP_ZERO.", &how), "any");
    EXPECT_NE(how.find("\"No functional change intended for callers that do not pass __GFP_ZERO\""), std::string::npos)
        << how;
    EXPECT_EQ(claims("No functional change, except for init_on_free."), "any");
    EXPECT_EQ(claims("No functional change intended, and none for HW_TAGS."), "none");
    EXPECT_EQ(claims("No functional change unless KASAN is on."), "any");
    // a changelog wrapped at 72 columns: the phrase across a line break reads the same
    EXPECT_EQ(claims("Say !! so that the value is 0 or 1 as its callers read it. No\nfunctional change."), "none");
    EXPECT_EQ(claims("No functional change intended for callers that do\nnot pass __GFP_ZERO.", &how), "any");
    EXPECT_NE(how.find("\"No functional change intended for callers that do not pass __GFP_ZERO\""), std::string::npos)
        << how;
    // the control: without the phrase the series is taken to change behaviour
    EXPECT_EQ(claims("Say !! so that the value is 0 or 1 as its callers read it."), "any");
}
