// chooser.hpp — nondeterministic choices (random tags, sampling phases).
//
// The model never calls a PRNG: whenever the kernel would draw a random tag it
// asks the Chooser for an index into a list of weighted options. An
// Enumerator walks every combination depth-first (a run is one path), a
// Sampler draws paths at random from a seed. Weights are exact fractions
// while they fit, so a verdict can say "in 13/14 of tag choices".
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tagproof::spec {

// An exact probability p/q (q > 0), or an approximation once it overflows.
struct Prob {
    std::uint64_t num = 1, den = 1;
    bool exact = true;
    double approx = 1.0;
    Prob times(std::uint64_t n, std::uint64_t d) const;
    Prob plus(const Prob& o) const;
    std::string str() const;  // "13/14" or "~0.9286"
};

struct Option {
    std::uint64_t num = 1, den = 1;  // its weight as a fraction
};

class Chooser {
public:
    virtual ~Chooser() = default;
    // Returns an index into options (options.size() >= 1).
    virtual std::size_t choose(const std::vector<Option>& options, const char* what) = 0;
};

// Always the first option: one deterministic run (used by replay and fuzzers).
class FirstChooser final : public Chooser {
public:
    std::size_t choose(const std::vector<Option>&, const char*) override { return 0; }
};

// Choices from a list of picks (index modulo the options), cycling; no picks:
// always the first option. RapidCheck and the fuzzers generate the picks and
// shrink them toward 0, the fresh tag, so a shrunk case keeps its tags when
// events go.
class PickChooser final : public Chooser {
public:
    explicit PickChooser(std::vector<std::uint8_t> picks) : picks_(std::move(picks)) {}
    std::size_t choose(const std::vector<Option>& options, const char*) override {
        if (picks_.empty()) return 0;
        return picks_[i_++ % picks_.size()] % options.size();
    }

private:
    std::vector<std::uint8_t> picks_;
    std::size_t i_ = 0;
};

// Depth-first enumeration of every path. Use: do { run(e); } while (e.next());
class Enumerator final : public Chooser {
public:
    std::size_t choose(const std::vector<Option>& options, const char* what) override;
    bool next();              // advance to the next path; false when all were run
    Prob weight() const;      // probability of the path just run
    std::size_t depth() const { return trail_.size(); }
    std::string describe() const;  // "tag#0=2/14 ..." for a report
    // The path just run: (index, number of options) per choice.
    std::vector<std::pair<std::size_t, std::size_t>> path() const;

private:
    struct Step {
        std::size_t index, count;
        Option weight;
        std::string what;
    };
    std::vector<Step> trail_;
    std::size_t pos_ = 0;
};

// Replays a recorded path; notes when the model asks for something else.
class Replayer final : public Chooser {
public:
    explicit Replayer(std::vector<std::pair<std::size_t, std::size_t>> path) : path_(std::move(path)) {}
    std::size_t choose(const std::vector<Option>& options, const char* what) override;
    bool diverged() const { return diverged_ || pos_ != path_.size(); }

private:
    std::vector<std::pair<std::size_t, std::size_t>> path_;
    std::size_t pos_ = 0;
    bool diverged_ = false;
};

// Random paths from a seed (for scenarios too big to enumerate).
class Sampler final : public Chooser {
public:
    explicit Sampler(std::uint64_t seed) : rng_(seed) {}
    std::size_t choose(const std::vector<Option>& options, const char* what) override;
    const std::vector<std::pair<std::size_t, std::size_t>>& path() const { return path_; }

private:
    std::mt19937_64 rng_;
    std::vector<std::pair<std::size_t, std::size_t>> path_;
};

}  // namespace tagproof::spec
