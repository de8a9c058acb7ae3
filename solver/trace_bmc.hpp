// trace_bmc.hpp — bounded model checking of event sequences (see trace_bmc.cpp).
#pragma once
#include <string>

#include "obligation.hpp"

namespace tagproof::solver {

Query trace_query(Builder& b, const std::string& invariant);

}  // namespace tagproof::solver
