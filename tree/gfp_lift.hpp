// gfp_lift.hpp — the GFP constants of a configured tree, from its own
// preprocessor (issue 31 item 3, the constants part): each name the hand
// layout knows (model/core/gfp.cpp) and each GFP constant a rule stands for
// (THREADINFO_GFP, GFP_PGTABLE_KERNEL, ...) is evaluated by libclang in a
// translation unit that includes the tree's headers under its configuration
// (arm64, kernel/kasan-hw-tags.config: CONFIG_KASAN_HW_TAGS=y, no LOCKDEP).
// `tagproof lift` sets them beside the hand era's (the drift table).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace tagproof::tree {

struct LiftedConstant {
    std::string name;
    bool defined = false;          // the tree defines it (#ifdef)
    bool evaluated = false;        // and libclang gave it a value
    unsigned long long value = 0;
};

struct GfpLift {
    std::vector<LiftedConstant> constants;  // in the order asked
    int errors = 0;                          // clang errors in the lifting unit
    std::string first_error;
    const LiftedConstant* find(const std::string& name) const;
};

// Throws InputError when the tree is not configured (include/generated/autoconf.h
// missing): unconfigured, the headers' values are not the kernel's.
// `files` replaces a file's text (path relative to the tree): a patched
// scratch copy, so that a review evaluates a changed #define after the
// series as the tree's preprocessor reads it.
GfpLift lift_gfp_constants(const std::string& root, const std::vector<std::string>& names,
                           const std::map<std::string, std::string>& files = {});

}  // namespace tagproof::tree
