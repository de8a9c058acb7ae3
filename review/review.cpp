// review.cpp — see review.hpp.
#include "review.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "corpus.hpp"
#include "boot_params.hpp"
#include "error.hpp"
#include "explorer.hpp"
#include "cross_check.hpp"
#include "proofs.hpp"
#include "family_explorer.hpp"
#include "decided_cache.hpp"
#include "proof_cache.hpp"
#include "family_walk_property.hpp"
#include "property.hpp"
#include "report.hpp"
#include "prove.hpp"
#include "runner.hpp"
#include "scenario.hpp"
#include "variant.hpp"

namespace tagproof::review {

const std::vector<std::string>& properties() { return spec::invariant_names(); }

std::string property_statement(const std::string& p) {
    static const std::map<std::string, std::string> s = {
        {"match-all-never-faults", "an access through a match-all (0xFF) pointer never faults"},
        {"mismatch-faults", "an access whose pointer tag differs from the memory tag faults while checking is on"},
        {"no-false-positive", "an in-bounds access to a live allocation through its own pointer (or its page's page_address()) never faults, and freeing it through one is not reported"},
        {"detection", "use-after-free and out-of-bounds accesses fault where KASAN's tags differ, and an "
                      "allocation's pointer keeps a random tag unless its caller may have match-all or the "
                      "patch claims it"},
        {"zeroing", "memory its caller requires zeroed (page tables, stacks, __GFP_ZERO, vzalloc, "
                    "init_on_alloc, init_on_free) reads as zero; PROT_MTE user pages have zero tags"},
        {"page-tag-consistency", "page_address()'s tag matches the memory tags, and free-time poisoning matches "
                                 "alloc-time tagging"},
        {"tag-range", "random tags stay in the architecture's range and never equal the match-all or poison tag"},
        {"sampling-accounting", "kasan.page_alloc.sample=N tags exactly 1 in N eligible allocations per CPU"},
        {"mode-isolation", "outside the modes the patch claims to change, no outcome differs from the baseline"},
        {"gfp-encoding", "every GFP flag lies inside __GFP_BITS_MASK and no two flags share a bit"},
    };
    auto it = s.find(p);
    return it == s.end() ? p : it->second;
}

const char* status_name(SourceVerdict::Status s) {
    switch (s) {
        case SourceVerdict::holds: return "holds";
        case SourceVerdict::counterexample: return "counterexample";
        case SourceVerdict::not_covered: return "not covered";
        case SourceVerdict::unknown: return "unknown";
    }
    return "?";
}

// A recorded defect must show in some mode; every other counterexample must
// be one the baseline shows too (not the patch's doing).
bool VariantReview::as_recorded() const {
    for (const auto& v : verdicts)
        if (v.unrecorded()) return false;
    for (const auto& p : properties()) {
        bool violated = false, recorded = false;
        for (const auto& v : verdicts)
            if (v.property == p) {
                violated |= v.violated;
                recorded |= v.recorded;
            }
        if (recorded && !violated) return false;
    }
    return true;
}

namespace {

// The first mode a scenario's "modes" line names (hw_tags if none).
Mode scenario_mode(const std::string& text) {
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l))
        if (l.rfind("modes ", 0) == 0) {
            std::istringstream w(l.substr(6));
            std::string m;
            if (w >> m) return parse_mode(m, "scenario");
        }
    return Mode::hw_tags;
}

std::size_t event_lines(const std::string& text, bool with_observations = false) {
    static const std::set<std::string> headers = {"name", "doc", "source", "variant", "baseline", "modes", "config",
                                                  "boot", "expect", "harness"};
    std::istringstream in(text);
    std::string l;
    std::size_t n = 0;
    while (std::getline(in, l)) {
        std::string w = l.substr(0, l.find_first_of(" \t"));
        if (l.empty() || l[0] == '#') continue;
        // checks, assumptions and observations are statements, not events
        const bool observation = w == "observe" || w == "check" || w == "assume";
        if (observation ? !with_observations : headers.count(w)) continue;
        if (l.find("page_address(") != std::string::npos && l.find('=') != std::string::npos) continue;
        ++n;
    }
    return n;
}

// The scenario's text with its variant line set to `variant`.
std::string with_variant(const std::string& text, const std::string& variant) {
    std::istringstream in(text);
    std::string l, out;
    bool done = false;
    while (std::getline(in, l)) {
        if (l.rfind("variant ", 0) == 0) {
            if (!done) out += "variant " + variant + "\n";
            done = true;
            continue;
        }
        out += l + "\n";
        if (!done && l.rfind("name ", 0) == 0) {
            out += "variant " + variant + "\n";
            done = true;
        }
    }
    return out;
}

// The scenario compared against `baseline` event by event (mode-isolation).
std::string with_baseline(const std::string& text, const std::string& baseline) {
    std::istringstream in(text);
    std::string l, out;
    while (std::getline(in, l)) {
        if (l.rfind("baseline ", 0) == 0) continue;
        out += l + "\n";
        if (l.rfind("variant ", 0) == 0) out += "baseline " + baseline + "\n";
    }
    return out;
}

