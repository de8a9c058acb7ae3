// lift_body.hpp — the modelled functions read from a kernel tree into rule
// bodies (DESIGN.md §9, issue 31 item 3): libclang finds each definition in
// the tree's file (functions.hpp), its text as written (macro spellings such
// as IS_ENABLED intact, comments dropped) becomes `rule NAME(PARAMS) { ... }`
// of a variant file, and the variant-file reader reads it into model logic
// (model/kernel/file/body_reader.hpp). What the lifter produces, a reviewer
// can write by hand; the lifted file is written out for them to read.
//
// A function the body reader refuses (a construct outside its C subset, a
// call whose value it cannot read) is not lifted: the reason is kept, and the
// era's hand rule stands for it, said so.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace tagproof::tree {

struct PartInput;  // lift_parts.hpp

// The functions whose bodies the model reads, with the file each is in.
struct LiftTarget {
    const char* name;
    const char* file;
    // not read whole: only this of it (free_pages_prepare: where it calls
    // should_skip_kasan_poison); a hunk elsewhere in it is not read
    const char* part = nullptr;
    // and how (lift_parts.hpp)
    std::string (*read_part)(const PartInput&, std::string& why) = nullptr;
    // the name it had in older trees (arm64's alloc_zeroed_user_highpage_movable
    // became vma_alloc_zeroed_movable_folio in v6.3), tried after `name`
    const char* old_name = nullptr;
    // what the tree says by not defining it, as variant-file lines (no
    // vrealloc(): `feature vrealloc no`); nullptr: its absence says nothing
    // and the era's hand rule stands
    const char* absent = nullptr;
    // the file it was in in older trees (slab_post_alloc_hook: mm/slab.h to
    // v6.7), searched when `file` does not define it
    const char* old_file = nullptr;
};
const std::vector<LiftTarget>& lift_targets();

struct LiftedFunction {
    std::string name, file;
    int line = 0;             // where its definition starts in the file
    // the tree's own name for it, where that differs beyond 6.10's _noprof
    // (vrealloc_node_align as vrealloc_noprof; get_huge_zero_folio as get_huge_zero_page)
    std::string defined_as;
    // the name a reader is shown: "vrealloc_node_align as vrealloc_noprof"
    std::string shown() const { return defined_as.empty() ? name : name + " as " + defined_as; }
    bool found = false;       // the file defines it (not found yet lifted: its absence read, LiftTarget::absent)
    bool lifted = false;      // the body reader took it
    std::string why_not;      // else: the reader's error, or "not defined in FILE"
    std::vector<std::string> unread_calls;  // assumed to leave tags and data alone
    std::string rule_text;    // lifted: its `rule NAME(...) { ... }` as written into the variant file
    std::string part;         // read in part only: what of it (LiftTarget::part)
    std::string absent_as;    // not defined, and that read (LiftTarget::absent): "feature vrealloc no"
};

struct TreeLift {
    std::string era;           // tree:6.1.192
    std::string base;          // the hand era the rules not lifted come from
    std::string variant_text;  // the variant file: the lifted bodies over `base`
    std::vector<LiftedFunction> functions;
    const LiftedFunction* find(const std::string& name) const {
        for (const auto& f : functions)
            if (f.name == name) return &f;
        return nullptr;
    }
};

// Lifts every target from `root`. `files` replaces a file's text (a patched
// scratch copy: the "after" of a review); `name` is the variant's name.
TreeLift lift_tree(const std::string& root, const std::string& era, const std::string& base, const std::string& name,
                   const std::map<std::string, std::string>& files = {});

}  // namespace tagproof::tree
