// features.hpp — kernel entry points that do not exist in every era (or are
// not called the same way in every era). A variant file sets them with
// `feature NAME yes|no` (scenario/variant-files.md); a tree's lifted file says
// what the tree has (tree/lift_parts.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace tagproof::kernel {

struct Features {
    bool vrealloc = false;                  // mm/vmalloc.c vrealloc(), v6.12+
    bool huge_zero_folio_zerotags = false;  // get_huge_zero_folio() passes __GFP_ZEROTAGS (2025+)
    bool slub_rcu_debug = false;            // CONFIG_SLUB_RCU_DEBUG exists (v6.12+)
};

// The names a variant file's `feature` line takes, with what each means.
inline const std::vector<std::pair<std::string, std::string>>& feature_names() {
    static const std::vector<std::pair<std::string, std::string>> v = {
        {"vrealloc", "mm/vmalloc.c has vrealloc() (v6.12 on)"},
        {"huge_zero_folio_zerotags",
         "mm/huge_memory.c allocates the huge zero folio with __GFP_ZEROTAGS (2025 on); without it the model has no "
         "huge zero folio event"},
        {"slub_rcu_debug", "CONFIG_SLUB_RCU_DEBUG exists (v6.12 on)"},
    };
    return v;
}

// Sets feature `name` of `f`; false for a name feature_names() does not list.
inline bool set_feature(Features& f, const std::string& name, bool on) {
    if (name == "vrealloc") f.vrealloc = on;
    else if (name == "huge_zero_folio_zerotags") f.huge_zero_folio_zerotags = on;
    else if (name == "slub_rcu_debug") f.slub_rcu_debug = on;
    else return false;
    return true;
}

// Feature `name` of `f`; false for a name feature_names() does not list.
inline bool get_feature(const Features& f, const std::string& name) {
    if (name == "vrealloc") return f.vrealloc;
    if (name == "huge_zero_folio_zerotags") return f.huge_zero_folio_zerotags;
    if (name == "slub_rcu_debug") return f.slub_rcu_debug;
    return false;
}

}  // namespace tagproof::kernel