std::string read_text(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

struct Grid {
    VariantReview& r;
    const ReviewOptions& opt;
    PropertyVerdict* at(const std::string& p, Mode m) {
        for (auto& v : r.verdicts)
            if (v.property == p && v.mode == m) return &v;
        return nullptr;
    }
    SourceVerdict& source(const std::string& p, Mode m, const std::string& src) {
        PropertyVerdict* pv = at(p, m);
        for (auto& s : pv->sources)
            if (s.source == src) return s;
        pv->sources.push_back({src, SourceVerdict::not_covered, ""});
        return pv->sources.back();
    }
};

}  // namespace

// A finding's candidate, kept in the review until finalize() picks the
// shortest per (property, mode).
static void add_candidate(VariantReview& r, Finding f) {
    f.variant = r.variant;
    f.baseline = r.baseline;
    for (const auto& d : r.recorded_defects) f.recorded |= d == f.property;
    r.candidates.push_back(std::move(f));
}

// What a violation is, to tell the same one apart from another of the same
// property: the event it showed at and the kind of failure.
static std::string violation_key(const std::string& vt) {
    std::string rest = vt.substr(vt.find(':') + 1);
    if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    std::string event = rest.substr(0, rest.find(": "));
    return event + " | " + violation_kind(vt.substr(0, vt.find(':')), vt);
}

// The keys of `property`'s violations when the scenario runs under `variant`
// in `mode` (expectations stripped: the violations are the verdict).
static std::set<std::string> violation_keys(const std::string& scenario_text, const std::string& variant, Mode mode,
                                            const std::string& property) {
    std::set<std::string> keys;
    const std::string text = replay_text(with_variant(scenario_text, variant), mode);
    // (a baseline that cannot run it, lacking a flag or entry point, shows none)
    for (const auto& vt : scenario::violations_shown(text, property, mode, 256, 100)) keys.insert(violation_key(vt));
    return keys;
}

// The scenario as `variant`'s kernel boots it: a parameter its era does not
// parse (kasan.page_alloc.sample before v6.3) is an unknown parameter that
// kernel ignores (handed on to init), so it is dropped from the boot line,
// not allowed to make the scenario unrunnable.
static std::string booted_by(const std::string& text, const std::string& variant) {
    const kernel::Variant& v = kernel::find_variant(variant, "--baseline");
    std::istringstream in(text);
    std::string l, out;
    while (std::getline(in, l)) {
        if (l.rfind("boot ", 0) == 0) {
            const std::string kept = parse_boot_params(l.substr(5), v.boot_syntax()).to_cmdline();
            if (!kept.empty()) out += "boot " + kept + "\n";
            continue;
        }
        out += l + "\n";
    }
    return out;
}

// Does the finding's scenario show the same violation (same event, same kind
// of failure) under the baseline? Then it is not the patch's doing: "also
// in <baseline>". Mode-isolation findings are differences from the
// baseline: never in it.
// Every obligation the solver proved with HW_TAGS in scope, enumerated by
// the families explorer over the same entry point (explore/cross_check.hpp):
// a transition that breaks it means the solver and the model disagree, a
// modelling gap that makes the review undecided, never a proof.
static void cross_check_proofs(VariantReview& r, Grid& g, std::size_t proved, const explore::CrossChecker& checker) {
    std::size_t agree = 0;
    std::string open;
    for (const auto& cc : checker.results()) {
        if (cc.kind == explore::CrossCheck::agrees) {
            ++agree;
        } else if (cc.kind == explore::CrossCheck::not_enumerated) {
            open += (open.empty() ? "" : "; ") + cc.obligation + ": " + cc.detail;
        } else {
            r.gaps.push_back("solver " + cc.obligation + " proved, but the explorer enumerates a violation: " + cc.detail);
            r.unknown = true;
            const std::string inv = cc.obligation.substr(0, cc.obligation.find('/'));
            if (g.at(inv, Mode::hw_tags)) {
                SourceVerdict& s = g.source(inv, Mode::hw_tags, "solver");
                if (s.status != SourceVerdict::counterexample)
                    s = {"solver", SourceVerdict::unknown, "modelling gap: " + cc.obligation + " proved, the explorer disagrees"};
            }
        }
    }
    r.notes.push_back("cross-check: " + std::to_string(agree) + " of " + std::to_string(proved) +
                      " proved obligations enumerated by the families explorer (default boot) and not broken there" +
                      (open.empty() ? std::string() : "; not enumerated: " + open));
}

static bool shown_by_baseline(const Finding& f, const std::string& variant, const std::string& baseline) {
    if (baseline.empty() || f.property == "mode-isolation") return false;
    const auto mine = violation_keys(f.scenario, variant, f.mode, f.property);
    const auto theirs = violation_keys(booted_by(f.scenario, baseline), baseline, f.mode, f.property);
    for (const auto& k : mine)
        if (theirs.count(k)) return true;
    return false;
}

