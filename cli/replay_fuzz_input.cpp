// replay_fuzz_input.cpp — `tagproof replay crash-<sha>`: an input of the
// event fuzz targets (differential_fuzz, invariants_fuzz) decoded and run as
// they run it (differential/fuzz_run.hpp), printed as the scenario it is,
// with the model's verdict and the reference's agreement.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "error.hpp"
#include "fuzz_run.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

bool is_fuzz_input(const std::string& file, const Options& o) {
    if (o.has("--fuzz-input")) return true;
    const std::string base = std::filesystem::path(file).filename().string();
    for (const char* p : {"crash-", "leak-", "timeout-", "oom-", "slow-unit-"})
        if (base.rfind(p, 0) == 0) return true;
    return std::filesystem::path(file).extension() == ".input";  // campaign findings: <invariant>-N.input
}

int replay_fuzz_input(const std::string& file, const Options& o) {
    for (const char* opt : {"--boot", "--dczid"})
        if (!o.get(opt).empty()) throw InputError(opt, "a fuzz input carries its own configuration");
    for (const char* flag : {"--no-mte", "--lenient"})
        if (o.has(flag)) throw InputError(flag, "a fuzz input carries its own configuration");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError(file, "cannot open the fuzz input");
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < 2)
        throw InputError(file, std::to_string(bytes.size()) +
                                   " bytes: an event fuzz input starts with a variant byte and a pick count "
                                   "(differential/event.hpp)");
    const kernel::Variant* fixed = o.get("--variant").empty() ? nullptr : &kernel::find_variant(o.get("--variant"), "--variant");
    const differential::FuzzInput fi = differential::decode_fuzz_input(bytes.data(), bytes.size(), fixed);
    if (fi.decoded.events.empty())
        throw InputError(file, std::to_string(bytes.size()) + " bytes decode to no event (after the variant byte, " +
                                   std::to_string(fi.picks.size()) +
                                   " tag picks and 2 configuration bytes, every 4 bytes are an event): "
                                   "not an input of the event fuzz targets?");
    // to the end: the model's verdict on the whole input, and the first disagreement
    const differential::FuzzRun r = differential::run_fuzz_input(fi, "tagproof replay " + file,
                                                                 reference::RefMutation::none, false);
    std::printf("fuzz input %s: %zu bytes, variant %s%s, %zu tag picks, %zu events decoded", file.c_str(), bytes.size(),
                fi.variant->name().c_str(), fixed ? " (--variant)" : "", fi.picks.size(), r.events_decoded);
    if (r.events_decoded > r.events_run) std::printf(", %zu run", r.events_run);
    std::printf("\n\n%s\n", r.scenario.c_str());
    int status = EXIT_HOLDS;
    if (r.violated) {
        std::printf("model: violation of %s at %s\n  %s\n", r.invariant.c_str(), r.violation_at.c_str(), r.message.c_str());
        status = EXIT_COUNTEREXAMPLE;
    } else {
        std::printf("model: every invariant held (but the variant's recorded defects)\n");
    }
    if (!r.mismatch.empty()) {
        std::printf("reference: %s\n", r.mismatch.c_str());
        status = EXIT_COUNTEREXAMPLE;
    } else {
        std::printf("reference: agrees with the model on every event\n");
    }
    const std::string out = o.get("--write-scenario");
    if (!out.empty()) {
        std::ofstream f(out);
        f << (r.violated ? r.violation_scenario : r.scenario);
        if (!f) throw InputError(out, "cannot write the scenario");
        std::printf("scenario written to %s (tagproof run %s%s)\n", out.c_str(), out.c_str(),
                    r.violated ? "; tagproof report for the review report" : "");
    }
    return status;
}

}  // namespace tagproof::cli
