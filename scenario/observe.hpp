// observe.hpp — what a reviewer sees of one event: its reports (bug type,
// pointer and memory tag), what it returned (tag, memory tag, whether the
// memory reads zero, a PROT_MTE page's tag) and a WARN. mode-isolation
// compares this between a variant and its baseline run in lockstep: the
// scenario runner per statement, the explorer families' random walks per
// step (properties/family_walk_property.cpp), so a walk's difference is one
// `tagproof run` of its scenario reproduces.
#pragma once
#include <cstdint>
#include <set>
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

// The invariants two runs of the same events break (mode-isolation aside),
// set side by side: "" when they break the same, else "A breaks X, Y; B
// breaks no invariant". An invariant one side breaks and the other keeps is
// an outcome a reviewer sees too (the huge zero folio's stale tags under one
// variant, cleared under the other).
std::string broken_difference(const std::string& a, const std::set<std::string>& a_broken, const std::string& b,
                              const std::set<std::string>& b_broken);

}  // namespace tagproof::scenario