std::vector<std::string> fixed_by(const VariantReview& baseline, const VariantReview& series) {
    std::vector<std::string> out;
    for (const auto& b : baseline.verdicts) {
        if (!b.violated) continue;
        for (const auto& s : series.verdicts) {
            if (s.property != b.property || s.mode != b.mode || s.violated) continue;
            bool checked = false;
            for (const auto& sv : s.sources) checked |= sv.status != SourceVerdict::not_covered;
            if (checked) out.push_back(b.property + " [" + mode_name(b.mode) + "]");
        }
    }
    return out;
}

static void finalize(VariantReview& r) {
    // one finding per (property, mode): the shortest candidate the baseline
    // does not show, else the shortest (then "also in <baseline>")
    // (asked lazily, once per candidate: each answer is two model replays)
    auto in_baseline = [&r](Finding& f) {
        if (!f.baseline_asked) {
            f.in_baseline = shown_by_baseline(f, r.variant, r.baseline);
            f.baseline_asked = true;
        }
        return f.in_baseline;
    };
    std::map<std::pair<std::string, Mode>, std::vector<Finding*>> cands;
    for (auto& f : r.candidates) cands[{f.property, f.mode}].push_back(&f);
    r.findings.clear();
    for (auto& pv : r.verdicts) {
        pv.violated = false;
        pv.in_baseline = false;
        for (const auto& s : pv.sources) pv.violated |= s.status == SourceVerdict::counterexample;
        auto it = cands.find({pv.property, pv.mode});
        if (!pv.violated || it == cands.end()) continue;
        auto& v = it->second;
        // fewest events, then fewest statements (a check or an observation
        // is a statement, not an event: of two traces of two allocations, the
        // one that also checks a constant is the longer)
        std::stable_sort(v.begin(), v.end(), [](const Finding* a, const Finding* b) {
            const std::size_t ea = event_lines(a->scenario), eb = event_lines(b->scenario);
            if (ea != eb) return ea < eb;
            return event_lines(a->scenario, true) < event_lines(b->scenario, true);
        });
        const Finding* pick = nullptr;
        for (Finding* f : v)
            if (!in_baseline(*f)) {
                pick = f;
                break;
            }
        if (!pick) pick = v.front();
        // each source's own, where the finding is not recorded: all its
        // counterexamples here are the baseline's too
        for (auto& s : pv.sources) {
            s.in_baseline = false;
            if (s.status != SourceVerdict::counterexample || pv.recorded) continue;
            bool any = false, all = true;
            const Finding* own = nullptr;  // the shortest of this source's the baseline does not show
            for (Finding* f : v)
                if (f->source == s.source && all) {
                    any = true, all = in_baseline(*f);
                    if (!all) own = f;
                }
            s.in_baseline = any && all;
            // the corpus names a file: the first that broke the property may
            // show the baseline's defect; name the series' own where one is
            if (own && s.source == "corpus" && !own->origin.empty()) s.detail = own->origin;
        }
        pv.in_baseline = pick->in_baseline;
        r.findings.push_back(*pick);
        // another kind of violation of the same property the series brings
        // (executable memory tagged, and vmap()'s area faulting, in one cell):
        // named, the shortest of each kind, so that the reply does not hide it
        // (the solver's candidates carry its own message, not the model's: the
        // pick's kind is read from its replay, and the solver's are not named)
        if (!pick->in_baseline) {
            std::string pick_kind = violation_kind(pick->property, pick->happened);
            if (pick->source == "solver")
                for (const auto& vt : scenario::violations_shown(replay_text(with_variant(pick->scenario, r.variant), pick->mode),
                                                                 pick->property, pick->mode, 256, 100)) {
                    pick_kind = violation_kind(pick->property, vt);
                    break;
                }
            std::set<std::string> kinds{pick_kind};
            std::map<std::string, int> asked;  // replays per kind: at most 8 candidates of one kind are asked
            for (Finding* f : v) {
                if (f->source == "solver") continue;
                const std::string k = violation_kind(f->property, f->happened);
                if (kinds.count(k) || asked[k]++ >= 8 || in_baseline(*f)) continue;
                kinds.insert(k);
                r.findings.back().also.push_back(headline(*f) + " (" + f->source + ": " + f->origin + ")");
            }
        }
    }
}

