// option_table.hpp — every option each verb takes, in one table: the verbs
// parse with it (parse_verb_options), main.cpp reads --variant-file for the
// verbs it marks, `tagproof --options` prints it, and a test holds each verb's
// --help to it (tests/help_lists_options.cmake), so an option the parser
// takes cannot be missing from the help.
#pragma once
#include <string>
#include <vector>

#include "verbs.hpp"

namespace tagproof::cli {

struct VerbOptions {
    std::string verb;
    std::vector<std::string> values;  // --key VALUE (or --key=VALUE)
    std::vector<std::string> flags;   // --flag
    bool variant_file = false;        // takes --variant-file FILE (read by main.cpp)
};

const std::vector<VerbOptions>& verb_options();
const VerbOptions& options_of(const std::string& verb);
// parse_options() with the verb's row of the table.
Options parse_verb_options(const std::string& verb, const Args& args);
// `tagproof --options`: one line per verb and option.
int print_option_table();

}  // namespace tagproof::cli
