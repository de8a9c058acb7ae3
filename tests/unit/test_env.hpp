// test_env.hpp — the decision inputs of a variant for a build mode and a
// command line, as the unit tests build them.
#pragma once
#include <string>

#include "variant.hpp"

namespace tagproof::test {

inline kernel::CEnv env_for(const kernel::Variant& v, Mode mode, const std::string& cmdline = "") {
    BuildConfig b;
    b.mode = mode;
    Machine m;
    BootParams p = parse_boot_params(cmdline, v.boot_syntax());
    return v.make_env(b, m, p, derive_runtime(b, m, p));
}

}  // namespace tagproof::test
