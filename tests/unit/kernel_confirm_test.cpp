// kernel_confirm_test.cpp — `review --confirm` without a kernel (issue 32):
// a finding's trace written as a confirming KUnit case, the data lines such a
// case prints read back, and the comparison of what each kernel did with the
// model's prediction, over console logs that a stand-in for
// scripts/kernel-confirm.sh hands back. The real kernel run is the kernel
// preset's (tests/kernel_tests.cmake).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "confirm.hpp"
#include "file/variant_file.hpp"
#include "ktap.hpp"
#include "kunit_writer.hpp"
#include "scenario.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;
using namespace tagproof::oracle;
namespace fs = std::filesystem;

namespace {

// A page-table patch as a new user writes it: GFP_PGTABLE_KERNEL loses __GFP_ZERO.
const char* kVariant =
    "name confirm-test-pgtable-no-zero\nbase linux-6.4\nsummary GFP_PGTABLE_KERNEL without __GFP_ZERO\n"
    "claims any\nrule GFP_PGTABLE_KERNEL = (GFP_KERNEL)\n";

std::string finding(const std::string& variant, const std::string& mode = "hw_tags") {
    return "name f\nvariant " + variant + "\nmodes " + mode + "\nt0 = pgtable_alloc(kernel)\nexpect violation zeroing\n";
}

fs::path scratch(const std::string& name) { return test::scratch_dir("confirm-" + name); }

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

const std::string& patched_variant() {
    static const std::string name = [] {
        const fs::path f = scratch("variant") / "pgtable.variant";
        write(f, kVariant);
        return kernel::load_variant_file(f.string()).name();
    }();
    return name;
}

// A console log of the confirmation suite: case tp_confirm_1's statement at L4.
std::string console(const std::string& data) {
    return "Linux version 6.12.118 (x@y) #1 SMP\n"
           "kasan: KernelAddressSanitizer initialized (hw-tags, mode=sync, vmalloc=on, stacktrace=on)\n"
           "KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: tagproof_confirm\n    1..1\n"
           "# tagproof: L4 t0 = pgtable_alloc(kernel): no report\n"
           "# tagproof: L4 t0 = pgtable_alloc(kernel): " + data + "\n"
           "    ok 1 tp_confirm_1\nok 1 tagproof_confirm\nreboot: Power down\n";
}

// The stand-in for scripts/kernel-confirm.sh: checks the job it was given and
// copies the canned logs from its TREE argument into JOB, or fails as a build does.
ConfirmJob job_with(const fs::path& dir, const std::string& base_data, const std::string& patched_data, int rc = 0) {
    write(dir / "tree" / "console-base-1.log", console(base_data));
    write(dir / "tree" / "console-patched-1.log", console(patched_data));
    write(dir / "kernel-confirm.sh",
          "set -e\n[ -f \"$3/boots\" ] && [ -f \"$3/patched/mm/kasan/tagproof_confirm.c\" ] && "
          "[ -f \"$3/patched/include/asm-generic/pgalloc.h\" ]\n"
          "if [ " + std::to_string(rc) + " -ne 0 ]; then echo 'kernel-confirm: error: the base kernel did not build' >&2; exit " +
              std::to_string(rc) + "; fi\ncp \"$1\"/console-*.log \"$3\"/\n");
    ConfirmJob job;
    job.tree = (dir / "tree").string();
    job.version = "6.12.118";
    job.patched_variant = patched_variant();
    job.base_variant = "linux-6.4";
    job.before["include/asm-generic/pgalloc.h"] = "#define GFP_PGTABLE_KERNEL (GFP_KERNEL | __GFP_ZERO)\n";
    job.after["include/asm-generic/pgalloc.h"] = "#define GFP_PGTABLE_KERNEL (GFP_KERNEL)\n";
    job.work = (dir / "work").string();
    job.dir = (dir / "job").string();
    job.script = (dir / "kernel-confirm.sh").string();
    return job;
}

ConfirmFinding zeroing(const std::string& mode = "hw_tags") {
    return {"zeroing [" + mode + "]", "zeroing", mode == "hw_tags" ? Mode::hw_tags : Mode::sw_tags,
            finding(patched_variant(), mode), {}};
}

}  // namespace

