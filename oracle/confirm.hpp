// confirm.hpp — a review's findings confirmed in the kernel (issue 32): each
// finding's counterexample written as a KUnit case (kunit_writer.hpp, in
// confirm mode: the case also reads each allocation's data, after a previous
// owner's stale bytes), built into the tree's kernel with the series' files as
// they were before it and as it leaves them (scripts/kernel-confirm.sh: a
// copy of the tree, built in place, incrementally after the first time),
// booted under QEMU MTE with each finding's boot line, and the kernel's
// observation at the statement the finding names set beside the model's
// prediction for each kernel:
//
//   zeroing             the allocation's data: not zero / zero
//   no-false-positive   the access: a KASAN report / none; where the model
//                       requires a match-all pointer (executable memory), also
//                       the tag the allocation returned: not ff / ff
//   page-tag-consistency
//   detection           the bad access: no report / a report
//
// The model predicts, by running the finding's scenario under the patch's
// variant and under the tree's (the baseline), whether each kernel shows the
// violation. "confirmed": both kernels did as predicted. "contradicted": one
// did not: the model is wrong there (a model defect, never a finding).
// "not run": what keeps the finding out of the kernel (another KASAN mode
// than the oracle's HW_TAGS, an event the kernel C cannot make, a property
// over builds or boots, a kernel that did not build or boot).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "config.hpp"

namespace tagproof::oracle {

struct ConfirmFinding {
    std::string label;     // "zeroing [hw_tags]"
    std::string property;  // zeroing
    Mode mode = Mode::hw_tags;
    std::string scenario_text;  // the finding's scenario; its `variant` line names the patch's variant
    // Other engines' traces of the same finding, (where it comes from, its
    // scenario text), tried in order when the finding's own cannot run in
    // one kernel (a mode-isolation scenario, a call not written as kernel C
    // yet, ...). One the model shows under the unpatched kernel's variant too
    // is not this finding's and is passed over.
    std::vector<std::pair<std::string, std::string>> alternatives;
};

struct ConfirmJob {
    std::string tree;     // the kernel source tree the review read (only read)
    std::string version;  // its kernel version, "6.12.118"
    std::string patched_variant, base_variant;  // the model's variants of the two kernels
    std::map<std::string, std::string> before, after;  // the series' files (tree paths): text before, after
    std::string work;     // the kernels built from the tree (kernel_work_dir())
    std::string dir;      // the job's files and console logs
    std::string script;   // scripts/kernel-confirm.sh
    std::function<void(const std::string&)> progress;
    // `tagproof run FILE --confirm`: no series, the tree's kernel as it is
    // (before and after empty, both variants the file's); each property the
    // file expects violated is compared whether the model shows it or not.
    bool no_patch = false;
};

struct Confirmation {
    enum Status { confirmed, contradicted, not_run } status = not_run;
    std::string summary;               // one sentence: what each kernel did, against the model
    std::vector<std::string> excerpt;  // the patched kernel's console lines for the case
};
const char* status_name(Confirmation::Status s);

// The properties one kernel run can show at a statement (the others compare
// builds or boots).
const std::vector<std::string>& properties_one_run_shows();

// Where the kernels of a tree are built: ${TAGPROOF_KERNELS:-$XDG_CACHE_HOME
// or ~/.cache/tagproof/kernels}/<the tree directory's name>.
std::string kernel_work_dir(const std::string& tree);

// A series with no finding, run in the kernel: the scenario files (the
// corpus) that the kernel C can say for this kernel's releases, each a case,
// on the unpatched and the patched kernel. "confirmed" (clean) when every
// case that ran on both has the same result and the same report or none at
// each statement; "contradicted" names the cases that differ (a tag
// collision of a case that reads its neighbour differs in about 1 boot in
// 15: docs/kernel-oracle.md; the summary says so when only such cases differ).
Confirmation confirm_clean(const std::vector<std::string>& scenario_files, const std::map<std::string, std::string>& excluded,
                           const ConfirmJob& job);

// One Confirmation per finding, in order. Throws nothing for a kernel that
// does not build or boot: every finding is then "not run" with why.
std::vector<Confirmation> confirm_findings(const std::vector<ConfirmFinding>& findings, const ConfirmJob& job);

}  // namespace tagproof::oracle
