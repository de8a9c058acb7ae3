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
int verb_kernel(const Args& args);
int verb_lift(const Args& args);

// `tagproof replay`'s second kind of FILE: an event fuzz target's input.
struct Options;
bool is_fuzz_input(const std::string& file, const Options& o);
int replay_fuzz_input(const std::string& file, const Options& o);

// Exit statuses.
// `tagproof run FILE... --confirm` (run_confirm.cpp).
int run_confirm(const std::vector<std::string>& files, const std::string& tree_dir, const std::string& variant,
                const std::string& out, const std::vector<std::string>& properties);

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
    bool has(const std::string& f) const;  // a flag, or a --key given with a value
    std::string get(const std::string& k, const std::string& dflt = "") const;
};
// A whole decimal or 0x number given to option `opt`; InputError otherwise.
std::uint64_t parse_u64(const std::string& s, const char* opt);
// The same, held to lo..hi: the error names the range.
std::uint64_t parse_count(const std::string& s, const char* opt, std::uint64_t lo, std::uint64_t hi);
// Option `opt` of o as parse_count reads it; dflt when it is not given.
std::uint64_t option_count(const Options& o, const char* opt, std::uint64_t dflt, std::uint64_t lo, std::uint64_t hi);
// The directory a verb writes its reports to: created now, before any work,
// so a path that cannot be written is an error naming it (exit 2), not an
// exception after minutes of proving.
void prepare_out_dir(const std::string& dir, const char* opt);
// --dczid: DCZID_EL0 as the cost model reads it: BS (bits 3:0, log2 of the
// DC ZVA / GVA block in words, at most 9: 2 KiB) and DZP (bit 4).
std::uint64_t parse_dczid(const Options& o);
// Throws InputError for an option not in value_opts / flag_opts.
Options parse_options(const Args& args, const std::vector<std::string>& value_opts,
                      const std::vector<std::string>& flag_opts);

}  // namespace tagproof::cli
