// verb_review_patch.cpp — `tagproof review PATCH...`: a series as mailed
// (git format-patch files, an mbox, a list archive's page, git diff output)
// read into a variant file (patch/), reviewed like any variant against its
// base, and answered with a reply for the list (review/reply.cpp).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>

#include "error.hpp"
#include "kunit_agreement.hpp"
#include "file/variant_file.hpp"
#include "patch_variant.hpp"
#include "review_confirm.hpp"
#include "review_lift.hpp"
#include "reply.hpp"
#include "report.hpp"
#include "review_patch.hpp"
#include "source_tree.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

namespace {

// The hand release that stands for a tree: the model's release of the
// tree's own major.minor, when it has one (oracle::era_variants gives one
// release then, two bracketing ones otherwise): the hand rules under the
// functions read from the tree (the tree's era, tree-6.1.192), so no nearer
// release is guessed at.
patch::TreeBase hand_release_for(const tree::TreeChoice& c) {
    const auto* t = c.tree();
    if (!t) return {};
    std::vector<std::string> eras;
    try {
        eras = oracle::era_variants(t->tree.version);
    } catch (const InputError&) {
        return {};  // older than every release the model has
    }
    if (eras.size() == 1 && major_minor(eras[0]) == major_minor(t->tree.version))
        return {eras[0], "the tree taken is " + t->tree.era() + " (" + c.why + "); its hand-written era is " + eras[0]};
    // Between two releases (6.12.118: linux-6.4 and linux-7.0) the newer one's
    // rules stand under the functions read from the tree, as `tagproof lift
    // --write` does: a later tree has more of the newer release's features
    // (the mail's own base, if it names one, is not the tree's).
    if (eras.size() == 2)
        return {eras[1], "the tree taken is " + t->tree.era() + " (" + c.why + "); the model has no hand-written era of " +
                             major_minor(t->tree.version) + ": under the functions read from the tree stand the rules of " +
                             eras[1] + ", the newer of the two releases that bracket it (" + eras[0] + ", " + eras[1] + ")"};
    return {};
}

}  // namespace