VariantReview review_variant(const std::string& variant, const ReviewOptions& opt) {
    const kernel::Variant& v = kernel::find_variant(variant, "--variant");
    VariantReview r;
    r.variant = v.name();
    r.baseline = opt.baseline.empty() ? v.baseline() : opt.baseline;
    r.summary = v.summary();
    r.recorded_defects = v.known_defects();
    r.claims = kernel::describe_claims(v.claims());
    const kernel::ChangeScope scope = v.claims().changes;
    for (const auto& p : properties())
        for (Mode m : opt.modes) {
            PropertyVerdict pv;
            pv.property = p;
            pv.mode = m;
            for (const auto& d : r.recorded_defects) pv.recorded |= d == p;
            r.verdicts.push_back(pv);
        }
    Grid g{r, opt};
    auto wanted = [&](Mode m) { return std::count(opt.modes.begin(), opt.modes.end(), m) > 0; };

    // 1. the scenario corpus
    if (opt.corpus) {
        if (opt.progress) opt.progress(variant, "corpus");
        auto files = scenario::corpus_files(opt.corpus_dirs);
        if (files.empty()) throw InputError("--corpus", "no scenario files found");
        scenario::CorpusResult cr = scenario::run_corpus(files, r.variant);
        auto said_reused = [&](const scenario::CorpusResult& c, const std::string& who) {
            if (c.reused && opt.progress)
                opt.progress(who, "corpus kept from an earlier run of this binary over the same variant text and files "
                                  "(TAGPROOF_CORPUS_CACHE=off runs it again)");
        };
        said_reused(cr, variant);
        if (!cr.reused && cr.files_reused && opt.progress)
            opt.progress(variant, "corpus: " + std::to_string(cr.files_reused) + " of " + std::to_string(cr.files) +
                                      " files' runs kept from a variant that answered every question they asked "
                                      "alike (TAGPROOF_CORPUS_CACHE=off runs them again)");
        std::map<Mode, std::size_t> runs_by_mode;
        for (const auto& e : cr.entries) ++runs_by_mode[e.mode];
        for (const auto& p : properties())
            for (Mode m : opt.modes)
                if (runs_by_mode[m]) g.source(p, m, "corpus") = {"corpus", SourceVerdict::holds,
                                                                  std::to_string(runs_by_mode[m]) + " scenario files"};
        for (const auto& e : cr.entries) {
            if (!wanted(e.mode)) continue;
            for (const auto& vt : e.violations) {
                std::string inv = vt.substr(0, vt.find(':'));
                if (!g.at(inv, e.mode)) continue;
                SourceVerdict& s = g.source(inv, e.mode, "corpus");
                if (s.status != SourceVerdict::counterexample)
                    s = {"corpus", SourceVerdict::counterexample, e.file.substr(e.file.rfind("/tests/") + 1)};
                Finding f;
                f.property = inv;
                f.mode = e.mode;
                f.source = "corpus";
                f.origin = e.file.substr(e.file.rfind("/tests/") + 1);
                f.scenario = with_variant(read_text(e.file), r.variant);
                f.happened = vt;
                add_candidate(r, f);
            }
        }
        // Every outcome that differs from the baseline: an intended change
        // where the claims cover the mode, else a mode-isolation finding.
        if (!r.baseline.empty()) {
            scenario::CorpusResult br = scenario::run_corpus(files, r.baseline);
            said_reused(br, r.baseline);
            std::map<std::string, std::string> before;
            for (const auto& e : br.entries) before[e.file + "|" + mode_name(e.mode)] = e.outcome;
            std::size_t listed = 0, changed = 0;
            for (const auto& e : cr.entries) {
                if (!wanted(e.mode)) continue;
                auto it = before.find(e.file + "|" + mode_name(e.mode));
                if (it == before.end() || it->second == e.outcome) continue;
                // the claim is about the runtime state, not the build: a HW_TAGS
                // build with kasan=off or without MTE is outside it
                const bool claimed = scope == kernel::ChangeScope::any ||
                                     (scope == kernel::ChangeScope::hw_tags_active && e.hw_tags_active);
                if (claimed) {
                    ++changed;
                    if (listed++ < 8)
                        r.changes.push_back("corpus [" + std::string(mode_name(e.mode)) + "] " + e.name + ": " +
                                            it->second + " -> " + e.outcome);
                    continue;
                }
                SourceVerdict& s = g.source("mode-isolation", e.mode, "corpus");
                if (s.status == SourceVerdict::counterexample) continue;
                s = {"corpus", SourceVerdict::counterexample, e.name + ": " + it->second + " -> " + e.outcome};
                Finding f;
                f.property = "mode-isolation";
                f.mode = e.mode;
                f.source = "corpus";
                f.origin = e.file.substr(e.file.rfind("/tests/") + 1);
                f.scenario = with_baseline(with_variant(read_text(e.file), r.variant), r.baseline);
                f.happened = e.name + " under " + r.baseline + ": " + it->second + "; under " + r.variant + ": " +
                             e.outcome + " (" + kernel::change_scope_name(scope) + " is what " + r.variant + " claims)";
                add_candidate(r, f);
            }
            if (changed > listed) r.changes.push_back("... " + std::to_string(changed - 8) + " more corpus outcomes");
        }
        r.notes.push_back("corpus: " + std::to_string(cr.runs) + " model runs over " + std::to_string(cr.entries.size()) +
                          " files and modes");
    }

    // what the solver proved with HW_TAGS in scope, for the explorer to enumerate (item 4)
    std::vector<explore::ProvedObligation> proved_obligations;
    // 2. the solver's obligations (within caller contracts)
    if (opt.solver) {
        if (opt.progress) opt.progress(variant, "solver");
        solver::ProveOptions po;
        po.variant = r.variant;
        po.baseline = opt.baseline;
        po.raw_scope = false;
        // proved[invariant][mode]: an obligation proved over every mode counts
        // in each; one that fails in some mode is solved again with each other
        // mode pinned, so a counterexample in one build never reads as a proof
        // in the others.
        std::map<std::string, std::map<Mode, std::size_t>> proved;
        std::size_t n = 0;
        std::vector<std::pair<std::string, Mode>> failed;  // (obligation, the mode of its counterexample)
        auto absorb = [&](const solver::Verdict& vd, std::optional<Mode> pin) {
            if (!vd.applicable || !vd.primary()) return;
            const auto& sv = *vd.primary();
            // what changes with HW tags active: intended where claimed, else a finding
            if (vd.informational) {
                if (sv.verdict != "changed" && sv.verdict != "counterexample") return;
                const bool confirmed = sv.replay.rfind("confirmed", 0) == 0;
                if (vd.id.rfind("changes/", 0) != 0 || scope != kernel::ChangeScope::none || !confirmed) {
                    if (!pin)
                        r.changes.push_back("solver " + vd.id + ": " +
                                            (sv.details.empty() ? sv.verdict : sv.details.front()) +
                                            (scope == kernel::ChangeScope::none ? " (unclaimed; " + sv.replay + ")" : ""));
                    return;
                }
            }
            if (!pin) ++n;
            // a counterexample the model does not reproduce is a gap in the
            // model or the encoding, never a finding
            if (sv.verdict == "counterexample" && !sv.replay_ok) {
                r.gaps.push_back("solver " + vd.id + ": " + sv.replay);
                r.unknown = true;
                Mode gm = sv.scenario.empty() ? (pin ? *pin : Mode::hw_tags) : scenario_mode(sv.scenario);
                if (g.at(vd.invariant, gm)) {
                    SourceVerdict& s = g.source(vd.invariant, gm, "solver");
                    if (s.status != SourceVerdict::counterexample)
                        s = {"solver", SourceVerdict::unknown, "modelling gap: " + vd.id + " not reproduced"};
                }
                return;
            }
            if (sv.verdict == "proved") {
                if (enumerable(vd) && (!pin || *pin == Mode::hw_tags)) proved_obligations.push_back({vd.id, vd.invariant});
                for (Mode m : opt.modes)
                    if (!pin || m == *pin) ++proved[vd.invariant][m];
                return;
            }
            if (sv.verdict == "unknown") {
                for (Mode m : opt.modes)
                    if (g.at(vd.invariant, m) && (!pin || m == *pin))
                        g.source(vd.invariant, m, "solver") = {"solver", SourceVerdict::unknown, vd.id};
                r.unknown = true;
                return;
            }
            if ((sv.verdict != "counterexample" && sv.verdict != "changed") || sv.scenario.empty()) return;
            Mode m = scenario_mode(sv.scenario);
            if (!pin) failed.push_back({vd.id, m});
            if (!g.at(vd.invariant, m)) return;
            SourceVerdict& s = g.source(vd.invariant, m, "solver");
            if (s.status != SourceVerdict::counterexample) s = {"solver", SourceVerdict::counterexample, vd.id};
            Finding f;
            f.property = vd.invariant;
            f.mode = m;
            f.source = "solver";
            f.origin = "obligation " + vd.id + " (" + vd.entry + ")";
            f.scenario = sv.scenario;
            add_candidate(r, f);
        };
        const std::size_t kept_before = solver::proof_cache_hits(), decided_before = solver::decided_cache_hits();
        for (const auto& vd : solver::prove(po)) absorb(vd, std::nullopt);
        for (const auto& [id, seen] : failed)
            for (Mode m : opt.modes) {
                if (m == seen) continue;
                solver::ProveOptions pin = po;
                pin.only = {id};
                pin.mode = m;
                for (const auto& vd : solver::prove(pin))
                    if (vd.id == id) absorb(vd, m);
            }
        for (const auto& p : properties())
            for (Mode m : opt.modes) {
                SourceVerdict& s = g.source(p, m, "solver");
                if (s.status == SourceVerdict::not_covered && proved[p][m])
                    s = {"solver", SourceVerdict::holds, "proved (" + std::to_string(proved[p][m]) + " obligations)"};
            }
        if (const std::size_t kept = solver::decided_cache_hits() - decided_before; kept && opt.progress)
            opt.progress(variant, "solver: " + std::to_string(kept) + " counterexamples kept from an earlier run of this "
                                  "binary over the same obligations and code (TAGPROOF_PROOF_CACHE=off finds them again)");
        if (const std::size_t kept = solver::proof_cache_hits() - kept_before; kept && opt.progress)
            opt.progress(variant, "solver: " + std::to_string(kept) + " proofs kept from an earlier run of this binary "
                                  "over the same queries (TAGPROOF_PROOF_CACHE=off proves them again)");
        r.notes.push_back("solver: " + std::to_string(n) + " obligations within caller contracts");
    }

    // 3. the explorer (HW_TAGS, the small instance)
    if (opt.explorer && wanted(Mode::hw_tags)) {
        if (opt.progress) opt.progress(variant, "explorer");
        explore::ExploreOptions eo;
        eo.variant = r.variant;
        eo.depth = opt.explore_depth;
        explore::ExploreResult er = explore::explore(eo);
        for (const auto& iv : er.verdicts) {
            SourceVerdict& s = g.source(iv.invariant, Mode::hw_tags, "explorer");
            if (!iv.violated) {
                s = {"explorer", SourceVerdict::holds, "holds within " + std::to_string(eo.depth) + " events"};
                continue;
            }
            s = {"explorer", SourceVerdict::counterexample, std::to_string(iv.path.size()) + " events"};
            Finding f;
            f.property = iv.invariant;
            f.mode = Mode::hw_tags;
            f.source = "explorer";
            f.origin = "breadth-first search of " + std::to_string(boost::num_vertices(er.graph)) + " states";
            f.scenario = er.scenario(iv);
            f.happened = iv.message;
            add_candidate(r, f);
        }
        r.notes.push_back("explorer: " + std::to_string(boost::num_vertices(er.graph)) + " states, " +
                          std::to_string(boost::num_edges(er.graph)) + " transitions, depth " +
                          std::to_string(eo.depth));
        // the vocabulary families: at the default boot to each one's review
        // depth, and to depth 2 under every other boot of the product
        // (sampling, init_on_free, kasan.vmalloc=off, no MTE, ...: paths
        // that exist only there, such as a mempool page re-issued sampled out)
        std::size_t fstates = 0, ftransitions = 0, explorations = 0, reused = 0;
        std::string depths, default_only;
        explore::CrossChecker checker(proved_obligations);
        const kernel::Variant& rv = kernel::find_variant(r.variant);
        const std::vector<explore::BootConfig> boots = explore::boot_product(rv, false);
        constexpr unsigned other_boot_depth = 2;
        for (const auto& fam : opt.families ? explore::families(rv) : std::vector<explore::Family>{}) {
            depths += (depths.empty() ? "" : ", ") + fam.name + " " + std::to_string(fam.review_depth);
            if (!fam.review_other_boots) default_only += (default_only.empty() ? ", but " : ", ") + fam.name;
            for (const auto& boot : boots) {
                const bool default_boot = boot.boot.empty() && boot.mte;
                if (!default_boot && !fam.review_other_boots) continue;
                explore::FamilyOptions fo;
                fo.variant = r.variant;
                fo.family = fam;
                fo.config = boot;
                fo.depth = default_boot ? fam.review_depth : std::min(fam.review_depth, other_boot_depth);
                const explore::FamilyResult fr = explore::explore_family(fo);
                ++explorations;
                reused += fr.reused;
                checker.add(fr);
                fstates += fr.states;
                ftransitions += fr.transitions;
                const std::string where = fam.name + (default_boot ? "" : ", " + boot.name());
                if (fr.truncated) r.notes.push_back("explorer: the " + where + " exploration was truncated (state budget)");
                for (const auto& fv : fr.verdicts) {
                    SourceVerdict& s = g.source(fv.invariant, Mode::hw_tags, "explorer");
                    if (!fv.violated) {
                        // a truncated family did not finish its budget: it cannot say "holds"
                        if (fr.truncated && s.status != SourceVerdict::counterexample)
                            s = {"explorer", SourceVerdict::unknown, "the " + where + " exploration was truncated"};
                        else if (s.status == SourceVerdict::not_covered)
                            s = {"explorer", SourceVerdict::holds, "holds within the families' depths"};
                        continue;
                    }
                    if (s.status != SourceVerdict::counterexample)
                        s = {"explorer", SourceVerdict::counterexample,
                             std::to_string(fv.path.size()) + " events (" + where + ")"};
                    Finding f;
                    f.property = fv.invariant;
                    f.mode = Mode::hw_tags;
                    f.source = "explorer";
                    f.origin = "breadth-first search of the " + where + " family, " +
                               std::to_string(fr.states) + " states";
                    f.scenario = fr.scenario(fv);
                    f.happened = fv.message;
                    add_candidate(r, f);
                }
            }
        }
        if (reused && opt.progress)
            opt.progress(variant, "explorer: " + std::to_string(reused) + " of " + std::to_string(explorations) +
                                      " family explorations kept from a variant that answered every question they "
                                      "asked alike (TAGPROOF_CORPUS_CACHE=off explores them again)");
        if (opt.families)
            r.notes.push_back("explorer families: " + std::to_string(explorations) + " explorations, " +
                              std::to_string(fstates) + " states, " + std::to_string(ftransitions) +
                              " transitions; default boot to depth " + depths + "; depth " +
                              std::to_string(other_boot_depth) + " under each other boot of the product (" +
                              std::to_string(boots.size() - 1) + ")" +
                              (default_only.empty() ? "" : default_only + " (the default boot only)"));
        if (opt.families && !proved_obligations.empty()) cross_check_proofs(r, g, proved_obligations.size(), checker);
    }
    finalize(r);
    return r;
}

