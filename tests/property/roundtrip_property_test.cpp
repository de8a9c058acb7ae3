// Round trips: GFP values print and parse back in every era and build; a
// command line printed from boot parameters parses back to the same values.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "boot_params.hpp"
#include "gfp.hpp"
#include "variant.hpp"

using namespace tagproof;

RC_GTEST_PROP(GfpRoundTrip, PrintThenParseIsIdentity, ()) {
    // every built-in variant's layout (the eras, and sample-v2's own bit)
    const auto& vs = kernel::all_variants();
    const kernel::Variant& v = *vs[*rc::gen::inRange<std::size_t>(0, vs.size())];
    BuildConfig b;
    b.mode = *rc::gen::element(Mode::none, Mode::generic, Mode::sw_tags, Mode::hw_tags);
    b.lockdep = *rc::gen::arbitrary<bool>();
    GfpLayout L = v.gfp_layout(b);
    gfp_t g = *rc::gen::arbitrary<std::uint64_t>() & L.bits_mask();
    RC_ASSERT(L.parse(L.print(g), "roundtrip") == g);
}

RC_GTEST_PROP(BootParamsRoundTrip, CmdlineOfParamsParsesBack, ()) {
    BootParams p;
    p.kasan = *rc::gen::element(KasanArg::deflt, KasanArg::on, KasanArg::off);
    p.mode = *rc::gen::element(TagCheckMode::sync, TagCheckMode::async, TagCheckMode::asymm);
    p.vmalloc = *rc::gen::arbitrary<bool>();
    p.page_alloc_sample = *rc::gen::inRange<std::uint64_t>(1, 1000);
    p.page_alloc_sample_order = *rc::gen::inRange<std::uint32_t>(0, 20);
    p.stacktrace = *rc::gen::arbitrary<bool>();
    p.fault = *rc::gen::element(FaultPolicy::report, FaultPolicy::panic, FaultPolicy::panic_on_write);
    p.write_only = *rc::gen::arbitrary<bool>();
    p.multi_shot = *rc::gen::arbitrary<bool>();
    p.init_on_alloc = *rc::gen::arbitrary<bool>();
    p.init_on_free = *rc::gen::arbitrary<bool>();
    BootParams q = parse_boot_params(p.to_cmdline());
    RC_ASSERT(q.diagnostics.empty());
    RC_ASSERT(q.to_cmdline() == p.to_cmdline());
}