TEST(ConfirmWriter, AFindingsTraceBecomesACaseThatReadsItsData) {
    const scenario::Scenario sc = scenario::parse_scenario(finding(patched_variant()), "f.litmus");
    KernelTarget t;
    // the oracle's own suite takes released kernels only: the control
    EXPECT_FALSE(expressible(sc, t).ok);
    t.confirm = true;
    ASSERT_TRUE(expressible(sc, t).ok) << expressible(sc, t).why;
    const std::string c = write_kunit_suite({sc}, "tagproof_confirm", t).c_source;
    // a previous owner's page, then the kernel's page-table allocator, then its data read
    const auto dirty = c.find("\ttp_dirty_pages(GFP_KERNEL, 0, 1);");
    const auto alloc = c.find("t0 = (char *)pte_alloc_one_kernel(&init_mm);");
    const auto data = c.find("tp_data(4, \"t0 = pgtable_alloc(kernel)\", t0, PAGE_SIZE);");
    ASSERT_NE(dirty, std::string::npos) << c;
    ASSERT_NE(alloc, std::string::npos);
    ASSERT_NE(data, std::string::npos);
    EXPECT_LT(dirty, alloc);
    EXPECT_LT(alloc, data);
    // the kernel is not held to the file inside the case: the comparison is the review's
    EXPECT_NE(c.find("tp_end(test, 4, \"t0 = pgtable_alloc(kernel)\", TP_ANY);"), std::string::npos);
}

TEST(ConfirmWriter, APgdFromItsSlabIsNotWritten) {
    KernelTarget t;
    t.confirm = true;
    const auto sc = scenario::parse_scenario("name g\nmodes hw_tags\nt0 = pgtable_alloc(pgd_slab)\n", "g.litmus");
    EXPECT_NE(expressible(sc, t).why.find("pgd from its slab cache"), std::string::npos);
}

TEST(ConfirmLog, DataLinesAreReadOntoTheirStatement) {
    std::istringstream in(console("data not zero at offset 24"));
    const KernelLog log = read_kernel_log(in, "log");
    const auto cases = suite_cases(log, "tagproof_confirm");
    ASSERT_EQ(cases.size(), 1u);
    ASSERT_EQ(cases[0]->statements.size(), 1u);
    EXPECT_EQ(cases[0]->statements[0].data, StatementResult::Data::not_zero);
    EXPECT_EQ(cases[0]->statements[0].nonzero_offset, 24u);
    std::istringstream zero(console("data zero"));
    EXPECT_EQ(read_kernel_log(zero, "log").cases[0].statements[0].data, StatementResult::Data::zero);
}

TEST(Confirm, BothKernelsAsPredictedIsConfirmed) {
    const fs::path d = scratch("confirmed");
    const auto c = confirm_findings({zeroing()}, job_with(d, "data zero", "data not zero at offset 0"));
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].status, Confirmation::confirmed) << c[0].summary;
    EXPECT_NE(c[0].summary.find("confirmed in 6.12.118 + patch under QEMU MTE (sync): L4 data not zero at offset 0, "
                                "as the model predicted; unpatched: data zero, as expected"),
              std::string::npos)
        << c[0].summary;
    EXPECT_FALSE(c[0].excerpt.empty());
}

TEST(Confirm, APatchedKernelThatZeroesContradictsTheModel) {
    const fs::path d = scratch("patched-zeroes");
    const auto c = confirm_findings({zeroing()}, job_with(d, "data zero", "data zero"));
    EXPECT_EQ(c[0].status, Confirmation::contradicted);
    EXPECT_NE(c[0].summary.find("with the patch L4 data zero, the model predicted the violation"), std::string::npos)
        << c[0].summary;
    EXPECT_NE(c[0].summary.find("a model defect"), std::string::npos);
}

