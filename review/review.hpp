// review.hpp — the data of a patch review (issue 6): for one variant against
// its baseline, a verdict per (property, mode) from four sources — the
// scenario corpus, the solver's obligations, the explicit-state explorer, a
// RapidCheck burst — and for every counterexample a finding with a
// replayable scenario and the trace that shows it. Formatting is
// report_*.cpp's job.
#pragma once
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "config.hpp"

namespace tagproof::review {

// The invariants of DESIGN §4, in the order a review lists them.
const std::vector<std::string>& properties();
std::string property_statement(const std::string& property);  // one sentence

struct SourceVerdict {
    std::string source;  // corpus | solver | explorer | rapidcheck
    enum Status { holds, counterexample, not_covered, unknown } status = not_covered;
    std::string detail;  // "187 runs", "proved (12 obligations)", the first counterexample
    // Every counterexample of this source in the cell shows under the baseline
    // too: the source found what the baseline has, not what the patch brings
    // (a recorded solver finding of linux-7.0 in a cell a mutant breaks).
    bool in_baseline = false;
};
const char* status_name(SourceVerdict::Status s);

struct Finding;
// "tagproof run [--variant-file F] FILE": the command that replays a finding
// (a variant file's variant needs its file read again).
std::string reproduce_command(const Finding& f, const std::string& file);

struct Finding {
    std::string variant, baseline, property, source;
    Mode mode = Mode::hw_tags;
    bool recorded = false;          // the variant is recorded to have this defect
    bool in_baseline = false;       // the same scenario shows the same violation under the baseline
    bool baseline_asked = false;    // in_baseline is decided (the replays are not repeated)
    std::string config;             // build and boot, as the scenario sets them
    std::string scenario;           // a scenario file's text that reproduces it
    std::string scenario_file;      // where the review wrote it ("" until written)
    std::string origin;             // the corpus file, obligation id, ...
    std::vector<std::string> trace; // events with their reports and state, from the model
    std::string expected, happened; // what should have happened, what did
    std::vector<std::string> functions;  // kernel functions involved
    // the other ways the series breaks the same property in the same mode (a
    // violation of another kind, violation_kind(), that the baseline does not
    // show): its headline and who found it, the shortest of each kind
    std::vector<std::string> also;
    // the variant file's rules its replay evaluated (kernel/file/rule_use.hpp):
    // a hunk whose rule the trace ran is the hunk the finding is about
    std::set<std::string> rules_run;
    // `review --confirm` (oracle/confirm.hpp): what the patched and the
    // unpatched kernel did with this trace, and the patched kernel's console
    // lines for it; "" when not asked.
    std::string kernel;
    std::vector<std::string> kernel_excerpt;
    bool kernel_contradicts = false;  // the kernel did not do what the model predicted: a model defect
};

struct PropertyVerdict {
    std::string property;
    Mode mode = Mode::hw_tags;
    std::vector<SourceVerdict> sources;
    bool violated = false;
    bool recorded = false;  // the variant is recorded to violate this property (in some mode)
    bool in_baseline = false;  // its finding shows under the baseline too: not the patch's doing
    // news: a counterexample neither recorded for this variant nor shown by its baseline
    bool unrecorded() const { return violated && !recorded && !in_baseline; }
};

struct VariantReview {
    std::string variant, baseline, summary;
    std::vector<std::string> recorded_defects;
    std::vector<PropertyVerdict> verdicts;  // properties() x modes
    std::vector<Finding> findings;          // one per violated (property, mode): the shortest trace
    std::vector<Finding> candidates;        // every source's, from which finalize() picks the findings
    std::vector<std::string> notes;         // corpus runs, solver obligations, explorer states ...
    std::vector<std::string> claims;        // what the variant claims (claims.hpp), a line each
    std::vector<std::string> changes;       // differences from the baseline its claims cover
    std::vector<std::string> gaps;          // solver results the model does not reproduce
    bool unknown = false;                   // some source could not decide, or a modelling gap
    bool as_recorded() const;
};

struct ReviewOptions {
    std::string baseline;                     // "" = the variant's own
    std::vector<Mode> modes = {Mode::hw_tags, Mode::sw_tags, Mode::generic};
    std::vector<std::string> corpus_dirs;     // scenario directories
    std::string out_dir;                      // --out: RapidCheck's failure scenarios go under it
    unsigned explore_depth = 6;
    int rapidcheck_cases = 100;
    bool solver = true, explorer = true, rapidcheck = true, corpus = true;
    bool families = true;                     // the explorer's vocabulary families too (explore/families.hpp)
    // Called as each engine starts on a variant (progress lines on stderr).
    std::function<void(const std::string& variant, const std::string& engine)> progress;
};

// Corpus, solver and explorer (thread-safe: one variant a thread).
VariantReview review_variant(const std::string& variant, const ReviewOptions& opt);
// The RapidCheck burst (main thread only: RapidCheck's configuration is global).
void add_rapidcheck(VariantReview& r, const ReviewOptions& opt);
// A scenario's text for a replay in one mode: its expectations, checks and
// stated outcomes dropped (the violations it shows are the verdict); config
// and boot lines appended to *config when given.
std::string replay_text(const std::string& text, Mode m, std::string* config = nullptr);
// The cells ("zeroing [hw_tags]") `baseline` violates and `series` checks
// (some engine covers the cell) without violating.
std::vector<std::string> fixed_by(const VariantReview& baseline, const VariantReview& series);
// Replays every finding's scenario with the state trace and fills trace,
// happened and functions.
void explain_findings(VariantReview& r);

}  // namespace tagproof::review
