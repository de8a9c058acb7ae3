// kernel_oracle_test.cpp — the kernel oracle's readers and writer (issue 17):
// a real 6.12 HW_TAGS console log (QEMU 10 MTE, tests/kernel-logs/) read as
// KTAP and KASAN reports, a case's result set beside the model's, and
// scenarios written as KUnit C.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "error.hpp"
#include "ktap.hpp"
#include "kunit_agreement.hpp"
#include "kunit_writer.hpp"
#include "scenario.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;
using namespace tagproof::oracle;

namespace {

const std::string kLogs = std::string(TAGPROOF_SOURCE_DIR) + "/tests/kernel-logs/";

KernelLog read_file(const std::string& name) {
    std::ifstream in(kLogs + name);
    return read_kernel_log(in, name);
}

KernelLog read_text(const std::string& text) {
    std::istringstream in(text);
    return read_kernel_log(in, "log");
}

const KtapCase* find_case(const KernelLog& log, const std::string& name) {
    for (const auto& c : log.cases)
        if (c.name == name) return &c;
    return nullptr;
}

// tests/scenarios/kunit/kmalloc_uaf.litmus, and what a kernel that does what
// it says prints for it: kmalloc and kfree silent, the read after kfree reported
const std::string kKmallocUaf = std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/kunit/kmalloc_uaf.litmus";
const std::string kKmallocUafAsTheKernelRunsIt =
    "Linux version 6.12.118 (x)\n    # Subtest: tagproof\n"
    "    # tagproof: L7 p = kmalloc(10): no report\n    # tagproof: L8 kfree(p): no report\n"
    "BUG: KASAN: slab-use-after-free in kmalloc_uaf+0x1/0x2\n"
    "    # tagproof: L9 read(p + 8, 1): report\n    ok 1 kmalloc_uaf\n";

}  // namespace

TEST(KernelLog, ReadsTheRealLogsHeaderAndCases) {
    const KernelLog log = read_file("linux-6.12-hw-tags-qemu-excerpt.log");
    EXPECT_EQ(log.version, "6.12.118");
    EXPECT_TRUE(log.mte);
    EXPECT_NE(log.kasan_line.find("hw-tags, mode=sync"), std::string::npos);
    EXPECT_TRUE(log.powered_off);
    EXPECT_TRUE(log.crashes.empty());
    const auto cases = suite_cases(log, "kasan");
    ASSERT_EQ(cases.size(), 4u);
    const KtapCase* right = find_case(log, "kmalloc_oob_right");
    ASSERT_NE(right, nullptr);
    EXPECT_EQ(right->result, KtapCase::ok);
    ASSERT_EQ(right->reports.size(), 2u);
    EXPECT_EQ(right->reports[0].bug_type, "slab-out-of-bounds");
    EXPECT_EQ(right->reports[0].access, "Write");
    EXPECT_EQ(right->reports[1].bug_type, "invalid-access");
    EXPECT_EQ(right->reports[1].access, "Read");
    EXPECT_GE(right->reports[0].ptr_tag, 0xf0);
    EXPECT_NE(right->reports[0].ptr_tag, right->reports[0].mem_tag);
    const KtapCase* oob16 = find_case(log, "kmalloc_oob_16");
    ASSERT_NE(oob16, nullptr);
    EXPECT_EQ(oob16->result, KtapCase::skip);
    EXPECT_EQ(oob16->directive, "Test requires CONFIG_KASAN_GENERIC=y");
    // the suite's own result line is not one of its cases
    EXPECT_EQ(find_case(log, "kasan")->suite, "");
}