// The stand-in booting again (ROUND 2, 3): each round's patched kernel
// shows PATCHED[round - 1]; the unpatched one zeroes every time.
ConfirmJob rounds_job(const fs::path& dir, const std::vector<std::string>& patched) {
    ConfirmJob job = job_with(dir, "data zero", patched.at(0));
    for (std::size_t r = 1; r < patched.size(); ++r) {
        const std::string n = std::to_string(r + 1);
        write(dir / "tree" / ("console-base-1.r" + n + ".log"), console("data zero"));
        write(dir / "tree" / ("console-patched-1.r" + n + ".log"), console(patched[r]));
    }
    write(dir / "kernel-confirm.sh",
          "set -e\nif [ \"${4:-1}\" -eq 1 ]; then cp \"$1\"/console-base-1.log \"$1\"/console-patched-1.log \"$3\"/; "
          "else cp \"$1\"/console-base-1.r$4.log \"$1\"/console-patched-1.r$4.log \"$3\"/; fi\n");
    return job;
}

// A violation that one boot did not show (its random tags can match) is
// booted again: shown in the second boot, it is confirmed, and says so; the
// control, a kernel that never shows it in three boots, is a model defect.
TEST(Confirm, APredictedViolationMissedInOneBootIsBootedAgain) {
    const auto c = confirm_findings({zeroing()}, rounds_job(scratch("rounds"), {"data zero", "data not zero at offset 0"}));
    EXPECT_EQ(c[0].status, Confirmation::confirmed) << c[0].summary;
    EXPECT_NE(c[0].summary.find("(in boot 2 of up to 3: the earlier boot's random tags hid it)"), std::string::npos)
        << c[0].summary;
    const fs::path d = scratch("rounds-never");
    const auto never = confirm_findings({zeroing()}, rounds_job(d, {"data zero", "data zero", "data zero"}));
    EXPECT_EQ(never[0].status, Confirmation::contradicted) << never[0].summary;
    EXPECT_NE(never[0].summary.find("a model defect"), std::string::npos);
    EXPECT_TRUE(fs::exists(d / "job" / "console-patched-1.r3.log"));  // all three boots ran
}

TEST(Confirm, AnUnpatchedKernelThatDoesNotZeroContradictsTheModel) {
    const fs::path d = scratch("base-stale");
    const auto c = confirm_findings({zeroing()}, job_with(d, "data not zero at offset 8", "data not zero at offset 0"));
    EXPECT_EQ(c[0].status, Confirmation::contradicted);
    EXPECT_NE(c[0].summary.find("unpatched L4 data not zero at offset 8, the model predicted none"), std::string::npos)
        << c[0].summary;
}

TEST(Confirm, WhatOneHwTagsKernelCannotShowIsNotRunAndSaysWhy) {
    const fs::path d = scratch("not-run");
    const auto c = confirm_findings({zeroing("sw_tags")}, job_with(d, "data zero", "data not zero at offset 0"));
    EXPECT_EQ(c[0].status, Confirmation::not_run);
    EXPECT_NE(c[0].summary.find("HW_TAGS only"), std::string::npos);
    // nothing to run: the script was not asked
    EXPECT_FALSE(fs::exists(d / "job" / "boots"));
}

