// interpreter.hpp — what one event statement of a scenario does to the model
// (format.md's calls): the runner's, and every engine's that generates events
// as scenario lines (the explorer's vocabulary families), so a generated event
// and a hand-written one are the same code and a counterexample replays as it
// was found.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "model.hpp"
#include "scenario.hpp"

namespace tagproof::scenario {

// A scenario variable.
struct Value {
    enum Kind { ptr, page, cache, pool, skb, number } kind = number;
    spec::Ptr p;
    int id = -1;
    std::uint64_t n = 0;
};
using Vars = std::map<std::string, Value>;

// The variables of one run over its model. `where` names the statement in
// errors (InputError(where, ...)): a bad call, an undefined variable.
class Interpreter {
public:
    Interpreter(spec::Model& m, Vars& vars, const std::string& where) : m_(m), vars_(vars), where_(where) {}

    // Runs an event statement (no begin_event / end_event: the caller's).
    void call(const Statement& st);

    [[noreturn]] void fail(const std::string& msg) const;
    const Value& var(const std::string& name) const;
    spec::Ptr ptr(const Arg& a) const;   // a pointer, or a page's page_address(), plus the offset
    int page(const Arg& a) const;        // a page object, or the one a pointer is the head of
    std::uint64_t num(const Arg& a) const;

private:
    spec::Model& m_;
    Vars& vars_;
    const std::string& where_;
    gfp_t gfp(const Arg& a) const { return m_.gfp().parse(a.text, where_); }
    // Argument i of an event as a number, held to its range in calls.hpp (the
    // parser checked a literal; a variable's value is checked here).
    std::uint64_t num(const Statement& st, std::size_t i) const;
    void set(const Statement& st, Value v) {
        if (!st.result.empty()) vars_[st.result] = v;
    }
    static Value P(spec::Ptr p) { Value v; v.kind = Value::ptr; v.p = p; return v; }
    static Value PG(int id) { Value v; v.kind = Value::page; v.id = id; return v; }
    static Value N(std::uint64_t n) { Value v; v.kind = Value::number; v.n = n; return v; }

};

}  // namespace tagproof::scenario
