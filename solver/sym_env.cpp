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
    in.sample = word(c, p + "kasan.page_alloc.sample");
    in.sample_order = word(c, p + "kasan.page_alloc.sample.order");
    // at most one KASAN mode is compiled in
    in.domain.push_back(!(in.rt.generic && in.rt.sw_tags) && !(in.rt.generic && in.rt.hw_tags) &&
                        !(in.rt.sw_tags && in.rt.hw_tags));
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
    e.slub_rcu_debug = Symbolic::boolean(false);  // no obligation frees slab objects
    e.kfence = Symbolic::boolean(false);          // no obligation allocates from KFENCE
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
    return c;
}

std::string ConcreteConfig::describe() const {
    std::string s = mode_name(mode);
    if (mode == Mode::hw_tags) s += mte ? ", MTE" : ", no MTE";
    if (!config_kasan_vmalloc) s += ", CONFIG_KASAN_VMALLOC=n";
    std::string b = boot_line();
    if (!b.empty()) s += ", " + b;
    return s;
}

std::string ConcreteConfig::config_line() const {
    return std::string("config mte=") + (mte ? "y" : "n") + " kasan_vmalloc=" + (config_kasan_vmalloc ? "y" : "n");
}

std::string ConcreteConfig::boot_line() const {
    std::string b;
    auto add = [&](const std::string& x) { b += (b.empty() ? "" : " ") + x; };
    if (kasan_off) add("kasan=off");
    if (!vmalloc_param) add("kasan.vmalloc=off");
    if (sample != 1) add("kasan.page_alloc.sample=" + std::to_string(sample));
    if (sample_order != 3) add("kasan.page_alloc.sample.order=" + std::to_string(sample_order));
    if (init_on_alloc) add("init_on_alloc=1");
    if (init_on_free) add("init_on_free=1");
    return b;
}

}  // namespace tagproof::solver