// A finding whose own trace one kernel run cannot show (a mode-isolation
// scenario, which compares two variants) is confirmed with another engine's
// trace of the same violation, and the summary says which and why; the
// controls: with no other trace, or none that can run either, it is not run.
TEST(Confirm, AnotherEnginesTraceRunsWhereTheFindingsOwnCannot) {
    const std::string own = "name f\nvariant " + patched_variant() +
                            "\nbaseline linux-6.4\nmodes hw_tags\nt0 = pgtable_alloc(kernel)\nexpect violation zeroing\n";
    ConfirmFinding f{"zeroing [hw_tags]", "zeroing", Mode::hw_tags, own, {}};
    f.alternatives.push_back({"the explorer's trace from the pgtable family", finding(patched_variant())});
    const auto c = confirm_findings({f}, job_with(scratch("alternative"), "data zero", "data not zero at offset 0"));
    EXPECT_EQ(c[0].status, Confirmation::confirmed) << c[0].summary;
    EXPECT_NE(c[0].summary.find("; run with the explorer's trace from the pgtable family in its stead (the finding's "
                                "own: a mode-isolation scenario (baseline linux-6.4))"),
              std::string::npos)
        << c[0].summary;

    ConfirmFinding alone{"zeroing [hw_tags]", "zeroing", Mode::hw_tags, own, {}};
    const fs::path d = scratch("alternative-none");
    const auto none = confirm_findings({alone}, job_with(d, "data zero", "data not zero at offset 0"));
    EXPECT_EQ(none[0].status, Confirmation::not_run);
    EXPECT_NE(none[0].summary.find("a mode-isolation scenario"), std::string::npos) << none[0].summary;
    EXPECT_FALSE(fs::exists(d / "job" / "boots"));

    ConfirmFinding neither = alone;
    neither.alternatives.push_back(
        {"the corpus's trace from g.litmus", "name g\nvariant " + patched_variant() + "\nmodes hw_tags\nt0 = pgtable_alloc(pgd_slab)\n"});
    const auto n = confirm_findings({neither}, job_with(scratch("alternative-neither"), "data zero", "data zero"));
    EXPECT_EQ(n[0].status, Confirmation::not_run);
    EXPECT_NE(n[0].summary.find("nor any of the 1 other engines' traces (the last: line 4: a pgd from its slab cache"),
              std::string::npos)
        << n[0].summary;
}

TEST(Confirm, AKernelThatDoesNotBuildLeavesEveryFindingNotRun) {
    const fs::path d = scratch("no-build");
    const auto c = confirm_findings({zeroing()}, job_with(d, "data zero", "data not zero at offset 0", 2));
    EXPECT_EQ(c[0].status, Confirmation::not_run);
    EXPECT_NE(c[0].summary.find("the base kernel did not build"), std::string::npos) << c[0].summary;
}

// Seed 002's finding on 6.1 (a user page's stale page tag): the previous owner
// on the movable list, the fault path's allocation, and a read through
// page_address() of the page handed out; free_pages() without its order
// (calls.cpp: order 0) once read past the statement's arguments.
TEST(ConfirmWriter, AUserFaultIsTheArchsZeroedMovableAllocationProbedThroughPageAddress) {
    KernelTarget t;
    t.confirm = true;
    const auto sc = scenario::parse_scenario(
        "name s\nvariant linux-6.1\nmodes hw_tags\npg = alloc_pages(0, GFP_KERNEL)\nfree_pages(pg)\nu = user_fault(mte)\n"
        "pu = page_address(u)\nread(pu, 8)\nexpect violation no-false-positive\n",
        "s.litmus");
    ASSERT_TRUE(expressible(sc, t).ok) << expressible(sc, t).why;
    const std::string c = write_kunit_suite({sc}, "tagproof_confirm", t).c_source;
    EXPECT_NE(c.find("\ttp_dirty_pages(GFP_KERNEL | ((GFP_KERNEL) & (__GFP_RECLAIMABLE | __GFP_MOVABLE)), 0UL, 1);\n"
                     "\ttp_dirty_pages(GFP_KERNEL | __GFP_MOVABLE, 0, 1);\n\ttp_dirty_release();"),
              std::string::npos)
        << c;
    EXPECT_NE(c.find("__free_pages(pg, 0);"), std::string::npos);
    EXPECT_NE(c.find("u = tp_user_fault(true);"), std::string::npos);
    EXPECT_NE(c.find("tp_page_probe(6, \"u = user_fault(mte)\", u);"), std::string::npos);
    // the kernel C of both Debian trees: 6.1's names for KASAN's KUnit hooks
    EXPECT_NE(c.find("#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)"), std::string::npos);
}

