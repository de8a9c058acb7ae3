// confirm_tagged_code_test.cpp — `review --confirm` of a finding that
// executable memory is handed out through a tagged pointer (no-false-positive,
// requirements.hpp match_all_required), without a kernel: the confirming case
// maps an executable area as module and BPF JIT memory is mapped and prints
// the tag of the pointer it got; that line is read back onto its statement;
// the pointer's tag, not a KASAN report, is what each kernel is judged on.
// The real kernel run is the kernel preset's (tests/kernel_tests.cmake).
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

fs::path scratch(const std::string& name) { return test::scratch_dir("confirm-exec-" + name); }

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

// A reviewer's patch: __kasan_unpoison_vmalloc()'s "Don't tag executable
// memory" return dropped (the rule as the tree reader reads it afterwards).
const std::string& tagging_variant() {
    static const std::string name = [] {
        const fs::path f = scratch("variant") / "tag-exec.variant";
        write(f, "name confirm-test-tag-exec\nbase linux-7.0\nsummary tag executable vmalloc memory too\n"
                 "claims none\nrule unpoison_vmalloc_tags(vm_alloc, prot_normal) = vm_alloc\n");
        return kernel::load_variant_file(f.string()).name();
    }();
    return name;
}

std::string finding_text() {
    return "name f\nvariant " + tagging_variant() + "\nmodes hw_tags\nx = vmalloc_exec(100, GFP_KERNEL)\n"
           "expect violation no-false-positive\n";
}

ConfirmFinding tagged_code() {
    return {"no-false-positive [hw_tags]", "no-false-positive", Mode::hw_tags, finding_text(), {}};
}

// A console log of the confirmation suite: the case's allocation at L4 and
// what it printed after it ("" prints no tag line).
std::string console(const std::string& tag_line) {
    return "Linux version 6.12.118 (x@y) #1 SMP\n"
           "kasan: KernelAddressSanitizer initialized (hw-tags, mode=sync, vmalloc=on, stacktrace=on)\n"
           "KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: tagproof_confirm\n    1..1\n"
           "# tagproof: L4 x = vmalloc_exec(100, GFP_KERNEL): no report\n"
           "# tagproof: L4 x = vmalloc_exec(100, GFP_KERNEL): data not zero at offset 0\n" +
           (tag_line.empty() ? "" : "# tagproof: L4 x = vmalloc_exec(100, GFP_KERNEL): " + tag_line + "\n") +
           "    ok 1 tp_confirm_1\nok 1 tagproof_confirm\nreboot: Power down\n";
}

// The stand-in for scripts/kernel-confirm.sh: copies the canned logs.
ConfirmJob job_with(const fs::path& dir, const std::string& base, const std::string& patched) {
    write(dir / "tree" / "console-base-1.log", console(base));
    write(dir / "tree" / "console-patched-1.log", console(patched));
    write(dir / "kernel-confirm.sh", "set -e\ncp \"$1\"/console-*.log \"$3\"/\n");
    ConfirmJob job;
    job.tree = (dir / "tree").string();
    job.version = "6.12.118";
    job.patched_variant = tagging_variant();
    job.base_variant = "linux-7.0";
    job.after["mm/kasan/hw_tags.c"] = "/* the series' hw_tags.c */\n";
    job.before["mm/kasan/hw_tags.c"] = "/* the tree's hw_tags.c */\n";
    job.work = (dir / "work").string();
    job.dir = (dir / "job").string();
    job.script = (dir / "kernel-confirm.sh").string();
    return job;
}

}  // namespace

