// report_text.cpp — the console review and the 72-column text report.
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "report.hpp"

namespace tagproof::review {


std::vector<std::string> wrap(const std::string& text, std::size_t width, const std::string& first_indent,
                              const std::string& indent) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string word, line = first_indent;
    bool empty = true;
    while (in >> word) {
        if (!empty && line.size() + 1 + word.size() > width) {
            out.push_back(line);
            line = indent;
            empty = true;
        }
        if (!empty) line += ' ';
        // a single word longer than the width is cut, never left long
        while (line.size() + word.size() > width && word.size() > width - indent.size()) {
            std::size_t room = width - line.size();
            out.push_back(line + word.substr(0, room));
            word = word.substr(room);
            line = indent;
        }
        line += word;
        empty = false;
    }
    if (!empty || out.empty()) out.push_back(line);
    return out;
}

namespace {
void add(std::string& s, const std::vector<std::string>& lines) {
    for (const auto& l : lines) s += l + "\n";
}
std::string recorded_text(const Finding& f) {
    if (f.recorded) return " (recorded: a known defect of " + f.variant + ")";
    if (f.in_baseline) return " (also in " + f.baseline + ")";
    return "";
}
}  // namespace

std::string finding_text(const Finding& f) {
    constexpr std::size_t W = 72;
    std::string s;
    add(s, wrap("[Severity: " + severity(f) + "]", W, "", "  "));
    add(s, wrap(f.variant + ": " + f.property + " [" + mode_name(f.mode) + "]" + recorded_text(f), W, "", "  "));
    add(s, wrap(headline(f), W, "  ", "    "));
    s += "\n";
    add(s, wrap(f.variant + (f.baseline.empty() ? "" : " (baseline " + f.baseline + ")"), W, "Variant:   ", "           "));
    add(s, wrap(f.config, W, "Config:    ", "           "));
    add(s, wrap(f.property + ": " + property_statement(f.property), W, "Property:  ", "           "));
    add(s, wrap(f.source + ", " + f.origin, W, "Found by:  ", "  "));
    if (!f.kernel.empty()) add(s, wrap(f.kernel, W, "Kernel:    ", "           "));
    if (!f.kernel_excerpt.empty()) {
        // console lines as the kernel printed them, not wrapped
        s += "The patched kernel's console:\n";
        for (const auto& l : f.kernel_excerpt) s += "  | " + l + "\n";
    }
    s += "\nThe trace (replayed in tagproof's model; the state after each event):\n";
    for (const auto& l : f.trace) {
        // keep the trace's own indentation, wrap what is longer than 72
        std::size_t lead = l.find_first_not_of(' ');
        std::string ind = lead == std::string::npos ? "" : l.substr(0, lead);
        add(s, wrap(l, W, ind, ind + "    "));
    }
    s += "\n";
    add(s, wrap(f.expected, W, "What should have happened: ", "  "));
    add(s, wrap(f.happened, W, "What happened: ", "  "));
    if (!f.functions.empty()) {
        std::string fn;
        for (const auto& x : f.functions) fn += (fn.empty() ? "" : ", ") + x;
        add(s, wrap(fn, W, "Kernel functions involved: ", "  "));
    }
    for (const auto& a : f.also) add(s, wrap(a, W, "Also broken by the series: ", "  "));
    if (!f.scenario_file.empty()) {
        // a command is never split: the file's name on its own line, its directory above
        const std::size_t slash = f.scenario_file.rfind('/');
        const std::string dir = slash == std::string::npos ? "" : f.scenario_file.substr(0, slash);
        const std::string base = slash == std::string::npos ? f.scenario_file : f.scenario_file.substr(slash + 1);
        const std::string head = "Reproduce (in " + dir + "):";
        s += dir.empty() ? "Reproduce:\n" : head.size() <= W ? head + "\n" : "Reproduce (in this report's directory):\n";
        s += "  " + reproduce_command(f, base) + "\n";
    }
    s += "\n";
    add(s, wrap(question(f), W, "", ""));
    return s;
}

