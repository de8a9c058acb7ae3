// kunit_agreement.hpp — the kernel's own KASAN KUnit results, case by case,
// beside the model's verdict on the project's port of that case
// (tests/scenarios/kunit/<case>.litmus, which carries the case's HW_TAGS
// expectations): agree, disagree, or not ported. The model is run, in
// hw_tags mode only (the kernel ran HW_TAGS), under the release variants
// that bracket the kernel's version (the newest linux-X.Y not after it and
// the oldest after it): a kernel between two modelled releases may have the
// one's behaviour here and the other's there, and the table says which.
// Agreement is on the case's result (the kernel passes its KUnit case, the
// model passes the port); KASAN report counts are shown beside it (a port
// may hold derived statements the KUnit case does not run).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "ktap.hpp"

namespace tagproof::oracle {

struct CaseAgreement {
    std::string name;        // the KUnit case
    std::string kernel;      // "ok", "not ok", "skip: <reason>"
    std::string kernel_reports;  // "2: slab-out-of-bounds, invalid-access"
    std::string scenario;    // the ported file, or empty
    std::vector<std::string> model;  // per variant: "PASS Always reports=2", "cannot run: ..."
    enum Kind { agree, era, disagree, not_ported, skipped } kind = not_ported;
    std::string note;        // why
};

struct Agreement {
    std::string kernel_version, kasan_line;
    std::vector<std::string> variants;
    std::vector<CaseAgreement> rows;
    std::size_t count(CaseAgreement::Kind k) const;
};

// The model's releases that bracket a kernel version: the newest linux-X.Y
// not after it and the oldest after it ("6.12.117" -> linux-6.4, linux-7.0);
// one when the version is a modelled release or after the newest. Throws
// InputError when it is before every release the model has.
std::vector<std::string> era_variants(const std::string& version);

Agreement compare_kunit(const KernelLog& log, const std::string& suite, const std::string& corpus_dir,
                        const std::vector<std::string>& variants);

// A Markdown table with the kernel version, config and variant named.
std::string agreement_markdown(const Agreement& a);

}  // namespace tagproof::oracle

namespace tagproof::oracle {

// Item 4: scenario files run in the kernel as `tagproof kernel kunit` wrote
// them; each statement's observation (report / no report, and the report's
// type) beside what the file says, which the model confirms for the era.
struct StatementAgreement {
    int line = 0;
    std::string statement, expected, observed;  // expected "" : not compared
    bool agree = true;
};

struct ScenarioAgreement {
    std::string file, name;
    std::string kernel;  // the case's KTAP result, or "not run"
    std::string model;   // the model's verdict under each bracketing release (hw_tags)
    std::vector<StatementAgreement> statements;
    std::size_t not_reached = 0;  // statements with no line in the log (the case stopped)
    std::string note;             // why a row disagrees beyond its statements
    // era: the statements differ from the file, but the model's bracketing
    // releases disagree with each other on the file (the model has no release
    // between them: it says nothing about this kernel there)
    enum Kind { agree, era, disagree, not_run } kind = not_run;
};

// `excluded`: the scenarios left out of the suite by name (read_exclusions());
// `eras`: the releases whose files the suite was written for (`kernel kunit
// --era`), else those that bracket the log's kernel version.
std::vector<ScenarioAgreement> compare_scenarios(const KernelLog& log, const std::string& suite,
                                                 const std::vector<std::string>& files,
                                                 const std::vector<std::string>& variants,
                                                 const std::map<std::string, std::string>& excluded = {},
                                                 const std::vector<std::string>& eras = {});

std::string scenario_agreement_markdown(const std::vector<ScenarioAgreement>& rows,
                                        const std::vector<std::string>& variants);

}  // namespace tagproof::oracle