// The executable area is mapped with PAGE_KERNEL_EXEC through
// __vmalloc_node_range(), as the model's vmalloc_exec() is, and its pointer's
// tag printed; a PAGE_KERNEL vmalloc() gets the same tag line (any pointer an
// allocation hands out has one), never the executable mapping.
TEST(ConfirmTaggedCode, TheCaseMapsExecutableMemoryAndPrintsItsPointersTag) {
    const auto sc = scenario::parse_scenario(finding_text(), "f.litmus");
    KernelTarget t;
    t.confirm = true;
    ASSERT_TRUE(expressible(sc, t).ok) << expressible(sc, t).why;
    const std::string c = write_kunit_suite({sc}, "tagproof_confirm", t).c_source;
    const auto alloc = c.find("x = __vmalloc_node_range(100UL, 1, VMALLOC_START, VMALLOC_END, GFP_KERNEL, "
                              "PAGE_KERNEL_EXEC, 0, NUMA_NO_NODE, __builtin_return_address(0));");
    const auto tag = c.find("tp_pointer_tag(4, \"x = vmalloc_exec(100, GFP_KERNEL)\", x);");
    ASSERT_NE(alloc, std::string::npos) << c;
    ASSERT_NE(tag, std::string::npos) << c;
    EXPECT_LT(alloc, tag);
    EXPECT_NE(c.find("tp_dirty_vmalloc(100UL, false);"), std::string::npos);

    const auto plain = scenario::parse_scenario("name g\nmodes hw_tags\nx = vmalloc(100)\n", "g.litmus");
    const std::string p = write_kunit_suite({plain}, "tagproof_confirm", t).c_source;
    EXPECT_NE(p.find("x = vmalloc(100UL);"), std::string::npos) << p;
    EXPECT_NE(p.find("tp_pointer_tag(3, \"x = vmalloc(100)\", x);"), std::string::npos);
    EXPECT_EQ(p.find("PAGE_KERNEL_EXEC, 0"), std::string::npos);
}

TEST(ConfirmTaggedCode, APointerTagLineIsReadOntoItsStatement) {
    std::istringstream in(console("pointer tag f2"));
    const KernelLog log = read_kernel_log(in, "log");
    const auto cases = suite_cases(log, "tagproof_confirm");
    ASSERT_EQ(cases.size(), 1u);
    ASSERT_EQ(cases[0]->statements.size(), 1u);
    EXPECT_EQ(cases[0]->statements[0].pointer_tag, 0xf2);
    EXPECT_EQ(cases[0]->statements[0].data, StatementResult::Data::not_zero);  // its other lines still read
    std::istringstream none(console(""));
    EXPECT_EQ(read_kernel_log(none, "log").cases[0].statements[0].pointer_tag, -1);
}

// The model asks the executable area's pointer to be match-all (the tree's
// kernel, no report at the allocation either way): a tagged one in the
// patched kernel and KASAN_TAG_KERNEL in the unpatched is the confirmation.
TEST(ConfirmTaggedCode, ATaggedPointerWithThePatchAndMatchAllWithoutIsConfirmed) {
    const auto c = confirm_findings({tagged_code()}, job_with(scratch("ok"), "pointer tag ff",
                                                             "pointer tag f2"));
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].status, Confirmation::confirmed) << c[0].summary;
    EXPECT_NE(c[0].summary.find("L4 pointer tag f2 (executable memory through a tagged pointer), as the model "
                                "predicted; unpatched: pointer tag ff (match-all, as executable memory must be), as "
                                "expected"),
              std::string::npos)
        << c[0].summary;
}

// The controls: a patched kernel that still hands out KASAN_TAG_KERNEL
// contradicts the model (no report at the allocation is no evidence of a
// tag); a kernel that printed no tag has not shown the property at all.
TEST(ConfirmTaggedCode, AMatchAllPointerWithThePatchContradictsTheModel) {
    const auto c = confirm_findings({tagged_code()}, job_with(scratch("untagged"),
                                                             "pointer tag ff", "pointer tag ff"));
    EXPECT_EQ(c[0].status, Confirmation::contradicted) << c[0].summary;
    EXPECT_NE(c[0].summary.find("with the patch L4 pointer tag ff (match-all, as executable memory must be), the "
                                "model predicted the violation"),
              std::string::npos)
        << c[0].summary;
    EXPECT_NE(c[0].summary.find("a model defect"), std::string::npos);

    const auto n = confirm_findings({tagged_code()}, job_with(scratch("no-tag"), "", ""));
    EXPECT_EQ(n[0].status, Confirmation::not_run) << n[0].summary;
    EXPECT_NE(n[0].summary.find("the tag of the pointer it returned not printed"), std::string::npos) << n[0].summary;
}

