// family_walk.cpp — see family_walk.hpp.
#include "family_walk.hpp"

#include <stdexcept>

#include "family_steps.hpp"
#include "observe.hpp"
#include "runtime.hpp"

namespace tagproof::explore {

using namespace detail;

// A walk's start as WalkStarts keeps it. Every copy of its model chooses
// through `delegate`, which each walk points at its own sampler before each
// step it takes: two walks of one start may be alive at once (nothing in the
// interface forbids it), and each draws from its own seed.
struct WalkStarts::Start {
    detail::Start start;
    Delegate delegate;
    Statements statements;
    std::unique_ptr<State> state;  // after the setup lines; null: making it drew a choice
    std::vector<Step> steps;       // enabled in `state`
    explicit Start(const FamilyOptions& o) : start(start_of(o)), statements("walk " + o.family.name) {}
};

WalkStarts::WalkStarts() = default;
WalkStarts::~WalkStarts() = default;
std::size_t WalkStarts::shared() const {
    std::size_t n = 0;
    for (const auto& [k, s] : starts_) n += s->state != nullptr;
    return n;
}

namespace {

// Counts the choices asked of it (and answers the first option).
struct CountingChooser final : spec::Chooser {
    std::size_t asked = 0;
    std::size_t choose(const std::vector<spec::Option>&, const char*) override {
        ++asked;
        return 0;
    }
};

// The setup lines run on `st`: false if one fails (the walk's constructor says which).
bool run_setup(const FamilyOptions& o, State& st, Statements& statements, std::string& failed) {
    for (const auto& l : o.family.setup) {
        FamilyEdge fe;
        if (!run_step(st, Step{l}, statements, fe)) {
            failed = l;
            return false;
        }
    }
    return true;
}

std::string start_key(const FamilyOptions& o) {
    std::string k = header(o) + "family " + o.family.name + "\n";
    for (const auto& l : o.family.setup) k += l + "\n";
    return k;
}

}  // namespace

struct FamilyWalk::Impl {
    detail::Start start;
    spec::Sampler sampler;
    Statements own_statements;
    Statements* statements = &own_statements;
    Delegate* delegate = nullptr;  // the shared start's chooser, pointed at `sampler` before each step
    std::unique_ptr<State> state;  // a Model is copied, never assigned
    std::vector<Step> steps;       // enabled in `state`
    Impl(const FamilyOptions& o, std::uint64_t seed, WalkStarts::Start* shared)
        : start(shared ? shared->start : start_of(o)), sampler(seed), own_statements("walk " + o.family.name) {
        if (shared) {
            statements = &shared->statements;
            delegate = &shared->delegate;
            state = std::make_unique<State>(*shared->state);
            steps = shared->steps;
        } else {
            state = std::make_unique<State>(initial_state(o, start, sampler));
        }
    }
};

FamilyWalk::FamilyWalk(const FamilyOptions& opt, std::uint64_t seed, WalkStarts* starts) : opt_(opt) {
    WalkStarts::Start* shared = nullptr;
    if (starts) {
        auto& slot = starts->starts_[start_key(opt)];
        if (!slot) {
            // made once: the model and its setup, with every choice counted
            slot = std::make_unique<WalkStarts::Start>(opt);
            CountingChooser counting;
            slot->delegate.target = &counting;
            auto st = std::make_unique<State>(initial_state(opt, slot->start, slot->delegate));
            std::string failed;
            if (run_setup(opt, *st, slot->statements, failed) && counting.asked == 0) {
                slot->steps = detail::enabled(opt.family, *st, slot->start.async);
                slot->state = std::move(st);
            }
            slot->delegate.target = nullptr;
        }
        if (slot->state) shared = slot.get();
    }
    impl_ = std::make_unique<Impl>(opt, seed, shared);
    if (shared) return;
    std::string failed;
    if (!run_setup(opt, *impl_->state, *impl_->statements, failed))
        throw std::logic_error("walk " + opt.family.name + ": the setup line '" + failed + "' fails");
    impl_->steps = detail::enabled(opt.family, *impl_->state, impl_->start.async);
}

FamilyWalk::~FamilyWalk() = default;

std::size_t FamilyWalk::enabled() const { return impl_->steps.size(); }

bool FamilyWalk::step(std::size_t choice) { return take(choice % impl_->steps.size()); }

bool FamilyWalk::step_lines(const std::string& line, const std::string& then) {
    for (std::size_t i = 0; i < impl_->steps.size(); ++i)
        if (impl_->steps[i].line == line && impl_->steps[i].then == then) return take(i);
    return false;
}

bool FamilyWalk::hw_tags_active() const {
    const auto& c = impl_->start.config;
    return derive_runtime(c.build, c.machine, c.boot).hw_tags_enabled;
}

bool FamilyWalk::take(std::size_t index) {
    const Step step = impl_->steps[index];
    // a refused event leaves the state as it was: run it on a copy
    auto t = std::make_unique<State>(*impl_->state);
    if (impl_->delegate) impl_->delegate->target = &impl_->sampler;
    const std::size_t reports_before = t->model.reports().size();
    const std::uint64_t warnings_before = t->model.warnings();
    FamilyEdge fe;
    if (!run_step(*t, step, *impl_->statements, fe)) return false;
    impl_->state = std::move(t);
    path_.push_back(step.line);
    if (!step.then.empty()) path_.push_back(step.then);
    taken_.emplace_back(step.line, step.then);
    // the event's reports and result, and its second line's result (a page's page_address())
    const spec::Model& m = impl_->state->model;
    std::string obs = scenario::observe_event(m, (*impl_->statements)(step.line), impl_->state->vars, reports_before,
                                              warnings_before);
    if (!step.then.empty())
        obs += "; " + scenario::observe_event(m, (*impl_->statements)(step.then), impl_->state->vars, m.reports().size(),
                                              m.warnings());
    observed_.push_back(obs);
    for (const auto& inv : fe.violated) {
        bool seen = false;
        for (const auto& b : broken_) seen |= b.invariant == inv;
        if (!seen) broken_.push_back({inv, fe.message, path_.size()});
    }
    impl_->steps = detail::enabled(opt_.family, *impl_->state, impl_->start.async);
    return true;
}

std::string FamilyWalk::scenario(const std::string& invariant, const std::string& baseline,
                                 std::size_t upto_events) const {
    std::string s = "# written by a random walk through the " + opt_.family.name + " family, " +
                    opt_.config.name() + "\n";
    s += "name walk_" + opt_.family.name + (invariant.empty() ? "" : "_" + invariant) + "\n";
    std::size_t upto = path_.size();
    for (const auto& b : broken_)
        if (b.invariant == invariant) {
            s += "doc " + b.message.substr(0, 200) + "\n";
            upto = b.events;
        }
    if (upto_events) {  // the lines of the first upto_events events
        upto = 0;
        for (std::size_t i = 0; i < upto_events && i < taken_.size(); ++i) upto += taken_[i].second.empty() ? 1 : 2;
    }
    s += header(opt_);
    if (!baseline.empty()) s += "baseline " + baseline + "\n";
    for (const auto& l : opt_.family.setup) s += l + "\n";
    for (std::size_t i = 0; i < upto; ++i) s += path_[i] + "\n";
    return s + (invariant.empty() ? "observe reports >= 0\n" : "expect violation " + invariant + "\n");
}

}  // namespace tagproof::explore
