// scenario.hpp — a parsed scenario file (format.md).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"

namespace tagproof::scenario {

// An argument: a name with an optional offset, a number, or a bare word.
struct Arg {
    std::string name;      // variable, or a word like GFP_KERNEL|__GFP_ZERO, ctor, mte
    std::int64_t offset = 0;
    bool is_number = false;
    std::uint64_t number = 0;
    std::string text;      // as written
};

struct Outcome {
    enum Kind { none, any, ok, report, reports, fault } kind = none;
    std::string bug_type;  // report(TYPE)
    std::uint64_t count = 0;
};

// A term of a check or an assumption.
struct Term {
    enum Kind { number, tag, memtag, mtetag, pagetag, order, zero, null, reports, faults, warnings, gfp_bits_shift, gfp_mask, var } kind = number;
    std::uint64_t value = 0;
    Arg arg;
    std::uint64_t len = 0;
    std::string text;
    std::string gfp;  // gfp_mask: the flags as written ("__GFP_NOLOCKDEP")
};

struct Condition {
    Term lhs;
    std::string op;  // == != < <= > >= in
    Term rhs, rhs_hi;  // rhs_hi for "in A..B"
    std::string text;
};

struct Statement {
    enum Kind { event, check, assume, observe } kind = event;
    int line = 0;
    std::vector<Mode> modes;  // empty: all modes
    // event
    std::string result;  // "p" in "p = kmalloc(107)"
    std::string call;
    std::vector<Arg> args;
    int cpu = 0;
    std::map<Mode, Outcome> outcome_by_mode;
    Outcome outcome;  // for every mode not in outcome_by_mode
    // check / assume
    Condition cond;
    std::string text;  // the statement as written, for messages
};

struct Expect {
    enum Kind { verdict, probability, violation, reports } kind = verdict;
    std::string value;  // Always / 13/14 / detection / 3
    std::uint64_t count = 0;  // reports N
    std::vector<Mode> modes;
    int line = 0;
};

struct Scenario {
    std::string file;
    std::string name;
    std::string source, doc;
    std::string variant = "linux-7.0";
    std::string baseline;  // mode-isolation: outcomes must equal this variant's, event by event
    int baseline_line = 0;
    std::vector<Mode> modes = {Mode::hw_tags};
    std::map<std::string, std::string> config;  // key -> value (config_keys.hpp)
    std::map<std::string, int> config_lines;    // key -> the line that set it
    int config_line = 0;                        // the last config line
    std::string boot;
    std::map<Mode, std::string> boot_by_mode;
    int boot_line = 0;
    bool kunit_harness = false;
    std::vector<Statement> statements;
    std::vector<Expect> expects;
};

// Throws InputError("file:line", ...).
Scenario parse_scenario(const std::string& text, const std::string& file);
Scenario load_scenario(const std::string& path);
// One event line ("p = kmalloc(107) cpu=1"), as a scenario file writes it:
// what engines that generate events (the explorer) hand the interpreter.
Statement parse_event_line(const std::string& text, const std::string& where);

}  // namespace tagproof::scenario
