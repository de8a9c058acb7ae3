// review_terms.cpp — `tagproof review --explain [TERM]`: the words a newcomer
// meets first in tagproof's output, each in a few sentences.
#include <cstdio>
#include <string>
#include <vector>

#include "error.hpp"
#include "file/variant_file.hpp"
#include "report.hpp"
#include "review.hpp"
#include "review_patch.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

namespace {
struct Term {
    const char* name;
    const char* text;
};
const std::vector<Term>& terms() {
    static const std::vector<Term> t = {
        {"Always / Sometimes / Never",
         "A scenario runs once for every choice the kernel makes at random (each random tag, each sampling "
         "decision) that matters to it. Always: every run showed what the line expects; Never: none did; "
         "Sometimes: some did (e.g. a mismatch the random tags can hide, 1 run in 15)."},
        {"runs=N", "How many runs that scenario took: one per relevant random choice, exhaustively up to 4096, sampled above."},
        {"reports=N", "How many KASAN reports (BUG: KASAN: ...) the runs printed."},
        {"variant",
         "A kernel's decisions as tagproof models them: a release (linux-6.1 .. linux-7.0), a patch on one "
         "(anjum-v2, sample-v2, ...), a negative control (control-*, mutant-*), or a variant file."},
        {"variant file",
         "A patch described without C++: a base, claims and rule overrides as C expressions "
         "(scenario/variant-files.md). `tagproof review PATCH` writes one for your patch."},
        {"baseline", "What a variant is compared with: the tree before the patch (its base release, or --baseline)."},
        {"claims",
         "What a patch says about itself, taken as data and checked: where behaviour may differ from the "
         "baseline (none, only with HW tags active, any), and which callers it leaves untagged. A difference "
         "outside the claims is a finding; an untagged allocation no claim or requirement allows is one too."},
        {"mode-isolation",
         "The invariant that a patch claiming \"only with HW tags active\" changes nothing in Generic, SW_TAGS, "
         "KASAN-less builds or HW_TAGS with kasan=off: the solver proves the variant equal to its baseline there."},
        {"HW tags active", "kasan_hw_tags_enabled(): a CONFIG_KASAN_HW_TAGS build, an MTE CPU, and kasan=on at boot."},
        {"recorded defect",
         "A finding the kernel version really has (e.g. linux-7.0's huge zero folio tags under init_on_free), "
         "listed for that variant with the commit that has it, so a review that finds it again is as expected. "
         "A finding the baseline shows too reads \"also in <baseline>\": not the patch's doing."},
        {"finding", "A counterexample to one invariant in one KASAN mode, replayed in the model, with a scenario file that reproduces it."},
        {"obligation",
         "One solver question: an invariant at one kernel entry point (zeroing/pgtable_kernel, ...), asked "
         "within the callers' contracts, over the raw flag space, or for all inputs."},
        {"within caller contracts / raw flag space",
         "Within contracts: only GFP masks and arguments real callers pass (solver/contracts.cpp). Raw flag "
         "space: any bit pattern; a counterexample there names the contract it breaks."},
        {"match-all", "The pointer tag 0xff (KASAN_TAG_KERNEL): HW_TAGS and SW_TAGS never check an access through it."},
        {"unmapped hunk",
         "A hunk of your patch that changes code the model has no rule for. It is listed with why, and the "
         "verdict says it covers the mapped hunks only (exit status 5; 4 when nothing maps)."},
        {"trace state",
         "After each event of a trace, each pointer it used: pointer tag (the pointer's top byte), memory tag "
         "(the MTE allocation tag under it, or the SW_TAGS / Generic shadow byte), page tag (page->flags' KASAN "
         "tag; - where the memory is not a page's own), data (zero or not). Outside HW_TAGS an MTE CPU keeps MTE "
         "tags of its own: \"MTE tag\" beside the shadow."},
        {"properties", "The invariants, each checked per KASAN mode: see the list below."},
        {"rules", "The rules a variant file may override, and so the places `tagproof review PATCH` maps: see the list below."},
    };
    return t;
}
}  // namespace

int explain_terms(const std::vector<std::string>& asked) {
    auto show = [](const Term& t) {
        std::printf("%s\n", t.name);
        for (const auto& l : review::wrap(t.text, 72, "  ", "  ")) std::printf("%s\n", l.c_str());
        if (std::string(t.name) == "properties")
            for (const auto& p : review::properties())
                for (const auto& l : review::wrap(p + ": " + review::property_statement(p), 72, "  - ", "    "))
                    std::printf("%s\n", l.c_str());
        if (std::string(t.name) == "rules")
            for (const auto& r : kernel::overridable_rules()) {
                std::string ps;
                for (const char* p : r.params) ps += std::string(ps.empty() ? "" : ", ") + p;
                for (const auto& l : review::wrap(std::string(r.name) + (ps.empty() ? "" : "(" + ps + ")") + ": " + r.what, 72, "  - ", "    "))
                    std::printf("%s\n", l.c_str());
            }
        std::printf("\n");
    };
    if (asked.empty()) {
        for (const auto& t : terms()) show(t);
        return EXIT_HOLDS;
    }
    for (const auto& a : asked) {
        bool found = false;
        for (const auto& t : terms())
            if (std::string(t.name).find(a) != std::string::npos) {
                show(t);
                found = true;
            }
        if (!found) {
            std::string names;
            for (const auto& t : terms()) names += (names.empty() ? "" : ", ") + std::string(t.name);
            throw InputError("--explain", "no term '" + a + "'; the terms: " + names);
        }
    }
    return EXIT_HOLDS;
}

}  // namespace tagproof::cli
