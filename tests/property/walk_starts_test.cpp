// walk_starts_test.cpp — a walk copied from a kept start (explore/family_walk.hpp
// WalkStarts) is the walk made afresh: the same events taken, the same
// outcomes seen, the same invariants broken, for every walked family of
// linux-7.0 in its default boot, several seeds and event choices, with and
// without HW_TAGS. A start whose making draws a random tag (the mempool
// family's setup fills each reserve) is never kept: a copy of it would hold
// one seed's tags under another's. The control: the trace compared tells two
// seeds apart.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "families.hpp"
#include "family_walk.hpp"
#include "variant.hpp"

using namespace tagproof;

namespace {

struct Trace {
    std::vector<std::pair<std::string, std::string>> taken;
    std::vector<std::string> observed;
    std::vector<std::string> broken;
    bool operator==(const Trace&) const = default;
};

Trace run(explore::FamilyWalk& w, const std::vector<std::uint16_t>& choices) {
    for (auto c : choices) w.step(c);
    Trace t{w.taken(), w.observed(), {}};
    for (const auto& b : w.broken()) t.broken.push_back(b.invariant + ": " + b.message);
    return t;
}

explore::FamilyOptions options(const explore::Family& f, Mode m) {
    explore::FamilyOptions o;
    o.variant = "linux-7.0";
    o.family = f;
    o.mode = m;
    o.config = explore::boot_product(kernel::find_variant(o.variant), true, m).front();
    return o;
}

}  // namespace

TEST(WalkStarts, AWalkFromAKeptStartIsTheWalkMadeAfresh) {
    explore::WalkStarts starts;
    std::mt19937 rng(11);
    std::size_t families = 0;
    for (const auto& f : explore::families(kernel::find_variant("linux-7.0"))) {
        if (!f.walked) continue;
        ++families;
        for (Mode m : {Mode::hw_tags, Mode::sw_tags, Mode::generic})
            for (int round = 0; round < 4; ++round) {
                const std::uint64_t seed = rng();
                std::vector<std::uint16_t> choices(12);
                for (auto& c : choices) c = std::uint16_t(rng() % 4096);
                explore::FamilyWalk fresh(options(f, m), seed), kept(options(f, m), seed, &starts);
                ASSERT_EQ(run(fresh, choices), run(kept, choices)) << f.name << " " << mode_name(m) << " seed " << seed;
            }
    }
    EXPECT_GE(families, 10u);
    EXPECT_GT(starts.shared(), 0u) << "no start was kept: the comparison above compared nothing new";
}

TEST(WalkStarts, AStartThatDrewATagIsNotKept) {
    const kernel::Variant& v = kernel::find_variant("linux-7.0");
    explore::Family mempool, pages;
    for (const auto& f : explore::families(v)) {
        if (f.name == "mempool") mempool = f;
        if (f.name == "pages") pages = f;
    }
    ASSERT_FALSE(mempool.setup.empty());
    explore::WalkStarts starts;
    { explore::FamilyWalk w(options(pages, Mode::hw_tags), 1, &starts); }
    EXPECT_EQ(starts.shared(), 1u);
    { explore::FamilyWalk w(options(mempool, Mode::hw_tags), 1, &starts); }
    EXPECT_EQ(starts.shared(), 1u) << "the mempool family's setup draws tags: its start must not be kept";
}

// The comparison's control: walks of one family and choices under two seeds
// differ (the tags drawn show in what the events observe), so the equality
// above would see a start that carried another seed's state.
TEST(WalkStarts, TheTraceComparedTellsSeedsApart) {
    explore::Family pages;
    for (const auto& f : explore::families(kernel::find_variant("linux-7.0")))
        if (f.name == "pages") pages = f;
    bool differs = false;
    for (std::uint64_t seed = 2; seed < 40 && !differs; ++seed) {
        explore::FamilyWalk a(options(pages, Mode::hw_tags), 1), b(options(pages, Mode::hw_tags), seed);
        std::vector<std::uint16_t> choices(10);
        for (std::size_t i = 0; i < choices.size(); ++i) choices[i] = std::uint16_t(i * 7 + seed);
        differs = !(run(a, choices) == run(b, choices));
    }
    EXPECT_TRUE(differs);
}