namespace {

// RapidCheck's console output kept out of the review's. The checks run
// one at a time, after the review's worker threads (verb_review.cpp), so a
// plain swap of std::cerr's buffer is enough.
template <class Check>
properties::PropertyResult quietly(Check check) {
    std::ostringstream quiet;
    auto* old = std::cerr.rdbuf(quiet.rdbuf());
    try {
        properties::PropertyResult pr = check();
        std::cerr.rdbuf(old);
        return pr;
    } catch (...) {
        std::cerr.rdbuf(old);
        throw;
    }
}

// A burst's counterexample: the grid cell and a finding candidate.
void add_burst_failure(VariantReview& r, Grid& g, const properties::PropertyResult& pr, const char* origin) {
    if (pr.passed || pr.failure.invariant.empty()) return;
    Mode m = scenario_mode(pr.failure.scenario);
    if (!g.at(pr.failure.invariant, m)) return;
    g.source(pr.failure.invariant, m, "rapidcheck") = {"rapidcheck", SourceVerdict::counterexample,
                                                       std::to_string(pr.failure.events) + " events"};
    Finding f;
    f.property = pr.failure.invariant;
    f.mode = m;
    f.source = "rapidcheck";
    f.origin = origin;
    f.scenario = pr.failure.scenario;
    f.happened = pr.failure.message;
    add_candidate(r, f);
}

}  // namespace

