// lift_functions.cpp — the functions' part of `tagproof lift` (issue 31
// items 3 and 6): each modelled function read from the tree into a rule body,
// or why not; each lifted rule beside the hand era's, decided by Z3.
#include "lift_functions.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "error.hpp"
#include "file/primitives.hpp"
#include "file/variant_file.hpp"
#include "lift_body.hpp"
#include "rule_drift.hpp"

namespace tagproof::cli {

void print_primitives() {
    std::printf("The primitives a rule body may call (model/kernel/file/primitives.cpp); any other call whose\n"
                "value is unused is assumed to leave tags and data alone, and named where the body is used.\n");
    for (const auto& p : kernel::primitives())
        std::printf("\n%s%s\n  %s\n  source: %s\n", p.name, p.args, p.effect, p.source);
}

std::size_t lift_function_drift(const tree::SourceTree& t, const std::vector<const kernel::Variant*>& eras, bool md,
                                const std::string& write_to, bool& compared_any) {
    std::size_t drift = 0;
    std::printf(md ? "\n## Functions\n\nThe modelled functions of %s read into rule bodies, each decided against the "
                     "hand rule of the era by Z3 over every build, boot state, gfp and order (rows: the rule, or a "
                     "plan field of post_alloc_hook or free_pages_prepare).\n"
                   : "\ntagproof lift: %s: the modelled functions, read into rule bodies\n",
                t.era().c_str());
    // each row against every era: drift where it differs from all of them
    struct Row {
        std::string name;
        std::vector<std::string> equal_to;
        std::vector<std::pair<std::string, std::string>> differs;  // era, where
    };
    std::vector<Row> rows;
    auto row_of = [&rows](const std::string& n) {
        for (auto& x : rows)
            if (x.name == n) return &x;
        rows.push_back({n, {}, {}});
        return &rows.back();
    };
    std::vector<std::string> compared, skipped;
    bool listed = false;
    // The file written sits on the release of the tree's own major.minor when
    // the model has one (6.1.192: linux-6.1), else on the newest era compared:
    // between two releases a tree has more of the newer one's features the
    // model does not read from it (6.12.118: the v6.8 mempool API, the v6.10
    // GFP enum, v6.11 krealloc's spare zeroing, which linux-6.4 lacks and
    // linux-7.0 has).
    std::string write_base;
    for (const kernel::Variant* era : eras)
        if (kernel::is_file_base_release(era->name()) &&
            (write_base.empty() || major_minor(write_base) != major_minor(t.version)))
            write_base = era->name();
    for (const kernel::Variant* era : eras) {
        const std::string base = era->name();
        // a lifted rule is set beside a release's hand rule (solver/rule_drift.cpp
        // instantiates the releases' rules); a patch variant is not one
        if (!kernel::is_file_base_release(base)) {
            skipped.push_back(base);
            continue;
        }
        compared.push_back(base);
        const tree::TreeLift lift = tree::lift_tree(t.root, t.era(), base, "lifted-" + t.version);
        if (!listed) {
            listed = true;
            for (const auto& f0 : lift.functions) {
                tree::LiftedFunction f = f0;  // the row names the tree's own spelling too
                f.name = md && !f.defined_as.empty() ? f.name + "` as `" + f.defined_as : f.shown();
                std::string calls;
                for (const auto& c : f.unread_calls) calls += (calls.empty() ? "" : ", ") + c;
                if (f.lifted && !f.found)
                    std::printf(md ? "- `%s` (%s): not defined, which is read: %s\n" : "  %-28s %s not defined, which is read: %s\n",
                                f.name.c_str(), f.file.c_str(), f.absent_as.c_str());
                else if (f.lifted && !f.part.empty())
                    std::printf(md ? "- `%s` (%s:%d): read in part: %s\n" : "  %-28s %s:%d read in part: %s\n",
                                f.name.c_str(), f.file.c_str(), f.line, f.part.c_str());
                else if (f.lifted)
                    std::printf(md ? "- `%s` (%s:%d): lifted%s%s\n" : "  %-28s %s:%d lifted%s%s\n", f.name.c_str(),
                                f.file.c_str(), f.line, calls.empty() ? "" : "; unread calls, assumed to leave tags and data alone: ",
                                calls.c_str());
                else
                    std::printf(md ? "- `%s` (%s): not lifted: %s\n" : "  %-28s %s NOT LIFTED: %s\n", f.name.c_str(),
                                f.file.c_str(), f.why_not.c_str());
            }
        }
        if (!write_to.empty() && base == write_base) {
            std::ofstream out(write_to);
            if (!out) throw InputError(write_to, "cannot write the lifted variant file");
            out << lift.variant_text;
            std::printf(md ? "\nThe lifted variant file (over %s): %s\n" : "  lifted variant file written (over %s): %s\n",
                        base.c_str(), write_to.c_str());
        }
        // a `feature NAME yes|no` the tree says, beside the era's (features.hpp)
        std::istringstream lines(lift.variant_text);
        for (std::string l; std::getline(lines, l);) {
            std::istringstream w(l);
            std::string kw, name, value;
            if (!(w >> kw >> name >> value) || kw != "feature") continue;
            const std::string n = "feature " + name;
            Row* row = row_of(n);
            const bool hand = kernel::get_feature(era->features(), name);
            if ((value == "yes") == hand) row->equal_to.push_back(base);
            else row->differs.push_back({base, "lifted " + value + ", hand " + (hand ? "yes" : "no")});
        }
        const kernel::VariantFile vf = kernel::parse_variant_file(lift.variant_text, t.era() + " (lifted)");
        for (const auto& r : solver::rule_drift(vf.overrides, base)) {
            const std::string n = r.field.empty() ? r.rule : r.rule + "." + r.field;
            Row* row = row_of(n);
            if (r.equal) row->equal_to.push_back(base);
            else row->differs.push_back({base, r.witness + ": lifted " + r.lifted_value + ", hand " + r.hand_value});
        }
    }
    std::string s;
    for (const auto& x : skipped) s += (s.empty() ? "" : ", ") + x;
    if (!skipped.empty())
        std::printf(md ? "\nNot compared: %s (not a release: the functions are set beside the hand releases only).\n"
                       : "  not compared: %s (not a release: the functions are set beside the hand releases only)\n",
                    s.c_str());
    compared_any = !compared.empty();
    if (!compared_any) return 0;
    if (md) {
        std::printf("\n| rule | proved equal to | differs from, where |\n|---|---|---|\n");
    } else {
        std::string c;
        for (const auto& x : compared) c += (c.empty() ? "" : ", ") + x;
        std::printf("  each lifted rule beside %s (Z3, every build, boot state, gfp, order <= 10):\n", c.c_str());
    }
    for (const auto& r : rows) {
        std::string eq, diff;
        for (const auto& x : r.equal_to) eq += (eq.empty() ? "" : ", ") + x;
        for (const auto& [era, where] : r.differs) diff += (diff.empty() ? "" : "; ") + era + ": " + where;
        if (eq.empty()) ++drift;
        if (md) std::printf("| `%s` | %s | %s |\n", r.name.c_str(), eq.empty() ? "DRIFT" : eq.c_str(), diff.c_str());
        else
            std::printf("    %-36s %s%s%s\n", r.name.c_str(), eq.empty() ? "DRIFT" : ("as " + eq).c_str(),
                        diff.empty() ? "" : "; differs from ", diff.c_str());
    }
    return drift;
}

}  // namespace tagproof::cli
