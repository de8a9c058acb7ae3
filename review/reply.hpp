// reply.hpp — the review of a mailed series, laid out as kernel reviewers
// receive automated reviews: what was checked and on what base, each hunk
// quoted with "> " and the findings about it underneath ([Severity: ...], the
// trace, the Reproduce command, the question to the author), the hunks the
// model does not cover, and the verdict saying what the review covers.
// Prose is wrapped at 72 columns; quoted code stays as the patch has it.
#pragma once
#include <string>
#include <vector>

#include "account.hpp"
#include "choose.hpp"
#include "patch_variant.hpp"
#include "review.hpp"

namespace tagproof::review {

struct Reply {
    const patch::PatchReading* reading = nullptr;
    const VariantReview* review = nullptr;  // nullptr: nothing was mapped, so nothing was run
    std::string variant_file;               // where the generated file was written
    std::vector<std::string> report_files;  // per finding, in review->findings order
    const tree::TreeChoice* tree = nullptr;       // the trees tried and the one taken (nullptr: --no-tree)
    const tree::Accounting* accounting = nullptr; // every hunk accounted for (issue 31 item 4)
    // A baseline read from a tree records no defects: what its corpus run
    // breaks and the series does not ("zeroing [hw_tags]"), with the baseline's name.
    std::vector<std::string> fixed;
    std::string fixed_in;
    // --confirm with no finding to confirm: the corpus run in the kernel with
    // and without the series (oracle::confirm_clean), and the cases that differ
    std::string kernel;
    std::vector<std::string> kernel_differ;
};

// Which hunk (index into reading->hunks) a finding is about; -1 for none.
// A rule the hunk was read into names it; else, with the accounting, the one
// hunk read from the tree whose function the finding's trace runs.
int hunk_of(const patch::PatchReading& p, const Finding& f, const tree::Accounting* acc = nullptr);
// The findings the series introduces (not recorded, not in the baseline).
std::vector<const Finding*> introduced(const VariantReview& r);

std::string reply_text(const Reply& r);
std::string reply_markdown(const Reply& r);
std::string reply_json(const Reply& r);
std::string reply_html(const Reply& r);

}  // namespace tagproof::review
