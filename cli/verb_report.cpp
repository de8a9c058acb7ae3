// verb_report.cpp — `tagproof report FILE`: the review report of one
// counterexample scenario (its `expect violation INV` names the property),
// replayed in the model with the state after each event. A fuzzing
// campaign's triage writes its findings with it.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "error.hpp"
#include "property.hpp"
#include "report.hpp"
#include "review.hpp"
#include "scenario.hpp"
#include "variant.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

int verb_report(const Args& args) {
    Options o = parse_verb_options("report", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof report [--format text|md|html|json] [--source WHAT] [--minimise]\n"
                     "                       [--write-minimised FILE] SCENARIO\n\n"
                     "Replays a counterexample scenario (its 'expect violation INVARIANT' line names the\n"
                     "property) in the model with the state after each event and prints the review report:\n"
                     "text (72 columns, for a review mail), md, html or json. --minimise first removes\n"
                     "event lines while the violation still shows (written to --write-minimised FILE).\n"
                     "Exit status: 0 the report was written, 1 the scenario does not show the violation,\n"
                     "2 bad input.\n";
        return 0;
    }
    if (o.positional.size() != 1) throw InputError("command line", "tagproof report needs one scenario FILE");
    const std::string file = o.positional[0];
    const std::string format = o.get("--format", "text");
    if (format != "text" && format != "md" && format != "json" && format != "html")
        throw InputError("--format", "'" + format + "': expected text, md, html or json");
    std::ifstream in(file);
    if (!in) throw InputError(file, "cannot open the scenario file");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    scenario::Scenario sc = scenario::parse_scenario(text, file);
    std::string property;
    for (const auto& e : sc.expects)
        if (e.kind == scenario::Expect::violation) property = e.value;
    if (property.empty()) throw InputError(file, "no 'expect violation INVARIANT' line: which property does it break?");
    if (o.has("--minimise")) {
        std::size_t events = 0;
        text = properties::minimise_scenario(text, property, events);
        if (!o.get("--write-minimised").empty()) std::ofstream(o.get("--write-minimised")) << text;
    }
    const kernel::Variant& v = kernel::find_variant(sc.variant, file);
    review::VariantReview r;
    r.variant = v.name();
    r.baseline = v.baseline();
    review::Finding f;
    f.variant = v.name();
    f.baseline = v.baseline();
    f.property = property;
    f.mode = sc.modes.empty() ? Mode::hw_tags : sc.modes.front();
    for (const auto& d : v.known_defects()) f.recorded |= d == property;
    f.source = o.get("--source", "scenario");
    f.origin = file;
    f.scenario = text;
    f.scenario_file = o.get("--write-minimised").empty() ? file : o.get("--write-minimised");
    r.findings.push_back(f);
    review::explain_findings(r);
    const review::Finding& g = r.findings.front();
    const bool shown = g.happened.rfind(property + ":", 0) == 0;
    std::fputs((format == "text"   ? review::finding_text(g)
                : format == "md"   ? review::finding_markdown(g)
                : format == "html" ? review::finding_html(g)
                                   : review::finding_json(g) + "\n")
                   .c_str(),
               stdout);
    if (!shown) std::fprintf(stderr, "tagproof report: %s does not show a violation of %s in the model\n", file.c_str(),
                             property.c_str());
    return shown ? EXIT_HOLDS : EXIT_COUNTEREXAMPLE;
}

}  // namespace tagproof::cli