TEST(ConfirmLog, APageProbeIsReadOntoItsStatementAndItsReportIsNotTheNextOnes) {
    const std::string log =
        "KTAP version 1\n1..1\n    # Subtest: tagproof_confirm\n    1..1\n"
        "# tagproof: L6 u = user_fault(mte): no report\n"
        "BUG: KASAN: invalid-access in tp_access+0x1/0x2\n"
        "# tagproof: L6 u = user_fault(mte): page_address read: report\n"
        "# tagproof: L7 pu = page_address(u): no report\n"
        "    ok 1 tp_confirm_1\nok 1 tagproof_confirm\n";
    std::istringstream in(log);
    const KernelLog k = read_kernel_log(in, "log");
    ASSERT_EQ(k.cases.size(), 2u);
    const auto& st = k.cases[0].statements;
    ASSERT_EQ(st.size(), 2u);
    EXPECT_EQ(st[0].page_probe, StatementResult::Probe::report);
    EXPECT_FALSE(st[0].reported);
    EXPECT_TRUE(st[1].reports.empty());
}

TEST(ConfirmWriter, APageMempoolsReissueIsTakenFromTheReserveAndProbedThroughItsPage) {
    KernelTarget t;
    t.confirm = true;
    const auto sc = scenario::parse_scenario(
        "name m\nvariant linux-6.3\nmodes hw_tags\nboot kasan.page_alloc.sample=2 kasan.page_alloc.sample.order=1\n"
        "mp = mempool_create(pages, 1, 2)\np0 = mempool_alloc(mp)\nread(p0, 8)\nmempool_free(mp, p0)\n"
        "expect violation no-false-positive\n",
        "m.litmus");
    ASSERT_TRUE(expressible(sc, t).ok) << expressible(sc, t).why;
    const std::string c = write_kunit_suite({sc}, "tagproof_confirm", t).c_source;
    // mempool_create(kind, order, min_nr): <linux/mempool.h>'s page pool takes (min_nr, order)
    EXPECT_NE(c.find("\tmempool_t *mp = NULL;"), std::string::npos) << c;
    EXPECT_NE(c.find("mp = mempool_create_page_pool(2UL, 1UL);"), std::string::npos) << c;
    // the model's mempool_alloc is the reserve's element, as kasan_test_c.c takes it
    EXPECT_NE(c.find("p0 = tp_page_address(tp_mempool_take(mp));"), std::string::npos);
    EXPECT_NE(c.find("#define tp_mempool_take(pool) mempool_alloc_preallocated(pool)"), std::string::npos);
    EXPECT_NE(c.find("tp_page_probe(6, \"p0 = mempool_alloc(mp)\", p0 ? virt_to_page(p0) : NULL);"), std::string::npos);
    EXPECT_NE(c.find("mempool_free(virt_to_page(p0), mp);"), std::string::npos);
    // the sampling counter starts where the model's does, after the previous owners' blocks
    const auto start = c.find("\ttp_sampling_start();\n");
    ASSERT_NE(start, std::string::npos);
    EXPECT_LT(start, c.find("mp = mempool_create_page_pool"));
    EXPECT_NE(c.find("this_cpu_write(kasan_page_alloc_skip, 0);"), std::string::npos);
}

TEST(ConfirmWriter, AKmallocMempoolsElementIsItsObject) {
    KernelTarget t;
    t.confirm = true;
    const auto sc = scenario::parse_scenario(
        "name k\nvariant linux-6.4\nmodes hw_tags\nmp = mempool_create(kmalloc, 128, 1)\ne = mempool_alloc(mp)\n"
        "mempool_free(mp, e)\n",
        "k.litmus");
    ASSERT_TRUE(expressible(sc, t).ok) << expressible(sc, t).why;
    const std::string c = write_kunit_suite({sc}, "tagproof_confirm", t).c_source;
    EXPECT_NE(c.find("mp = mempool_create_kmalloc_pool(1UL, 128UL);"), std::string::npos) << c;
    EXPECT_NE(c.find("e = (char *)tp_mempool_take(mp);"), std::string::npos);
    EXPECT_NE(c.find("mempool_free(e, mp);"), std::string::npos);
    EXPECT_EQ(c.find("tp_page_probe(5,"), std::string::npos);
}

