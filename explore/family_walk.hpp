// family_walk.hpp — one random walk through a vocabulary family: the events
// the breadth-first explorer enumerates (family_steps.hpp), one at a time, by
// a choice the caller draws, the random tags by a seeded sampler. RapidCheck
// (properties/family_walk_property.hpp) and libFuzzer (fuzz/family_walk_fuzz.cpp)
// drive it, so both reach every entry point the families have, at any depth
// and in any boot configuration, not only the breadth-first bound.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "family_explorer.hpp"

namespace tagproof::explore {

class FamilyWalk {
public:
    // Runs the family's setup lines; the random tags come from `seed`.
    FamilyWalk(const FamilyOptions& opt, std::uint64_t seed);
    ~FamilyWalk();
    FamilyWalk(const FamilyWalk&) = delete;
    FamilyWalk& operator=(const FamilyWalk&) = delete;

    // How many events are enabled now (never 0: every family has some).
    std::size_t enabled() const;
    // Runs enabled event number `choice % enabled()`. False when the model
    // refused it there (then nothing changed, and nothing is recorded).
    bool step(std::size_t choice);

    // The events run so far (after the setup), as scenario lines.
    const std::vector<std::string>& path() const { return path_; }
    // Each invariant broken so far, with the first message and the events up
    // to and including the one that broke it.
    struct Broken {
        std::string invariant, message;
        std::size_t events = 0;
    };
    const std::vector<Broken>& broken() const { return broken_; }
    // A scenario that replays the walk (`tagproof run`), expecting `invariant`
    // broken ("" expects nothing).
    std::string scenario(const std::string& invariant) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    FamilyOptions opt_;
    std::vector<std::string> path_;
    std::vector<Broken> broken_;
};

}  // namespace tagproof::explore
