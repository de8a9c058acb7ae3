// bench_targets.cpp — see bench_targets.hpp.
#include "bench_targets.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "error.hpp"

namespace tagproof::bench {

namespace {

// `"key": value,` on one line of the pretty-printed JSON: the value's text.
bool field(const std::string& line, const char* key, std::string& value) {
    const std::string k = std::string("\"") + key + "\":";
    const std::size_t at = line.find(k);
    if (at == std::string::npos) return false;
    value = line.substr(at + k.size());
    while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
    while (!value.empty() && (value.back() == ',' || value.back() == ' ' || value.back() == '\r')) value.pop_back();
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return true;
}

double number(const std::string& v, const std::string& where) {
    std::size_t used = 0;
    double d = 0;
    try {
        d = std::stod(v, &used);
    } catch (...) {
        used = 0;
    }
    if (used != v.size() || v.empty()) throw InputError(where, "'" + v + "' is not a number");
    return d;
}

}  // namespace

std::vector<BenchResult> parse_benchmark_json(const std::string& text, const std::string& where) {
    std::vector<BenchResult> out;
    std::istringstream in(text);
    std::string line, v;
    int n = 0;
    bool in_benchmarks = false;
    while (std::getline(in, line)) {
        ++n;
        const std::string at = where + ":" + std::to_string(n);
        if (line.find("\"benchmarks\":") != std::string::npos) {
            in_benchmarks = true;
            continue;
        }
        if (!in_benchmarks) continue;
        if (field(line, "name", v)) {
            out.push_back({});
            out.back().name = v;
        } else if (out.empty()) {
            continue;
        } else if (field(line, "real_time", v)) {
            out.back().real_time = number(v, at);
        } else if (field(line, "run_type", v)) {
            out.back().aggregate = v == "aggregate";
        } else if (field(line, "time_unit", v)) {
            out.back().unit = v;
        } else if (field(line, "items_per_second", v)) {
            out.back().items_per_second = number(v, at);
        } else if (field(line, "error_message", v)) {
            throw InputError(at, out.back().name + " failed: " + v);
        }
    }
    if (!in_benchmarks) throw InputError(where, "no \"benchmarks\" array: not Google Benchmark JSON output");
    for (const auto& r : out)  // an aggregate's stddev may be 0
        if (r.unit.empty() || (r.real_time <= 0 && !r.aggregate)) throw InputError(where, r.name + " has no real_time and time_unit");
    return out;
}

Measured measure(const std::vector<BenchResult>& rs, const std::string& name, bool items) {
    std::vector<double> xs;
    Measured m;
    for (const auto& r : rs)
        if (!r.aggregate && r.name == name) {
            xs.push_back(items ? r.items_per_second : r.real_time);
            m.unit = r.unit;
        }
    if (xs.empty()) {
        // a run kept with --benchmark_report_aggregates_only: its median alone
        for (const auto& r : rs)
            if (r.aggregate && r.name == name + "_median") {
                m.median = m.min = m.max = items ? r.items_per_second : r.real_time;
                m.unit = r.unit;
                m.runs = 0;
                if (!(m.median > 0)) break;
                return m;
            }
        throw InputError("benchmark results", "no " + name + " in the run (is the bench program current?)");
    }
    for (double x : xs)
        if (!(x > 0)) throw InputError("benchmark results", name + " has a repetition with no " +
                                                                 (items ? "items per second" : "real time"));
    std::sort(xs.begin(), xs.end());
    const std::size_t k = xs.size();
    m.median = k % 2 ? xs[k / 2] : (xs[k / 2 - 1] + xs[k / 2]) / 2;
    m.min = xs.front();
    m.max = xs.back();
    m.runs = int(k);
    return m;
}

namespace {
// three significant digits, without an exponent for the sizes printed here
std::string num(double x) {
    char b[32];
    std::snprintf(b, sizeof b, x >= 1000 ? "%.0f" : "%.3g", x);
    return b;
}
}  // namespace

std::string describe(const Measured& m, double scale, const char* unit) {
    const std::string med = num(m.median * scale) + " " + unit;
    if (m.runs == 0) return med + " (a median kept alone: spread unknown)";
    char b[64];
    std::snprintf(b, sizeof b, "spread %.0f %%", 100 * m.spread());
    return med + ", " + std::to_string(m.runs) + " runs, " + num(m.min * scale) + "-" + num(m.max * scale) + ", " + b;
}

std::vector<TargetCheck> check_targets(const std::vector<BenchResult>& rs) {
    std::vector<TargetCheck> out;
    const Measured model = measure(rs, "BM_ModelEvents", true), ref = measure(rs, "BM_ReferenceEvents", true);
    out.push_back({"reference events per second (millions)", ref.median / 1e6, 27, true,
                   "reference " + describe(ref, 1e-6, "M/s")});
    out.push_back({"reference / model events per second", ref.median / model.median, 50, true,
                   "reference " + describe(ref, 1e-6, "M/s") + "; model " + describe(model, 1e-3, "k/s")});
    for (const char* size : {"128", "4096", "32768", "2097152"}) {
        const Measured tags = measure(rs, std::string("BM_TagStoreSetRange/") + size, false);
        const Measured mem = measure(rs, std::string("BM_MemsetTagBytes/") + size, false);
        if (tags.unit != mem.unit) throw InputError("benchmark results", "tag and memset runs in different units");
        const std::string u = tags.unit;
        out.push_back({std::string("TagStore::set_range / memset, ") + size + " B", tags.median / mem.median, 1.2,
                       false,
                       "set_range " + describe(tags, 1, u.c_str()) + "; memset " + describe(mem, 1, u.c_str())});
    }
    return out;
}

}  // namespace tagproof::bench
