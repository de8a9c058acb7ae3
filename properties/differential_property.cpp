// differential_property.cpp — see differential_property.hpp.
#include "differential_property.hpp"

#include <rapidcheck/Check.hpp>

#include "lockstep.hpp"

namespace tagproof::properties {

using differential::AccessKind;
using differential::Event;
using differential::Op;

// Ops weighted toward what changes tags: allocations, frees, accesses.
rc::Gen<Event> gen_event() {
    return rc::gen::exec([] {
        Event e;
        e.op = *rc::gen::weightedElement<Op>({{4, Op::alloc_pages}, {2, Op::free_pages}, {4, Op::kmalloc},
                                              {3, Op::kfree}, {2, Op::vmalloc}, {2, Op::vfree}, {2, Op::stack_alloc},
                                              {2, Op::stack_free}, {2, Op::pgtable_alloc}, {1, Op::pgtable_free},
                                              {1, Op::skb_alloc}, {6, Op::access}, {1, Op::reset_tag},
                                              {1, Op::check_async}, {1, Op::rcu_barrier}});
        e.cpu = *rc::gen::weightedElement<std::uint8_t>({{3, 0}, {1, 1}});
        e.order = *rc::gen::inRange<std::uint8_t>(0, 5);
        e.gfp = *rc::gen::arbitrary<std::uint8_t>();
        e.size = *rc::gen::elementOf(e.op == Op::vmalloc ? differential::vmalloc_sizes() : differential::kmalloc_sizes());
        e.zero = *rc::gen::arbitrary<bool>();
        e.pgkind = *rc::gen::inRange<std::uint8_t>(0, 3);
        e.pick = *rc::gen::inRange<std::uint32_t>(0, 64);
        e.where = *rc::gen::weightedOneOf<std::uint8_t>({{4, rc::gen::inRange<std::uint8_t>(0, 64)},
                                                        {2, rc::gen::inRange<std::uint8_t>(64, 97)},
                                                        {1, rc::gen::inRange<std::uint8_t>(97, 113)}});
        e.len = *rc::gen::elementOf(differential::access_lengths());
        e.kind = *rc::gen::elementOf(std::vector<AccessKind>{AccessKind::read, AccessKind::write, AccessKind::rmw});
        return e;
    });
}

rc::Gen<differential::DiffConfig> gen_diff_config(const kernel::Variant& v) {
    std::vector<std::string> words = differential::cmdline_vocabulary(v);
    return rc::gen::exec([words] {
        differential::DiffConfig c;
        c.mte = *rc::gen::weightedElement<bool>({{9, true}, {1, false}});
        std::string cmd;
        for (int i = 0; i < 2; ++i) differential::add_boot_word(cmd, *rc::gen::elementOf(words));
        if (*rc::gen::weightedElement<bool>({{4, true}, {1, false}})) differential::add_boot_word(cmd, "kasan_multi_shot");
        c.cmdline = cmd;
        return c;
    });
}

DiffResult check_differential(const kernel::Variant& v, const DiffOptions& opt) {
    DiffResult out;
    auto shortest = std::make_shared<DiffResult>();
    auto property = [&v, opt, shortest] {
        differential::DiffConfig c = *gen_diff_config(v);
        auto picks = *rc::gen::container<std::vector<std::uint8_t>>(rc::gen::arbitrary<std::uint8_t>());
        auto events = *rc::gen::resize(opt.max_events, rc::gen::container<std::vector<Event>>(gen_event()));
        differential::Lockstep ls(v, c, picks, opt.mutation);
        std::string d = ls.run(events);
        shortest->events_run += ls.trace().size();
        shortest->reports_compared += ls.model().reports().size();
        shortest->tags_drawn += ls.model().chosen_tags().size();
        if (!d.empty() && (shortest->mismatch.empty() || ls.trace().size() < shortest->events)) {
            shortest->mismatch = d;
            shortest->events = ls.trace().size();
            shortest->scenario = ls.scenario();
        }
        RC_ASSERT(d.empty());
    };
    rc::detail::TestParams params = rc::detail::configuration().testParams;
    params.maxSuccess = opt.sequences;
    params.maxSize = opt.max_events;
    if (opt.seed) params.seed = opt.seed;
    rc::detail::TestMetadata meta;
    meta.id = meta.description = v.name() + ": reference == model";
    auto result = rc::detail::checkTestable(property, meta, params);
    rc::detail::SuccessResult ok;
    rc::detail::FailureResult fail;
    out.events_run = shortest->events_run;
    out.reports_compared = shortest->reports_compared;
    out.tags_drawn = shortest->tags_drawn;
    if (result.match(ok)) {
        out.sequences_run = ok.numSuccess;
    } else {
        out.passed = false;
        if (result.match(fail)) out.sequences_run = fail.numSuccess;
        out.mismatch = shortest->mismatch;
        out.events = shortest->events;
        out.scenario = shortest->scenario;
        if (out.mismatch.empty()) out.mismatch = "RapidCheck gave up (too many discarded cases)";
    }
    return out;
}

}  // namespace tagproof::properties
