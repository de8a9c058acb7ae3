// property.cpp — see property.hpp.
#include "property.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <rapidcheck/Check.hpp>

#include "error.hpp"
#include "event.hpp"
#include "runner.hpp"
#include "scenario.hpp"

namespace tagproof::properties {

rc::Gen<Config> gen_config(const kernel::Variant& v, bool hw_active_allowed, const kernel::Variant* also) {
    BootParamSyntax syn = v.boot_syntax();
    if (also) {
        // lockstep with a baseline: only the parameters both kernels parse (a
        // patch's new parameter is its own, HW_TAGS-active, business)
        const BootParamSyntax b = also->boot_syntax();
        syn.page_alloc_sample = syn.page_alloc_sample && b.page_alloc_sample;
        syn.page_alloc_sample_order = syn.page_alloc_sample_order && b.page_alloc_sample_order;
    }
    return rc::gen::exec([syn, hw_active_allowed] {
        Config c;
        c.mode = *rc::gen::weightedElement<Mode>({{6, Mode::hw_tags}, {2, Mode::sw_tags}, {2, Mode::generic}});
        c.mte = *rc::gen::weightedElement<bool>({{9, true}, {1, false}});
        c.kfence = *rc::gen::weightedElement<bool>({{1, true}, {3, false}});
        c.nodes = *rc::gen::weightedElement<int>({{1, 2}, {2, 1}});
        c.lockdep = *rc::gen::weightedElement<bool>({{1, true}, {3, false}});
        std::string cmd;
        auto add = [&](const std::string& x) { cmd += (cmd.empty() ? "" : " ") + x; };
        bool off = *rc::gen::weightedElement<bool>({{1, true}, {6, false}});
        if (c.mode == Mode::hw_tags && (off || !hw_active_allowed)) {
            if (!off && c.mte) add("kasan=off");
            else if (off) add("kasan=off");
        }
        add(*rc::gen::elementOf(std::vector<std::string>{"", "kasan.mode=async", "kasan.mode=asymm"}));
        if (syn.page_alloc_sample)
            add(*rc::gen::elementOf(std::vector<std::string>{"", "", "kasan.page_alloc.sample=2",
                                                             "kasan.page_alloc.sample=3"}));
        if (syn.page_alloc_sample_order)
            add(*rc::gen::elementOf(std::vector<std::string>{"", "kasan.page_alloc.sample.order=0",
                                                             "kasan.page_alloc.sample.order=1"}));
        add(*rc::gen::elementOf(std::vector<std::string>{"", "", "init_on_alloc=1", "init_on_free=1"}));
        add(*rc::gen::elementOf(std::vector<std::string>{"", "", "kasan.vmalloc=off"}));
        add("kasan_multi_shot");
        // collapse the blanks the choices left
        std::string out, tok;
        std::istringstream in(cmd);
        while (in >> tok) out += (out.empty() ? "" : " ") + tok;
        c.cmdline = out;
        return c;
    });
}

AbstractState initial_state(const kernel::Variant& v, const Config& c, const kernel::Variant* baseline) {
    AbstractState s;
    BuildConfig b;
    b.mode = c.mode;
    b.lockdep = c.lockdep;
    s.hw = c.mode == Mode::hw_tags;
    s.kfence = c.kfence;
    s.nodes = c.nodes;
    s.gfp_choices = differential::gfp_vocabulary(v, b, baseline);
    s.isolation = baseline != nullptr;
    return s;
}

namespace {

// Does the scenario still show `invariant` in some run?
bool shows(const std::string& text, const std::string& invariant) {
    return !scenario::violations_shown(text, invariant).empty();
}

}  // namespace


// After RapidCheck's shrink (which removes commands but is limited by the
// random tags the remaining ones draw), remove event lines one at a time
// while the scenario still shows the violation: the shortest replayable trace.
std::string minimise_scenario(const std::string& text, const std::string& invariant, std::size_t& events) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l)) lines.push_back(l);
    auto is_event = [](const std::string& x) {
        return !x.empty() && x[0] != '#' && x.find('(') != std::string::npos && x.rfind("doc", 0) != 0 &&
               x.rfind("boot", 0) != 0 && x.rfind("config", 0) != 0;
    };
    auto join = [](const std::vector<std::string>& ls) {
        std::string t;
        for (const auto& x : ls) t += x + "\n";
        return t;
    };
    bool progress = true;
    while (progress) {
        progress = false;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (!is_event(lines[i])) continue;
            std::vector<std::string> cand = lines;
            cand.erase(cand.begin() + std::ptrdiff_t(i));
            if (shows(join(cand), invariant)) {
                lines = cand;
                progress = true;
                --i;
            }
        }
    }
    events = 0;
    for (const auto& x : lines) events += is_event(x);
    return join(lines);
}


std::uint64_t round_seed(int round, std::uint64_t base) {
    if (!base) base = rc::detail::configuration().testParams.seed;
    std::uint64_t s = base + std::uint64_t(round) * 0x9E3779B97F4A7C15ull;
    return s ? s : 1;  // 0 would mean "the configured seed"
}

