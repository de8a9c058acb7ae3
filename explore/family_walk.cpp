// family_walk.cpp — see family_walk.hpp.
#include "family_walk.hpp"

#include <stdexcept>

#include "family_steps.hpp"

namespace tagproof::explore {

using namespace detail;

struct FamilyWalk::Impl {
    Start start;
    spec::Sampler sampler;
    Statements statements;
    std::unique_ptr<State> state;  // a Model is copied, never assigned
    std::vector<Step> steps;       // enabled in `state`
    Impl(const FamilyOptions& o, std::uint64_t seed)
        : start(start_of(o)), sampler(seed), statements("walk " + o.family.name),
          state(std::make_unique<State>(initial_state(o, start, sampler))) {}
};

FamilyWalk::FamilyWalk(const FamilyOptions& opt, std::uint64_t seed) : impl_(std::make_unique<Impl>(opt, seed)), opt_(opt) {
    for (const auto& l : opt.family.setup) {
        FamilyEdge fe;
        if (!run_step(*impl_->state, Step{l}, impl_->statements, fe))
            throw std::logic_error("walk " + opt.family.name + ": the setup line '" + l + "' fails");
    }
    impl_->steps = detail::enabled(opt.family, *impl_->state, impl_->start.async);
}

FamilyWalk::~FamilyWalk() = default;

std::size_t FamilyWalk::enabled() const { return impl_->steps.size(); }

bool FamilyWalk::step(std::size_t choice) {
    const Step& step = impl_->steps[choice % impl_->steps.size()];
    // a refused event leaves the state as it was: run it on a copy
    auto t = std::make_unique<State>(*impl_->state);
    FamilyEdge fe;
    if (!run_step(*t, step, impl_->statements, fe)) return false;
    impl_->state = std::move(t);
    path_.push_back(step.line);
    if (!step.then.empty()) path_.push_back(step.then);
    for (const auto& inv : fe.violated) {
        bool seen = false;
        for (const auto& b : broken_) seen |= b.invariant == inv;
        if (!seen) broken_.push_back({inv, fe.message, path_.size()});
    }
    impl_->steps = detail::enabled(opt_.family, *impl_->state, impl_->start.async);
    return true;
}

std::string FamilyWalk::scenario(const std::string& invariant) const {
    std::string s = "# written by a random walk through the " + opt_.family.name + " family, " +
                    opt_.config.name() + "\n";
    s += "name walk_" + opt_.family.name + (invariant.empty() ? "" : "_" + invariant) + "\n";
    std::size_t upto = path_.size();
    for (const auto& b : broken_)
        if (b.invariant == invariant) {
            s += "doc " + b.message.substr(0, 200) + "\n";
            upto = b.events;
        }
    s += header(opt_);
    for (const auto& l : opt_.family.setup) s += l + "\n";
    for (std::size_t i = 0; i < upto; ++i) s += path_[i] + "\n";
    return s + (invariant.empty() ? "observe reports >= 0\n" : "expect violation " + invariant + "\n");
}

}  // namespace tagproof::explore
