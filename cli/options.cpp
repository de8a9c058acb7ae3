// options.cpp — the option parser every verb uses.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <cctype>

#include "error.hpp"
#include "number.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

// A flag, or a --key given with a value.
bool Options::has(const std::string& f) const {
    return std::count(flags.begin(), flags.end(), f) > 0 ||
           std::any_of(named.begin(), named.end(), [&](const auto& kv) { return kv.first == f; });
}

std::string Options::get(const std::string& k, const std::string& dflt) const {
    for (auto it = named.rbegin(); it != named.rend(); ++it)
        if (it->first == k) return it->second;
    return dflt;
}

Options parse_options(const Args& args, const std::vector<std::string>& value_opts,
                      const std::vector<std::string>& flag_opts) {
    Options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() > 2 && a.rfind("--", 0) == 0) {
            std::string key = a, val;
            auto eq = a.find('=');
            if (eq != std::string::npos) {
                key = a.substr(0, eq);
                val = a.substr(eq + 1);
            }
            if (std::count(flag_opts.begin(), flag_opts.end(), key)) {
                o.flags.push_back(key);
            } else if (std::count(value_opts.begin(), value_opts.end(), key)) {
                if (eq == std::string::npos) {
                    if (i + 1 >= args.size()) throw InputError("command line", key + " needs a value");
                    val = args[++i];
                }
                o.named.push_back({key, val});
            } else {
                throw InputError("command line", "unknown option '" + key + "'");
            }
        } else {
            o.positional.push_back(a);
        }
    }
    return o;
}

// number.hpp's reader: std::stoull alone takes "-3" as 2^64-3 and skips
// leading blanks, which is how `--depth -3` became 4294967293.
std::uint64_t parse_u64(const std::string& s, const char* opt) {
    std::uint64_t v = 0;
    const NumberRead r = read_number(s, v);
    if (r == NumberRead::ok) return v;
    throw InputError(opt, "'" + s + "' " + number_problem(r) +
                              (r == NumberRead::negative ? ": expected a number of 0 or more" : ""));
}

std::uint64_t parse_count(const std::string& s, const char* opt, std::uint64_t lo, std::uint64_t hi) {
    const std::uint64_t v = parse_u64(s, opt);
    if (v < lo || v > hi)
        throw InputError(opt, "'" + s + "' is out of range: expected " + std::to_string(lo) + ".." + std::to_string(hi));
    return v;
}

std::uint64_t option_count(const Options& o, const char* opt, std::uint64_t dflt, std::uint64_t lo, std::uint64_t hi) {
    const std::string s = o.get(opt);
    if (s.empty()) {
        for (const auto& [k, v] : o.named)
            if (k == opt) throw InputError(opt, "needs a value (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
        return dflt;
    }
    return parse_count(s, opt, lo, hi);
}

std::uint64_t parse_dczid(const Options& o) {
    const std::uint64_t v = option_count(o, "--dczid", 4, 0, 0x1F);
    if ((v & 0xF) > 9)
        throw InputError("--dczid", "'" + o.get("--dczid") + "': BS (bits 3:0) is " + std::to_string(v & 0xF) +
                                        ", above 9 (blocks of at most 2 KiB)");
    return v;
}

void prepare_out_dir(const std::string& dir, const char* opt) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError(std::string(opt) + " " + dir, "cannot create the directory: " + ec.message());
    if (!fs::is_directory(dir, ec)) throw InputError(std::string(opt) + " " + dir, "is not a directory");
    const fs::path probe = fs::path(dir) / ".tagproof-write-test";
    {
        std::ofstream f(probe);
        if (!f) throw InputError(std::string(opt) + " " + dir, "cannot write in the directory");
    }
    fs::remove(probe, ec);
}

}  // namespace tagproof::cli