namespace {

// The redzone started at round_down(object + size): an object's last bytes poisoned.
const char* kRedzoneVariant =
    "name confirm-test-redzone-down\nbase linux-7.0\nsummary the kmalloc redzone from round_down\n"
    "claims any\nrule kmalloc_redzone_start(size) = round_down(size, KASAN_GRANULE_SIZE)\n";

// The patched kernel's boot: a KASAN report in the kernel's own code, then an oops; no KTAP.
std::string boot_report_console() {
    return "Linux version 6.12.118 (x@y) #1 SMP\n"
           "kasan: KernelAddressSanitizer initialized (hw-tags, mode=sync, vmalloc=on, stacktrace=on)\n"
           "==================================================================\n"
           "BUG: KASAN: slab-out-of-bounds in shrinker_alloc+0x90/0xbc\n"
           "Write at addr f8f0000000c0c070 by task swapper/0\n"
           "Pointer tag: [f8], memory tag: [fe]\n"
           "==================================================================\n"
           "kernel BUG at kernel/params.c:806!\n"
           "Internal error: Oops - BUG: 00000000f2000800 [#1] SMP\n";
}

// A clean boot that runs the case: its read at L5 reports nothing.
std::string clean_console() {
    return "Linux version 6.12.118 (x@y) #1 SMP\n"
           "kasan: KernelAddressSanitizer initialized (hw-tags, mode=sync, vmalloc=on, stacktrace=on)\n"
           "KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: tagproof_confirm\n    1..1\n"
           "# tagproof: L4 p = kmalloc(50, GFP_KERNEL): no report\n"
           "# tagproof: L5 read(p + 49, 1): no report\n"
           "    ok 1 tp_confirm_1\nok 1 tagproof_confirm\nreboot: Power down\n";
}

ConfirmJob redzone_job(const fs::path& d, const std::string& base_console) {
    ConfirmJob job = job_with(d, "data zero", "data zero");
    write(d / "tree" / "console-base-1.log", base_console);
    write(d / "tree" / "console-patched-1.log", boot_report_console());
    static const std::string name = [] {
        const fs::path f = scratch("redzone-variant") / "redzone.variant";
        write(f, kRedzoneVariant);
        return kernel::load_variant_file(f.string()).name();
    }();
    job.patched_variant = name;
    job.base_variant = "linux-7.0";
    return job;
}

ConfirmFinding redzone_finding(const std::string& variant) {
    return {"no-false-positive [hw_tags]", "no-false-positive", Mode::hw_tags,
            "name f\nvariant " + variant + "\nmodes hw_tags\np = kmalloc(50, GFP_KERNEL)\nread(p + 49, 1)\n"
            "expect violation no-false-positive\n", {}};
}

}  // namespace

// A no-false-positive the patched kernel shows during boot, before its case
// runs (the round_down redzone faults in shrinker_alloc, 6.12.118 + patch),
// while the unpatched kernel boots clean and runs the case: confirmed, with
// the report. The control: an unpatched kernel that reports at boot too
// tells nothing, and the case not run is said so.
TEST(Confirm, AFalsePositiveThePatchedKernelShowsAtBootIsConfirmed) {
    const fs::path d = scratch("boot-report");
    ConfirmJob job = redzone_job(d, clean_console());
    const auto c = confirm_findings({redzone_finding(job.patched_variant)}, job);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].status, Confirmation::confirmed) << c[0].summary;
    EXPECT_NE(c[0].summary.find("at boot, before case tp_confirm_1 runs: BUG: KASAN: slab-out-of-bounds in "
                                "shrinker_alloc+0x90/0xbc (Write, pointer tag f8, memory tag fe)"),
              std::string::npos)
        << c[0].summary;
    EXPECT_FALSE(c[0].excerpt.empty());
    const fs::path e = scratch("boot-report-both");
    ConfirmJob both = redzone_job(e, boot_report_console());
    const auto n = confirm_findings({redzone_finding(both.patched_variant)}, both);
    EXPECT_EQ(n[0].status, Confirmation::not_run) << n[0].summary;
    EXPECT_NE(n[0].summary.find("did not run case"), std::string::npos) << n[0].summary;
}
