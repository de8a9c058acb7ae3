// observe.hpp — what a reviewer sees of one event: its reports (bug type,
// pointer and memory tag), what it returned (tag, memory tag, whether the
// memory reads zero, a PROT_MTE page's tag) and a WARN. mode-isolation
// compares this between a variant and its baseline run in lockstep: the
// scenario runner per statement, the explorer families' random walks per
// step (properties/family_walk_property.cpp), so a walk's difference is one
// `tagproof run` of its scenario reproduces.
#pragma once
#include <cstdint>
#include <string>

#include "interpreter.hpp"
#include "model.hpp"
#include "scenario.hpp"

namespace tagproof::scenario {

// `st` just ran on `m` (between begin_event and end_event); the model had
// `reports_before` reports and `warnings_before` warnings before it.
// "CALL: no report" / ": 1 report(s), first BUG [BUG ptr P mem M]", and so on.
std::string observe_event(const spec::Model& m, const Statement& st, const Vars& vars, std::size_t reports_before,
                          std::uint64_t warnings_before);

}  // namespace tagproof::scenario
