// config.cpp — derive the runtime predicates from build, machine and boot.
#include "config.hpp"

#include "error.hpp"

namespace tagproof {

const char* mode_name(Mode m) {
    switch (m) {
        case Mode::none: return "none";
        case Mode::generic: return "generic";
        case Mode::sw_tags: return "sw_tags";
        case Mode::hw_tags: return "hw_tags";
    }
    return "?";
}

Mode parse_mode(const std::string& s, const std::string& where) {
    if (s == "none") return Mode::none;
    if (s == "generic") return Mode::generic;
    if (s == "sw_tags") return Mode::sw_tags;
    if (s == "hw_tags") return Mode::hw_tags;
    throw InputError(where, "unknown KASAN mode '" + s + "': expected none, generic, sw_tags or hw_tags");
}

RuntimeState derive_runtime(const BuildConfig& b, const Machine& m, const BootParams& p) {
    RuntimeState r;
    switch (b.mode) {
        case Mode::none:
            break;
        case Mode::generic:
        case Mode::sw_tags:
            // kasan_enabled() is IS_ENABLED(CONFIG_KASAN) (include/linux/kasan-enabled.h).
            // kasan= is a HW_TAGS parameter in the eras modelled (Baoquan He's
            // all-modes kasan=off is not merged as far as we know).
            r.kasan_enabled = true;
            r.vmalloc_on = b.kasan_vmalloc;
            break;
        case Mode::hw_tags:
            // kasan_init_hw_tags(): return early without MTE or with kasan=off.
            if (!m.mte) { r.boot_log.push_back("kasan: MTE not supported, KASAN disabled"); break; }
            if (p.kasan == KasanArg::off) { r.boot_log.push_back("kasan: disabled by kasan=off"); break; }
            r.kasan_enabled = true;
            r.hw_tags_enabled = true;
            // kasan_enable_hw_tags(): asymm needs ARM64_MTE_ASYMM, otherwise sync.
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
            // The key defaults to true only with CONFIG_KASAN_VMALLOC (current hw_tags.c).
            r.vmalloc_on = b.kasan_vmalloc && p.vmalloc;
            r.boot_log.push_back(std::string("kasan: KernelAddressSanitizer initialized (hw-tags, mode=") +
                                 check_mode_name(r.check_mode) + ", vmalloc=" + (r.vmalloc_on ? "on" : "off") +
                                 ", stacktrace=" + (p.stacktrace ? "on" : "off") +
                                 (r.write_only ? ", write_only=on" : "") + ")");
            break;
    }
    return r;
}

}  // namespace tagproof