int review_patch(const std::vector<std::string>& paths, const std::string& base, const TreeOption& tree_opt,
                 review::ReviewOptions ro,
                 const std::string& format, const std::string& out, bool map_only, bool quiet) {
    const auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    std::mutex lock;
    auto progress = [&](const std::string& what) {
        if (quiet) return;
        std::lock_guard<std::mutex> g(lock);
        std::fprintf(stderr, "tagproof: [%6.1fs] %s\n", elapsed(), what.c_str());
    };
    // The tree: chosen, the series applied to a scratch copy of its files.
    patch::Series series = patch::read_series(paths);
    std::optional<tree::TreeChoice> choice;
    if (!tree_opt.none) {
        std::string how;
        const std::string named = patch::named_release(series, base, &how);
        progress("choosing a tree" + (tree_opt.dir.empty() ? " among " + tree::tree_cache() : " (--tree " + tree_opt.dir + ")"));
        choice = tree::choose_tree(series, tree::base_hints(series, named, how), tree_opt.dir);
        if (const auto* t = choice->tree())
            progress("tree " + t->tree.era() + ": " + t->verdict);
        else
            progress("no tree taken: " + choice->why);
    }
    patch::PatchReading p =
        patch::read_patch_series(std::move(series), paths, base, choice ? hand_release_for(*choice) : patch::TreeBase{});
    // The modelled functions read from the tree, before and after the series:
    // the tree's era (issue 31 item 5), whichever functions the series changes.
    std::optional<ReviewLift> lift;
    if (choice && choice->tree() && kernel::is_file_base_release(p.base)) {
        progress("lifting the modelled functions of " + choice->tree()->tree.era() + " over " + p.base);
        lift = lift_for_review(*choice->tree(), p.base);
    }
    std::optional<tree::Accounting> acc;
    if (choice && choice->tree()) {
        acc = tree::account(p.series, p.hunks, &choice->tree()->applied, choice->tree()->tree.root,
                            lift ? &lift->status : nullptr);
        if (lift) describe_lift(*lift, *acc);
        progress(acc->headline() + " on " + choice->tree()->tree.era());
    } else {
        acc = tree::account(p.series, p.hunks, nullptr, "");
    }
    progress("read " + std::to_string(p.series.patches.size()) + " patch(es), " + std::to_string(p.hunks.size()) +
             " hunk(s): " + std::to_string(p.hunks_with_rules()) + " change modelled code, " +
             std::to_string(p.hunks_comments_only()) +
             " only comments, " + std::to_string(p.hunks_unmapped()) + " not modelled; base " + p.base);

    std::filesystem::create_directories(out);
    if (lift) {
        // the tree's functions as the baseline, the patched ones in the patch's file
        const std::string tfile = lift->tree_variant + ".variant";
        std::ofstream(out + "/" + tfile) << lift->before.variant_text;
        p.file_text = lifted_patch_text(p.file_text, p.base, *lift, tfile);
        p.rules += lift->changed.size();
        progress("read from the tree and the patched copy: " + std::to_string(lift->changed.size()) +
                 " function(s) the series changes; baseline " + lift->tree_variant + " (the tree's era)");
    }
    const std::string vfile = out + "/" + safe_file_name(p.name) + ".variant";
    std::ofstream(vfile) << p.file_text;
    const std::string vabs = std::filesystem::absolute(vfile).lexically_normal().string();
    review::Reply reply;
    reply.reading = &p;
    reply.variant_file = vabs;
    reply.tree = choice ? &*choice : nullptr;
    reply.accounting = &*acc;

    auto write_reply = [&](const std::string& ext, const std::string& text) {
        const std::string f = out + "/" + safe_file_name(p.name) + ".reply." + ext;
        std::ofstream(f) << text;
        return f;
    };
    auto reply_in = [&](const std::string& fmt) {
        return fmt == "md" ? review::reply_markdown(reply) : fmt == "json" ? review::reply_json(reply)
               : fmt == "html"                             ? review::reply_html(reply)
                                                           : review::reply_text(reply);
    };
    auto ext_of = [](const std::string& fmt) { return fmt == "text" ? std::string("txt") : fmt; };

    if (p.rules == 0 || map_only) {
        // nothing to check (or only the mapping asked for): the reply says so
        const std::string text = reply_in(format);
        const std::string f = write_reply(ext_of(format), text);
        std::fputs(text.c_str(), stdout);
        progress("variant file " + vabs + "; reply " + f);
        // every hunk shown to change nothing on the tree holds; else nothing was checked
        if (p.rules == 0) return acc && acc->all_no_change(p.hunks.size()) ? EXIT_HOLDS : EXIT_NOT_MODELLED;
        return acc->checked() < p.hunks.size() ? EXIT_PARTLY_MODELLED : EXIT_HOLDS;
    }

    const kernel::Variant& v = kernel::load_variant_file(vabs);
    ro.progress = [&](const std::string& variant, const std::string& engine) { progress(variant + ": " + engine); };
    review::VariantReview r = review::review_variant(v.name(), ro);
    review::add_rapidcheck(r, ro);
    progress(v.name() + ": replaying " + std::to_string(r.findings.size()) + " finding(s)");
    review::explain_findings(r);
    std::size_t contradicted = 0;
    if (tree_opt.confirm)
        contradicted = confirm_review(r, reply, choice ? choice->tree() : nullptr, choice ? choice->why : "--no-tree",
                                      lift ? lift->tree_variant : p.base, out, progress);
    reply.report_files = write_finding_reports(r, out, format);
    reply.review = &r;
    if (lift) {
        // the tree's own code records no defects: what its corpus run breaks that the series does not
        review::ReviewOptions bo = ro;
        bo.solver = bo.explorer = bo.rapidcheck = bo.families = false;
        bo.baseline = "";
        const review::VariantReview b = review::review_variant(lift->tree_variant, bo);
        reply.fixed = review::fixed_by(b, r);
        reply.fixed_in = lift->tree_variant;
    }
    const std::string text = reply_in(format);
    const std::string f = write_reply(ext_of(format), text);
    if (format != "text") write_reply("txt", review::reply_text(reply));
    std::fputs(text.c_str(), stdout);
    progress("done; variant file " + vabs + "; reply " + f);
    // a finding the kernel contradicts is the model's defect, not the series'
    if (contradicted) return EXIT_UNKNOWN;
    if (!review::introduced(r).empty()) return EXIT_COUNTEREXAMPLE;
    if (r.unknown) return EXIT_UNKNOWN;
    return acc->checked() < p.hunks.size() ? EXIT_PARTLY_MODELLED : EXIT_HOLDS;
}

}  // namespace tagproof::cli
