// family_walk_property.cpp — see family_walk_property.hpp.
#include "family_walk_property.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include <rapidcheck.h>

#include "boot_params.hpp"
#include "error.hpp"
#include "family_walk.hpp"
#include "observe.hpp"
#include "variant.hpp"

namespace tagproof::properties {

namespace {

// The walk of `choices` under `variant` (nullptr when it cannot run there:
// a baseline without the family's entry points or boot syntax).
std::unique_ptr<explore::FamilyWalk> walk(const explore::FamilyOptions& fo, std::uint64_t seed,
                                          const std::vector<std::uint16_t>& choices, explore::WalkStarts& starts) {
    auto w = std::make_unique<explore::FamilyWalk>(fo, seed, &starts);
    for (std::uint16_t c : choices) w->step(c);
    return w;
}

// The first event at which `base` (replaying w's events) shows something
// else, as "mode-isolation: ..." with its count of events; "" when they
// agree, or when the baseline cannot take one of the events (no verdict).
std::pair<std::string, std::size_t> first_difference(const explore::FamilyWalk& w, explore::FamilyWalk& base,
                                                     const std::string& variant, const std::string& baseline, Mode mode) {
    const std::string at = std::string("mode-isolation: ") + mode_name(mode) + ": ";
    for (std::size_t i = 0; i < w.taken().size(); ++i) {
        if (!base.step_lines(w.taken()[i].first, w.taken()[i].second)) return {"", 0};
        if (base.observed()[i] != w.observed()[i])
            return {at + variant + ": " + w.observed()[i] + "; " + baseline + ": " + base.observed()[i], i + 1};
    }
    // an invariant one side breaks and the other keeps is an outcome too
    auto broken = [](const explore::FamilyWalk& x) {
        std::set<std::string> s;
        for (const auto& b : x.broken()) s.insert(b.invariant);
        return s;
    };
    const std::string diff = scenario::broken_difference(variant, broken(w), baseline, broken(base));
    if (diff.empty()) return {"", 0};
    return {at + diff, w.taken().size()};
}

}  // namespace

PropertyResult check_family_walks(const kernel::Variant& v, const WalkOptions& opt) {
    last_failure() = LastFailure{};
    shared_with_baseline().clear();
    std::vector<explore::Family> fams;
    for (const auto& f : explore::families(v))
        // a family left out of the walks (vmalloc_huge: a model of 1600 pages
        // a walk) only when asked for by name
        if (opt.family.empty() ? f.walked : f.name == opt.family) fams.push_back(f);
    if (fams.empty()) throw InputError("--family", "'" + opt.family + "' is no family of " + v.name());
    std::set<std::string> allowed = opt.ignore;
    if (!opt.assert_recorded)
        for (const auto& d : kernel::expected_defects(v)) allowed.insert(d);
    const std::string base = opt.baseline_filter ? v.baseline() : "";
    // Each mode's whole boot product. Filtered by a baseline, the baseline
    // walks the same events booted as its kernel would boot the same command
    // line: a parameter its era does not parse (kasan.page_alloc.sample on a
    // v6.1 base) is unknown to it and ignored (review.cpp's booted_by, the
    // classification a finding gets). Dropping those boots instead left the
    // patch's own parameters unwalked.
    std::map<Mode, std::vector<explore::BootConfig>> configs;
    std::vector<Mode> weighted;  // HW_TAGS three times: 6:2:2, as the command sequences draw it
    for (Mode m : {Mode::hw_tags, Mode::sw_tags, Mode::generic}) {
        if (!opt.modes.empty() && std::find(opt.modes.begin(), opt.modes.end(), m) == opt.modes.end()) continue;
        configs[m] = explore::boot_product(v, true, m);
        weighted.insert(weighted.end(), m == Mode::hw_tags ? 3 : 1, m);
    }
    if (weighted.empty()) throw InputError("walk modes", "no KASAN mode of the walk boots under " + v.name());
    // each walk copies its start from here (a quarter of a burst was making them)
    explore::WalkStarts starts;
    auto property = [&] {
        explore::FamilyOptions fo;
        fo.variant = v.name();
        fo.family = *rc::gen::elementOf(fams);
        fo.mode = *rc::gen::elementOf(weighted);
        fo.config = *rc::gen::elementOf(configs.at(fo.mode));
        const auto seed = *rc::gen::arbitrary<std::uint64_t>();
        // uniform choices, not RapidCheck's size-scaled integers: those stay
        // below the size, and an event late in a long enabled list (the
        // owner's read after vmap, at 8 of 10) was never drawn; they shrink
        // toward 0, the first enabled event
        const auto choices = *rc::gen::resize(
            int(opt.max_events),
            rc::gen::container<std::vector<std::uint16_t>>(rc::gen::inRange<std::uint16_t>(0, 4096)));
        RC_TAG(fo.family.name, mode_name(fo.mode));
        const auto w = walk(fo, seed, choices, starts);
        std::set<std::string> theirs;
        if (!base.empty() && !w->broken().empty()) {
            explore::FamilyOptions bo = fo;
            bo.variant = base;
            bo.config.boot = parse_boot_params(fo.config.boot, kernel::find_variant(base).boot_syntax()).to_cmdline();
            try {
                const auto bw = walk(bo, seed, choices, starts);  // named: broken() lives in it
                for (const auto& b : bw->broken()) theirs.insert(b.invariant);
            } catch (const std::exception&) {
                // the baseline cannot run this family or configuration: nothing to filter with
            }
        }
        for (const auto& b : w->broken()) {
            if (lets_pass(allowed, b.invariant, fo.mode)) continue;
            if (theirs.count(b.invariant)) {
                note_shared(b.invariant, fo.mode, b.message, w->scenario(b.invariant), b.events);
                continue;
            }
            LastFailure& lf = last_failure();
            lf.invariant = b.invariant;
            lf.message = b.message;
            lf.scenario = w->scenario(b.invariant);
            lf.events = b.events;
            RC_FAIL(fo.family.name + " family, " + fo.config.name() + ": " + b.message);
        }
        // after the invariants: a walk that breaks what the baseline breaks too
        // is noted as shared (above) before its outcomes are compared
        if (opt.isolation && !v.baseline().empty() && !w->hw_tags_active() &&
            !lets_pass(allowed, "mode-isolation", fo.mode)) {
            explore::FamilyOptions bo = fo;
            bo.variant = v.baseline();
            // held to the baseline only on a boot line it reads as the variant does
            bool boots = true;
            try {
                (void)parse_boot_params_strict(fo.config.boot, "walk boot", kernel::find_variant(bo.variant).boot_syntax());
            } catch (const std::exception&) {
                boots = false;
            }
            std::unique_ptr<explore::FamilyWalk> bw;
            if (boots) try {
                    bw = std::make_unique<explore::FamilyWalk>(bo, seed, &starts);
                } catch (const std::exception&) {
                    // the baseline has no such family or configuration: nothing to compare with
                }
            if (bw) {
                const auto [diff, events] = first_difference(*w, *bw, v.name(), bo.variant, fo.mode);
                if (!diff.empty()) {
                    LastFailure& lf = last_failure();
                    lf.invariant = "mode-isolation";
                    lf.message = diff;
                    lf.scenario = w->scenario("mode-isolation", bo.variant, events);
                    lf.events = events;
                    RC_FAIL(fo.family.name + " family, " + fo.config.name() + ": " + diff);
                }
            }
        }
    };
    return run_check(v.name() + ": family walks", property, opt.tests, int(opt.max_events), opt.seed);
}

}  // namespace tagproof::properties