TEST(KernelLog, TimestampsCallerIdsAndStatementLines) {
    const KernelLog log = read_text(
        "[    0.000000] Linux version 6.12.1 (x) #1\n"
        "[    1.000000][    T1]     # Subtest: tagproof\n"
        "[    1.100000][    T1]     # tagproof: L7 p = kmalloc(10): no report\n"
        "[    1.200000] BUG: KASAN: slab-use-after-free in kmalloc_uaf+0x1/0x2\n"
        "[    1.200001] Read at addr f2ff000001234568 by task kunit_try_catch/50\n"
        "[    1.200002] Pointer tag: [f2], memory tag: [fe]\n"
        "[    1.300000][    T1]     # tagproof: L9 read(p + 8, 1): report\n"
        "[    1.400000][    T1]     ok 1 kmalloc_uaf\n");
    EXPECT_EQ(log.version, "6.12.1");
    ASSERT_EQ(log.cases.size(), 1u);
    const KtapCase& c = log.cases[0];
    EXPECT_EQ(c.suite, "tagproof");
    ASSERT_EQ(c.statements.size(), 2u);
    EXPECT_FALSE(c.statements[0].reported);
    EXPECT_TRUE(c.statements[0].reports.empty());
    EXPECT_EQ(c.statements[1].scenario_line, 9);
    EXPECT_TRUE(c.statements[1].reported);
    ASSERT_EQ(c.statements[1].reports.size(), 1u);
    EXPECT_EQ(c.statements[1].reports[0].bug_type, "slab-use-after-free");
    EXPECT_EQ(c.statements[1].reports[0].ptr_tag, 0xf2);
    EXPECT_EQ(c.statements[1].reports[0].mem_tag, 0xfe);
}

TEST(KernelLog, BootReportsAreNotTheFirstCases) {
    // QEMU 7.2's failure: a report at boot, before any suite ran
    const KernelLog log = read_text(
        "BUG: KASAN: slab-out-of-bounds in deactivate_slab+0x208/0x3a8\n"
        "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b\n");
    EXPECT_TRUE(log.cases.empty());
    ASSERT_EQ(log.reports_outside_cases.size(), 1u);
    EXPECT_EQ(log.reports_outside_cases[0].function, "deactivate_slab+0x208/0x3a8");
    EXPECT_EQ(log.crashes.size(), 1u);
}

TEST(KernelLog, BinaryAndEmptyInputAreErrors) {
    EXPECT_THROW(read_text(std::string("ok 1 x\n\x01\x02\x00zz", 11)), InputError);
    EXPECT_THROW(read_text(""), InputError);
}

TEST(KernelLog, EraVariantsBracketTheVersion) {
    EXPECT_EQ(era_variants("6.12.118"), (std::vector<std::string>{"linux-6.4", "linux-7.0"}));
    EXPECT_EQ(era_variants("6.4.0"), (std::vector<std::string>{"linux-6.4"}));
    EXPECT_EQ(era_variants("7.2"), (std::vector<std::string>{"linux-7.0"}));
    EXPECT_THROW(era_variants("5.10.1"), InputError);
}

TEST(KernelAgreement, TheRealLogAgreesAndItsDoctoredCopyDoesNot) {
    const std::string corpus = std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/kunit";
    const Agreement a = compare_kunit(read_file("linux-6.12-hw-tags-qemu-excerpt.log"), "kasan", corpus, {});
    EXPECT_EQ(a.count(CaseAgreement::agree), 2u);
    EXPECT_EQ(a.count(CaseAgreement::era), 1u);  // mempool_kmalloc_oob_right: linux-7.0's mempool checks
    EXPECT_EQ(a.count(CaseAgreement::skipped), 1u);
    EXPECT_EQ(a.count(CaseAgreement::disagree), 0u);
    // negative control: the kernel failing a case whose port the model passes
    const Agreement b = compare_kunit(read_file("negative-kmalloc-oob-left-fails.log"), "kasan", corpus, {});
    EXPECT_EQ(b.count(CaseAgreement::disagree), 1u);
    EXPECT_NE(agreement_markdown(b).find("| kmalloc_oob_left | not ok |"), std::string::npos);
}