bool seed_configured() {
    const char* p = std::getenv("RC_PARAMS");
    return p && std::string(p).find("seed=") != std::string::npos;
}

std::uint64_t seed_of(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
    return h ? h : 1;
}

PropertyResult run_check(const std::string& name, const std::function<void()>& property, int tests, int max_size,
                         std::uint64_t seed) {
    PropertyResult r;
    rc::detail::TestParams params = rc::detail::configuration().testParams;
    params.maxSuccess = tests;
    if (max_size > 0) params.maxSize = max_size;
    if (seed) params.seed = seed;
    rc::detail::TestMetadata meta;
    // no id: RapidCheck's at-exit "reproduce with" lines are for its own
    // runner; we print the seed, and the scenario that replays the failure
    meta.description = name;
    auto result = rc::detail::checkTestable(property, meta, params);
    for (const auto& [key, f] : shared_with_baseline()) {
        LastFailure m = f;
        m.scenario = minimise_scenario(f.scenario, f.invariant, m.events);
        r.shared[key] = m;
    }
    rc::detail::SuccessResult ok;
    rc::detail::FailureResult fail;
    if (result.match(ok)) {
        r.cases = ok.numSuccess;
        return r;
    }
    r.passed = false;
    if (result.match(fail)) {
        r.cases = fail.numSuccess + 1;
        std::cerr << "- " << name << ": falsifiable after " << r.cases << " cases (seed=" << params.seed << ")\n";
        // a failure no invariant explains is the harness's or the model's (an exception): say what
        if (last_failure().invariant.empty()) std::cerr << "  " << fail.description << "\n";
    } else {
        std::cerr << "- " << name << ": gave up (seed=" << params.seed << ")\n";
    }
    r.failure = last_failure();
    if (!r.failure.scenario.empty())
        r.failure.scenario = minimise_scenario(r.failure.scenario, r.failure.invariant, r.failure.events);
    return r;
}

PropertyResult check_invariants(const kernel::Variant& v, const PropertyOptions& opt) {
    PropertyResult r;
    last_failure() = LastFailure{};
    shared_with_baseline().clear();
    const kernel::Variant* base = opt.isolation ? &kernel::find_variant(v.baseline()) : nullptr;
    auto property = [&v, base, opt] {
        Config c = *gen_config(v, !opt.isolation, base);
        auto picks = *rc::gen::container<std::vector<std::uint8_t>>(rc::gen::weightedOneOf<std::uint8_t>(
            {{4, rc::gen::just<std::uint8_t>(0)}, {1, rc::gen::arbitrary<std::uint8_t>()}}));
        AbstractState s0 = initial_state(v, c, base);
        Sut sut(v, c, picks);
        if (opt.assert_recorded) sut.allowed.clear();
        for (const auto& d : opt.ignore) sut.allowed.insert(d);
        if (!base && opt.baseline_filter && !v.baseline().empty()) {
            try {
                sut.twin = std::make_unique<Sut>(kernel::find_variant(v.baseline()), c, picks);
                sut.twin_filters = true;
                for (const auto& inv : spec::invariant_names()) sut.twin->allowed.insert(inv);
            } catch (const std::exception&) {
                sut.twin.reset();  // the baseline cannot boot this configuration: nothing to filter with
            }
        }
        if (base) {
            sut.twin = std::make_unique<Sut>(*base, c, picks);
            sut.allowed.clear();  // isolation asks only for equal outcomes
            if (!opt.assert_recorded)
                for (const auto& d : kernel::expected_defects(v)) sut.allowed.insert(d);
            for (const auto& d : opt.ignore) sut.allowed.insert(d);
        }
        RC_TAG(mode_name(c.mode));
        auto cmds = *rc::gen::resize(int(opt.max_events), rc::state::gen::commands(s0, command_generator()));
        rc::state::runAll(cmds, s0, sut);
    };
    const std::string name = v.name() + (opt.isolation ? ": mode-isolation against " + v.baseline() : ": invariants");
    r = run_check(name, property, opt.tests, 0, opt.seed);
    if (!r.passed) {
        if (!r.failure.scenario.empty() && opt.write_failure) {
            // written where `tagproof run` can replay it
            const char* dir = std::getenv("TAGPROOF_RC_SCENARIOS");
            std::string d = !opt.failure_dir.empty() ? opt.failure_dir : dir && *dir ? dir : "rapidcheck-failures";
            std::filesystem::create_directories(d);
            std::string file = d + "/" + v.name() + "." + r.failure.invariant + ".litmus";
            std::ofstream(file) << r.failure.scenario;
            std::cerr << "shrunk to " << r.failure.events << " events; scenario written to " << file
                      << " (replay: tagproof run " << file << ")\n"
                      << r.failure.scenario;
        }
    }
    return r;
}

}  // namespace tagproof::properties
