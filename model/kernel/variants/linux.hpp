// variants/linux.hpp — the kernel releases, as they shipped.
#pragma once
#include "../rules_7_0.hpp"

namespace tagproof::kernel {

// A release is compared with the one before it for the record: it changes
// whatever it changes, and its coverage is held to the requirements alone.
inline Claims release_claims() { return {ChangeScope::any, {}, "a kernel release"}; }

struct linux_6_1 final : rules_6_1<linux_6_1> {
    static Claims claims() { return release_claims(); }
    static constexpr const char* name = "linux-6.1";
    static constexpr const char* baseline = "";
    static constexpr const char* summary =
        "v6.1.0: two skip flags + PG_skip_kasan_poison (never seen at free: 487a32ec24be ordering), no sampling (6.1.y trees differ: tree:6.1.192)";
};

struct linux_6_3 final : rules_6_3<linux_6_3> {
    static Claims claims() { return release_claims(); }
    static constexpr const char* name = "linux-6.3";
    static constexpr const char* baseline = "linux-6.1";
    static constexpr const char* summary =
        "v6.3: page_alloc sampling as merged (page-tag reset fix), skip-poison ordering reverted";
};

struct linux_6_4 final : rules_6_4<linux_6_4> {
    static Claims claims() { return release_claims(); }
    static constexpr const char* name = "linux-6.4";
    static constexpr const char* baseline = "linux-6.3";
    static constexpr const char* summary =
        "v6.4: one __GFP_SKIP_KASAN; free-time skip iff page tag is match-all (PG_skip_kasan_poison gone)";
};

struct linux_7_0 final : rules_7_0<linux_7_0> {
    static Claims claims() { return release_claims(); }
    static constexpr const char* name = "linux-7.0";
    static constexpr const char* baseline = "linux-6.4";
    static constexpr const char* summary =
        "v7.0-rc1 mainline: base of the Anjum series; ZEROTAGS via tag_clear_highpages() gated on init";
};

// vrealloc() in place as v6.15 .. v6.18 had it (a0309faf1cb0 and the v6.15
// hotfixes, before 007f5da43b3d and 9b47d4eea3f7): the grow passes only
// KASAN_VMALLOC_PROT_NORMAL from p + old, the shrink poisons from p + new.
// Everything else is linux-7.0's: a what-was variant for that one function.
struct vrealloc_v6_15 final : rules_7_0<vrealloc_v6_15> {
    static Claims claims() { return {ChangeScope::any, {}, "vrealloc as in v6.15 .. v6.18"}; }
    static constexpr const char* name = "vrealloc-v6.15";
    static constexpr const char* baseline = "linux-7.0";
    static constexpr const char* summary =
        "linux-7.0 with vrealloc()'s KASAN calls of v6.15 .. v6.18: grow without VM_ALLOC / KEEP_TAG, unaligned";
    template <class D>
    static typename D::Bool vrealloc_granule_aligned(const KasanEnv<D>& e) { return D::boolean(false); }
    template <class D>
    static typename D::Bool vrealloc_grow_vm_alloc(const KasanEnv<D>& e) { return D::boolean(false); }
    template <class D>
    static typename D::Bool vrealloc_grow_keep_tag(const KasanEnv<D>& e) { return D::boolean(false); }
};

}  // namespace tagproof::kernel
