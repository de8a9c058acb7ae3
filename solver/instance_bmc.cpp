// instance_bmc.cpp — see instance_bmc.hpp.
#include "instance_bmc.hpp"

#include "obligation.hpp"
#include "trace_bmc.hpp"
#include "z3_domain.hpp"

namespace tagproof::solver {

namespace {
// The configuration's inputs pinned to their values.
z3::expr pin(z3::context& c, const SymInputs& in, const ConcreteConfig& k) {
    auto is = [&](const z3::expr& b, bool v) { return v ? b : !b; };
    return is(in.rt.hw_tags, k.mode == Mode::hw_tags) && is(in.rt.sw_tags, k.mode == Mode::sw_tags) &&
           is(in.rt.generic, k.mode == Mode::generic) && is(in.rt.mte, k.mte) && is(in.rt.kasan_off, k.kasan_off) &&
           is(in.rt.vmalloc_param, k.vmalloc_param) && is(in.rt.config_kasan_vmalloc, k.config_kasan_vmalloc) &&
           is(in.init_on_alloc, k.init_on_alloc) && is(in.init_on_free, k.init_on_free) &&
           in.sample == c.bv_val(k.sample, 64) && in.sample_order == c.bv_val(k.sample_order, 64) &&
           is(in.tcf_async, k.check_mode == TagCheckMode::async) && is(in.tcf_asymm, k.check_mode == TagCheckMode::asymm) &&
           is(in.write_only, k.write_only);
}
}  // namespace

InstanceAnswer bmc_instance(const std::string& variant, const std::string& invariant, const ConcreteConfig& config,
                            const std::vector<gfp_t>& gfps, unsigned max_depth, unsigned timeout_ms) {
    const SymVariant& v = find_sym_variant(variant, "--variant");
    InstanceAnswer ans;
    for (unsigned depth = 1; depth <= max_depth; ++depth) {
        z3::context c;
        ContextScope scope(c);
        Builder b{c, v, nullptr, make_inputs(c), {}, {}, c.bv_val(0, 64), depth};
        b.e = make_env(v, b.in);
        Query q = trace_query(b, invariant);
        z3::solver s(c, "QF_BV");
        z3::params p(c);
        p.set("timeout", timeout_ms);
        s.set(p);
        for (const auto& d : b.in.domain) s.add(d);
        for (const auto& a : q.assumptions) s.add(a);
        s.add(pin(c, b.in, config));
        for (unsigned k = 0; k < depth; ++k) {
            z3::expr g = word(c, "step" + std::to_string(k) + ".gfp");
            z3::expr any = c.bool_val(false);
            for (gfp_t x : gfps) any = any || g == c.bv_val(x, 64);
            s.add(any);
        }
        s.add(q.violation);
        const z3::check_result r = s.check();
        if (r == z3::unknown) {
            ans.kind = InstanceAnswer::unknown;
            return ans;
        }
        if (r == z3::sat) {
            ans.kind = InstanceAnswer::violated;
            ans.depth = depth;
            if (q.scenario) ans.trace = q.scenario(s.get_model());
            return ans;
        }
    }
    return ans;
}

}  // namespace tagproof::solver
