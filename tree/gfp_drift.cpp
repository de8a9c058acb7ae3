// gfp_drift.cpp — see gfp_drift.hpp.
#include "gfp_drift.hpp"

#include <algorithm>
#include <map>

#include "runtime.hpp"

namespace tagproof::tree {

namespace {

BuildConfig prepared_build() {
    // kernel/kasan-hw-tags.config on allnoconfig: HW_TAGS, no LOCKDEP
    BuildConfig b;
    b.mode = Mode::hw_tags;
    b.lockdep = false;
    return b;
}

// The era's value of every name it defines, in the prepared build.
std::map<std::string, unsigned long long> hand_values(const kernel::Variant& v) {
    const BuildConfig b = prepared_build();
    const GfpLayout L = v.gfp_layout(b);
    std::map<std::string, unsigned long long> m;
    for (const auto& f : L.single_flags()) m[f.name] = f.mask;
    for (const auto& f : L.composites()) m[f.name] = f.mask;
    m["__GFP_BITS_SHIFT"] = (unsigned long long)L.bits_shift();
    m["__GFP_BITS_MASK"] = L.bits_mask();
    Machine mach;
    mach.mte = true;
    const BootParams p;
    const RuntimeState rt = derive_runtime(b, mach, p);
    const kernel::CEnv e = v.make_env(b, mach, p, rt);
    m["THREADINFO_GFP"] = v.THREADINFO_GFP(e);
    m["GFP_PGTABLE_KERNEL"] = v.GFP_PGTABLE_KERNEL(e);
    m["GFP_PGTABLE_USER"] = v.GFP_PGTABLE_USER(e);
    return m;
}

}  // namespace

std::size_t GfpDrift::differing() const {
    return std::count_if(rows.begin(), rows.end(), [](const DriftRow& r) { return !r.equal(); });
}

std::vector<std::string> gfp_drift_names(const kernel::Variant& hand) {
    std::vector<std::string> n;
    for (const auto& [name, value] : hand_values(hand)) n.push_back(name);
    return n;
}

GfpDrift gfp_drift(const GfpLift& lifted, const kernel::Variant& hand) {
    GfpDrift d;
    d.era = hand.name();
    const auto hv = hand_values(hand);
    for (const auto& k : lifted.constants) {
        DriftRow r;
        r.name = k.name;
        r.in_tree = k.defined && k.evaluated;
        r.tree_value = k.value;
        if (auto it = hv.find(k.name); it != hv.end()) {
            r.in_hand = true;
            r.hand_value = it->second;
        }
        d.rows.push_back(r);
    }
    return d;
}

}  // namespace tagproof::tree
