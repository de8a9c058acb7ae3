// The model's stack ring (model/spec/state.hpp Slab::ring): what a report
// reads of it (report_tags.c: the newest entry for the object and the
// pointer's tag) is all it keeps, one entry per slot and tag, ordered by slot
// and, within a slot, by when each tag's newest entry was recorded.
#include <gtest/gtest.h>

#include "state.hpp"

namespace tagproof::spec {
namespace {

TEST(StackRing, TheNewestEntryForASlotAndTagDecides) {
    Slab s;
    s.ring_record(0, 0xF3, false);  // kmalloc: tag 3 in slot 0
    s.ring_record(0, 0xF3, true);   // kfree
    s.ring_record(0, 0xF5, false);  // slot 0 again, tag 5
    s.ring_record(1, 0xF3, false);  // slot 1, tag 3
    ASSERT_NE(s.ring_newest(0, 0xF3), nullptr);
    EXPECT_TRUE(s.ring_newest(0, 0xF3)->freed);   // a stale pointer with tag 3: use-after-free
    EXPECT_FALSE(s.ring_newest(0, 0xF5)->freed);  // tag 5: out-of-bounds
    EXPECT_FALSE(s.ring_newest(1, 0xF3)->freed);  // the same tag in another slot is another entry
    EXPECT_EQ(s.ring_newest(1, 0xF5), nullptr);   // never seen: invalid-access
    EXPECT_EQ(s.ring_newest(2, 0xF3), nullptr);
    // Negative control: recording an allocation of tag 3 in slot 0 again
    // turns its answer back to out-of-bounds.
    s.ring_record(0, 0xF3, false);
    EXPECT_FALSE(s.ring_newest(0, 0xF3)->freed);
}

TEST(StackRing, OneEntryPerSlotAndTagOrderedBySlotThenByRecency) {
    Slab s;
    s.ring_record(1, 0xF7, false);
    s.ring_record(0, 0xF3, false);
    s.ring_record(0, 0xF5, false);
    s.ring_record(0, 0xF3, true);  // tag 3's newest entry is now the latest of slot 0
    ASSERT_EQ(s.ring.size(), 3u);
    EXPECT_EQ(s.ring[0].slot, 0u);
    EXPECT_EQ(s.ring[0].tag, 0xF5);
    EXPECT_EQ(s.ring[1].slot, 0u);
    EXPECT_EQ(s.ring[1].tag, 0xF3);
    EXPECT_TRUE(s.ring[1].freed);
    EXPECT_EQ(s.ring[2].slot, 1u);
    EXPECT_EQ(s.ring[2].tag, 0xF7);
}

// Two histories that differ only in entries no report can read leave the
// same ring (the explorer's state key then merges the states); histories
// whose newest entries differ do not.
TEST(StackRing, HistoriesWithTheSameNewestEntriesAreOneRing) {
    Slab a, b, c;
    for (int i = 0; i < 3; ++i) a.ring_record(0, 0xF3, false), a.ring_record(0, 0xF3, true);
    a.ring_record(0, 0xF3, false);
    b.ring_record(0, 0xF3, false);
    c.ring_record(0, 0xF3, true);
    auto same = [](const Slab& x, const Slab& y) {
        if (x.ring.size() != y.ring.size()) return false;
        for (std::size_t i = 0; i < x.ring.size(); ++i)
            if (x.ring[i].slot != y.ring[i].slot || x.ring[i].tag != y.ring[i].tag || x.ring[i].freed != y.ring[i].freed)
                return false;
        return true;
    };
    EXPECT_TRUE(same(a, b));
    EXPECT_FALSE(same(a, c));  // control: the newest entry is a free
}

}  // namespace
}  // namespace tagproof::spec
