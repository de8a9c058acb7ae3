// promises.hpp — what a page allocation promises its caller about the data
// (the caller's side of the zeroing invariant, DESIGN §4): zeroed when it
// asked for __GFP_ZERO or init_on_alloc is on, unless it also passed
// __GFP_SKIP_ZERO with HW tags enabled (the zeroing is then the tagging's
// job, or skipped on purpose); every page is zeroed when init_on_free is on.
// The model's oracle and the reference's replay checks both ask this.
#pragma once
#include "variant.hpp"

namespace tagproof::kernel {

inline bool page_alloc_promises_zero(const Variant& v, const CEnv& env, const RuntimeState& rt, const BootParams& boot,
                                     gfp_t gfp) {
    const bool skip_init = rt.hw_tags_enabled && (gfp & env.gfp.SKIP_ZERO);
    return (v.want_init_on_alloc(env, gfp) && !skip_init) || boot.init_on_free;
}

// slab_want_init_on_alloc() (mm/slab.h): __GFP_ZERO, or init_on_alloc for a
// cache without a constructor (a constructed object keeps its contents).
// Whether the slab zeroes the object, and so what kmalloc promises.
inline bool slab_want_init_on_alloc(const CEnv& env, const BootParams& boot, gfp_t gfp, bool ctor_or_rcu) {
    const bool zero = (gfp & env.gfp.ZERO) != 0;
    return boot.init_on_alloc ? (ctor_or_rcu ? zero : true) : zero;
}

}  // namespace tagproof::kernel
