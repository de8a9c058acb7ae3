// sym_env.hpp — symbolic decision inputs: every build mode, machine and boot
// state at once, with the domain constraints the kernel guarantees.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sym_variant.hpp"

namespace tagproof::solver {

struct SymInputs {
    kernel::RuntimeInputs<Symbolic> rt;
    SBool init_on_alloc, init_on_free;
    SWord sample, sample_order;  // kasan.page_alloc.sample, .order
    SBool none;                  // no KASAN compiled in
    // kasan.mode=async / kasan.mode=asymm (neither: sync) and kasan.write_only=on,
    // HW_TAGS only (the CPU offers asymm and store-only): how a tag check
    // fault is delivered and which accesses are checked (the trace BMC reads them)
    SBool tcf_async, tcf_asymm, write_only;
    SBool slub_rcu_debug;  // CONFIG_SLUB_RCU_DEBUG (v6.12+)
    SBool kfence;          // CONFIG_KFENCE
    // whether the eras compared have CONFIG_SLUB_RCU_DEBUG at all (set by
    // prove: a scenario may name the option only where it exists)
    bool slub_rcu_debug_exists = false;
    std::vector<z3::expr> domain;  // what every input satisfies (one mode, parameter ranges)
};

// Fresh constants named with `prefix` (two variants compared share one set).
SymInputs make_inputs(z3::context& c, const std::string& prefix = "");

// The environment a variant sees: runtime predicates derived by the shared
// template, GFP masks of the variant's era for the build selected.
SEnv make_env(const SymVariant& v, const SymInputs& in);

// A fresh 64-bit symbol, and one restricted to 8 bits (a tag).
z3::expr word(z3::context& c, const std::string& name);

// Describes the build / runtime part of a model: "hw_tags, MTE, kasan on, init_on_free=1".
struct ConcreteConfig {
    Mode mode = Mode::hw_tags;
    bool mte = true, kasan_off = false, vmalloc_param = true, config_kasan_vmalloc = true;
    bool init_on_alloc = false, init_on_free = false;
    std::uint64_t sample = 1, sample_order = 3;
    TagCheckMode check_mode = TagCheckMode::sync;
    bool write_only = false;
    std::optional<bool> slub_rcu_debug;  // set where the era has the option
    bool kfence = false;
    bool slub_rcu_debug_differs() const;  // from the Kconfig default (named in the config line then)
    std::string describe() const;
    std::string config_line() const;  // scenario "config ..." line
    std::string boot_line() const;    // scenario "boot ..." line
};
ConcreteConfig read_config(const z3::model& m, const SymInputs& in);

}  // namespace tagproof::solver
