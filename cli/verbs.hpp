// verbs.hpp — one function per `tagproof` verb.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tagproof::cli {

using Args = std::vector<std::string>;

int verb_run(const Args& args);
int verb_variants(const Args& args);
int verb_gfp(const Args& args);
int verb_boot(const Args& args);
int verb_review(const Args& args);
int verb_prove(const Args& args);
int verb_accessinfo(const Args& args);
int verb_cost(const Args& args);
int verb_replay(const Args& args);
int verb_explore(const Args& args);
int verb_report(const Args& args);
int verb_seeds(const Args& args);
int verb_bench(const Args& args);

// `tagproof replay`'s second kind of FILE: an event fuzz target's input.
struct Options;
bool is_fuzz_input(const std::string& file, const Options& o);
int replay_fuzz_input(const std::string& file, const Options& o);

// Exit statuses.
inline constexpr int EXIT_HOLDS = 0;
inline constexpr int EXIT_COUNTEREXAMPLE = 1;
inline constexpr int EXIT_BAD_INPUT = 2;
inline constexpr int EXIT_UNKNOWN = 3;
// `tagproof review PATCH`: no hunk of the series is code the model has a rule
// for (nothing was checked); and: no finding, but some hunks were not modelled.
inline constexpr int EXIT_NOT_MODELLED = 4;
inline constexpr int EXIT_PARTLY_MODELLED = 5;

// "--variant X" style option parsing shared by the verbs.
struct Options {
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> named;  // --key value
    std::vector<std::string> flags;                          // --flag
    bool has(const std::string& f) const;
    std::string get(const std::string& k, const std::string& dflt = "") const;
};
// A whole decimal or 0x number given to option `opt`; InputError otherwise.
std::uint64_t parse_u64(const std::string& s, const char* opt);
// Throws InputError for an option not in value_opts / flag_opts.
Options parse_options(const Args& args, const std::vector<std::string>& value_opts,
                      const std::vector<std::string>& flag_opts);

}  // namespace tagproof::cli
