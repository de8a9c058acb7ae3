// sym_env.cpp — see sym_env.hpp.
#include "sym_env.hpp"

#include <climits>

namespace tagproof::solver {

z3::expr word(z3::context& c, const std::string& name) { return c.bv_const(name.c_str(), Symbolic::kBits); }

SymInputs make_inputs(z3::context& c, const std::string& p) {
    SymInputs in;
    auto b = [&](const char* n) { return c.bool_const((p + n).c_str()); };
    in.rt.generic = b("CONFIG_KASAN_GENERIC");
    in.rt.sw_tags = b("CONFIG_KASAN_SW_TAGS");
    in.rt.hw_tags = b("CONFIG_KASAN_HW_TAGS");
    in.none = !(in.rt.generic || in.rt.sw_tags || in.rt.hw_tags);
    in.rt.config_kasan_vmalloc = b("CONFIG_KASAN_VMALLOC");
    in.rt.mte = b("system_supports_mte");
    in.rt.kasan_off = b("kasan=off");
    in.rt.vmalloc_param = b("kasan.vmalloc");
    in.init_on_alloc = b("init_on_alloc");
    in.init_on_free = b("init_on_free");
    in.tcf_async = b("kasan.mode=async");
    in.tcf_asymm = b("kasan.mode=asymm");
    in.write_only = b("kasan.write_only");
    in.slub_rcu_debug = b("CONFIG_SLUB_RCU_DEBUG");
    in.kfence = b("CONFIG_KFENCE");
    in.sample = word(c, p + "kasan.page_alloc.sample");
    in.sample_order = word(c, p + "kasan.page_alloc.sample.order");
    // at most one KASAN mode is compiled in
    in.domain.push_back(!(in.rt.generic && in.rt.sw_tags) && !(in.rt.generic && in.rt.hw_tags) &&
                        !(in.rt.sw_tags && in.rt.hw_tags));
    // arm64 (the only home of HW_TAGS and SW_TAGS) selects KASAN_VMALLOC if
    // KASAN since v5.18 ("arm64: select KASAN_VMALLOC for SW/HW_TAGS modes"):
    // a tag-based build without it cannot be configured
    in.domain.push_back(z3::implies(in.rt.sw_tags || in.rt.hw_tags, in.rt.config_kasan_vmalloc));
    // mm/Kconfig.debug: SLUB_RCU_DEBUG depends on KASAN
    in.domain.push_back(z3::implies(in.slub_rcu_debug, !in.none));
    // one kasan.mode; it and kasan.write_only are HW_TAGS parameters
    in.domain.push_back(!(in.tcf_async && in.tcf_asymm));
    in.domain.push_back(z3::implies(in.tcf_async || in.tcf_asymm || in.write_only, in.rt.hw_tags));
    // early_kasan_flag_page_alloc_sample: 1..LONG_MAX; sample.order: 0..INT_MAX
    in.domain.push_back(z3::uge(in.sample, c.bv_val(1, 64)) && z3::ule(in.sample, c.bv_val((std::uint64_t)LONG_MAX, 64)));
    in.domain.push_back(z3::ule(in.sample_order, c.bv_val((std::uint64_t)INT_MAX, 64)));
    return in;
}

SEnv make_env(const SymVariant& v, const SymInputs& in) {
    SEnv e;
    kernel::derive_runtime_predicates<Symbolic>(in.rt, e);
    e.overrides = v.concrete().overrides();  // a variant file's rules, the same expressions
    e.init_on_alloc = in.init_on_alloc;
    e.init_on_free = in.init_on_free;
    e.deferred_pages = Symbolic::boolean(false);  // after boot
    e.slub_rcu_debug = in.slub_rcu_debug;  // false where the era lacks it (prove's domain)
    e.kfence = in.kfence;
    // sampling parameters exist only in eras that parse them (v6.3+)
    BootParamSyntax syn = v.concrete().boot_syntax();
    e.sample = syn.page_alloc_sample ? SWord(in.sample) : Symbolic::lit(1);
    e.sample_order = syn.page_alloc_sample_order ? SWord(in.sample_order) : Symbolic::lit(3);
    // GFP masks: the layout of the variant's era, for an HW_TAGS build or not
    BuildConfig hw, other;
    hw.mode = Mode::hw_tags;
    other.mode = Mode::generic;
    GfpLayout Lh = v.concrete().gfp_layout(hw), Lo = v.concrete().gfp_layout(other);
    kernel::fill_gfp_masks<Symbolic>(e.gfp, [&](const char* n) -> SWord {
        gfp_t mh = Lh.defines(n) ? Lh.mask(n) : 0, mo = Lo.defines(n) ? Lo.mask(n) : 0;
        if (mh == mo) return Symbolic::lit(mh);
        return Symbolic::ite(in.rt.hw_tags, Symbolic::lit(mh), Symbolic::lit(mo));
    });
    return e;
}

namespace {
bool truth(const z3::model& m, const z3::expr& e) { return m.eval(e, true).is_true(); }
std::uint64_t num(const z3::model& m, const z3::expr& e) { return m.eval(e, true).get_numeral_uint64(); }
}  // namespace

ConcreteConfig read_config(const z3::model& m, const SymInputs& in) {
    ConcreteConfig c;
    c.mode = truth(m, in.rt.hw_tags) ? Mode::hw_tags
             : truth(m, in.rt.sw_tags) ? Mode::sw_tags
             : truth(m, in.rt.generic) ? Mode::generic : Mode::none;
    c.mte = truth(m, in.rt.mte);
    c.kasan_off = truth(m, in.rt.kasan_off);
    c.vmalloc_param = truth(m, in.rt.vmalloc_param);
    c.config_kasan_vmalloc = truth(m, in.rt.config_kasan_vmalloc);
    c.init_on_alloc = truth(m, in.init_on_alloc);
    c.init_on_free = truth(m, in.init_on_free);
    c.sample = num(m, in.sample);
    c.sample_order = num(m, in.sample_order);
    c.check_mode = truth(m, in.tcf_async) ? TagCheckMode::async
                   : truth(m, in.tcf_asymm) ? TagCheckMode::asymm : TagCheckMode::sync;
    c.write_only = truth(m, in.write_only);
    if (in.slub_rcu_debug_exists) c.slub_rcu_debug = truth(m, in.slub_rcu_debug);
    c.kfence = truth(m, in.kfence);
    return c;
}

// mm/Kconfig.debug: SLUB_RCU_DEBUG defaults to KASAN_GENERIC || KASAN_SW_TAGS,
// which is what a scenario gets when it does not name the option
bool ConcreteConfig::slub_rcu_debug_differs() const {
    return slub_rcu_debug && *slub_rcu_debug != (mode == Mode::generic || mode == Mode::sw_tags);
}

std::string ConcreteConfig::describe() const {
    std::string s = mode_name(mode);
    if (mode == Mode::hw_tags) s += mte ? ", MTE" : ", no MTE";
    if (!config_kasan_vmalloc) s += ", CONFIG_KASAN_VMALLOC=n";
    if (slub_rcu_debug_differs()) s += *slub_rcu_debug ? ", CONFIG_SLUB_RCU_DEBUG=y" : ", CONFIG_SLUB_RCU_DEBUG=n";
    if (kfence) s += ", CONFIG_KFENCE=y";
    std::string b = boot_line();
    if (!b.empty()) s += ", " + b;
    return s;
}

std::string ConcreteConfig::config_line() const {
    return std::string("config mte=") + (mte ? "y" : "n") + " kasan_vmalloc=" + (config_kasan_vmalloc ? "y" : "n") +
           (slub_rcu_debug_differs() ? std::string(" slub_rcu_debug=") + (*slub_rcu_debug ? "y" : "n") : "") +
           (kfence ? " kfence=y" : "");
}

std::string ConcreteConfig::boot_line() const {
    std::string b;
    auto add = [&](const std::string& x) { b += (b.empty() ? "" : " ") + x; };
    if (kasan_off) add("kasan=off");
    if (check_mode != TagCheckMode::sync) add(std::string("kasan.mode=") + check_mode_name(check_mode));
    if (write_only) add("kasan.write_only=on");
    if (!vmalloc_param) add("kasan.vmalloc=off");
    if (sample != 1) add("kasan.page_alloc.sample=" + std::to_string(sample));
    if (sample_order != 3) add("kasan.page_alloc.sample.order=" + std::to_string(sample_order));
    if (init_on_alloc) add("init_on_alloc=1");
    if (init_on_free) add("init_on_free=1");
    return b;
}

}  // namespace tagproof::solver
