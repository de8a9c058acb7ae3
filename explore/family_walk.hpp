// family_walk.hpp — one random walk through a vocabulary family: the events
// the breadth-first explorer enumerates (family_steps.hpp), one at a time, by
// a choice the caller draws, the random tags by a seeded sampler. RapidCheck
// (properties/family_walk_property.hpp) and libFuzzer (fuzz/family_walk_fuzz.cpp)
// drive it, so both reach every entry point the families have, at any depth
// and in any boot configuration, not only the breadth-first bound.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "family_explorer.hpp"

namespace tagproof::explore {

// The starts of walks, kept by a caller that makes many (a RapidCheck check):
// per family, boot, mode and variant, the model after the family's setup
// lines, which each walk copies instead of making again. Kept only where
// making it drew no random choice, so a copy is exactly the state the walk's
// own sampler would have made (family_walk.cpp). Not thread-safe: one per
// thread, outliving the walks made with it.
class WalkStarts {
public:
    WalkStarts();
    ~WalkStarts();
    WalkStarts(const WalkStarts&) = delete;
    WalkStarts& operator=(const WalkStarts&) = delete;
    std::size_t shared() const;  // starts kept (for tests)

private:
    friend class FamilyWalk;
    struct Start;
    std::map<std::string, std::unique_ptr<Start>> starts_;
};

class FamilyWalk {
public:
    // Runs the family's setup lines; the random tags come from `seed`. With
    // `starts`, the setup's result is copied from there when it can be.
    FamilyWalk(const FamilyOptions& opt, std::uint64_t seed, WalkStarts* starts = nullptr);
    ~FamilyWalk();
    FamilyWalk(const FamilyWalk&) = delete;
    FamilyWalk& operator=(const FamilyWalk&) = delete;

    // How many events are enabled now (never 0: every family has some).
    std::size_t enabled() const;
    // Runs enabled event number `choice % enabled()`. False when the model
    // refused it there (then nothing changed, and nothing is recorded).
    bool step(std::size_t choice);
    // Runs the event of `line` (and its `then` line) if it is enabled here:
    // a baseline replaying another walk's events. False when it is not, or
    // the model refused it.
    bool step_lines(const std::string& line, const std::string& then);

    // The events taken, (line, then) each: what step_lines replays.
    const std::vector<std::pair<std::string, std::string>>& taken() const { return taken_; }
    // What each event taken showed (scenario/observe.hpp), one entry per event.
    const std::vector<std::string>& observed() const { return observed_; }
    // Whether HW_TAGS is active in this walk's boot (mode-isolation holds
    // a variant to its baseline's outcomes only where it is not).
    bool hw_tags_active() const;

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
    // broken ("" expects nothing); with `baseline`, run against it (a
    // mode-isolation difference at event `upto_events`, counted from 1).
    std::string scenario(const std::string& invariant, const std::string& baseline = "",
                         std::size_t upto_events = 0) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    FamilyOptions opt_;
    std::vector<std::string> path_;
    std::vector<Broken> broken_;
    std::vector<std::pair<std::string, std::string>> taken_;
    std::vector<std::string> observed_;
    bool take(std::size_t index);  // runs impl_'s enabled step number `index`
};

}  // namespace tagproof::explore
