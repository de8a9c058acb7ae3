// runtime.hpp — kasan_enabled() and friends, derived from build, machine and
// boot parameters: written once over the value domain, so the model and the
// solver agree on when KASAN is on.
#pragma once
#include "config.hpp"
#include "env.hpp"

namespace tagproof::kernel {

// The raw inputs, in D.
template <class D>
struct RuntimeInputs {
    using Bool = typename D::Bool;
    Bool generic{}, sw_tags{}, hw_tags{};  // CONFIG_KASAN_* (at most one)
    Bool config_kasan_vmalloc{};            // CONFIG_KASAN_VMALLOC
    Bool mte{};                             // system_supports_mte()
    Bool kasan_off{};                       // kasan=off
    Bool vmalloc_param{};                   // kasan.vmalloc (default on)
};

// kasan_init_hw_tags(): HW_TAGS is enabled unless the CPU lacks MTE or kasan=off.
// Software modes: kasan_enabled() is IS_ENABLED(CONFIG_KASAN). kasan.vmalloc is a
// HW_TAGS parameter; without CONFIG_KASAN_VMALLOC nothing vmalloc'ed is tagged.
template <class D>
void derive_runtime_predicates(const RuntimeInputs<D>& in, KasanEnv<D>& e) {
    e.generic = in.generic;
    e.sw_tags = in.sw_tags;
    e.hw_tags = in.hw_tags;
    e.config_kasan_vmalloc = in.config_kasan_vmalloc && (in.generic || in.sw_tags || in.hw_tags);
    e.mte = in.mte;
    e.kasan_enabled = D::ite(in.hw_tags, in.mte && !in.kasan_off, in.generic || in.sw_tags);
    e.vmalloc_on = e.kasan_enabled && in.config_kasan_vmalloc && D::ite(in.hw_tags, in.vmalloc_param, D::boolean(true));
}

}  // namespace tagproof::kernel

namespace tagproof::kernel {
struct Concrete;
}

namespace tagproof {
// The concrete inputs of a build, machine and boot.
kernel::RuntimeInputs<kernel::Concrete> runtime_inputs(const BuildConfig& b, const Machine& m, const BootParams& p);
// The concrete runtime state, with the lines the kernel would print at boot.
RuntimeState derive_runtime(const BuildConfig& b, const Machine& m, const BootParams& p);
}  // namespace tagproof
