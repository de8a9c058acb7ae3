// promises.hpp — what the slab does about zeroing (the kernel's side; what
// callers require is requirements.hpp). The model's slab and the
// reference's share this one statement.
#pragma once
#include "variant.hpp"

namespace tagproof::kernel {

// slab_want_init_on_alloc() (mm/slab.h): __GFP_ZERO, or init_on_alloc for a
// cache without a constructor (a constructed object keeps its contents).
// Whether the slab zeroes the object, and so what kmalloc promises.
inline bool slab_want_init_on_alloc(const CEnv& env, const BootParams& boot, gfp_t gfp, bool ctor_or_rcu) {
    const bool zero = (gfp & env.gfp.ZERO) != 0;
    return boot.init_on_alloc ? (ctor_or_rcu ? zero : true) : zero;
}

}  // namespace tagproof::kernel
