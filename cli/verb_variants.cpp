// verb_variants.cpp — `tagproof variants`: the built-in variants, a line each.
#include <cstdio>
#include <iostream>

#include "variant.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

int verb_variants(const Args& args) {
    Options o = parse_verb_options("variants", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof variants [--mutants]\n\nLists the built-in variants: name, baseline, "
                     "what it models;\nbelow each, what it claims to change (docs/requirements.md) and the defects "
                     "it is\nrecorded to have.\n--mutants also lists the deliberately broken variants used as "
                     "negative controls,\nand the reviewer's control patches.\n";
        return 0;
    }
    auto show = [](const kernel::Variant* v) {
        std::printf("%-28s base %-10s %s\n", v->name().c_str(), v->baseline().empty() ? "-" : v->baseline().c_str(),
                    v->summary().c_str());
        for (const auto& c : kernel::describe_claims(v->claims())) std::printf("    claims: %s\n", c.c_str());
        for (const auto& d : v->recorded_defects()) std::printf("    recorded: %s\n", d.property.c_str());
    };
    for (const auto* v : kernel::all_variants()) show(v);
    if (o.has("--mutants")) {
        std::printf("\nmutants (negative controls):\n");
        for (const auto* v : kernel::all_mutants()) show(v);
    }
    return 0;
}

}  // namespace tagproof::cli
