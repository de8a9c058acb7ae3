// runtime.cpp — the concrete runtime state (see runtime.hpp).
#include "runtime.hpp"

#include "domain.hpp"

namespace tagproof {

kernel::RuntimeInputs<kernel::Concrete> runtime_inputs(const BuildConfig& b, const Machine& m, const BootParams& p) {
    kernel::RuntimeInputs<kernel::Concrete> in;
    in.generic = b.mode == Mode::generic;
    in.sw_tags = b.mode == Mode::sw_tags;
    in.hw_tags = b.mode == Mode::hw_tags;
    in.config_kasan_vmalloc = b.kasan_vmalloc;
    in.mte = m.mte;
    in.kasan_off = p.kasan == KasanArg::off;
    in.vmalloc_param = p.vmalloc;
    return in;
}

RuntimeState derive_runtime(const BuildConfig& b, const Machine& m, const BootParams& p) {
    using kernel::Concrete;
    kernel::RuntimeInputs<Concrete> in = runtime_inputs(b, m, p);
    kernel::KasanEnv<Concrete> e;
    kernel::derive_runtime_predicates<Concrete>(in, e);

    RuntimeState r;
    r.kasan_enabled = e.kasan_enabled;
    r.hw_tags_enabled = e.kasan_hw_tags_enabled();
    r.vmalloc_on = e.vmalloc_on;
    if (b.mode != Mode::hw_tags) return r;
    if (!m.mte) r.boot_log.push_back("kasan: MTE not supported, KASAN disabled");
    else if (p.kasan == KasanArg::off) r.boot_log.push_back("kasan: disabled by kasan=off");
    if (!r.hw_tags_enabled) return r;
    // kasan_enable_hw_tags(): asymm needs ARM64_MTE_ASYMM, otherwise sync;
    // write_only needs ARM64_MTE_STORE_ONLY, otherwise it is cleared.
    r.check_mode = p.mode;
    if (p.mode == TagCheckMode::asymm && !m.mte_asymm) {
        r.check_mode = TagCheckMode::sync;
        r.boot_log.push_back("MTE: asymmetric mode not supported, falling back to sync");
    }
    r.write_only = p.write_only;
    if (p.write_only && !m.mte_store_only) {
        r.write_only = false;
        r.boot_log.push_back("kasan: kasan.write_only=on is not supported, ignored");
    }
    r.boot_log.push_back(std::string("kasan: KernelAddressSanitizer initialized (hw-tags, mode=") +
                         check_mode_name(r.check_mode) + ", vmalloc=" + (r.vmalloc_on ? "on" : "off") +
                         ", stacktrace=" + (p.stacktrace ? "on" : "off") + (r.write_only ? ", write_only=on" : "") + ")");
    return r;
}

}  // namespace tagproof
