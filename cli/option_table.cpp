// option_table.cpp — see option_table.hpp.
#include "option_table.hpp"

#include <iostream>

#include "error.hpp"

namespace tagproof::cli {

const std::vector<VerbOptions>& verb_options() {
    // verb, options taking a value, flags, whether main.cpp reads --variant-file for it
    static const std::vector<VerbOptions> t = {
        {"accessinfo", {},
         {"--help"}, false},
        {"bench", {"--min-time", "--binary", "--json", "--from-json", "--cpu"},
         {"--help"}, false},
        {"cost", {"--workload", "--variant", "--baseline", "--boot", "--baseline-boot", "--iterations", "--dczid"},
         {"--help", "--list"}, false},
        {"explore", {"--variant", "--boot", "--depth", "--dot", "--dot-path", "--write-scenarios", "--family", "--family-depth"},
         {"--help", "--no-mte", "--check-bmc"}, true},
        {"gfp", {"--variant", "--mode"},
         {"--lockdep", "--help", "--table"}, false},
        {"boot", {"--variant", "--mode"},
         {"--no-mte", "--help", "--lenient"}, false},
        {"kernel", {"--out", "--corpus", "--variant", "--kernel-version", "--era", "--exclude"},
         {"--help"}, true},
        {"lift", {"--tree", "--variant", "--write"},
         {"--help", "--markdown", "--primitives"}, false},
        {"prove", {"--variant", "--baseline", "--obligation", "--depth", "--timeout", "--smt2", "--write-scenarios", "--expect"},
         {"--help", "--contracts-only", "--no-replay", "--quiet", "--record", "--checks", "--no-cross-check"}, true},
        {"replay", {"--variant", "--boot", "--dczid", "--generate", "--out", "--seed", "--write-scenario"},
         {"--lenient", "--no-mte", "--help", "--fuzz-input"}, false},
        {"report", {"--format", "--source", "--write-minimised"},
         {"--help", "--minimise"}, false},
        {"review", {"--variant", "--baseline", "--mode", "--format", "--out", "--corpus", "--jobs", "--explore-depth", "--rapidcheck", "--base", "--tree"},
         {"--help", "--quiet", "--no-solver", "--no-explorer", "--no-families", "--no-rapidcheck", "--map-only", "--explain", "--no-tree", "--confirm"}, true},
        {"run", {"--variant", "--max-runs", "--check-style", "--tree", "--out", "--property"},
         {"--verbose", "--help", "--confirm"}, true},
        {"seeds", {"--out", "--check"},
         {"--help", "--verbose"}, false},
        {"variants", {},
         {"--mutants", "--help"}, false},
    };
    return t;
}

const VerbOptions& options_of(const std::string& verb) {
    for (const auto& v : verb_options())
        if (v.verb == verb) return v;
    throw InputError("command line", "no option table for verb '" + verb + "'");
}

Options parse_verb_options(const std::string& verb, const Args& args) {
    const VerbOptions& v = options_of(verb);
    return parse_options(args, v.values, v.flags);
}

int print_option_table() {
    for (const auto& v : verb_options()) {
        for (const auto& o : v.values) std::cout << v.verb << " " << o << " VALUE\n";
        for (const auto& o : v.flags) std::cout << v.verb << " " << o << "\n";
        if (v.variant_file) std::cout << v.verb << " --variant-file FILE\n";
    }
    return 0;
}

}  // namespace tagproof::cli
