// options.cpp — the option parser every verb uses.
#include <algorithm>

#include "error.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

bool Options::has(const std::string& f) const { return std::count(flags.begin(), flags.end(), f) > 0; }

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

std::uint64_t parse_u64(const std::string& s, const char* opt) {
    try {
        std::size_t used = 0;
        unsigned long long v = std::stoull(s, &used, 0);
        if (used == s.size() && !s.empty() && s[0] != '-') return v;
    } catch (...) {
    }
    throw InputError(opt, "'" + s + "' is not a number");
}

}  // namespace tagproof::cli
