// cross_check.hpp — a solver "proved" set against exhaustive enumeration
// of the model (issue 15, item 4). The families explorer (family_explorer.hpp)
// runs every event of an entry point's family, every random tag choice a
// branch, in the executable model; an obligation the solver proved must not
// be broken on any transition of that entry point. Where it is, the solver
// and the model disagree: a modelling gap (the solver's encoding, or the
// obligation's assumptions about reachable state), never a finding and never
// a proof.
//
// Which transitions decide an obligation is data (cross_check.cpp): the
// entry point its id names (".../alloc_pages") is the family and the event
// lines that run it. An obligation with no such entry, or whose family was
// not explored or was truncated, is "not enumerated", and says so.
#pragma once
#include <string>
#include <vector>

#include "family_explorer.hpp"

namespace tagproof::explore {

struct ProvedObligation {
    std::string id;         // "no-false-positive/alloc_pages"
    std::string invariant;  // "no-false-positive"
};

struct CrossCheck {
    std::string obligation;
    enum Kind { agrees, disagrees, not_enumerated } kind = not_enumerated;
    std::size_t transitions = 0;  // transitions of the entry point enumerated (agrees / disagrees)
    std::string detail;           // disagrees: the family, boot and violation; not_enumerated: why
};

// Each proved obligation against the families explored (any boot configs),
// fed one family result at a time so that no graph need outlive its use.
class CrossChecker {
public:
    explicit CrossChecker(std::vector<ProvedObligation> proved);
    void add(const FamilyResult& explored);
    std::vector<CrossCheck> results() const;
    // The families whose transitions decide some proved obligation (an
    // obligation decided in any family, such as access/, adds none).
    std::vector<std::string> families_needed() const;

private:
    std::vector<ProvedObligation> proved_;
    std::vector<CrossCheck> checks_;
    std::vector<bool> truncated_;
};

// The proved obligations against each family that decides one, each family in
// every configuration of the boot product at its review depth (what `tagproof
// prove` holds its proofs to; `review` runs the default boot only).
struct ProductCrossCheck {
    std::vector<CrossCheck> results;    // one per proved obligation, in order
    std::vector<std::string> families;  // the families explored
    std::size_t configs = 0, runs = 0, states = 0;
};
ProductCrossCheck cross_check_over_product(const std::string& variant, std::vector<ProvedObligation> proved);

}  // namespace tagproof::explore
