// runner.hpp — run a scenario over every tag choice and judge it.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "chooser.hpp"
#include "model.hpp"
#include "scenario.hpp"

namespace tagproof::scenario {

struct RunOptions {
    std::string variant_override;  // --variant
    // Asked instead of looking variant_override up (with it set, and named
    // by it): the corpus hands a kernel::RecordingVariant here.
    const kernel::Variant* variant = nullptr;
    std::string check_style_override;  // --check-style: the SW_TAGS check style, over the file's config
    std::size_t max_runs = 4096;   // exhaustive up to this many runs, then sample
    std::size_t samples = 400;
    bool verbose = false;          // print every report of the first run
    // After each event of a trace, the pointers it used or returned: pointer
    // tag, memory tag, page tag and data (for review reports).
    bool state_trace = false;
};

// The verdict of one (scenario, mode).
struct ModeResult {
    Mode mode = Mode::hw_tags;
    std::string variant;
    std::string observation;  // Always / Sometimes / Never
    spec::Prob ok_weight;      // weight of the runs that hold, among counted runs
    std::size_t runs = 0, pruned = 0;
    bool sampled = false;
    bool hw_tags_active = false;  // kasan_hw_tags_enabled() in this mode's build, machine and boot
    std::uint64_t min_reports = 0, max_reports = 0;
    bool pass = false;
    std::vector<std::string> failures;   // what was expected and what happened instead
    std::vector<std::string> violations; // invariant: example
    std::vector<std::string> trace;      // the first failing run, event by event
    std::set<int> zeroing_lines;         // events after which some run held a caller's memory to zeroing
    std::set<int> match_all_lines;       // events after which some run held a pointer to KASAN_TAG_KERNEL
    std::string line() const;            // the greppable verdict line
};

std::vector<ModeResult> run_scenario(const Scenario& sc, const RunOptions& opt);

// The model configuration a scenario's config and boot lines give in `mode`
// (InputError at the line that is wrong).
spec::ModelConfig model_config(const Scenario& sc, Mode mode, const kernel::Variant& v);

// The lines of the events at which a scenario's text holds its caller's
// allocation to a requirement in `mode`, met or not: `zeroing`, zeroed memory
// owed; `match_all`, a pointer that must carry KASAN_TAG_KERNEL (executable
// memory). None if it does not parse or run. What a kernel confirmation asks
// before it counts a statement's non-zero data as a zeroing violation, or
// the tag of the pointer it printed as a no-false-positive one.
struct RequiredLines {
    std::set<int> zeroing, match_all;
};
RequiredLines required_lines(const std::string& text, Mode mode);

// The violations of `invariant` ("invariant: message") a scenario's text
// shows, in `mode` only if given (every mode otherwise); none if it does not
// parse or run. What minimisers and the review's replays ask.
std::vector<std::string> violations_shown(const std::string& text, const std::string& invariant,
                                          std::optional<Mode> mode = std::nullopt, std::size_t max_runs = 256,
                                          std::size_t samples = 32);

}  // namespace tagproof::scenario
