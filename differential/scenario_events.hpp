// scenario_events.hpp — a scenario file's HW_TAGS events in the shared event
// vocabulary (event.hpp): what turns the scenario corpus into seeds for the
// event fuzz targets (`tagproof seeds`), so a campaign starts from the
// litmus tests' traces instead of from a handful of hand-made inputs.
//
// The vocabulary is smaller than the scenario language: sizes come from its
// lists, handles are picks, and mempools, krealloc, user pages, kmem caches,
// set_tag and accesses through an instruction are not in it. Such events are
// left out and listed, never silently dropped. Sizes not in the lists become
// the next larger one (an offset keeps its place relative to the end), and
// an access of a length the vocabulary lacks the largest one that fits,
// ending where it ends; both are listed too.
#pragma once
#include <string>
#include <vector>

#include "event.hpp"
#include "scenario.hpp"

namespace tagproof::differential {

struct ScenarioEvents {
    std::string not_encoded;  // why the scenario has no encoding at all ("" when it has one)
    const kernel::Variant* variant = nullptr;
    DiffConfig config;
    std::vector<Event> events;
    std::vector<int> event_lines;      // the scenario line of each event
    std::vector<std::string> left_out;      // "file:line: why", for statements and boot words not encoded
    std::vector<std::string> approximated;  // sizes and lengths the vocabulary rounds
};

// A scenario with no HW_TAGS run, or a variant the fuzz targets do not list,
// has `not_encoded` set. Throws InputError, file:line, for bad input (a GFP
// string its era does not define).
ScenarioEvents scenario_events(const scenario::Scenario& sc);

}  // namespace tagproof::differential