std::string review_text(const VariantReview& r, const std::vector<std::string>& report_files) {
    std::string s;
    char b[256];
    s += "----------------------------------------\n";
    std::snprintf(b, sizeof b, "%s (baseline %s): %s\n", r.variant.c_str(), r.baseline.empty() ? "-" : r.baseline.c_str(),
                  r.summary.c_str());
    s += b;
    for (const auto& c : r.claims) add(s, wrap(c, 72, "  claims: ", "          "));
    for (const auto& n : r.notes) s += "  " + n + "\n";
    std::size_t fi = 0;
    for (const auto& pv : r.verdicts) {
        std::string srcs;
        bool any = false;
        for (const auto& sv : pv.sources)
            if (sv.status != SourceVerdict::not_covered) {
                srcs += (srcs.empty() ? "" : ", ") + sv.source;
                any = true;
            }
        if (!any) continue;
        std::string head = pv.property + " [" + mode_name(pv.mode) + "]";
        std::string undecided;
        for (const auto& sv : pv.sources)
            if (sv.status == SourceVerdict::unknown) undecided += (undecided.empty() ? "" : "; ") + sv.source + ": " + sv.detail;
        if (!pv.violated && !undecided.empty()) {
            // "holds" only when every engine named finished its budget
            std::snprintf(b, sizeof b, "  %-36s INCOMPLETE\n", head.c_str());
            s += b;
            add(s, wrap(undecided, 72, "      ", "        "));
            continue;
        }
        if (!pv.violated) {
            std::snprintf(b, sizeof b, "  %-36s holds (%s)\n", head.c_str(), srcs.c_str());
            s += b;
            continue;
        }
        std::snprintf(b, sizeof b, "  %-36s COUNTEREXAMPLE%s\n", head.c_str(),
                      pv.recorded      ? " (a recorded defect)"
                      : pv.in_baseline ? (" (also in " + r.baseline + ")").c_str()
                                       : "  -- UNRECORDED FINDING");
        s += b;
        for (const auto& sv : pv.sources) {
            const std::string also = sv.in_baseline && !pv.recorded ? " (also in " + r.baseline + ")" : "";
            std::snprintf(b, sizeof b, "      %-11s %-15s %s%s\n", sv.source.c_str(), status_name(sv.status),
                          sv.detail.c_str(), also.c_str());
            s += b;
        }
        for (std::size_t k = 0; k < r.findings.size(); ++k)
            if (r.findings[k].property == pv.property && r.findings[k].mode == pv.mode && k < report_files.size() &&
                !report_files[k].empty())
                s += "      report: " + report_files[k] + "\n";
        ++fi;
    }
    if (!r.changes.empty()) {
        s += "  intended changes against " + r.baseline + " (within the claims):\n";
        for (const auto& c : r.changes) add(s, wrap(c, 72, "    ", "      "));
    }
    for (const auto& gp : r.gaps) add(s, wrap(gp, 72, "  MODELLING GAP: ", "    "));
    for (const auto& d : r.recorded_defects) {
        bool found = false;
        for (const auto& pv : r.verdicts) found |= pv.property == d && pv.violated;
        if (!found) s += "  recorded defect " + d + " NOT FOUND by any source\n";
    }
    s += std::string("  verdict: ") + (r.as_recorded() ? "as recorded" : "NOT as recorded") +
         (r.unknown ? " (some obligation unknown)" : "") + "\n";
    return s;
}

std::string summary_table(const std::vector<VariantReview>& rs) {
    // columns: the properties; a cell per variant: '.' holds in every mode,
    // 'x' a counterexample (recorded), 'X' one not recorded, '!' a recorded
    // defect not found
    std::string s = "summary (. holds, x recorded defect found, b also in the baseline, X unrecorded\n"
                    "  finding, ! recorded defect not found)\n";
    static const char* abbrev[] = {"match", "mism", "nofp", "detect", "zero", "ptag", "range", "sample", "iso", "gfp"};
    int w = 14;  // the name column: as wide as the longest name
    for (const auto& r : rs) w = std::max(w, int(r.variant.size()));
    char b[128];
    std::snprintf(b, sizeof b, "  %-*s", w, "variant");
    s += b;
    for (const char* a : abbrev) {
        std::snprintf(b, sizeof b, " %-6s", a);
        s += b;
    }
    s += "  verdict\n";
    for (const auto& r : rs) {
        std::snprintf(b, sizeof b, "  %-*.*s", w, 100, r.variant.c_str());
        s += b;
        for (const auto& p : properties()) {
            bool violated = false, recorded = false, fresh = false;
            for (const auto& pv : r.verdicts)
                if (pv.property == p) {
                    violated |= pv.violated;
                    recorded |= pv.recorded;
                    fresh |= pv.unrecorded();
                }
            const char* c = fresh ? "X" : violated ? (recorded ? "x" : "b") : (recorded ? "!" : ".");
            std::snprintf(b, sizeof b, " %-6s", c);
            s += b;
        }
        s += std::string("  ") + (r.as_recorded() ? "as recorded" : "NOT as recorded") + "\n";
    }
    return s;
}

}  // namespace tagproof::review
