// config.hpp — build configuration, the machine, and runtime state, kept apart.
//
// Several real bugs live in "HW_TAGS compiled in but inactive" (kasan=off, or
// no MTE on the CPU), so what the kernel was built with, what the hardware
// offers and what the command line asked for are three separate inputs; the
// runtime predicates kasan_enabled() / kasan_hw_tags_enabled() are derived.
#pragma once
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

#include "boot_params.hpp"

namespace tagproof {

// Which KASAN flavour is compiled in (CONFIG_KASAN_GENERIC / _SW_TAGS / _HW_TAGS).
enum class Mode { none, generic, sw_tags, hw_tags };

const char* mode_name(Mode m);
Mode parse_mode(const std::string& s, const std::string& where);  // "none|generic|sw_tags|hw_tags"

// How SW_TAGS builds check a single load or store (tag-checks.md §1): clang >= 12
// since v5.14 emits specialized outlined checks; older compilers the inline
// check; LLVM >= 18 an inline fast path in front of the outlined check;
// CONFIG_KASAN_OUTLINE calls __hwasan_loadN_noabort.
enum class CheckStyle { outlined, inline_check, fastpath, calls };
const char* check_style_name(CheckStyle s);
CheckStyle parse_check_style(const std::string& s, const std::string& where);

struct BuildConfig {
    Mode mode = Mode::hw_tags;
    CheckStyle check_style = CheckStyle::outlined;  // SW_TAGS only
    bool kasan_vmalloc = true;  // CONFIG_KASAN_VMALLOC
    bool vmap_stack = true;     // CONFIG_VMAP_STACK
    bool lockdep = false;       // CONFIG_LOCKDEP: gives __GFP_NOLOCKDEP a bit
    std::optional<bool> slub_rcu_debug;  // CONFIG_SLUB_RCU_DEBUG; unset: the Kconfig default
    bool kfence = false;        // CONFIG_KFENCE: a pool of kKfenceObjects objects (mm/kfence/core.c)
    // CONFIG_DEFERRED_STRUCT_PAGE_INIT: the upper half of RAM is released by
    // deferred_init_memmap() while deferred_pages_enabled() is still true.
    bool deferred_struct_page_init = false;
};

// What the CPU offers (arm64 cpufeatures).
struct Machine {
    bool mte = true;             // system_supports_mte()
    bool mte_asymm = true;       // ARM64_MTE_ASYMM: without it asymm falls back to sync
    bool mte_store_only = true;  // ARM64_MTE_STORE_ONLY: needed by kasan.write_only=on
    int cpus = 2;
    int nodes = 1;  // NUMA nodes; CPU c is on node c % nodes (every node has memory)
};

// Runtime state derived at boot (kasan_init_hw_tags and friends).
struct RuntimeState {
    bool kasan_enabled = false;  // kasan_enabled(): HW: static key; SW/Generic: IS_ENABLED(CONFIG_KASAN)
    bool hw_tags_enabled = false;  // kasan_hw_tags_enabled()
    TagCheckMode check_mode = TagCheckMode::sync;  // after asymm fallback
    bool vmalloc_on = false;     // kasan_vmalloc_enabled()
    bool write_only = false;     // kasan_flag_write_only after the CPU check
    std::vector<std::string> boot_log;  // lines the kernel would print
};

// derive_runtime() lives in model/kernel/runtime.hpp: when KASAN is on is a decision.

}  // namespace tagproof