void add_rapidcheck(VariantReview& r, const ReviewOptions& opt) {
    if (!opt.rapidcheck) return;
    if (opt.progress) opt.progress(r.variant, "rapidcheck");
    const kernel::Variant& v = kernel::find_variant(r.variant);
    Grid g{r, opt};
    // what a check can claim: it stops at its first counterexample
    auto ran = [](const properties::PropertyResult& x) {
        if (x.passed) return std::to_string(x.cases) + " random sequences";
        if (x.cases == 0) return std::string("no sequence (RapidCheck gave up)");
        return std::to_string(x.cases - 1) + " random sequences before a counterexample";
    };
    // The invariants, every one asserted (recorded defects too: the review
    // classifies). A counterexample of one (property, mode) does not end the
    // search for the others: each round asserts every pair not found yet, on
    // a fresh whole budget, until a round passes (or finds nothing new).
    properties::PropertyOptions po;
    po.tests = opt.rapidcheck_cases;
    po.assert_recorded = true;
    // the shrunk counterexamples as files: under --out, else nowhere (the
    // review's own report carries each finding's scenario)
    po.write_failure = !opt.out_dir.empty();
    if (po.write_failure) po.failure_dir = opt.out_dir + "/rapidcheck-failures";
    // what the baseline shows at the same event is not news: the search goes on past it
    po.baseline_filter = !r.baseline.empty();
    // The same patch gets the same reply: the checks draw from a seed of the
    // variant's name unless RC_PARAMS names one (a tie between equally short
    // counterexamples, or a wrapped line, must not change from run to run).
    const std::uint64_t base = properties::seed_configured() ? 0 : properties::seed_of(r.variant);
    // rounds of one property: each asserts what the earlier ones have not found
    // what the baseline filter let pass, every round's: "invariant@mode" -> its shortest run
    std::map<std::string, properties::LastFailure> shared;
    auto burst = [&](auto o, auto check, auto key, std::vector<properties::PropertyResult>& found, int& rounds) {
        properties::PropertyResult last;
        const int max_rounds = int(properties().size() * opt.modes.size()) + 1;
        for (rounds = 0; rounds < max_rounds; ++rounds) {
            if (rounds || base) o.seed = properties::round_seed(rounds, base);
            last = quietly([&] { return check(v, o); });
            for (const auto& [k, f] : last.shared) properties::keep_shortest(shared, k, f);
            if (last.passed || last.failure.invariant.empty()) break;
            if (!o.ignore.insert(key(last)).second) break;
            found.push_back(last);
        }
        return last;
    };
    // a burst ignores (property, mode) pairs found: the other modes are searched on
    auto at_mode = [](const properties::PropertyResult& x) {
        return x.failure.invariant + "@" + mode_name(scenario_mode(x.failure.scenario));
    };
    std::vector<properties::PropertyResult> found;
    int rounds = 0;
    const properties::PropertyResult last = burst(po, properties::check_invariants, at_mode, found, rounds);
    std::set<std::pair<std::string, Mode>> found_at;  // (property, mode) with a counterexample
    for (const auto& f : found) found_at.insert({f.failure.invariant, scenario_mode(f.failure.scenario)});
    // mode-isolation: the variant and its baseline in lockstep on the same
    // sequences, outside HW_TAGS-active states, unless it claims changes there
    const bool isolation = !r.baseline.empty() && v.claims().changes != kernel::ChangeScope::any;
    std::vector<properties::PropertyResult> ifound;
    int irounds = 0;
    properties::PropertyResult ir;
    if (isolation) {
        properties::PropertyOptions io;
        io.tests = opt.rapidcheck_cases;
        io.isolation = true;
        io.assert_recorded = true;  // as the invariants: a recorded difference is found, then classified
        io.failure_dir = po.failure_dir;
        io.write_failure = po.write_failure;
        io.max_events = 20;
        ir = burst(io, properties::check_invariants, at_mode, ifound, irounds);
        for (const auto& f : ifound) found_at.insert({f.failure.invariant, scenario_mode(f.failure.scenario)});
    }
    const std::string last_ran = last.passed ? ran(last) + (rounds ? " (round " + std::to_string(rounds + 1) + ")" : "")
                                             : "incomplete: " + ran(last) + " of " + std::to_string(po.tests);
    const std::string last_iran = ir.passed ? ran(ir) + " against " + r.baseline
                                            : "incomplete: " + ran(ir) + " of " + std::to_string(po.tests) +
                                                  " against " + r.baseline;
    for (const auto& p : properties())
        for (Mode m : opt.modes) {
            if (p == "mode-isolation" && !isolation) continue;  // a release: nothing to hold it to
            const bool iso = p == "mode-isolation";
            const properties::PropertyResult& fin = iso ? ir : last;
            if (found_at.count({p, m})) continue;  // the counterexample's cell, filled below
            g.source(p, m, "rapidcheck") = {"rapidcheck", fin.passed ? SourceVerdict::holds : SourceVerdict::unknown,
                                            iso ? last_iran : last_ran};
        }
    // the whole vocabulary: random walks through the explorer's families, in
    // every configuration of the boot product, rounds as above
    properties::WalkOptions wo;
    // a walk costs a tenth of a command sequence or less (3000 take 0.3 s);
    // the product it draws from (families x modes x boots) is wide: a round
    // of 3000 missed a 4-event user-family path under SW_TAGS (the huge zero
    // folio) for 1 seed of 30, so a round is 6000: 60 walks a sequence
    wo.tests = opt.rapidcheck_cases * 60;
    wo.assert_recorded = true;
    wo.baseline_filter = !r.baseline.empty();
    wo.isolation = isolation;  // and, outside HW_TAGS-active boots, the baseline's outcomes in lockstep
    wo.modes = opt.modes;
    std::vector<properties::PropertyResult> wfound;
    int wrounds = 0;
    const properties::PropertyResult wlast = burst(wo, properties::check_family_walks, at_mode, wfound, wrounds);
    for (const auto& f : found) add_burst_failure(r, g, f, "RapidCheck, shrunk and line-minimised");
    for (const auto& f : wfound)
        add_burst_failure(r, g, f, "RapidCheck walk through an explorer family, shrunk and line-minimised");
    for (const auto& f : ifound) add_burst_failure(r, g, f, "RapidCheck against the baseline, shrunk and line-minimised");
    // A violation the baseline shows at the same event was let pass so the
    // search goes on to what the patch adds; it is a violation all the same,
    // and the cell says so (finalize classifies it against the baseline).
    for (const auto& [k, f] : shared) {
        properties::PropertyResult pr;
        pr.passed = false;
        pr.failure = f;
        const Mode m = scenario_mode(f.scenario);
        if (!g.at(f.invariant, m) || g.source(f.invariant, m, "rapidcheck").status == SourceVerdict::counterexample)
            continue;
        add_burst_failure(r, g, pr, "RapidCheck, a run the baseline breaks too (let pass to search on), line-minimised");
    }
    r.notes.push_back("rapidcheck: seed " + std::to_string(properties::round_seed(0, base)) +
                      (base ? " (the variant's; RC_PARAMS=seed=N draws others)" : " (RC_PARAMS)") + ", " +
                      std::to_string(rounds + 1) + " round(s) of up to " + std::to_string(po.tests) +
                      " sequences of up to 24 events, " + std::to_string(found.size()) + " counterexample(s)" +
                      (isolation ? "; against " + r.baseline + " (mode-isolation): " + std::to_string(irounds + 1) +
                                       " round(s) of up to 20 events, " + std::to_string(ifound.size()) +
                                       " counterexample(s)"
                                 : ""));
    std::size_t walked = 0;
    std::string unwalked;
    for (const auto& f : explore::families(v)) {
        walked += f.walked;
        if (!f.walked) unwalked += (unwalked.empty() ? " (not " : ", ") + f.name;
    }
    if (!unwalked.empty()) unwalked += ": the explorer's alone)";
    r.notes.push_back("rapidcheck walks: " + std::to_string(wo.tests) + " per round through the " +
                      std::to_string(walked) + " explorer families" + unwalked + " over the boot product, up to 16 events" +
                      (isolation ? " (against " + r.baseline + " in lockstep where HW_TAGS is not active)" : "") + ", " +
                      std::to_string(wfound.size()) +
                      " counterexample(s)" + (wlast.passed ? "" : ", the last round incomplete"));
    if (!wlast.passed && wlast.failure.invariant.empty()) r.unknown = true;
    if (isolation && !ir.passed && ir.failure.invariant.empty()) r.unknown = true;
    if (!last.passed && last.failure.invariant.empty()) r.unknown = true;
    // the findings so far were picked already: add the new candidates and pick again
    finalize(r);
}

}  // namespace tagproof::review
