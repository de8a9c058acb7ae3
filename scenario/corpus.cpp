// corpus.cpp — see corpus.hpp.
#include "corpus.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <future>
#include <mutex>
#include <optional>

#include "corpus_cache.hpp"
#include "corpus_file_cache.hpp"
#include "file/rule_use.hpp"
#include "error.hpp"
#include "variant.hpp"

namespace tagproof::scenario {

std::vector<std::string> corpus_files(const std::vector<std::string>& dirs) {
    std::vector<std::string> out;
    for (const auto& d : dirs) {
        if (!std::filesystem::is_directory(d)) throw InputError(d, "not a directory of scenario files");
        for (const auto& e : std::filesystem::recursive_directory_iterator(d))
            if (e.is_regular_file() && e.path().extension() == ".litmus") out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The runner's options for a corpus: part of the corpus cache's key.
static RunOptions corpus_options(const std::string& variant) {
    RunOptions ro;
    ro.variant_override = variant;
    ro.max_runs = 1024;
    ro.samples = 100;
    return ro;
}
static std::string options_text(const RunOptions& ro) {
    return "max_runs=" + std::to_string(ro.max_runs) + " samples=" + std::to_string(ro.samples) +
           " state_trace=" + std::to_string(ro.state_trace) + " check_style=" + ro.check_style_override;
}

// One file's runs under the variant. With `v` (the variant the name stands
// for), they are kept with the questions they asked and reused by a variant
// that answers them all the same (corpus_file_cache.hpp); never while a
// caller records which rules a run evaluates (file/rule_use.hpp), which a
// reused run would not note.
static FileRuns run_file(const std::string& f, RunOptions ro, const kernel::Variant* v) {
    const std::string key = v && !kernel::rule_use ? file_runs_key(f, options_text(ro)) : "";
    if (!key.empty())
        if (auto kept = file_runs_kept(key, *v)) return *kept;
    std::optional<kernel::RecordingVariant> asked;
    if (!key.empty()) ro.variant = &asked.emplace(*v);
    FileRuns fr;
    Scenario sc = load_scenario(f);
    // what the file is about stays; a baseline named in the file is not this review's
    sc.baseline.clear();
    sc.expects.clear();
    std::vector<ModeResult> res;
    try {
        res = run_scenario(sc, ro);
    } catch (const InputError& e) {
        fr.not_applicable = sc.name + ": " + e.what();
    }
    for (const auto& r : res) {
        CorpusEntry ce;
        ce.file = f;
        ce.name = sc.name;
        ce.mode = r.mode;
        ce.hw_tags_active = r.hw_tags_active;
        ce.outcome = r.observation + " " + r.ok_weight.str() + " reports=" + std::to_string(r.min_reports) +
                     (r.max_reports != r.min_reports ? ".." + std::to_string(r.max_reports) : "");
        ce.violations = r.violations;
        fr.runs += r.runs;
        fr.entries.push_back(ce);
    }
    if (asked) keep_file_runs(key, asked->transcript(), fr);
    return fr;
}

static CorpusResult run_corpus_once(const std::vector<std::string>& files, const std::string& variant,
                                    const kernel::Variant* v) {
    CorpusResult cr;
    cr.variant = variant;
    const RunOptions ro = corpus_options(variant);
    for (const auto& f : files) {
        FileRuns fr = run_file(f, ro, v);
        ++cr.files;
        cr.files_reused += fr.reused;
        if (!fr.not_applicable.empty()) cr.not_applicable.push_back(fr.not_applicable);
        cr.runs += fr.runs;
        for (auto& ce : fr.entries) {
            for (const auto& viol : ce.violations) {
                std::string inv = viol.substr(0, viol.find(':'));
                cr.counterexamples.emplace(inv, ce.name + " [" + mode_name(ce.mode) + "]: " + viol.substr(viol.find(':') + 2));
            }
            cr.entries.push_back(std::move(ce));
        }
    }
    return cr;
}

CorpusResult run_corpus_files(const std::vector<std::string>& files, const kernel::Variant& v) {
    return run_corpus_once(files, v.name(), &v);
}

// A review of the built-in variants runs each one's corpus once as the
// variant and again as the baseline of every variant built on it (linux-7.0
// for eight of them): the same files under the same variant give the same
// result, so the second asks the first. Keyed by the variant's object, not
// only its name (a variant file may reuse a name), and by the files; the
// first caller computes, a concurrent one waits on it.
CorpusResult run_corpus(const std::vector<std::string>& files, const std::string& variant) {
    const kernel::Variant* v = nullptr;
    try {
        v = &kernel::find_variant(variant);
    } catch (const InputError&) {
        return run_corpus_once(files, variant, nullptr);  // its own error, from the runner
    }
    std::string key = variant + '\n' + std::to_string(reinterpret_cast<std::uintptr_t>(v));
    for (const auto& f : files) key += '\n' + f;
    static std::mutex mu;
    static std::map<std::string, std::shared_future<CorpusResult>> done;
    std::promise<CorpusResult> mine;
    std::shared_future<CorpusResult> theirs;
    {
        std::lock_guard<std::mutex> lock(mu);
        auto it = done.find(key);
        if (it != done.end()) {
            theirs = it->second;
        } else {
            done.emplace(key, mine.get_future().share());
        }
    }
    if (theirs.valid()) return theirs.get();
    try {
        // another process of this binary may have run it (corpus_cache.hpp)
        const std::string ckey = corpus_cache_key(files, variant, options_text(corpus_options(variant)));
        std::optional<CorpusResult> kept = corpus_cache_load(ckey);
        if (kept) kept->reused = true;
        CorpusResult cr = kept ? *kept : run_corpus_once(files, variant, v);
        if (!kept) corpus_cache_store(ckey, cr);
        mine.set_value(cr);
        return cr;
    } catch (...) {
        mine.set_exception(std::current_exception());
        throw;
    }
}

}  // namespace tagproof::scenario