TEST(KunitWriter, WritesAnExpressibleScenarioAsKernelC) {
    const scenario::Scenario sc = scenario::parse_scenario(
        "name uaf_demo\nharness kunit\nmodes hw_tags generic\np = kmalloc(10)\nkfree(p)\n"
        "read(p + 8, 1) => report\n[generic] read(p - 1, 1) => report\n",
        "demo.litmus");
    const KunitSuite s = write_kunit_suite({sc}, "tagproof");
    ASSERT_EQ(s.cases, std::vector<std::string>{"uaf_demo"});
    const std::string& c = s.c_source;
    EXPECT_NE(c.find("p = kmalloc(10UL, GFP_KERNEL);"), std::string::npos);
    EXPECT_NE(c.find("tp_access(((char *)p + 8), 1UL, TP_READ);"), std::string::npos);
    EXPECT_NE(c.find("tp_end(test, 6, \"read(p + 8, 1)\", TP_REPORT);"), std::string::npos);
    EXPECT_NE(c.find("tp_end(test, 5, \"kfree(p)\", TP_NO_REPORT);"), std::string::npos);  // harness kunit
    EXPECT_EQ(c.find("p - 1"), std::string::npos);  // a generic-only line is not HW_TAGS's
    EXPECT_NE(c.find("KUNIT_CASE(uaf_demo)"), std::string::npos);
}

// A counterexample of the solver's may allocate with no flag at all, which
// the scenario (and the GFP printer) calls `none`: in C it is 0, alone or in
// an expression; a flag that merely contains the letters is left alone.
TEST(KunitWriter, NoFlagIsZeroInC) {
    const scenario::Scenario sc = scenario::parse_scenario(
        "name gfp_none\nmodes hw_tags\na = alloc_pages(0, none)\nb = alloc_pages(0, none|__GFP_ZERO)\n"
        "free_pages(a)\nfree_pages(b)\n",
        "none.litmus");
    const KunitSuite s = write_kunit_suite({sc}, "tagproof");
    ASSERT_EQ(s.cases, std::vector<std::string>{"gfp_none"});
    const std::string& c = s.c_source;
    EXPECT_NE(c.find("a = alloc_pages(0, 0UL);"), std::string::npos) << c;
    EXPECT_NE(c.find("b = alloc_pages(0|__GFP_ZERO, 0UL);"), std::string::npos) << c;
    EXPECT_EQ(c.find("alloc_pages(none"), std::string::npos) << c;  // the control: what it wrote before
}

TEST(KunitWriter, LeavesOutWhatKernelCannotSay) {
    auto left_out = [](const std::string& text) {
        const KunitSuite s = write_kunit_suite({scenario::parse_scenario(text, "x.litmus")}, "tagproof");
        return s.left_out.empty() ? std::string() : s.left_out[0].second;
    };
    EXPECT_NE(left_out("name a\nmodes hw_tags\ns = stack_alloc()\n").find("stack_alloc"), std::string::npos);
    EXPECT_NE(left_out("name a\nmodes hw_tags\nboot kasan.mode=async\np = kmalloc(8)\n").find("boot line"),
              std::string::npos);
    EXPECT_NE(left_out("name a\nmodes generic\np = kmalloc(8)\n").find("no hw_tags"), std::string::npos);
    EXPECT_NE(left_out("name a\nvariant anjum-v4\nmodes hw_tags\np = kmalloc(8)\n").find("anjum-v4"), std::string::npos);
    EXPECT_EQ(left_out("name a\nmodes hw_tags\nboot kasan.vmalloc=on\np = vmalloc(8)\n"), "");
}

