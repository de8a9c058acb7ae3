// sym_env.hpp — symbolic decision inputs: every build mode, machine and boot
// state at once, with the domain constraints the kernel guarantees.
#pragma once
#include <string>
#include <vector>

#include "sym_variant.hpp"

namespace tagproof::solver {

struct SymInputs {
    kernel::RuntimeInputs<Symbolic> rt;
    SBool init_on_alloc, init_on_free;
    SWord sample, sample_order;  // kasan.page_alloc.sample, .order
    SBool none;                  // no KASAN compiled in
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
    std::string describe() const;
    std::string config_line() const;  // scenario "config ..." line
    std::string boot_line() const;    // scenario "boot ..." line
};
ConcreteConfig read_config(const z3::model& m, const SymInputs& in);

}  // namespace tagproof::solver
