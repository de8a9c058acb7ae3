// A counterexample of a BMC obligation is a shortest one (solver/prove.cpp:
// the earliest step that can fail is searched for first): the page trace BMC
// (trace_bmc.cpp) and the sampling counter's (obligations/sampling.cpp). Held independently of
// how it is found: a trace of n steps is shortest when the same obligation,
// in the same scope, is proved at depth n - 1. The negative control: the
// same check on the traces found without the search (any trace within depth
// 8, as they were before) fails, since those carry steps that do not matter.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "prove.hpp"

using namespace tagproof;

namespace {

const solver::ScopeVerdict* scope_of(const std::vector<solver::Verdict>& vs, const std::string& scope) {
    for (const auto& v : vs)
        for (const auto& s : v.scopes)
            if (s.scope == scope) return &s;
    return nullptr;
}

std::vector<solver::Verdict> prove_bmc(const std::string& variant, const std::string& obligation, unsigned depth,
                                       bool shortest) {
    solver::ProveOptions po;
    po.variant = variant;
    po.only = {obligation};
    po.depth = depth;
    po.shortest_trace = shortest;
    po.replay = false;
    return solver::prove(po);
}

// The steps of a counterexample's scenario: each allocation, free and access
// (page_address() is part of its allocation's step).
unsigned steps_of(const std::string& scenario) {
    std::istringstream in(scenario);
    unsigned n = 0;
    for (std::string l; std::getline(in, l);)
        if (l.find("= alloc_pages(") != std::string::npos || l.find("= skb_alloc(") != std::string::npos ||
            l.rfind("free_pages(", 0) == 0 ||
            l.rfind("read(", 0) == 0 || l.rfind("write(", 0) == 0)
            ++n;
    return n;
}

struct Case {
    const char* variant;
    const char* obligation;
    const char* scope;
};
// Traces the built-ins' proofs print (tagproof prove): both scopes, three
// invariants; and the sampling counter's, on the mutant that miscounts.
const Case kCases[] = {
    {"linux-6.3", "detection/trace", "raw flag space"},
    {"sample-v2", "no-false-positive/trace", "within caller contracts"},
    {"sample-v3", "page-tag-consistency/trace", "within caller contracts"},
    {"mutant-sample-off-by-one", "sampling-accounting/bmc", "all inputs"},
};

// Whether the trace `scope` shows at depth 8 is a shortest one: "" if so,
// else why not.
std::string not_shortest(const Case& c, bool shortest) {
    const auto found = prove_bmc(c.variant, c.obligation, 8, shortest);
    const auto* s = scope_of(found, c.scope);
    if (!s || s->verdict != "counterexample") return "no counterexample in " + std::string(c.scope);
    const unsigned n = steps_of(s->scenario);
    if (n == 0) return "a counterexample of no steps:\n" + s->scenario;
    const auto shorter = prove_bmc(c.variant, c.obligation, n - 1, shortest);
    const auto* t = scope_of(shorter, c.scope);
    if (!t) return "no verdict at depth " + std::to_string(n - 1);
    if (t->verdict != "proved")
        return "a trace of " + std::to_string(n) + " steps, but depth " + std::to_string(n - 1) + " has a " +
               t->verdict + ":\n" + s->scenario;
    return "";
}

}  // namespace

TEST(TraceShortest, TheTracesShownAreShortest) {
    for (const Case& c : kCases) EXPECT_EQ(not_shortest(c, true), "") << c.variant << " " << c.obligation;
}

// Which traces the solver happens to find without the search is its choice
// (some are shortest by chance): the check must fail on some of them.
TEST(TraceShortest, WithoutTheSearchTheCheckSeesLongerTraces) {
    unsigned longer = 0;
    for (const Case& c : kCases) longer += !not_shortest(c, false).empty();
    EXPECT_GE(longer, 2u) << "at most one trace found without the search was longer than a shortest one: "
                             "the check above could hardly fail";
}