TEST(KernelAgreement, ScenarioStatementsAgainstTheKernelsObservations) {
    const std::string file = kKmallocUaf;
    const std::string good = kKmallocUafAsTheKernelRunsIt;
    auto rows = compare_scenarios(read_text(good), "tagproof", {file}, {"linux-7.0"});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].kind, ScenarioAgreement::agree);
    EXPECT_EQ(rows[0].statements.size(), 3u);
    // negative control: the read after kfree not reported
    std::string bad = good;
    bad.replace(bad.find("BUG: KASAN"), bad.find("    # tagproof: L9") - bad.find("BUG: KASAN"), "");
    bad.replace(bad.find("L9 read(p + 8, 1): report"), 25, "L9 read(p + 8, 1): no report");
    rows = compare_scenarios(read_text(bad), "tagproof", {file}, {"linux-7.0"});
    EXPECT_EQ(rows[0].kind, ScenarioAgreement::disagree);
    EXPECT_NE(scenario_agreement_markdown(rows, {"linux-7.0"}).find("L9 read(p + 8, 1): model report, kernel no report"),
              std::string::npos);
}

TEST(KunitWriter, ExclusionsNeedAReasonAndLeaveTheCaseOut) {
    const std::string dir = test::scratch_dir("kunit-writer");
    {
        std::ofstream(dir + "/ex.txt") << "# comment\nuaf_demo  a kernel bug with its evidence\n";
        std::ofstream(dir + "/bad.txt") << "uaf_demo\n";
    }
    KernelTarget t;
    t.excluded = read_exclusions(dir + "/ex.txt");
    const scenario::Scenario sc =
        scenario::parse_scenario("name uaf_demo\nmodes hw_tags\np = kmalloc(10)\n", "demo.litmus");
    EXPECT_EQ(expressible(sc, t).why, "excluded: a kernel bug with its evidence");
    EXPECT_THROW(read_exclusions(dir + "/bad.txt"), InputError);
    // a scenario of a release outside the kernel's bracket is not written
    t.eras = era_variants("6.12.1");
    const scenario::Scenario old =
        scenario::parse_scenario("name old\nvariant linux-6.1\nmodes hw_tags\np = kmalloc(10)\n", "old.litmus");
    EXPECT_NE(expressible(old, t).why.find("the kernel's era is linux-6.4 or linux-7.0"), std::string::npos);
}

TEST(KernelAgreement, WhereTheBracketingReleasesDifferTheKernelIsNotHeldToEither) {
    // linux64_kmalloc_min_128: 128-byte kmalloc minimum before v6.5; a 6.12
    // kernel (kmalloc-32) reports the write at +32 as the next, freed object's
    const std::string file = std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/eras/linux64_kmalloc_min_128.litmus";
    const std::string log =
        "Linux version 6.12.118 (x)\n    # Subtest: tagproof\n"
        "    # tagproof: L10 p = kmalloc(20): no report\n    # tagproof: L11 n = ksize(p): no report\n"
        "    # tagproof: L13 q = kmalloc(150): no report\n    # tagproof: L14 m = ksize(q): no report\n"
        "BUG: KASAN: slab-use-after-free in tp_access+0x20/0x4c\n"
        "    # tagproof: L16 write(p + 32, 1): report\n    ok 1 linux64_kmalloc_min_128\n";
    const auto rows = compare_scenarios(read_text(log), "tagproof", {file}, era_variants("6.12.118"));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].kind, ScenarioAgreement::era);
    // held to linux-6.4 alone it is a disagreement
    EXPECT_EQ(compare_scenarios(read_text(log), "tagproof", {file}, {"linux-6.4"})[0].kind, ScenarioAgreement::disagree);
}

TEST(KernelAgreement, AKernelThatDoesWhatTheFileSaysDisagreesWithAModelThatFailsIt) {
    // negative control for the model side: under mutant-invalid-matches the
    // invalid tag 0xFE matches, so a freed object's read is silent and the
    // model fails kmalloc_uaf; the kernel reports it
    const std::string file = kKmallocUaf;
    const std::string log = kKmallocUafAsTheKernelRunsIt;
    EXPECT_EQ(compare_scenarios(read_text(log), "tagproof", {file}, {"linux-7.0"})[0].kind, ScenarioAgreement::agree);
    const auto rows = compare_scenarios(read_text(log), "tagproof", {file}, {"mutant-invalid-matches"});
    EXPECT_EQ(rows[0].kind, ScenarioAgreement::disagree);
    EXPECT_NE(rows[0].note.find("the model fails the file"), std::string::npos);
}

