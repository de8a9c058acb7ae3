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
