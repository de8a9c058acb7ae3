// family_walk_property.hpp — RapidCheck over the model's whole vocabulary:
// random walks through the explorer's families (explore/family_walk.hpp), any
// family, any KASAN mode (HW_TAGS most), any configuration of that mode's boot
// product (async and asymm included),
// any length up to max_events, random tags from a generated seed. Where the
// 15 commands of commands.hpp drive the page allocator, slab and the rest by
// hand, a walk drives every entry point a family has (vmalloc, vrealloc,
// kmem_cache with constructors and RCU, mempools, stacks on either CPU, page
// tables, user pages, the huge zero folio, skb, KFENCE) from the one event
// generator the explorer enumerates.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "property.hpp"

namespace tagproof::properties {

struct WalkOptions {
    int tests = 100;              // walks a check runs (RapidCheck's max_success)
    std::size_t max_events = 16;  // events per walk after the family's setup
    std::uint64_t seed = 0;       // 0: RapidCheck's configuration; else this seed
    std::string family;           // only this family ("" every family)
    std::vector<Mode> modes;      // only these KASAN modes (empty: all three)
    std::set<std::string> ignore; // invariants not asserted
    bool assert_recorded = false; // assert the variant's recorded defects too
    // Let pass what the same walk (same events, same tag seed) breaks under
    // the variant's baseline: not the patch's doing.
    bool baseline_filter = false;  // (and boot only what the baseline boots)
    // mode-isolation: where HW_TAGS is not active (Generic, SW_TAGS, no MTE,
    // kasan=off), the baseline replays the walk's events in lockstep (same
    // tag seed) and must show what the variant shows at each (scenario/observe.hpp)
    // and break the same invariants; the first difference is a counterexample.
    bool isolation = false;
};

// "No walk breaks an invariant, except the variant's recorded defects." The
// counterexample is shrunk by RapidCheck and then line-minimised; its
// scenario replays with `tagproof run`.
PropertyResult check_family_walks(const kernel::Variant& v, const WalkOptions& opt);

}  // namespace tagproof::properties
