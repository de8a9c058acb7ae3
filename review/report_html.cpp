// report_html.cpp — a finding as a self-contained HTML page: the report's
// fields, the trace, and a picture of the tags over time (each event a
// column, each pointer the trace touched a row: its tag and the memory tag
// under it, red where they differ and the pointer is not match-all). The
// picture is Graphviz DOT, rendered to inline SVG by `dot -Tsvg` when it is
// installed; otherwise the page carries the DOT source.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "report.hpp"

namespace tagproof::review {

std::string html_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            default: o += c;
        }
    }
    return o;
}

namespace {

std::string esc(const std::string& s) { return html_escape(s); }

// One pointer's state after an event, read back from the trace's state lines
// ("      p0: pointer tag ff, memory tag fe, page tag ff, data zero").
struct Cell {
    std::string ptr, mem, page, data;
};

struct Steps {
    std::vector<std::string> events;
    std::vector<std::map<std::string, Cell>> cells;
    std::vector<std::string> names;  // in first-seen order
};

Steps read_steps(const std::vector<std::string>& trace) {
    Steps s;
    for (const auto& l : trace) {
        const std::size_t lead = l.find_first_not_of(' ');
        if (lead == std::string::npos) continue;
        if (lead == 2) {  // an event line
            s.events.push_back(l.substr(2, l.find(" -> ") == std::string::npos ? std::string::npos : l.find(" -> ") - 2));
            s.cells.emplace_back();
            continue;
        }
        const std::size_t colon = l.find(": pointer tag ");
        if (lead != 6 || colon == std::string::npos || s.cells.empty()) continue;
        Cell c;
        const std::string name = l.substr(6, colon - 6);
        auto field = [&](const char* key) {
            std::size_t at = l.find(key);
            if (at == std::string::npos) return std::string();
            at += std::string(key).size();
            return l.substr(at, l.find(',', at) == std::string::npos ? std::string::npos : l.find(',', at) - at);
        };
        c.ptr = field("pointer tag ");
        c.mem = field("memory tag ");
        c.page = field("page tag ");
        c.data = field("data ");
        s.cells.back()[name] = c;
        if (std::find(s.names.begin(), s.names.end(), name) == s.names.end()) s.names.push_back(name);
    }
    return s;
}

// 16 light colours, one per MTE tag nibble
const char* colour(const std::string& tag) {
    static const char* pal[16] = {"#e8f0fe", "#fde7e9", "#e6f4ea", "#fef7e0", "#f3e8fd", "#e0f7fa", "#fce8e6", "#e8eaed",
                                  "#d2e3fc", "#fad2cf", "#ceead6", "#feefc3", "#e9d2fd", "#cbf0f8", "#ffd8b2", "#dadce0"};
    if (tag.size() != 2) return "#ffffff";
    return pal[std::strtoul(tag.c_str(), nullptr, 16) & 0xF];
}

}  // namespace

std::string tag_picture_dot(const Finding& f) {
    const Steps s = read_steps(f.trace);
    std::string d = "digraph tags {\n  rankdir=LR;\n  node [shape=plaintext, fontname=\"monospace\", fontsize=10];\n";
    for (std::size_t i = 0; i < s.events.size(); ++i) {
        d += "  e" + std::to_string(i) + " [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\">";
        d += "<tr><td colspan=\"2\"><b>" + std::to_string(i + 1) + "</b> " + esc(s.events[i]) + "</td></tr>";
        for (const auto& n : s.names) {
            auto it = s.cells[i].find(n);
            if (it == s.cells[i].end()) {
                d += "<tr><td>" + esc(n) + "</td><td>-</td></tr>";
                continue;
            }
            const Cell& c = it->second;
            const bool bad = c.ptr != "ff" && c.mem.size() == 2 && c.ptr.size() == 2 && c.ptr[1] != c.mem[1];
            d += "<tr><td>" + esc(n) + " ptr " + esc(c.ptr) + "</td><td bgcolor=\"" + colour(c.mem) + "\"" +
                 (bad ? " color=\"red\"" : "") + ">mem " + esc(c.mem) + " page " + esc(c.page) + "</td></tr>";
        }
        d += "</table>>];\n";
        if (i) d += "  e" + std::to_string(i - 1) + " -> e" + std::to_string(i) + ";\n";
    }
    return d + "}\n";
}

// The key to the picture, for a reader who has not seen one: what a box, a
// row and each field are, the colour of every memory tag the picture shows,
// and the red mark of a tag mismatch. HTML beside the picture (not inside the
// SVG) so it is there with the DOT source too.
namespace {
std::string tag_picture_legend(const Finding& f) {
    const Steps s = read_steps(f.trace);
    std::vector<std::string> tags;  // memory tags the picture shows, sorted
    for (const auto& step : s.cells)
        for (const auto& [name, c] : step)
            if (c.mem.size() == 2 && std::find(tags.begin(), tags.end(), c.mem) == tags.end()) tags.push_back(c.mem);
    std::sort(tags.begin(), tags.end());
    std::string h =
        "<div class=\"legend\" id=\"legend\">\n<p><b>Legend</b></p>\n<ul>\n"
        "<li>Each box is one event of the trace, numbered, in order along the arrows; under it, the state after "
        "the event of every pointer the trace touched, one row a pointer (<code>-</code>: no value: the pointer "
        "not made yet, or memory without a page tag).</li>\n"
        "<li><code>ptr XX</code>: the pointer's tag (bits 56-63); <code>ff</code> is the match-all tag "
        "(KASAN_TAG_KERNEL), which never faults under TCR_EL1.TCMA1.</li>\n"
        "<li><code>mem XX</code>: the memory tag of the granule the pointer points at; <code>page XX</code>: the "
        "page's tag (page_kasan_tag). The cell's colour is the memory tag's: one colour per MTE tag value.</li>\n"
        "<li><span class=\"swatch bad\">mem</span> red border: the pointer's tag differs from the memory tag and is "
        "not match-all: an access through it faults (a KASAN report).</li>\n";
    if (!tags.empty()) {
        h += "<li>Memory tags in this picture:";
        for (const auto& t : tags)
            h += " <span class=\"swatch\" style=\"background:" + std::string(colour(t)) + "\">" + esc(t) + "</span>";
        h += "</li>\n";
    }
    return h + "</ul>\n</div>\n";
}
}  // namespace

