// read_part.hpp — the part readers (tree/lift_parts.hpp) run on made-up C
// written to a scratch tree: the rule text one reads, or "WHY: ..." when it
// does not read the function.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "functions.hpp"
#include "lift_parts.hpp"
#include "scratch_dir.hpp"

namespace tagproof::test {

// the rule text a part reader reads from TEXT as PATH's function FN, or "WHY: ..." when not read
inline std::string read_part(const std::string& path, const std::string& text, const std::string& fn,
                             tree::PartReader reader) {
    const std::string dir = test::scratch_dir("tree-lift-parts");
    std::filesystem::create_directories(std::filesystem::path(dir + "/" + path).parent_path());
    std::ofstream(dir + "/" + path) << text;
    const tree::ParsedFile pf = tree::read_definitions(dir, path, text);
    const tree::Definition* d = pf.find(fn);
    if (!d) return "WHY: no definition";
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string why;
    const std::string r = reader(tree::PartInput{lines, *d, pf, path}, why);
    return r.empty() ? "WHY: " + why : r;
}

// the line `rule RULE...` of TEXT, or ""
inline std::string rule_line(const std::string& text, const std::string& rule) {
    const std::size_t at = text.find("rule " + rule);
    return at == std::string::npos ? "" : text.substr(at, text.find('\n', at) - at);
}

}  // namespace tagproof::test
