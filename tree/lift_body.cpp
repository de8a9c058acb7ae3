// lift_body.cpp — see lift_body.hpp.
#include "lift_body.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

#include "error.hpp"
#include "file/variant_file.hpp"
#include "functions.hpp"

namespace tagproof::tree {

const std::vector<LiftTarget>& lift_targets() {
    // callees before callers: a reader of the lifted file meets each rule before its use
    static const std::vector<LiftTarget> t = {
        {"want_init_on_alloc", "include/linux/mm.h"},
        {"should_skip_init", "mm/page_alloc.c"},
        {"should_skip_kasan_unpoison", "mm/page_alloc.c"},
        {"post_alloc_hook", "mm/page_alloc.c"},
        {"should_skip_kasan_poison", "mm/page_alloc.c"},
        {"free_pages_prepare", "mm/page_alloc.c",
         "whether it calls should_skip_kasan_poison() before it clears the head page's flags "
         "(page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP): rule free_reads_skip_flag"},
        {"__do_krealloc", "mm/slab_common.c",
         "whether its in-place branch (ks >= new_size) zeroes the spare part past new_size under "
         "want_init_on_alloc(flags): rule krealloc_zeroes_spare"},
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

// free_pages_prepare, in part: the line of its first should_skip_kasan_poison()
// call against the line that clears the head page's flags, which takes
// PG_skip_kasan_poison with them (487a32ec24be put the call after it in
// v6.1; the revert, in v6.3 and 6.1.y, before). Tail pages' flags ((page +
// i)->flags) do not count.
std::string skip_flag_order(const std::vector<std::string>& lines, const Definition& d, std::string& why) {
    int call = 0, clear = 0;
    for (int l = d.begin_line + 1; l <= d.end_line && l <= int(lines.size()); ++l) {
        const std::string& s = lines[l - 1];
        if (!call && s.find("should_skip_kasan_poison(") != std::string::npos) call = l;
        const std::size_t at = s.find("page->flags");
        if (!clear && at != std::string::npos && (at == 0 || !(std::isalnum((unsigned char)s[at - 1]) || s[at - 1] == '_' || s[at - 1] == ')')) &&
            s.find("&=", at) != std::string::npos && s.find("PAGE_FLAGS_CHECK_AT_PREP", at) != std::string::npos)
            clear = l;
    }
    if (!call) {
        why = "free_pages_prepare does not call should_skip_kasan_poison()";
        return "";
    }
    if (!clear) {
        why = "free_pages_prepare does not clear the head page's flags as page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP";
        return "";
    }
    return "# free_pages_prepare: should_skip_kasan_poison() at line " + std::to_string(call) +
           ", the head page's flags cleared at line " + std::to_string(clear) + "\nrule free_reads_skip_flag = " +
           (call < clear ? "true" : "false") + "\n";
}

// __do_krealloc, in part: between the in-place test (ks >= new_size) and its
// kasan_krealloc() call, a memset of the bytes from new_size under
// want_init_on_alloc(flags) ("Zero out spare memory", v6.11 and 6.1.y) or
// none (v6.1.0 .. v6.10).
std::string krealloc_spare_zeroing(const std::vector<std::string>& lines, const Definition& d, std::string& why) {
    int branch = 0, kasan = 0, memset = 0, init = 0;
    for (int l = d.begin_line + 1; l <= d.end_line && l <= int(lines.size()); ++l) {
        const std::string& s = lines[l - 1];
        if (!branch && (s.find("ks >= new_size") != std::string::npos || s.find("new_size <= ks") != std::string::npos))
            branch = l;
        if (!branch || kasan) continue;
        if (s.find("kasan_krealloc(") != std::string::npos) kasan = l;
        else if (!init && s.find("want_init_on_alloc(") != std::string::npos) init = l;
        else if (init && !memset && s.find("memset(") != std::string::npos && s.find("new_size") != std::string::npos)
            memset = l;
    }
    if (!branch || !kasan) {
        why = "__do_krealloc has no in-place branch (ks >= new_size) that calls kasan_krealloc()";
        return "";
    }
    if (memset)
        return "# __do_krealloc: in place (line " + std::to_string(branch) + "), want_init_on_alloc() at line " +
               std::to_string(init) + ", the spare part zeroed at line " + std::to_string(memset) +
               "\nrule krealloc_zeroes_spare(gfp) = want_init_on_alloc(gfp)\n";
    return "# __do_krealloc: in place (line " + std::to_string(branch) + "), nothing zeroed before kasan_krealloc() at line " +
           std::to_string(kasan) + "\nrule krealloc_zeroes_spare(gfp) = false\n";
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
    for (const LiftTarget& t : lift_targets()) {
        LiftedFunction f;
        f.name = t.name;
        f.file = t.file;
        if (!parsed.count(t.file)) {
            const std::string text = read_text(root, t.file, files);
            lines[t.file] = split_lines(text);
            parsed[t.file] = text.empty() ? ParsedFile{} : read_definitions(root, t.file, text);
        }
        const Definition* d = parsed[t.file].find(t.name);
        if (!d || d->kind != Definition::Kind::function) {
            f.why_not = std::string("not defined in ") + t.file;
            out.functions.push_back(f);
            continue;
        }
        f.found = true;
        f.line = d->begin_line;
        if (t.part) {
            f.part = t.part;
            const std::string rule = std::string(t.name) == "__do_krealloc"
                                         ? krealloc_spare_zeroing(lines[t.file], *d, f.why_not)
                                         : skip_flag_order(lines[t.file], *d, f.why_not);
            if (!rule.empty()) {
                f.lifted = true;
                f.rule_text = rule;
                out.variant_text += "\n# " + std::string(t.file) + ":" + std::to_string(d->begin_line) + " (in part)\n" + rule;
            }
            out.functions.push_back(f);
            continue;
        }
        int brace = 0;
        const std::string rule = as_rule(lines[t.file], *d, brace, f.why_not);
        if (rule.empty()) {
            out.functions.push_back(f);
            continue;
        }
        // read alone first, its body on the tree's own lines: an error names the tree's file and line
        std::string probe = "name lift-probe\nbase " + base + "\n";
        for (int k = 3; k < brace; ++k) probe += "\n";
        probe += rule;
        try {
            kernel::VariantFile v = kernel::parse_variant_file(probe, t.file);
            if (const kernel::RuleBody* b = v.overrides.find_body(t.name)) f.unread_calls = b->unread_calls;
            f.lifted = true;
            f.rule_text = rule;
            out.variant_text += "\n# " + std::string(t.file) + ":" + std::to_string(d->begin_line) + "\n" + rule;
        } catch (const InputError& e) {
            f.why_not = e.what();
        }
        out.functions.push_back(f);
    }
    return out;
}

}  // namespace tagproof::tree