// `dot -Tsvg` of the picture, or "" when Graphviz is not installed.
std::string render_svg(const std::string& dot) {
    if (std::system("command -v dot >/dev/null 2>&1") != 0) return "";
    // a file of its own: reviews render from several threads and processes at once
    std::string in = (std::filesystem::temp_directory_path() / "tagproof-XXXXXX").string();
    const int fd = mkstemp(in.data());
    if (fd < 0) return "";
    close(fd);
    std::ofstream(in) << dot;
    std::string svg;
    if (FILE* p = popen(("dot -Tsvg '" + in + "' 2>/dev/null").c_str(), "r")) {
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) svg.append(buf, n);
        if (pclose(p) != 0) svg.clear();
    }
    std::filesystem::remove(in);
    // inline: drop the XML prologue and DOCTYPE
    const std::size_t at = svg.find("<svg");
    return at == std::string::npos ? "" : svg.substr(at);
}

std::string finding_html(const Finding& f) {
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
                    esc(f.variant + ": " + f.property) + "</title>\n<style>\n"
                    "body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}\n"
                    "pre{background:#f6f8fa;padding:1em;overflow-x:auto}\n"
                    ".picture{overflow-x:auto}\n.legend{border:1px solid #ccc;padding:0 1em;font-size:90%}\n"
                    ".swatch{display:inline-block;font-family:monospace;padding:0 .4em;border:1px solid #000}\n"
                    ".swatch.bad{border:2px solid red}\n"
                    "table.f td{padding:.2em .8em;vertical-align:top}\n"
                    ".sev{color:#b3261e;font-weight:bold}\nblockquote{border-left:4px solid #ccc;margin:0;padding-left:1em}\n"
                    "</style></head><body>\n";
    h += "<h1>" + esc(f.variant) + ": <code>" + esc(f.property) + "</code> [" + mode_name(f.mode) + "]" +
         (f.recorded ? " <small>(recorded defect)</small>"
          : f.in_baseline ? " <small>(also in " + esc(f.baseline) + ")</small>" : "") + "</h1>\n";
    h += "<p><b>" + esc(headline(f)) + "</b></p>\n";
    h += "<p class=\"sev\">Severity: " + esc(severity(f)) + "</p>\n<table class=\"f\">\n";
    auto row = [&](const std::string& k, const std::string& v) { h += "<tr><td>" + k + "</td><td>" + v + "</td></tr>\n"; };
    row("Variant", esc(f.variant + (f.baseline.empty() ? "" : " (baseline " + f.baseline + ")")));
    row("Config", esc(f.config));
    row("Property", "<code>" + esc(f.property) + "</code>: " + esc(property_statement(f.property)));
    row("Found by", esc(f.source + ", " + f.origin));
    if (!f.scenario_file.empty()) row("Reproduce", "<code>" + esc(reproduce_command(f, f.scenario_file)) + "</code>");
    if (!f.kernel.empty()) {
        std::string ex;
        for (const auto& l : f.kernel_excerpt) ex += esc(l) + "\n";
        row("Kernel", esc(f.kernel) + (ex.empty() ? "" : "<pre>" + ex + "</pre>"));
    }
    h += "</table>\n<h2>Tags over time</h2>\n";
    const std::string dot = tag_picture_dot(f);
    const std::string svg = render_svg(dot);
    if (!svg.empty()) h += "<div class=\"picture\">\n" + svg + "</div>\n";
    else h += "<p>Graphviz is not installed: the picture's DOT source (render with <code>dot -Tsvg</code>):</p>\n"
              "<pre class=\"dot\">" + esc(dot) + "</pre>\n";
    h += tag_picture_legend(f);
    h += "<h2>Trace</h2>\n<pre>";
    for (const auto& l : f.trace) h += esc(l) + "\n";
    h += "</pre>\n<p><b>What should have happened:</b> " + esc(f.expected) + "</p>\n<p><b>What happened:</b> " +
         esc(f.happened) + "</p>\n";
    if (!f.functions.empty()) {
        h += "<p><b>Kernel functions involved:</b>";
        for (const auto& x : f.functions) h += " <code>" + esc(x) + "</code>";
        h += "</p>\n";
    }
    h += "<blockquote>" + esc(question(f)) + "</blockquote>\n</body></html>\n";
    return h;
}

}  // namespace tagproof::review
