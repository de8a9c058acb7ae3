// verb_seeds.cpp — `tagproof seeds`: the scenario corpus as seed inputs of the
// event fuzz targets (differential_fuzz, invariants_fuzz). Each scenario's
// HW_TAGS events are encoded in the shared vocabulary (encode_fuzz_input);
// what the vocabulary cannot say is listed, and --check compares a directory
// with what would be written, so the committed seeds follow the corpus.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>

#include "error.hpp"
#include "scenario.hpp"
#include "scenario_events.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

namespace fs = std::filesystem;

int verb_seeds(const Args& args) {
    Options o = parse_verb_options("seeds", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof seeds (--out DIR | --check DIR) [--verbose] SCENARIO...\n\n"
                     "Encodes each scenario's HW_TAGS events as an input of the event fuzz targets\n"
                     "(differential_fuzz, invariants_fuzz): DIR/<directory>-<name>, one file a scenario\n"
                     "with at least one event. Events the vocabulary cannot say (mempools, krealloc,\n"
                     "user pages, kmem caches, set_tag, ...) are left out; --verbose lists them.\n"
                     "--check DIR writes nothing and exits 1 when DIR differs from what --out would write.\n"
                     "Exit status: 0 written (or current), 1 --check found a difference, 2 bad input.\n";
        return 0;
    }
    const std::string out = o.get("--out"), check = o.get("--check");
    if (out.empty() == check.empty()) throw InputError("command line", "tagproof seeds needs one of --out DIR or --check DIR");
    if (o.positional.empty()) throw InputError("command line", "tagproof seeds needs scenario files");
    std::map<std::string, std::vector<std::uint8_t>> seeds;  // file name -> bytes
    std::set<std::vector<std::uint8_t>> seen;
    std::size_t events = 0, left_out = 0, not_encoded = 0, duplicates = 0;
    // sorted, so which of two scenarios with the same bytes names the seed
    // does not depend on how the shell or CMake ordered the arguments
    std::vector<std::string> files = o.positional;
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
        scenario::Scenario sc = scenario::load_scenario(file);  // a malformed file is bad input
        const differential::ScenarioEvents se = differential::scenario_events(sc);
        if (!se.not_encoded.empty()) {
            ++not_encoded;
            if (o.has("--verbose")) std::cout << "not encoded: " << file << ": " << se.not_encoded << "\n";
            continue;
        }
        left_out += se.left_out.size();
        if (o.has("--verbose"))
            for (const auto& l : se.left_out) std::cout << "left out: " << l << "\n";
        if (o.has("--verbose"))
            for (const auto& l : se.approximated) std::cout << "approximated: " << l << "\n";
        if (se.events.empty()) {
            ++not_encoded;
            if (o.has("--verbose")) std::cout << "not encoded: " << file << ": no event in the vocabulary\n";
            continue;
        }
        std::vector<std::uint8_t> bytes = differential::encode_fuzz_input(*se.variant, {}, se.config, se.events);
        if (!seen.insert(bytes).second) {
            ++duplicates;
            continue;
        }
        events += se.events.size();
        const fs::path p(file);
        const std::string name = p.parent_path().filename().string() + "-" + p.stem().string();
        if (seeds.count(name)) throw InputError(file, "two scenarios give the seed name '" + name + "'");
        seeds[name] = std::move(bytes);
    }
    std::cout << seeds.size() << " seeds, " << events << " events, from " << o.positional.size() << " scenarios ("
              << not_encoded << " without HW_TAGS events in the vocabulary, " << duplicates << " duplicates; "
              << left_out << " statements or boot words left out)\n";
    if (!out.empty()) {
        std::error_code ec;
        fs::create_directories(out, ec);
        if (ec || !fs::is_directory(out)) throw InputError(out, "cannot create the output directory");
        for (const auto& [name, bytes] : seeds) {
            std::ofstream f(fs::path(out) / name, std::ios::binary);
            f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
            if (!f) throw InputError((fs::path(out) / name).string(), "cannot write the seed");
        }
        std::cout << "written to " << out << "\n";
        return EXIT_HOLDS;
    }
    if (!fs::is_directory(check)) throw InputError(check, "not a directory");
    int differ = 0;
    std::set<std::string> there;
    for (const auto& ent : fs::directory_iterator(check)) there.insert(ent.path().filename().string());
    auto differs = [&](const char* how, const std::string& name) {
        std::cout << how << ": " << name << "\n";
        ++differ;
    };
    for (const auto& [name, bytes] : seeds) {
        std::ifstream in(fs::path(check) / name, std::ios::binary);
        std::vector<std::uint8_t> have((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!there.count(name)) differs("missing", name);
        else if (have != bytes) differs("stale", name);
        there.erase(name);
    }
    for (const auto& name : there) differs("not from these scenarios", name);
    if (differ) {
        std::cout << differ << " differences; regenerate with: rm -r " << check << " && tagproof seeds --out " << check
                  << " SCENARIO...\n";
        return EXIT_COUNTEREXAMPLE;
    }
    std::cout << check << " is current\n";
    return EXIT_HOLDS;
}

}  // namespace tagproof::cli
