// verb_lift.cpp — `tagproof lift --tree DIR`: what the model reads from a
// kernel tree, set beside the hand-written era (issue 31 item 6). Today the
// GFP constants, from the tree's own preprocessor (tree/gfp_lift.cpp); the
// functions follow when they are lifted (item 3).
#include <cstdio>
#include <iostream>
#include <set>

#include "error.hpp"
#include "gfp_drift.hpp"
#include "kunit_agreement.hpp"
#include "lift_functions.hpp"
#include "source_tree.hpp"
#include "variant.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

namespace {
// "6.1.192": a stable update (its third number is not 0)
bool stable_update(const std::string& version) {
    const std::size_t a = version.find('.'), b = version.find('.', a == std::string::npos ? a : a + 1);
    return b != std::string::npos && version.substr(b + 1) != "0" && !version.substr(b + 1).empty();
}
// the release era after `era` (linux-6.3 after linux-6.1), if the model has one
const kernel::Variant* next_release(const kernel::Variant& era) {
    auto mm = [](const std::string& n) -> std::pair<int, int> {
        int x = 0, y = 0;
        if (n.rfind("linux-", 0) != 0 || std::sscanf(n.c_str() + 6, "%d.%d", &x, &y) != 2) return {-1, -1};
        return {x, y};
    };
    const auto here = mm(era.name());
    const kernel::Variant* best = nullptr;
    for (const kernel::Variant* v : kernel::all_variants()) {
        const auto p = mm(v->name());
        if (p.first >= 0 && p > here && (!best || p < mm(best->name()))) best = v;
    }
    return best;
}
}  // namespace

static const char* kLiftHelp =
    "usage: tagproof lift --tree DIR [--variant NAME]... [--markdown] [--write FILE]\n"
    "       tagproof lift --primitives\n\n"
    "Reads the GFP constants of a configured kernel tree (scripts/setup-trees.sh prepares Debian's\n"
    "6.1 and 6.12 in ~/.cache/tagproof/trees) with libclang, from the tree's own headers under its\n"
    "configuration (arm64, CONFIG_KASAN_HW_TAGS, no LOCKDEP), and prints each beside the hand-written\n"
    "era's value in the same build: the model's release of the tree's version, or the two releases\n"
    "that bracket it (--variant names others). A row the tree gives differently from every era\n"
    "compared is drift.\n\n"
    "Then the modelled functions (post_alloc_hook, should_skip_init, ...): each is read from the tree\n"
    "into a rule body (scenario/variant-files.md, \"Rule bodies\"), or the reason it cannot be, and each\n"
    "lifted rule is decided against the era's hand rule by Z3 over every build, boot state, gfp and\n"
    "order: proved equal, or the input where they differ. --write FILE writes the lifted variant file\n"
    "(a reviewer may edit it and review with --variant-file). --primitives lists the helpers whose\n"
    "effect is stated by hand, each with its kernel source. --markdown prints the tables for docs/.\n"
    "Exit status: 0 no drift; 1 drift (the rows are marked); 2 bad input (not a tree, not configured).\n";

int verb_lift(const Args& args) {
    Options o = parse_verb_options("lift", args);
    if (o.has("--help")) {
        std::cout << kLiftHelp;
        return 0;
    }
    if (o.has("--primitives")) {
        print_primitives();
        return 0;
    }
    if (o.get("--tree").empty()) throw InputError("--tree", "tagproof lift needs --tree DIR (a configured kernel tree)");
    if (!o.positional.empty()) throw InputError(o.positional[0], "tagproof lift takes no file: --tree DIR");
    const tree::SourceTree t = tree::open_tree(o.get("--tree"));
    std::vector<const kernel::Variant*> eras;
    for (const auto& [k, v] : o.named)
        if (k == "--variant") eras.push_back(&kernel::find_variant(v, "--variant"));
    if (eras.empty()) {
        for (const auto& n : oracle::era_variants(t.version)) eras.push_back(&kernel::find_variant(n, "--variant"));
        // A stable tree (6.1.192) carries fixes of later releases backported
        // (the free path's revert, Cc stable 6.1): beside its own release's
        // era, the next one's.
        if (eras.size() == 1 && stable_update(t.version))
            if (const kernel::Variant* next = next_release(*eras[0])) eras.push_back(next);
    }
    // every name any compared era defines, in the first era's order
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (const auto* v : eras)
        for (const auto& n : tree::gfp_drift_names(*v))
            if (seen.insert(n).second) names.push_back(n);
    const tree::GfpLift lifted = tree::lift_gfp_constants(t.root, names);
    std::vector<tree::GfpDrift> drifts;
    for (const auto* v : eras) drifts.push_back(tree::gfp_drift(lifted, *v));

    const bool md = o.has("--markdown");
    auto hex = [](bool defined, unsigned long long v) {
        if (!defined) return std::string("-");
        char b[32];
        std::snprintf(b, sizeof b, "%#llx", v);
        return std::string(b);
    };
    std::printf(md ? "GFP constants of %s (%s), configured arm64 with kernel/kasan-hw-tags.config, beside"
                   : "tagproof lift: %s (%s): GFP constants beside",
                t.era().c_str(), t.root.c_str());
    for (const auto& d : drifts) std::printf(" %s", d.era.c_str());
    std::printf(" (HW_TAGS build, no LOCKDEP)%s\n", md ? "." : "");
    if (lifted.errors) std::printf("%sclang errors in the lifting unit: %d (first: %s)\n", md ? "\n" : "  ", lifted.errors,
                                   lifted.first_error.c_str());
    if (md) {
        std::printf("\n| name | tree |");
        for (const auto& d : drifts) std::printf(" %s |", d.era.c_str());
        std::printf(" |\n|---|---|");
        for (std::size_t i = 0; i < drifts.size(); ++i) std::printf("---|");
        std::printf("---|\n");
    }
    std::size_t drift = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto& row0 = drifts[0].rows[i];
        std::string as;
        for (const auto& d : drifts)
            if (d.rows[i].equal()) as += (as.empty() ? "as " : ", ") + d.era;
        if (as.empty()) {
            as = "DRIFT";
            ++drift;
        }
        if (md) {
            std::printf("| `%s` | %s |", names[i].c_str(), hex(row0.in_tree, row0.tree_value).c_str());
            for (const auto& d : drifts) std::printf(" %s |", hex(d.rows[i].in_hand, d.rows[i].hand_value).c_str());
            std::printf(" %s |\n", as.c_str());
        } else {
            std::printf("  %-28s %12s", names[i].c_str(), hex(row0.in_tree, row0.tree_value).c_str());
            for (const auto& d : drifts) std::printf(" %12s", hex(d.rows[i].in_hand, d.rows[i].hand_value).c_str());
            std::printf("  %s\n", as.c_str());
        }
    }
    std::printf("%s%zu of %zu constants differ from every era compared\n", md ? "\n" : "", drift, names.size());
    bool compared_any = false;
    const std::size_t fdrift = lift_function_drift(t, eras, md, o.get("--write"), compared_any);
    if (!compared_any) {
        // no function row was decided: never "0 differ" for a comparison that did not run
        std::printf("%sno function row compared: no era named is a release (--variant linux-6.1 ... linux-7.0)\n",
                    md ? "\n" : "");
        return drift ? EXIT_COUNTEREXAMPLE : EXIT_UNKNOWN;
    }
    std::printf("%s%zu function rows differ from every era compared\n", md ? "\n" : "", fdrift);
    return drift || fdrift ? EXIT_COUNTEREXAMPLE : EXIT_HOLDS;
}

}  // namespace tagproof::cli
