// review_lift.cpp — see review_lift.hpp.
#include "review_lift.hpp"

#include <algorithm>
#include <sstream>

namespace tagproof::cli {

ReviewLift lift_for_review(const tree::TreeTry& t, const std::string& release) {
    ReviewLift l;
    std::string v = t.tree.describe.empty() ? t.tree.version : t.tree.describe;
    for (char& ch : v)
        if (!std::isalnum((unsigned char)ch) && ch != '.' && ch != '-') ch = '-';
    l.tree_variant = "tree-" + v;
    std::map<std::string, std::string> before, after;
    for (const auto& [path, steps] : t.applied.files) {
        if (!steps.in_tree || steps.text.empty()) continue;
        before[path] = steps.text.front();
        after[path] = steps.text.back();
    }
    l.before = tree::lift_tree(t.tree.root, t.tree.era(), release, l.tree_variant, before);
    l.after = tree::lift_tree(t.tree.root, t.tree.era() + " with the series", release, "lifted-after", after);
    for (const auto& target : tree::lift_targets()) {
        const tree::LiftedFunction* b = l.before.find(target.name);
        const tree::LiftedFunction* a = l.after.find(target.name);
        std::string why;
        if (b && !b->found && !b->lifted && a && a->lifted)
            // a function the series adds: nothing of the tree's to set it beside
            why = "the series adds " + std::string(target.name) + ", which the tree does not define: the model reads it "
                  "where the tree has it, and the hand era " + release + " stands for it here";
        else if (!b || !b->lifted) why = "the tree's " + std::string(target.name) + " cannot be read: " + (b ? b->why_not : "");
        else if (!a || !a->lifted) why = "the patched " + std::string(target.name) + " cannot be read: " + (a ? a->why_not : "");
        const bool changed = why.empty() && a->rule_text != b->rule_text;
        if (changed) l.changed.push_back(target.name);
        // read in part: a hunk there is checked where it changes that part, else not
        if (why.empty() && target.part) {
            why = changed ? tree::kInPart + target.part : std::string("only ") + target.part + " is read";
            // the rule lines the series changes, as the patched copy reads them
            std::string now;
            std::istringstream r(a->rule_text);
            for (std::string x; std::getline(r, x);)
                if ((x.rfind("rule ", 0) == 0 || x.rfind("feature ", 0) == 0) && b->rule_text.find(x + "\n") == std::string::npos)
                    now += (now.empty() ? "" : "; ") + x;
            if (changed && !now.empty()) why += " (after the series: " + now + ")";
        }
        l.status[target.name] = why;
        if (target.old_name) l.status[target.old_name] = why;  // a hunk names the function as the tree has it
    }
    return l;
}

void describe_lift(const ReviewLift& l, tree::Accounting& acc) {
    std::string read, unread, calls;
    std::vector<std::string> seen;
    for (const auto& f : l.before.functions) {
        if (f.lifted && !f.found)
            read += (read.empty() ? "" : ", ") + f.name + " (not in " + f.file + ", which is read as " + f.absent_as + ")";
        else if (f.lifted)
            read += (read.empty() ? "" : ", ") + f.shown() + " (" + f.file + ":" + std::to_string(f.line) +
                    (f.part.empty() ? "" : "; in part: " + f.part) + ")";
        else unread += (unread.empty() ? "" : "; ") + f.name + ": " + f.why_not;
    }
    for (const tree::TreeLift* t : {&l.before, &l.after})
        for (const auto& f : t->functions)
            for (const auto& c : f.unread_calls)
                if (std::find(seen.begin(), seen.end(), c) == seen.end()) {
                    seen.push_back(c);
                    calls += (calls.empty() ? "" : ", ") + c + "()";
                }
    acc.notes.push_back("the functions the model reads, from the tree and from the patched copy: " +
                        (read.empty() ? std::string("none") : read) + (unread.empty() ? "" : "; not read: " + unread));
    if (!calls.empty())
        acc.assumptions.push_back("the calls in them the model does not read leave tags and data alone: " + calls);
}

std::string lifted_patch_text(const std::string& file_text, const std::string& release, const ReviewLift& l,
                              const std::string& tree_file) {
    // The rules the code read from the patched copy defines: a site-table
    // reading of the same rule in a hunk (patch/sites.cpp) gives way to it.
    auto rule_name = [](const std::string& l) {
        if (l.rfind("rule ", 0) != 0) return std::string();
        std::size_t e = 5;
        while (e < l.size() && (std::isalnum((unsigned char)l[e]) || l[e] == '_')) ++e;
        return l.substr(5, e - 5);
    };
    std::vector<std::string> from_code;
    for (const auto& n : l.changed) {
        std::istringstream r(l.after.find(n)->rule_text);
        for (std::string x; std::getline(r, x);)
            if (!rule_name(x).empty()) from_code.push_back(rule_name(x));
    }
    std::istringstream in(file_text);
    std::string out, line;
    bool rebased = false;
    while (std::getline(in, line)) {
        if (const std::string r = rule_name(line);
            !r.empty() && line.back() != '{' && std::find(from_code.begin(), from_code.end(), r) != from_code.end()) {
            out += "# (the site table's reading; the code read from the patched copy, below, stands instead)\n# " + line + "\n";
            continue;
        }
        if (!rebased && line == "base " + release) {
            out += "base " + tree_file + "\n# base: " + release +
                   "'s rules, with the functions the model reads taken from the tree (" + l.before.era + ")\n";
            rebased = true;
            continue;
        }
        out += line + "\n";
    }
    if (!l.changed.empty())
        out += "\n# The functions the series changes, read from the tree's code as the series leaves it\n"
               "# (the baseline " + tree_file + " has the tree's own):\n";
    for (const auto& n : l.changed) {
        const tree::LiftedFunction* a = l.after.find(n);
        out += "\n# " + n + " as the series leaves it (" + a->file + ", lifted from the patched copy)\n" + a->rule_text;
    }
    return out;
}

}  // namespace tagproof::cli
