// tag_source.hpp — where the reference's kasan_random_tag() values come from.
// The model asks a Chooser for a nondeterministic choice; the reference takes
// the value itself: from a fast PRNG for replay and cost runs, or from the
// model's own choices when the two run in lockstep (the differential check),
// so that any difference is a difference in the decisions, not in luck.
#pragma once
#include <cstdint>
#include <deque>

#include "tag.hpp"

namespace tagproof::reference {

class TagSource {
public:
    virtual ~TagSource() = default;
    // A tag in [lo, hi] (the variant's random tag range).
    virtual Tag next(unsigned lo, unsigned hi) = 0;
};

// xorshift64*: the kernel's get_random_u8() stands behind kasan_random_tag();
// any uniform source does for counting work.
class XorshiftTags final : public TagSource {
public:
    explicit XorshiftTags(std::uint64_t seed = 0x9E3779B97F4A7C15ull) : s_(seed ? seed : 1) {}
    Tag next(unsigned lo, unsigned hi) override {
        s_ ^= s_ >> 12;
        s_ ^= s_ << 25;
        s_ ^= s_ >> 27;
        const std::uint64_t r = (s_ * 0x2545F4914F6CDD1Dull) >> 32;
        return Tag(lo + ((r * (hi - lo + 1)) >> 32));  // [0, 2^32) scaled to the range: no division
    }

private:
    std::uint64_t s_;
};

// The tags another run drew, in order. Asking past the end is recorded (the
// differential check reports it as a decision difference).
class QueuedTags final : public TagSource {
public:
    void push(Tag t) { q_.push_back(t); }
    std::size_t pending() const { return q_.size(); }
    std::uint64_t underflows() const { return underflows_; }
    void clear() { q_.clear(); }
    Tag next(unsigned lo, unsigned) override {
        if (q_.empty()) {
            ++underflows_;
            return Tag(lo);
        }
        Tag t = q_.front();
        q_.pop_front();
        return t;
    }

private:
    std::deque<Tag> q_;
    std::uint64_t underflows_ = 0;
};

}  // namespace tagproof::reference
