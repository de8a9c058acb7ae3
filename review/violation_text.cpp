// violation_text.cpp — what a report says about its finding, read from the
// violation itself (the oracle's message: the event, the rule, the granule,
// the tags), not from the property's generic sentence.
#include <string>

#include "file/variant_file.hpp"
#include "report.hpp"

namespace tagproof::review {

namespace {

enum class Kind {
    coverage,       // an allocation handed out through a match-all pointer
    out_of_bounds,  // an out-of-bounds access not detected
    use_after_free, // a use after free not detected
    zero_data,      // data required zero is not
    zero_tags,      // MTE tags required zero are not
    free_poison,    // poisoning at free does not match tagging at allocation
    page_tag,       // page_address()'s tag disagrees with the memory tags
    false_positive, // the owner's own access faults
    false_free,     // a valid free is reported
    tagged_code,    // executable memory handed out through a tagged pointer
    unmapped_tags,  // tags stored over an area not mapped yet: the kernel stops
    match_all,      // a match-all access faults
    isolation,      // an outcome differs from the baseline outside the claims
    other,
};

bool has(const std::string& s, const char* w) { return s.find(w) != std::string::npos; }

Kind kind_of(const std::string& p, const std::string& h) {
    if (p == "detection") {
        if (has(h, "coverage lost")) return Kind::coverage;
        if (has(h, "out-of-bounds")) return Kind::out_of_bounds;
        if (has(h, "use-after-free")) return Kind::use_after_free;
    }
    if (p == "zeroing") return has(h, "memory tag") || has(h, "tags") ? Kind::zero_tags : Kind::zero_data;
    if (p == "page-tag-consistency") return has(h, "at free") ? Kind::free_poison : Kind::page_tag;
    if (p == "no-false-positive") {
        if (has(h, "executable memory")) return Kind::tagged_code;
        if (has(h, "has not mapped yet")) return Kind::unmapped_tags;
        return has(h, "freeing live") ? Kind::false_free : Kind::false_positive;
    }
    if (p == "match-all-never-faults") return Kind::match_all;
    if (p == "mode-isolation") return Kind::isolation;
    return Kind::other;
}
Kind kind_of(const Finding& f) { return kind_of(f.property, f.happened); }
// Coverage is lost two ways: a match-all pointer, or (HW_TAGS) a random tag on
// a mapping that is not Normal Tagged, where the CPU checks nothing.
bool untagged_mapping(const Finding& f) { return has(f.happened, "MT_NORMAL_TAGGED"); }

}  // namespace

std::string violation_kind(const std::string& property, const std::string& message) {
    static const char* names[] = {"coverage",     "out-of-bounds", "use-after-free", "zero-data",
                                  "zero-tags",    "free-poison",   "page-tag",       "false-positive",
                                  "false-free",   "tagged-code",   "unmapped-tags",  "match-all",      "isolation",
                                  "other"};
    return names[static_cast<int>(kind_of(property, message))];
}

std::string headline(const Finding& f) {
    // the event the violation showed at: "inv: EVENT: message"
    std::string rest = f.happened.substr(f.happened.find(':') == std::string::npos ? 0 : f.happened.find(':') + 1);
    if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    const std::size_t colon = rest.find(": ");
    const std::string event = colon == std::string::npos ? "" : rest.substr(0, colon) + ": ";
    switch (kind_of(f)) {
        case Kind::coverage:
            return event + (untagged_mapping(f) ? "mapped without MT_NORMAL_TAGGED: never checked"
                                                : "handed out through a match-all pointer: never checked");
        case Kind::out_of_bounds: return event + "out-of-bounds access not detected";
        case Kind::use_after_free: return event + "use after free not detected";
        case Kind::zero_data: return event + "memory its caller needs zeroed is not zeroed";
        case Kind::zero_tags: return event + "stale MTE tags handed to user space";
        case Kind::free_poison: return event + "poisoning at free does not match the allocation";
        case Kind::page_tag: return event + "page_address()'s tag differs from the memory tag";
        case Kind::false_positive: return event + "the owner's own access faults";
        case Kind::false_free: return event + "a valid free is reported";
        case Kind::tagged_code: return event + "executable memory handed out through a tagged pointer";
        case Kind::unmapped_tags: return event + "the kernel faults tagging an area not mapped yet";
        case Kind::match_all: return event + "an access through a match-all pointer faults";
        case Kind::isolation: return event + "the outcome differs from " + f.baseline;
        case Kind::other: break;
    }
    return event + f.property + " violated";
}

std::string severity(const Finding& f) {
    switch (kind_of(f)) {
        case Kind::false_positive:
        case Kind::match_all:
        case Kind::page_tag: return "high (a correct kernel access faults: a spurious report or panic)";
        case Kind::false_free: return "high (a correct free is reported, and the object is not freed)";
        case Kind::tagged_code: return "high (code run from this memory faults: the kernel does not tolerate a tagged PC)";
        case Kind::unmapped_tags: return "high (the kernel stops: a translation fault in __kasan_unpoison_vmalloc)";
        case Kind::zero_data: return "high (memory its caller needs zeroed is not: an information leak)";
        case Kind::zero_tags: return "high (user space sees stale MTE tags: its own accesses fault)";
        case Kind::coverage: return "medium (accesses through this pointer are never checked)";
        case Kind::out_of_bounds:
        case Kind::use_after_free: return "medium (a memory-safety bug goes undetected)";
        case Kind::free_poison: return "medium (free-time poisoning does not match the allocation)";
        case Kind::isolation: return "medium (behaviour changed where the patch claims none)";
        case Kind::other: break;
    }
    if (f.property == "mismatch-faults") return "medium (a memory-safety bug goes undetected)";
    return "medium";
}

std::string expected_for(const Finding& f) {
    switch (kind_of(f)) {
        case Kind::coverage:
            return "the allocation gets a random tag, so that every access through its pointer is checked; "
                   "match-all is allowed only where its caller may have it (docs/requirements.md) or the "
                   "patch claims it";
        case Kind::out_of_bounds:
            return "the out-of-bounds access faults: memory past the object carries a tag other than the "
                   "pointer's";
        case Kind::use_after_free:
            return "the access through the freed pointer faults: freed memory is poisoned with a new tag";
        case Kind::zero_data: return "the caller gets zeroed memory: its data reads as zero";
        case Kind::zero_tags: return "user space maps the page as it is, so its MTE tags are zero";
        case Kind::free_poison:
            return "memory tagged at allocation is poisoned at free; memory whose tagging was skipped is not";
        case Kind::page_tag:
            return "page_address() carries the memory's tag or match-all, so accesses through it do not fault";
        case Kind::false_positive:
            return "the owner's in-bounds access through its own pointer does not fault";
        case Kind::false_free:
            return "freeing a live object through a pointer the kernel hands out (its own, or page_address() of "
                   "its page) frees it without a report";
        case Kind::match_all: return "an access through a match-all (0xFF) pointer does not fault";
        case Kind::tagged_code:
            return "executable memory (a prot other than PAGE_KERNEL, no KASAN_VMALLOC_PROT_NORMAL) is handed "
                   "out through a match-all pointer: its addresses become the PC";
        case Kind::unmapped_tags:
            return "an area __get_vm_area_node() hands out before its caller maps it (vmap(), ioremap(): no "
                   "VM_ALLOC) is left untagged: HW_TAGS can tag only the mapping vmalloc() itself makes";
        case Kind::isolation:
            return "the same outcome as under " + (f.baseline.empty() ? std::string("the baseline") : f.baseline) +
                   " wherever the patch claims no change";
        case Kind::other: break;
    }
    return property_statement(f.property);
}

std::string question(const Finding& f) {
    switch (kind_of(f)) {
        case Kind::coverage:
            if (untagged_mapping(f))
                return "This allocation keeps a tag, but its mapping is no longer MT_NORMAL_TAGGED, so the CPU "
                       "checks no access through it. Is the plain PAGE_KERNEL mapping intended while KASAN "
                       "still tags the memory? If so, say so in the changelog (tagproof reads a variant's "
                       "claims), and why losing the checks is acceptable here.";
            return "This allocation is now handed out untagged, so KASAN checks no access through it. Is "
                   "dropping its tag intended? If so, please say so in the changelog (tagproof reads a "
                   "variant's claims), and say why losing the checks is acceptable here.";
        case Kind::out_of_bounds:
            return "An out-of-bounds access past the object is not detected here: the memory beyond it keeps "
                   "the object's tag. Should that part be re-poisoned when the object shrinks or is "
                   "allocated?";
        case Kind::use_after_free:
            return "A use after free through the old pointer is not detected here. Is skipping the poisoning "
                   "at free intended for this allocation, and is the lost detection acceptable?";
        case Kind::zero_data:
            return "The caller needs zeroed memory and gets data that is not zero. Which path is meant to zero "
                   "it now: did the GFP mask lose __GFP_ZERO, or does a skipped tagging step no longer "
                   "initialise it?";
        case Kind::zero_tags:
            return "User space maps this page as it is and sees MTE tags that are not zero. Which step is "
                   "meant to clear the tags (__GFP_ZEROTAGS, tag_clear_highpages, mte_sync_tags) in this "
                   "configuration?";
        case Kind::free_poison:
            return "Poisoning at free does not match what the allocation did with tags. When tagging is "
                   "skipped at allocation, is the free path meant to skip poisoning too (a match-all page "
                   "tag), and the other way round?";
        case Kind::page_tag:
            return "page_address() and the memory disagree on the tag here, so an access through it faults. "
                   "When tagging is skipped, is the page tag meant to be reset to KASAN_TAG_KERNEL?";
        case Kind::false_positive:
            return "The owner's own in-bounds access faults here. Should the allocation have left the memory "
                   "tags and the page tag consistent with the pointer it returned?";
        case Kind::false_free:
            return "A valid free is reported here. Does the free path recognise this pointer as the object's "
                   "(is_kfence_address() compares the tag too), and does page_address() of its page give the "
                   "tag it had?";
        case Kind::tagged_code:
            return "This executable mapping is now handed out through a tagged pointer, and code run from it "
                   "faults: __kasan_unpoison_vmalloc() returns early without KASAN_VMALLOC_PROT_NORMAL because "
                   "the kernel does not tolerate a tagged PC. Is tagging module text and JIT images intended, "
                   "and does every path that jumps into it strip the tag first?";
        case Kind::unmapped_tags:
            return "__get_vm_area_node() unpoisons a non-VM_ALLOC area before its caller maps it, so under "
                   "HW_TAGS the tag stores of __kasan_unpoison_vmalloc() fault and the kernel stops (the first "
                   "ioremap() at boot already does). Is tagging areas without VM_ALLOC intended, and which "
                   "mapping would carry the tags?";
        case Kind::match_all:
            return "Accesses through a match-all (0xFF) pointer are meant never to fault (TCR_EL1.TCMA1). In "
                   "this trace one does: does the patch change which pointers are checked, or which tag the "
                   "memory keeps?";
        case Kind::isolation:
            return "The outcome differs from " + (f.baseline.empty() ? std::string("the baseline") : f.baseline) +
                   " where the patch claims no change. Is the change meant to reach this mode too, or should "
                   "it be limited to kasan_hw_tags_enabled()?";
        case Kind::other: break;
    }
    if (f.property == "mismatch-faults")
        return "The pointer tag differs from the memory tag and no fault is raised. Is this access meant to go "
               "unchecked?";
    return "Is this behaviour intended?";
}

}  // namespace tagproof::review

namespace tagproof::review {

std::string reproduce_command(const Finding& f, const std::string& file) {
    const std::string vf = kernel::variant_file_path(f.variant);
    return "tagproof run " + (vf.empty() ? "" : "--variant-file " + vf + " ") + file;
}

}  // namespace tagproof::review
