// account.hpp — every hunk of a series accounted for against the tree it was
// applied to (issue 31 item 4): read into a rule of the model; no semantic
// change (its tokens equal before and after, as libclang lexes them: a
// comment or blank change); a change to a function the model stands for but
// does not read from the tree yet; a call site of an entry point the model
// has (kmalloc, vmalloc, alloc_pages, ...) whose arguments change, its gfp
// named; outside the model (the definition and file named); or not applied
// (why). Without a tree, what the site table and
// git's function context say. The reply opens with "N of M hunks checked",
// and the verdict covers exactly those.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "apply.hpp"
#include "sites.hpp"

namespace tagproof::tree {

struct HunkAccount {
    enum class What { rule, no_change, modelled_unread, call_site, outside, not_applied } what = What::outside;
    std::string function;  // the definition(s) it changes, "" if none
    std::string file;      // path:line in the tree (before the patch), or the path
    std::string words;     // one sentence for the reply
    bool lifted = false;   // checked as code read from the tree (its site-table reading is superseded)
    bool checked() const { return what == What::rule || what == What::no_change; }
};

struct Accounting {
    std::vector<HunkAccount> hunks;  // one per reading's hunk (patch::HunkMap), same order
    std::vector<std::string> notes;  // how files were parsed ("mm/page_alloc.c: 0.4 s, unconfigured tree: ...")
    // what the checked hunks rest on that the model did not read (a call of
    // a lifted function that is neither lifted nor a primitive)
    std::vector<std::string> assumptions;
    std::size_t checked() const;
    // every one of the series' `n` hunks shown to change nothing (tokens, or
    // the preprocessor's values): a series with nothing for the engines
    bool all_no_change(std::size_t n) const;
    std::string headline() const;    // "3 of 5 hunks checked"
};

// `applied` and `root` are null / "" without a tree. `lifted`: the functions
// read from the tree into rule bodies (lift_body.hpp), each with "" when read
// before and after the series, kInPart + what when only that part of it is
// read and the series changes that part, else why not; a hunk in one read on
// both sides (wholly, or the part the series changes) is checked.
inline const std::string kInPart = "in part: ";
Accounting account(const patch::Series& s, const std::vector<patch::HunkMap>& maps, const SeriesApply* applied,
                   const std::string& root, const std::map<std::string, std::string>* lifted = nullptr);

const char* what_name(HunkAccount::What w);

}  // namespace tagproof::tree
