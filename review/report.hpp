// report.hpp — a review as a reviewer reads it: Alive2-style banners per
// (variant, property, mode), a summary table, and one report per finding —
// text for an LKML reply (72 columns, a [Severity: ...] line, findings as
// questions to the author), Markdown, and JSON for tools.
#pragma once
#include <string>
#include <vector>

#include "review.hpp"

namespace tagproof::review {

// From the violation itself (violation_text.cpp): the [Severity: ...] line,
// what should have happened, and the question to the patch's author.
std::string severity(const Finding& f);
std::string headline(const Finding& f);  // one line: the event and what went wrong there
// The kind of failure an oracle message describes ("coverage", "zero-data", ...).
std::string violation_kind(const std::string& property, const std::string& message);
std::string expected_for(const Finding& f);
std::string question(const Finding& f);

// Console output of one variant's review: header, a line per (property,
// mode), the sources of each counterexample, where its report went.
std::string review_text(const VariantReview& r, const std::vector<std::string>& report_files);
std::string summary_table(const std::vector<VariantReview>& rs);

// One finding, every line at most 72 columns.
std::string finding_text(const Finding& f);
std::string finding_markdown(const Finding& f);
std::string finding_json(const Finding& f);
// A self-contained page: the report and an SVG picture of the tags over time
// (inline SVG from Graphviz dot when installed, its DOT source otherwise).
std::string finding_html(const Finding& f);
std::string tag_picture_dot(const Finding& f);
std::string review_json(const std::vector<VariantReview>& rs);
// One review's cells (property x mode) as JSON objects, each line starting with `indent`.
std::string verdict_cells_json(const VariantReview& r, const std::string& indent);

// A JSON string literal; text made safe inside HTML.
std::string json_string(const std::string& s);
std::string html_escape(const std::string& s);

// Wraps text at `width` columns, continuation lines indented by `indent`.
std::vector<std::string> wrap(const std::string& text, std::size_t width, const std::string& first_indent,
                              const std::string& indent);

}  // namespace tagproof::review
