// The recorded proof verdicts cover every invariant both ways: at least one
// variant where it is proved and one (variant or mutant) where the solver
// must find a counterexample. A property that can never fail is a defect.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "obligation.hpp"

TEST(ProofTable, EveryInvariantHasAProofAndACounterexample) {
    std::map<std::string, std::string> invariant_of;
    for (const auto& ob : tagproof::solver::all_obligations())
        if (!ob.informational) invariant_of[ob.id] = ob.invariant;
    std::ifstream f(std::string(TAGPROOF_SOURCE_DIR) + "/tests/proof/expected.tsv");
    ASSERT_TRUE(f) << "tests/proof/expected.tsv";
    std::map<std::string, std::set<std::string>> seen;
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> c;
        std::stringstream ss(line);
        std::string col;
        while (std::getline(ss, col, '\t')) c.push_back(col);
        ASSERT_EQ(c.size(), 4u) << line;
        if (invariant_of.count(c[1])) seen[invariant_of[c[1]]].insert(c[3]);
    }
    for (const char* inv : {"match-all-never-faults", "mismatch-faults", "no-false-positive", "detection", "zeroing",
                            "page-tag-consistency", "tag-range", "sampling-accounting", "mode-isolation",
                            "gfp-encoding"}) {
        EXPECT_TRUE(seen[inv].count("proved")) << inv << " is never proved";
        EXPECT_TRUE(seen[inv].count("counterexample")) << inv << " never has a counterexample";
    }
}
