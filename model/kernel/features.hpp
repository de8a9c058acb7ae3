// features.hpp — kernel entry points that do not exist in every era.
#pragma once

namespace tagproof::kernel {

struct Features {
    bool vrealloc = false;                  // mm/vmalloc.c vrealloc(), v6.12+
    bool huge_zero_folio_zerotags = false;  // get_huge_zero_folio() passes __GFP_ZEROTAGS (2025+)
    bool slub_rcu_debug = false;            // CONFIG_SLUB_RCU_DEBUG exists (v6.12+)
};

}  // namespace tagproof::kernel
