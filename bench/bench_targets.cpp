// bench_targets.cpp — see bench_targets.hpp.
#include "bench_targets.hpp"

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

// A run with repetitions is judged on its median; a single run on itself.
const BenchResult& find(const std::vector<BenchResult>& rs, const std::string& name) {
    for (const auto& r : rs)
        if (r.name == name + "_median") return r;
    for (const auto& r : rs)
        if (r.name == name) return r;
    throw InputError("benchmark results", "no " + name + " in the run (is the bench program current?)");
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
        } else if (field(line, "time_unit", v)) {
            out.back().unit = v;
        } else if (field(line, "items_per_second", v)) {
            out.back().items_per_second = number(v, at);
        } else if (field(line, "error_message", v)) {
            throw InputError(at, out.back().name + " failed: " + v);
        }
    }
    if (!in_benchmarks) throw InputError(where, "no \"benchmarks\" array: not Google Benchmark JSON output");
    for (const auto& r : out)
        if (r.unit.empty() || r.real_time <= 0) throw InputError(where, r.name + " has no real_time and time_unit");
    return out;
}

std::vector<TargetCheck> check_targets(const std::vector<BenchResult>& rs) {
    std::vector<TargetCheck> out;
    const BenchResult& model = find(rs, "BM_ModelEvents");
    const BenchResult& ref = find(rs, "BM_ReferenceEvents");
    if (model.items_per_second <= 0 || ref.items_per_second <= 0)
        throw InputError("benchmark results", "the event benchmarks count no items per second");
    out.push_back({"reference / model events per second", ref.items_per_second / model.items_per_second, 50, true});
    for (const char* size : {"128", "4096", "32768", "2097152"}) {
        const BenchResult& tags = find(rs, std::string("BM_TagStoreSetRange/") + size);
        const BenchResult& mem = find(rs, std::string("BM_MemsetTagBytes/") + size);
        if (tags.unit != mem.unit) throw InputError("benchmark results", "tag and memset runs in different units");
        out.push_back({std::string("TagStore::set_range / memset, ") + size + " B", tags.real_time / mem.real_time, 1.5,
                       false});
    }
    return out;
}

}  // namespace tagproof::bench
