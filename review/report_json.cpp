// report_json.cpp — the review and its findings as JSON, for tools, and as
// Markdown, for a web review.
#include <cstdio>

#include "report.hpp"

namespace tagproof::review {

std::string json_string(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        switch (c) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if ((unsigned char)c < 0x20) {
                    char b[8];
                    std::snprintf(b, sizeof b, "\\u%04x", c);
                    o += b;
                } else {
                    o += c;
                }
        }
    }
    return o + "\"";
}

namespace {
std::string q(const std::string& s) { return json_string(s); }
std::string list(const std::vector<std::string>& xs) {
    std::string o = "[";
    for (std::size_t i = 0; i < xs.size(); ++i) o += (i ? ", " : "") + q(xs[i]);
    return o + "]";
}
}  // namespace

std::string finding_json(const Finding& f) {
    std::string s = "{";
    s += "\"variant\": " + q(f.variant) + ", \"baseline\": " + q(f.baseline) + ", \"property\": " + q(f.property);
    s += ", \"mode\": " + q(mode_name(f.mode)) + ", \"recorded\": " + (f.recorded ? "true" : "false");
    s += ", \"in_baseline\": " + std::string(f.in_baseline ? "true" : "false") + ", \"headline\": " + q(headline(f));
    s += ", \"severity\": " + q(severity(f)) + ", \"source\": " + q(f.source) + ", \"origin\": " + q(f.origin);
    s += ", \"config\": " + q(f.config) + ", \"expected\": " + q(f.expected) + ", \"happened\": " + q(f.happened);
    s += ", \"functions\": " + list(f.functions) + ", \"also\": " + list(f.also) + ", \"trace\": " + list(f.trace);
    s += ", \"scenario_file\": " + q(f.scenario_file) + ", \"scenario\": " + q(f.scenario);
    if (!f.kernel.empty())
        s += ", \"kernel\": " + q(f.kernel) + ", \"kernel_contradicts\": " + (f.kernel_contradicts ? "true" : "false") +
             ", \"kernel_excerpt\": " + list(f.kernel_excerpt);
    s += ", \"question\": " + q(question(f)) + "}";
    return s;
}

std::string verdict_cells_json(const VariantReview& r, const std::string& indent) {
    std::string s;
    for (std::size_t k = 0; k < r.verdicts.size(); ++k) {
        const auto& pv = r.verdicts[k];
        s += std::string(k ? ",\n" : "\n") + indent + "{\"property\": " + q(pv.property) + ", \"mode\": " +
             q(mode_name(pv.mode)) + ", \"violated\": " + (pv.violated ? "true" : "false") + ", \"sources\": [";
        for (std::size_t j = 0; j < pv.sources.size(); ++j)
            s += std::string(j ? ", " : "") + "{\"source\": " + q(pv.sources[j].source) + ", \"status\": " +
                 q(status_name(pv.sources[j].status)) + ", \"detail\": " + q(pv.sources[j].detail) +
                 ", \"in_baseline\": " + (pv.sources[j].in_baseline ? "true" : "false") + "}";
        s += "]}";
    }
    return s;
}

std::string review_json(const std::vector<VariantReview>& rs) {
    std::string s = "{\"reviews\": [\n";
    for (std::size_t i = 0; i < rs.size(); ++i) {
        const auto& r = rs[i];
        s += "  {\"variant\": " + q(r.variant) + ", \"baseline\": " + q(r.baseline) + ", \"as_recorded\": " +
             (r.as_recorded() ? "true" : "false") + ", \"unknown\": " + (r.unknown ? "true" : "false") +
             ", \"recorded_defects\": " + list(r.recorded_defects) + ", \"notes\": " + list(r.notes) + ",\n   \"verdicts\": [";
        s += verdict_cells_json(r, "     ");
        s += "],\n   \"findings\": [";
        for (std::size_t k = 0; k < r.findings.size(); ++k) s += std::string(k ? ",\n     " : "\n     ") + finding_json(r.findings[k]);
        s += "]}" + std::string(i + 1 < rs.size() ? ",\n" : "\n");
    }
    return s + "]}\n";
}

std::string finding_markdown(const Finding& f) {
    std::string s = "## " + f.variant + ": `" + f.property + "` [" + mode_name(f.mode) + "]" +
                    (f.recorded ? " (recorded defect)" : f.in_baseline ? " (also in " + f.baseline + ")" : "") +
                    "\n\n";
    s += "**" + headline(f) + "**\n\n";
    s += "**Severity:** " + severity(f) + "\n\n";
    s += "| | |\n|---|---|\n";
    s += "| Variant | " + f.variant + (f.baseline.empty() ? "" : " (baseline " + f.baseline + ")") + " |\n";
    s += "| Config | " + f.config + " |\n";
    s += "| Property | `" + f.property + "`: " + property_statement(f.property) + " |\n";
    s += "| Found by | " + f.source + ", " + f.origin + " |\n";
    if (!f.scenario_file.empty()) s += "| Reproduce | `" + reproduce_command(f, f.scenario_file) + "` |\n";
    if (!f.kernel.empty()) s += "| Kernel | " + f.kernel + " |\n";
    if (!f.kernel_excerpt.empty()) {
        s += "\n### The patched kernel's console\n\n```\n";
        for (const auto& l : f.kernel_excerpt) s += l + "\n";
        s += "```\n";
    }
    s += "\n### Trace\n\n```\n";
    for (const auto& l : f.trace) s += l + "\n";
    s += "```\n\n**What should have happened:** " + f.expected + "\n\n**What happened:** " + f.happened + "\n\n";
    if (!f.functions.empty()) {
        s += "**Kernel functions involved:**";
        for (const auto& x : f.functions) s += " `" + x + "`";
        s += "\n\n";
    }
    for (const auto& a : f.also) s += "**Also broken by the series:** " + a + "\n\n";
    s += "> " + question(f) + "\n";
    return s;
}

}  // namespace tagproof::review