namespace {
// A patched kernel that stops at boot with an Oops whose pc is in FN, before
// the suite: earlycon's lines, the crash, its call trace; the unpatched kernel
// runs the case.
std::string crashed_console(const std::string& fn) {
    return "Booting Linux on physical CPU 0x0000000000 [0x000f0510]\n"
           "Linux version 6.12.118 (x@y) #1 SMP\n"
           "Unable to handle kernel paging request at virtual address f5ff800080720000\n"
           "Internal error: Oops: 0000000096000047 [#1] SMP\n"
           "pc : " + fn + "+0x224/0x31c\nlr : __get_vm_area_node+0xf8/0x1a8\nCall trace:\n"
           " " + fn + "+0x224/0x31c\n __get_vm_area_node+0xf8/0x1a8\n generic_ioremap_prot+0xa4/0x120\n"
           "Code: aa0003e1 b5000168 eb04053f 54000123 (d9201421)\n"
           "Kernel panic - not syncing: Oops: Fatal exception\n";
}

// The merged-returns patch as a variant file: its own trace maps executable
// memory (which the case can run), the explorer's trace a vmap() (which it
// cannot yet), whose unpoison the model says faults in __kasan_unpoison_vmalloc.
const std::string& merged_variant() {
    static const std::string name =
        kernel::load_variant_file(std::string(TAGPROOF_SOURCE_DIR) + "/tests/variants/unpoison_vmalloc_merge_returns.variant")
            .name();
    return name;
}

ConfirmFinding vmap_fault() {
    ConfirmFinding f{"no-false-positive [hw_tags]", "no-false-positive", Mode::hw_tags,
                     "name f\nvariant " + merged_variant() + "\nmodes hw_tags\nx = vmalloc_exec(100, GFP_KERNEL)\n"
                     "expect violation no-false-positive\n",
                     {}};
    f.alternatives.push_back({"the explorer's trace from the vmalloc family",
                              "name g\nvariant " + merged_variant() + "\nmodes hw_tags\npg = alloc_pages(0, GFP_KERNEL)\n"
                              "m = vmap(pg)\nexpect violation no-false-positive\n"});
    return f;
}

ConfirmJob crash_job(const fs::path& dir, const std::string& fn) {
    ConfirmJob job = job_with(dir, "pointer tag ff", "pointer tag ff");
    write(dir / "tree" / "console-patched-1.log", crashed_console(fn));
    job.patched_variant = merged_variant();
    job.base_variant = "linux-7.0";
    return job;
}
}  // namespace

TEST(ConfirmTaggedCode, ACrashLineCarriesItsPcAndCallers) {
    std::istringstream in(crashed_console("__kasan_unpoison_vmalloc"));
    const KernelLog log = read_kernel_log(in, "log");
    ASSERT_FALSE(log.crashes.empty());
    EXPECT_NE(log.crashes.front().find("Unable to handle kernel paging request at virtual address f5ff800080720000 "
                                       "(pc __kasan_unpoison_vmalloc+0x224/0x31c; __kasan_unpoison_vmalloc <- "
                                       "__get_vm_area_node <- generic_ioremap_prot)"),
              std::string::npos)
        << log.crashes.front();
}

// The kernel stops at boot where the model says a correct call faults (in
// __kasan_unpoison_vmalloc, for an area tagged before it is mapped): confirmed
// at boot, the model's violation quoted. The control: a crash in a function
// the model names nowhere is not confirmed, and says the model did not predict it.
TEST(ConfirmTaggedCode, ACrashAtBootInTheFunctionTheModelSaysFaultsIsConfirmed) {
    const auto c = confirm_findings({vmap_fault()}, crash_job(scratch("boot-crash"), "__kasan_unpoison_vmalloc"));
    EXPECT_EQ(c[0].status, Confirmation::confirmed) << c[0].summary;
    EXPECT_NE(c[0].summary.find("at boot, before case tp_confirm_1 runs: "), std::string::npos) << c[0].summary;
    EXPECT_NE(c[0].summary.find("the fault the model predicts in that function: no-false-positive: m = vmap(pg): "),
              std::string::npos)
        << c[0].summary;
    EXPECT_NE(c[0].summary.find("(the explorer's trace from the vmalloc family)"), std::string::npos) << c[0].summary;

    const auto other = confirm_findings({vmap_fault()}, crash_job(scratch("boot-crash-other"), "gic_of_init"));
    EXPECT_EQ(other[0].status, Confirmation::not_run) << other[0].summary;
    EXPECT_NE(other[0].summary.find("the series stops the boot, which the model did not predict"), std::string::npos)
        << other[0].summary;
}

// A console the kernel left empty (it stopped before printing anything) is a
// crash to tell, not bad input.
TEST(ConfirmTaggedCode, AnEmptyConsoleIsAKernelThatPrintedNothing) {
    ConfirmJob job = crash_job(scratch("boot-empty"), "x");
    write(fs::path(job.tree) / "console-patched-1.log", "");
    const auto c = confirm_findings({vmap_fault()}, job);
    EXPECT_EQ(c[0].status, Confirmation::not_run) << c[0].summary;
    EXPECT_NE(c[0].summary.find("the kernel printed nothing on its console"), std::string::npos) << c[0].summary;
}
