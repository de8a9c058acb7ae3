// lift_body.cpp — see lift_body.hpp.
#include "lift_body.hpp"

#include <cctype>
#include <fstream>
#include <mutex>
#include <sstream>

#include "error.hpp"
#include "file/variant_file.hpp"
#include "functions.hpp"
#include "lift_parts.hpp"
#include "modelled.hpp"

namespace tagproof::tree {

const std::vector<LiftTarget>& lift_targets() {
    // callees before callers: a reader of the lifted file meets each rule before its use
    static const std::vector<LiftTarget> t = {
        {"want_init_on_alloc", "include/linux/mm.h"},
        {"should_skip_init", "mm/page_alloc.c"},
        {"should_skip_kasan_unpoison", "mm/page_alloc.c"},
        {"post_alloc_hook", "mm/page_alloc.c"},
        {"should_skip_kasan_poison", "mm/page_alloc.c"},
        {"__kasan_poison_pages", "mm/kasan/common.c",
         "the init its kasan_poison(..., KASAN_PAGE_FREE, init) is given: rule kasan_poison_pages_init",
         read_kasan_poison_pages},
        {"free_pages_prepare", "mm/page_alloc.c",
         "whether it calls should_skip_kasan_poison() before it clears the head page's flags "
         "(page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP), and its KASAN part (the init kasan_poison_pages() is "
         "given, init after it, and when kernel_init_pages() runs): rules free_reads_skip_flag, free_poison_init, "
         "free_init_after_poison, free_kernel_init",
         read_free_pages_prepare},
        {"__do_krealloc", "mm/slab_common.c",
         "whether its in-place branch (ks >= new_size) zeroes the spare part past new_size under "
         "want_init_on_alloc(flags): rule krealloc_zeroes_spare",
         read_krealloc_spare_zeroing},
        {"alloc_thread_stack_node", "kernel/fork.c",
         "the gfp of its __vmalloc_node_range() and whether a cached stack is unpoisoned: rules GFP_VMAP_STACK, "
         "cached_stack_unpoison",
         read_thread_stack},
        {"skb_page_frag_refill", "net/core/sock.c",
         "the gfp of its order-3 alloc_pages() and of its alloc_page() fallback: rules skb_frag_gfp, skb_frag_fallback_gfp",
         read_skb_frag_refill_gfp},
        {"alloc_skb_with_frags", "net/core/skbuff.c",
         "the gfp of a high-order frag's alloc_pages() and its -EMSGSIZE test: rules alloc_skb_frags_gfp, "
         "skb_with_frags_fits",
         read_skb_with_frags_gfp},
        {"__vmalloc_node_range", "mm/vmalloc.c",
         "the KASAN part: the gfp of __get_vm_area_node(), the tagged prot and the pages' skip flags in the "
         "PAGE_KERNEL branch, the conditions of KASAN_VMALLOC_PROT_NORMAL, KASAN_VMALLOC_INIT, KASAN_VMALLOC_VM_ALLOC "
         "and the kasan_unpoison_vmalloc() call: rules vmalloc_meta_gfp, vmalloc_tagged_prot, "
         "vmalloc_page_skip_flags, vmalloc_prot_normal, vmalloc_init, vmalloc_vm_alloc, vmalloc_calls_unpoison",
         read_vmalloc_kasan},
        {"vma_alloc_zeroed_movable_folio", "arch/arm64/mm/fault.c",
         "the gfp of the allocation it returns, its local flags folded statement by statement: rule user_page_gfp",
         read_user_page_gfp, "alloc_zeroed_user_highpage_movable"},
        {"get_huge_zero_folio", "mm/huge_memory.c",
         "whether it allocates the huge zero folio with __GFP_ZEROTAGS: feature huge_zero_folio_zerotags",
         read_huge_zero_folio_zerotags, "get_huge_zero_page"},
        {"__pte_alloc_one_kernel", "include/asm-generic/pgalloc.h",
         "the gfp of its page allocation and the file's GFP_PGTABLE_KERNEL it names: rules pte_alloc_one_kernel_gfp, "
         "GFP_PGTABLE_KERNEL",
         read_pte_alloc_one_kernel},
        {"pte_alloc_one", "include/asm-generic/pgalloc.h",
         "the gfp it passes to __pte_alloc_one() and the file's GFP_PGTABLE_USER it names: rules pte_alloc_one_gfp, "
         "GFP_PGTABLE_USER",
         read_pte_alloc_one},
        {"vrealloc_node_align", "mm/vmalloc.c",
         "that the tree has vrealloc(), keeping the size last asked, the `if`s under which its shrink zeroes the "
         "bytes given up, and its KASAN calls in place if it makes them itself: feature vrealloc, rules "
         "vrealloc_shrink_zeroes, vrealloc_granule_aligned, vrealloc_grow_vm_alloc, vrealloc_grow_keep_tag",
         read_vrealloc_kasan, "vrealloc", "feature vrealloc no\n"},
        {"__kasan_unpoison_vmalloc", "mm/kasan/hw_tags.c",
         "with kasan.vmalloc=off, whether init_vmalloc_pages() clears the area; else the flags it tags the area "
         "under and the init of its kasan_unpoison() and redzone: rules unpoison_vmalloc_off_init, "
         "unpoison_vmalloc_tags, unpoison_vmalloc_init",
         read_unpoison_vmalloc},
        {"__kasan_vrealloc", "mm/kasan/common.c",
         "the shrink's poison and the grow's unpoison call, their start offsets and the grow's flags: rules "
         "vrealloc_granule_aligned, vrealloc_grow_vm_alloc, vrealloc_grow_keep_tag",
         read_kasan_vrealloc},
        {"__kasan_mempool_poison_pages", "mm/kasan/common.c",
         "whether a page element's free is checked and a page tagged KASAN_TAG_KERNEL left alone: rules "
         "mempool_check_page_frees, mempool_skip_untagged_pages",
         read_mempool_poison_pages},
        {"add_element", "mm/mempool.c",
         "whether the element is stored only when kasan_poison_element() returns true: rule mempool_keep_bad_element",
         read_mempool_add_element},
        {"kasan_unpoison_element", "mm/mempool.c",
         "how a slab element is unpoisoned (over __ksize() or by kasan_mempool_unpoison_object()): rule "
         "mempool_unpoison_whole_slot",
         read_mempool_unpoison_element},
        {"kasan_sample_page_alloc", "mm/kasan/kasan.h",
         "the allocations its per-CPU counter counts (the tests before this_cpu_dec_return()), the counter's test "
         "and the value it is reset to: rules sample_eligible, sample_wrapped, sample_reset",
         read_sample_eligible},
        {"assign_tag", "mm/kasan/common.c",
         "the tag an allocated object gets, a fresh one (kasan_random_tag()) or its own (get_tag(object)), for "
         "caches with and without a constructor or SLAB_TYPESAFE_BY_RCU: rule slab_tag_per_alloc",
         read_assign_tag},
        {"unpoison_slab_object", "mm/kasan/common.c",
         "the init an allocated object's kasan_unpoison() is given: rule slab_alloc_kasan_init",
         read_slab_alloc_unpoison, "__kasan_slab_alloc"},
        // in mm/slub.c from v6.8, mm/slab.h before
        {"slab_post_alloc_hook", "mm/slub.c",
         "when it zeroes an allocated object with memset() rather than leave it to KASAN: rule slab_memset_init",
         read_slab_memset_init, nullptr, nullptr, "mm/slab.h"},
        {"slab_free_hook", "mm/slub.c",
         "whether the object is still accessible at the free (its still_accessible, given to kasan_slab_free()): "
         "rule slab_free_still_accessible",
         read_slab_free_hook},
        {"poison_slab_object", "mm/kasan/common.c",
         "whether a freed object is poisoned: the returns before its kasan_poison(..., KASAN_SLAB_FREE, init): "
         "rule slab_free_poisons",
         read_slab_free_poison, "____kasan_slab_free"},
        {"poison_kmalloc_redzone", "mm/kasan/common.c",
         "where a kmalloc object's redzone starts (redzone_start's rounding of the object plus size): rule "
         "kmalloc_redzone_start",
         read_kmalloc_redzone, "____kasan_kmalloc"},
        {"poison_kmalloc_large_redzone", "mm/kasan/common.c",
         "where a large kmalloc's redzone starts (redzone_start's rounding of the pointer plus size): rule "
         "kmalloc_large_redzone_start",
         read_kmalloc_large_redzone, "__kasan_kmalloc_large"},
    };
    return t;
}

namespace {

std::string read_text(const std::string& root, const std::string& file, const std::map<std::string, std::string>& files) {
    if (auto it = files.find(file); it != files.end()) return it->second;
    std::ifstream in(root + "/" + file);
    if (!in) return "";
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
}

// The definition as a variant file's rule: `rule NAME(PARAMS) {` on the line
// of the function's opening brace, then its lines as written. Returns "" and
// sets `why` when the text is not a function definition of that name.
std::string as_rule(const std::vector<std::string>& lines, const Definition& d, int& brace_line, std::string& why) {
    std::string head;
    int l = d.begin_line;
    for (; l <= d.end_line && l <= int(lines.size()); ++l) {
        const std::string& s = lines[l - 1];
        const std::size_t b = s.find('{');
        head += " " + (b == std::string::npos ? s : s.substr(0, b));
        if (b != std::string::npos) break;
    }
    const std::size_t at = head.find(d.name + "(");
    if (at == std::string::npos || l > d.end_line) {
        why = "the definition of " + d.name + " is not written NAME(...) { ... }";
        return "";
    }
    std::string sig;
    for (char ch : head.substr(at)) {  // the parameters on one line
        if (ch == '\t' || ch == '\n') ch = ' ';
        if (ch == ' ' && !sig.empty() && sig.back() == ' ') continue;
        sig += ch;
    }
    while (!sig.empty() && sig.back() == ' ') sig.pop_back();
    brace_line = l;
    const std::string& bl = lines[l - 1];
    std::string text = "rule " + sig + " " + bl.substr(bl.find('{')) + "\n";
    for (int k = l + 1; k <= d.end_line && k <= int(lines.size()); ++k) text += lines[k - 1] + "\n";
    return text;
}

}  // namespace

TreeLift lift_tree(const std::string& root, const std::string& era, const std::string& base, const std::string& name,
                   const std::map<std::string, std::string>& files) {
    TreeLift out;
    out.era = era;
    out.base = base;
    out.variant_text = "# " + era + " as tagproof lift reads it: the modelled functions of the tree (" + root +
                       "),\n# read at run time, over the hand rules of " + base + " for the rest.\n"
                       "name " + name + "\nbase " + base + "\nsummary the functions of " + era + " the model reads, over " +
                       base + "\n";
    std::map<std::string, ParsedFile> parsed;
    std::map<std::string, std::vector<std::string>> lines;
    // A file of the tree itself is parsed once per process (a review lifts
    // the tree before and after the series: only the patched copies differ);
    // a patched copy is parsed each time.
    auto load = [&](const std::string& file) {
        if (parsed.count(file)) return;
        static std::mutex m;
        static std::map<std::string, std::pair<std::vector<std::string>, ParsedFile>> tree_files;
        const bool own = !files.count(file);
        std::unique_lock<std::mutex> lock(m);
        if (auto it = tree_files.find(root + "/" + file); own && it != tree_files.end()) {
            lines[file] = it->second.first;
            parsed[file] = it->second.second;
        } else {
            lock.unlock();
            const std::string text = read_text(root, file, files);
            lines[file] = split_lines(text);
            parsed[file] = text.empty() ? ParsedFile{} : read_definitions(root, file, text);
            lock.lock();
            if (own) tree_files[root + "/" + file] = {lines[file], parsed[file]};
        }
    };
    for (const LiftTarget& t : lift_targets()) {
        LiftedFunction f;
        f.name = t.name;
        f.file = t.file;
        // (6.10's allocation tagging renamed the allocators NAME_noprof, and
        // made NAME a macro around it: the function is the one read)
        std::string file = t.file;
        auto function = [&](const std::string& n) -> const Definition* {
            for (const Definition& x : parsed[file].defs)
                if (x.name == n && x.kind == Definition::Kind::function) return &x;
            return nullptr;
        };
        auto find = [&]() {
            load(file);
            const Definition* x = function(t.name);
            if (!x) x = function(std::string(t.name) + "_noprof");
            if (!x && t.old_name) x = function(t.old_name);
            if (!x && t.old_name) x = function(std::string(t.old_name) + "_noprof");
            return x;
        };
        const Definition* d = find();
        if (!d && t.old_file) {
            file = t.old_file;
            d = find();
            if (d) f.file = file;
            else file = t.file;
        }
        if (!d && t.absent) {
            f.lifted = true;
            f.absent_as = t.absent;
            while (!f.absent_as.empty() && f.absent_as.back() == '\n') f.absent_as.pop_back();
            f.rule_text = "# " + std::string(t.file) + " does not define " + t.name + (t.old_name ? " or " : "") +
                          (t.old_name ? t.old_name : "") + "\n" + t.absent;
            out.variant_text += "\n# " + std::string(t.file) + " (not defined)\n" + f.rule_text;
            out.functions.push_back(f);
            continue;
        }
        if (!d) {
            f.why_not = std::string("not defined in ") + t.file + (t.old_file ? std::string(" or ") + t.old_file : "");
            out.functions.push_back(f);
            continue;
        }
        f.found = true;
        f.line = d->begin_line;
        if (without_noprof(d->name) != f.name) f.defined_as = d->name;
        if (t.part) {
            f.part = t.part;
            std::string rule = t.read_part(PartInput{lines[file], *d, parsed[file], file}, f.why_not);
            if (!rule.empty()) {
                // read back as a variant file reads it: a part that does not read is not lifted
                try {
                    (void)kernel::parse_variant_file("name lift-probe\nbase " + base + "\n" + rule, file);
                } catch (const InputError& e) {
                    f.why_not = std::string("what is read of it (") + t.part + ") does not read as a rule: " + e.what();
                    rule.clear();
                }
            }
            if (!rule.empty()) {
                f.lifted = true;
                f.rule_text = rule;
                out.variant_text += "\n# " + file + ":" + std::to_string(d->begin_line) + " (in part)\n" + rule;
            }
            out.functions.push_back(f);
            continue;
        }
        int brace = 0;
        const std::string rule = as_rule(lines[file], *d, brace, f.why_not);
        if (rule.empty()) {
            out.functions.push_back(f);
            continue;
        }
        // read alone first, its body on the tree's own lines: an error names the tree's file and line
        std::string probe = "name lift-probe\nbase " + base + "\n";
        for (int k = 3; k < brace; ++k) probe += "\n";
        probe += rule;
        try {
            kernel::VariantFile v = kernel::parse_variant_file(probe, file);
            if (const kernel::RuleBody* b = v.overrides.find_body(t.name)) f.unread_calls = b->unread_calls;
            f.lifted = true;
            f.rule_text = rule;
            out.variant_text += "\n# " + file + ":" + std::to_string(d->begin_line) + "\n" + rule;
        } catch (const InputError& e) {
            f.why_not = e.what();
        }
        out.functions.push_back(f);
    }
    return out;
}

}  // namespace tagproof::tree
