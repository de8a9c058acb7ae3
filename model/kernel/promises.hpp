// promises.hpp — what the slab does about zeroing (the kernel's side; what
// callers require is requirements.hpp). The model's slab and the
// reference's share this one statement.
#pragma once
#include "variant.hpp"

namespace tagproof::kernel {

// slab_want_init_on_alloc() (mm/slab.h): __GFP_ZERO, or init_on_alloc for a
// cache without a constructor (a constructed object keeps its contents).
// Whether the slab zeroes the object, and so what kmalloc promises.
// Over the value domain: the solver's kmalloc obligations read the same line.
template <class D>
typename D::Bool slab_want_init_on_alloc(const KasanEnv<D>& e, typename D::Word gfp, typename D::Bool ctor_or_rcu) {
    const auto zero = D::any(gfp, e.gfp.ZERO);
    return D::ite(e.init_on_alloc, zero || !ctor_or_rcu, zero);
}
inline bool slab_want_init_on_alloc(const CEnv& env, const BootParams& boot, gfp_t gfp, bool ctor_or_rcu) {
    (void)boot;  // env.init_on_alloc is the boot's init_on_alloc
    return slab_want_init_on_alloc<Concrete>(env, gfp, ctor_or_rcu);
}

}  // namespace tagproof::kernel
