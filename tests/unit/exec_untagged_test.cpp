// exec_untagged_test.cpp — executable vmalloc memory is handed out through a
// match-all pointer (requirements.hpp match_all_required: the kernel does not
// tolerate a tagged PC), and a kernel that tags it breaks no-false-positive
// at the allocation (model/spec/oracle.cpp, coverage.hpp tagged_code_pointer).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "requirements.hpp"
#include "runner.hpp"
#include "scenario.hpp"
#include "scratch_dir.hpp"
#include "variant.hpp"
#include "file/variant_file.hpp"

namespace tagproof {
namespace {

namespace fs = std::filesystem;
using kernel::Caller;
using kernel::Concrete;

kernel::CEnv env_of(const kernel::Variant& v, Mode mode) {
    BuildConfig b;
    b.mode = mode;
    Machine m;
    BootParams p = parse_boot_params("", v.boot_syntax());
    return v.make_env(b, m, p, derive_runtime(b, m, p));
}

std::string corpus_file() {
    std::ifstream f(std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/eras/vmalloc_exec_untagged.litmus");
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// The run of the corpus file under `variant` in `mode` (a file that ran in
// no such mode fails the test: an empty list of violations must mean a run).
scenario::ModeResult run_in(const std::string& variant, Mode mode) {
    const scenario::Scenario sc = scenario::parse_scenario(corpus_file(), "vmalloc_exec_untagged.litmus");
    scenario::RunOptions opt;
    opt.variant_override = variant;
    for (const auto& r : scenario::run_scenario(sc, opt))
        if (r.mode == mode) {
            EXPECT_GT(r.runs, 0u) << variant << " " << mode_name(mode);
            return r;
        }
    ADD_FAILURE() << "no run in " << mode_name(mode) << " under " << variant;
    scenario::ModeResult none;
    none.violations = {"not run"};
    return none;
}
std::vector<std::string> violations(const std::string& variant, Mode mode) { return run_in(variant, mode).violations; }

// The caller's need, whatever the variant: an executable mapping must come
// with a match-all pointer in the tag-based modes; a PAGE_KERNEL one need not.
TEST(ExecUntagged, TheRequirementIsTheCallersInEveryTagBasedMode) {
    const auto& v = kernel::find_variant("linux-7.0");
    kernel::CallerInput<Concrete> in;
    for (Mode m : {Mode::hw_tags, Mode::sw_tags}) {
        in.prot_kernel = false;
        EXPECT_TRUE(kernel::required<Concrete>(Caller::vmalloc, env_of(v, m), in).match_all_required) << mode_name(m);
        in.prot_kernel = true;
        EXPECT_FALSE(kernel::required<Concrete>(Caller::vmalloc, env_of(v, m), in).match_all_required) << mode_name(m);
    }
    in.prot_kernel = false;  // Generic has no pointer tags to require anything of
    EXPECT_FALSE(kernel::required<Concrete>(Caller::vmalloc, env_of(v, Mode::generic), in).match_all_required);
    // the other callers owe nothing of the kind
    EXPECT_FALSE(kernel::required<Concrete>(Caller::alloc_pages, env_of(v, Mode::hw_tags), in).match_all_required);
}

// Every release keeps executable memory untagged: the corpus file holds.
TEST(ExecUntagged, EveryReleaseHandsItOutUntagged) {
    for (const char* name : {"linux-6.1", "linux-6.3", "linux-6.4", "linux-7.0"})
        for (Mode m : {Mode::hw_tags, Mode::sw_tags}) {
            const scenario::ModeResult r = run_in(name, m);
            EXPECT_TRUE(r.violations.empty() && r.pass) << name << " " << mode_name(m) << ": " << r.line();
        }
}

// The negative control: __kasan_unpoison_vmalloc without its "don't tag
// executable memory" return (the rule read from hw_tags.c) tags the area, and
// the oracle says so at the allocation, naming the PC.
TEST(ExecUntagged, AKernelThatTagsItBreaksNoFalsePositive) {
    const fs::path f = fs::path(test::scratch_dir("exec-untagged")) / "tag_exec.variant";
    fs::create_directories(f.parent_path());
    std::ofstream(f) << "name test-tag-exec\nbase linux-7.0\nsummary tag executable vmalloc memory too\n"
                        "claims none\nrule unpoison_vmalloc_tags(vm_alloc, prot_normal) = vm_alloc\n";
    const std::string name = kernel::load_variant_file(f.string()).name();
    const auto hw = violations(name, Mode::hw_tags);
    ASSERT_FALSE(hw.empty());
    EXPECT_NE(hw.front().find("no-false-positive"), std::string::npos) << hw.front();
    EXPECT_NE(hw.front().find("executable memory handed out through a tagged pointer"), std::string::npos) << hw.front();
    // SW_TAGS decides in shadow.c, which the rule is not: untagged still
    EXPECT_TRUE(violations(name, Mode::sw_tags).empty());
}

}  // namespace
}  // namespace tagproof