// The kernel evaluates the checks it can say itself (docs/kernel-oracle.md): an
// skb's frag count and a frag's order; a file that starves the model's memory
// keeps its checks the model's.
TEST(KunitWriter, WritesTheChecksTheKernelCanEvaluate) {
    const std::string text =
        "name skb_demo\nmodes hw_tags\nconfig pages=64\nsk = alloc_skb_with_frags(73728, 3)\ncheck null(sk) == 0\n"
        "n = skb_nr_frags(sk)\ncheck n == 3\nf = skb_frag_page(sk, 2)\ncheck order(f) == 1\n"
        "p = kmalloc(16)\ncheck tag(p) in 0xf0..0xfd\nkfree_skb(sk)\n";
    const KunitSuite s = write_kunit_suite({scenario::parse_scenario(text, "demo.litmus")}, "tagproof");
    ASSERT_EQ(s.cases.size(), 1u);
    const std::string& c = s.c_source;
    EXPECT_NE(c.find("sk = tp_alloc_skb_with_frags(73728UL, 3UL, GFP_KERNEL);"), std::string::npos);
    EXPECT_NE(c.find("tp_check(test, 5, \"null(sk) == 0\", ((unsigned long)(sk == NULL) == 0UL));"), std::string::npos);
    EXPECT_NE(c.find("tp_check(test, 7, \"n == 3\", ((unsigned long)n == 3UL));"), std::string::npos);
    EXPECT_NE(c.find("compound_order(f)"), std::string::npos);
    EXPECT_EQ(c.find("\"tag(p) in"), std::string::npos);  // the model's tag choice
    // control: the same file with 32 pages of memory: the checks stay the model's
    std::string starved = text;
    starved.replace(starved.find("pages=64"), 8, "pages=32");
    const KunitSuite t = write_kunit_suite({scenario::parse_scenario(starved, "demo.litmus")}, "tagproof");
    EXPECT_EQ(t.c_source.find("tp_check(test, "), std::string::npos);
}

TEST(KernelAgreement, AFailedCheckInTheKernelDisagrees) {
    const std::string file = std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/eras/linux70_skb_with_frags_order3_fits.litmus";
    const std::string good =
        "Linux version 6.12.118 (x)\n    # Subtest: tagproof\n"
        "    # tagproof: L7 sk = alloc_skb_with_frags(73728, 3): no report\n"
        "    # tagproof: L8 check null(sk) == 0: holds\n"
        "    # tagproof: L9 n = skb_nr_frags(sk): no report\n    # tagproof: L10 check n == 3: holds\n"
        "    # tagproof: L11 f2 = skb_frag_page(sk, 2): no report\n    # tagproof: L12 check order(f2) == 1: holds\n"
        "    # tagproof: L13 kfree_skb(sk): no report\n    ok 1 linux70_skb_with_frags_order3_fits\n";
    const KernelLog log = read_text(good);
    const KtapCase* kc = find_case(log, "linux70_skb_with_frags_order3_fits");
    ASSERT_NE(kc, nullptr);
    ASSERT_EQ(kc->statements.size(), 7u);
    EXPECT_EQ(kc->statements[1].check, StatementResult::Check::holds);
    auto rows = compare_scenarios(log, "tagproof", {file}, {"linux-7.0"});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].kind, ScenarioAgreement::agree) << scenario_agreement_markdown(rows, {"linux-7.0"});
    // negative control: the kernel allocated four frags
    std::string bad = good;
    bad.replace(bad.find("L10 check n == 3: holds"), 23, "L10 check n == 3: fails");
    rows = compare_scenarios(read_text(bad), "tagproof", {file}, {"linux-7.0"});
    EXPECT_EQ(rows[0].kind, ScenarioAgreement::disagree);
}
