// z3_domain.cpp — the thread's current context.
#include "z3_domain.hpp"

#include <stdexcept>

namespace tagproof::solver {

namespace {
thread_local z3::context* g_current = nullptr;
}

z3::context& current_context() {
    if (!g_current) throw std::logic_error("solver: no ContextScope active");
    return *g_current;
}

ContextScope::ContextScope(z3::context& c) : prev_(g_current) { g_current = &c; }
ContextScope::~ContextScope() { g_current = prev_; }

}  // namespace tagproof::solver
