// family_steps.hpp — one family's state and the events enabled in it, and
// how one event runs: shared by the breadth-first explorer
// (family_explorer.cpp) and the random walk RapidCheck and libFuzzer drive
// (family_walk.hpp), so that every engine drives the same vocabulary from
// one generator.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "family_explorer.hpp"
#include "interpreter.hpp"
#include "model.hpp"
#include "scenario.hpp"

namespace tagproof::explore::detail {

// All models of one exploration share this chooser; the caller points it at
// the chooser of the moment (an Enumerator walking one event's tag choices,
// a Sampler for a walk).
struct Delegate final : spec::Chooser {
    spec::Chooser* target = nullptr;
    std::size_t choose(const std::vector<spec::Option>& o, const char* w) override { return target->choose(o, w); }
};

enum Slot : std::uint8_t { empty, live, dead };

struct State {
    spec::Model model;
    scenario::Vars vars;
    std::vector<Slot> slot;             // per kind, per slot
    std::vector<std::uint64_t> size;    // the bytes the handle's caller may use now
};

// One enabled event and what it does to the handles' status.
struct Step {
    // the fields an event names, in order (an implicit conversion from its line)
    Step() = default;
    Step(std::string line_, std::string then_ = "", int slot_ = -1, Slot after_ = empty, std::uint64_t size_ = 0)
        : line(std::move(line_)), then(std::move(then_)), slot(slot_), after(after_), size(size_) {}
    std::string line;
    std::string then;    // a second line in the same transition: a page's page_address()
    int slot = -1;       // the handle it names (-1: none)
    Slot after = empty;  // that handle's status after it
    std::uint64_t size = 0;
};

// Every event of the family enabled in `s` (async: kasan.mode=async/asymm,
// whose reports wait for kasan_check_async()).
std::vector<Step> enabled(const Family& f, const State& s, bool async);

// The scenario header (variant, modes, config, boot) of an exploration.
std::string header(const FamilyOptions& o);

// Scenario lines parsed once each (a family has a few hundred distinct ones).
class Statements {
public:
    explicit Statements(std::string where) : where_(std::move(where)) {}
    const scenario::Statement& operator()(const std::string& line);
    const std::string& where() const { return where_; }

private:
    std::string where_;
    std::map<std::string, scenario::Statement> parsed_;
};

// The model configuration of an exploration, and its first state (nothing
// run yet; the family's setup lines are steps like any other).
struct Start {
    spec::ModelConfig config;
    bool async = false;
    unsigned slots = 0;
};
// The variant an exploration asks: its `asked`, else the one it names.
const kernel::Variant& variant_of(const FamilyOptions& o);
Start start_of(const FamilyOptions& o);
State initial_state(const FamilyOptions& o, const Start& st, spec::Chooser& chooser);

// Runs `step` on `t` (the copy of the state it leaves from). False: the
// model refused it (InputError: not enabled there). Otherwise `fe` holds the
// transition's line and the invariants it breaks (mode-isolation aside).
bool run_step(State& t, const Step& step, Statements& statements, FamilyEdge& fe);

}  // namespace tagproof::explore::detail
