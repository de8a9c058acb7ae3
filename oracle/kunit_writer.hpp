// kunit_writer.hpp — scenario files written as one KUnit suite for a real
// kernel, as klitmus7 writes litmus tests as kernel modules: each file a
// case that runs its HW_TAGS events in kernel C (page, slab and vmalloc
// allocations and frees, accesses through pointers, kasan_reset_tag), watches
// the console for "BUG: KASAN: " around each statement (as the kernel's own
// kasan_test_c.c does), prints what it saw as
//   # tagproof: L<line> <statement>: report|no report
// and fails the case where the kernel did not do what the file says the
// model does. The file goes in the kernel's mm/kasan/ (it uses the helpers
// mm/kasan/kasan.h gives the kernel's own KASAN tests).
//
// A file is expressible when every event it runs in hw_tags is a call the
// kernel C below can make and nothing depends on the model's own view
// (an assume on tags, a tag set in memory by hand, a boot or config line the
// one kernel does not boot with, a CPU other than the one the case runs on);
// otherwise it is left out with the reason.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace tagproof::oracle {

struct Expressible {
    bool ok = false;
    std::string why;  // when not: what the kernel C cannot say
};

// The kernel the suite is for: `eras`, the release variants it lies between
// (era_variants(); a scenario about another release is not this kernel's;
// none: any release), and the scenarios left out of it by name, each with
// why (a kernel bug the case runs into, with its evidence: kernel/kunit-exclude.txt).
struct KernelTarget {
    std::vector<std::string> eras;
    std::map<std::string, std::string> excluded;
    // A finding confirmed in a patched kernel (`review --confirm`,
    // confirm.hpp): the file's variant is the patch's, built into the kernel
    // it runs in; its expectations and boot line are the confirmation's to
    // compare and to boot with, not the C's; and after each allocation the
    // case prints whether its bytes read as zero, each allocation preceded by
    // a block of its kind that the case fills with 0xaa and frees (the stale
    // data a previous owner leaves, which the model's memory starts with).
    bool confirm = false;
};

// Reads an exclusion file: "NAME  reason" per line, '#' comments.
std::map<std::string, std::string> read_exclusions(const std::string& path);

Expressible expressible(const scenario::Scenario& sc, const KernelTarget& target = {});

struct KunitSuite {
    std::string c_source;          // mm/kasan/tagproof_kunit.c
    std::vector<std::string> cases;  // the scenario names written, in order
    std::vector<std::pair<std::string, std::string>> left_out;  // (file, why)
};

// `suite` names the KUnit suite ("tagproof"). Scenario names become C
// identifiers (a name that is not one is refused with its file).
KunitSuite write_kunit_suite(const std::vector<scenario::Scenario>& scenarios, const std::string& suite,
                             const KernelTarget& target = {});

// The KUnit case a scenario becomes: its name as a C identifier.
std::string kunit_case_name(const scenario::Scenario& sc);

// A statement as the scenario wrote it: "t0 = pgtable_alloc(kernel)" (the
// text a case prints beside each observation, and a violation's message starts with).
std::string statement_text(const scenario::Statement& st);

// The boot line a scenario gives in hw_tags ("" when none): its `boot` line
// and its hw_tags one, joined.
std::string hw_boot_line(const scenario::Scenario& sc);

// What a statement line of a written case expects in hw_tags: "report",
// "report(TYPE)", "no report", or "" (not compared: `any`, or no outcome
// outside `harness kunit`).
std::string expected_outcome(const scenario::Scenario& sc, const scenario::Statement& st);

// A `check` of a scenario the kernel can evaluate itself, as a C condition
// over the case's variables ("" when it cannot: a tag of the model's
// choosing, a term the kernel has no call for). Supported: numbers, size
// variables (skb_nr_frags, ksize), null(VAR), order(PAGE) and pagetag(PAGE),
// with == != < <= > >= and `in A..B`. The case prints
// "# tagproof: L<line> check <text>: holds|fails". A check naming a
// variable no hw_tags event of the file sets is not the kernel's.
std::string kernel_check(const scenario::Scenario& sc, const scenario::Statement& st);

}  // namespace tagproof::oracle
