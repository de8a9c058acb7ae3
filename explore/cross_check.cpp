// cross_check.cpp — see cross_check.hpp.
#include "cross_check.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>
#include <unordered_map>

namespace tagproof::explore {

namespace {

// The transitions that decide an obligation, by the entry point its id ends
// in: the families that drive it (empty: every family) and the event lines
// that run it (a substring of the line). An access obligation is decided on
// the accesses; a use-after-free one on the access through the old pointer
// as well as on the free.
struct Decider {
    const char* entry;
    std::vector<std::string> families;
    std::vector<std::string> events;
    // The handles the entry point's allocations get in those families (their
    // stems: "v" for v0, v1): no-false-positive is judged when the caller
    // uses what it got, so an access through one of them decides it too.
    std::vector<std::string> stems = {};
    // A violation counts only if its message says this ("out-of-bounds": the
    // reads past an object decide the out-of-bounds obligations, not a
    // use-after-free through the same handle).
    const char* message_has = nullptr;
};

const std::vector<Decider>& deciders() {
    static const std::vector<Decider> d = {
        {"access", {}, {"read(", "write("}},
        {"alloc_pages", {"pages"}, {"alloc_pages("}, {"p", "q", "s"}},
        {"free_pages", {"pages"}, {"free_pages(", "read(", "write("}},
        {"trace", {"pages"}, {"alloc_pages(", "free_pages(", "read(", "write("}},
        {"bmc", {"pages"}, {"alloc_pages("}},
        {"induction", {"pages"}, {"alloc_pages("}},
        {"huge_zero_folio", {"user"}, {"huge_zero_folio("}},
        {"user_page_mte", {"user"}, {"user_fault(mte)"}},
        {"user_page", {"user"}, {"user_fault("}},
        {"pgtable_kernel", {"user"}, {"pgtable_alloc(kernel)"}},
        {"pgtable_user", {"user"}, {"pgtable_alloc(user)"}},
        // THREADINFO_GFP's pages: the stacks without CONFIG_VMAP_STACK; a vmap stack's is vmap_stack's
        {"thread_info_pages", {"stacks_novmap"}, {"stack_alloc("}},
        {"vmap_stack", {"stacks"}, {"stack_alloc("}},
        {"cached_stack", {"stacks"}, {"stack_alloc("}, {"s"}},
        {"skb_frag", {"skb", "skb_fallback"}, {"skb_alloc("}},
        {"skb_with_frags", {"skb", "skb_fallback"}, {"alloc_skb_with_frags("}},
        // not "v": its handles are vrealloc'ed in place, and an access past the
        // old size is vrealloc's to decide
        {"vmalloc", {"vmalloc"}, {"vmalloc(", "vzalloc("}, {"z", "w", "h"}},
        {"kmalloc", {"slab"}, {"kmalloc(", "kzalloc("}, {"k", "z"}},
        {"krealloc", {"slab", "krealloc"}, {"krealloc("}, {"k", "r"}},
        {"oob/kmalloc", {"slab"}, {"read("}, {}, "out-of-bounds"},
        {"mempool", {"mempool"}, {"mempool_alloc("}, {"e", "c"}},
        {"oob/mempool", {"mempool"}, {"read("}, {}, "out-of-bounds"},
        // a page element is judged where it is handed out and used through page_address()
        {"mempool_page", {"mempool"}, {"mempool_alloc(", "read(", "write("}, {"p"}},
        {"vrealloc", {"vmalloc"}, {"vrealloc("}, {"v"}},
        {"vrealloc_shrink", {"vrealloc_zero"}, {"vrealloc("}, {"z"}},
        // the alias and the owner's own accesses to the pages (gp = page_address(g))
        {"vmap", {"vmalloc"}, {"vmap(", "read(gp", "write(gp"}, {"a"}},
        // a freed object is judged when it is used: the reads and writes through old pointers
        {"kmem_cache_free", {"kmem_cache", "kmem_cache_rcu", "kmem_cache_rcu_reuse"},
         {"kmem_cache_free(", "rcu_barrier(", "read(", "write("}},
    };
    return d;
}

// By what follows the invariant in the id ("oob/kmalloc"), else by its last
// part ("kmalloc").
const Decider* decider_for(const std::string& id) {
    const std::string rest = id.substr(id.find('/') + 1), entry = id.substr(id.rfind('/') + 1);
    for (const auto& d : deciders())
        if (rest == d.entry) return &d;
    for (const auto& d : deciders())
        if (entry == d.entry) return &d;
    return nullptr;
}

// "read(v0, 1)", "write(p1p, 1)": an access through a handle of one of the stems.
bool access_through(const std::vector<std::string>& stems, const std::string& line) {
    for (const char* op : {"read(", "write("})
        for (const auto& st : stems) {
            const std::string pre = op + st;
            if (line.rfind(pre, 0) == 0 && line.size() > pre.size() && std::isdigit((unsigned char)line[pre.size()]))
                return true;
        }
    return false;
}

bool runs_entry(const Decider& d, const std::string& line, const std::string& invariant) {
    for (const auto& e : d.events)
        if (line.find(e) != std::string::npos) return true;
    return invariant == "no-false-positive" && access_through(d.stems, line);
}

}  // namespace

CrossChecker::CrossChecker(std::vector<ProvedObligation> proved)
    : proved_(std::move(proved)), checks_(proved_.size()), truncated_(proved_.size(), false) {
    for (std::size_t i = 0; i < proved_.size(); ++i) checks_[i].obligation = proved_[i].id;
}

void CrossChecker::add(const FamilyResult& fr) {
    const auto& judged = family_invariants();
    // whether each edge (in Boost's edge order) runs a decider's entry point:
    // once per decider and graph, and once per distinct event line (a family's
    // events recur on thousands of edges; a search per edge and obligation
    // was a twelfth of the explorer's time)
    std::map<std::pair<const Decider*, bool>, std::vector<char>> runs_of;
    auto runs = [&](const Decider& d, const std::string& inv) -> const std::vector<char>& {
        const bool nfp = inv == "no-false-positive";  // the one invariant runs_entry reads
        auto [it, fresh] = runs_of.try_emplace({&d, nfp});
        if (!fresh) return it->second;
        std::unordered_map<std::string_view, char> by_line;
        std::vector<char>& out = it->second;
        fr.for_each_edge([&](std::size_t, std::size_t, const std::string& line, const std::vector<std::string>&,
                             const std::string&) {
            auto [l, new_line] = by_line.try_emplace(line, 0);
            if (new_line) l->second = runs_entry(d, line, inv);
            out.push_back(l->second);
        });
        return it->second;
    };
    for (std::size_t i = 0; i < proved_.size(); ++i) {
        const Decider* d = decider_for(proved_[i].id);
        const std::string& inv = proved_[i].invariant;
        if (!d || std::find(judged.begin(), judged.end(), inv) == judged.end()) continue;
        const auto& fams = d->families;
        if (!fams.empty() && std::find(fams.begin(), fams.end(), fr.options.family.name) == fams.end()) continue;
        CrossCheck& cc = checks_[i];
        truncated_[i] = truncated_[i] || fr.truncated;
        const std::vector<char>& edge_runs = runs(*d, inv);
        std::size_t k = 0;
        fr.for_each_edge([&](std::size_t, std::size_t, const std::string& line, const std::vector<std::string>& violated,
                             const std::string& message) {
            if (!edge_runs[k++]) return;
            ++cc.transitions;
            if (cc.kind == CrossCheck::disagrees) return;
            if (std::find(violated.begin(), violated.end(), inv) == violated.end()) return;
            if (d->message_has && message.find(d->message_has) == std::string::npos) return;
            cc.kind = CrossCheck::disagrees;
            cc.detail = "the " + fr.options.family.name + " family at " + fr.options.config.name() + ": '" + line +
                        "' breaks " + inv + ": " + message;
        });
    }
}

std::vector<std::string> CrossChecker::families_needed() const {
    std::vector<std::string> out;
    for (const auto& p : proved_)
        if (const Decider* d = decider_for(p.id))
            for (const auto& f : d->families)
                if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    return out;
}

std::vector<CrossCheck> CrossChecker::results() const {
    const auto& judged = family_invariants();
    std::vector<CrossCheck> out = checks_;
    for (std::size_t i = 0; i < out.size(); ++i) {
        CrossCheck& cc = out[i];
        if (cc.kind == CrossCheck::disagrees) continue;
        if (!decider_for(proved_[i].id)) {
            cc.detail = "no family of the explorer drives its entry point";
        } else if (std::find(judged.begin(), judged.end(), proved_[i].invariant) == judged.end()) {
            cc.detail = "the explorer does not judge " + proved_[i].invariant;
        } else if (cc.transitions == 0) {
            cc.detail = "no explored transition runs its entry point";
        } else if (truncated_[i]) {
            cc.detail = "a family that drives it was truncated: " + std::to_string(cc.transitions) +
                        " transitions enumerated, not all";
        } else {
            cc.kind = CrossCheck::agrees;
        }
    }
    return out;
}

ProductCrossCheck cross_check_over_product(const std::string& variant, std::vector<ProvedObligation> proved) {
    ProductCrossCheck out;
    if (proved.empty()) return out;
    CrossChecker checker(std::move(proved));
    const std::vector<std::string> need = checker.families_needed();
    const kernel::Variant& v = kernel::find_variant(variant, "--variant");
    const auto configs = boot_product(v, true);
    out.configs = configs.size();
    for (const auto& fam : families(v)) {
        if (std::find(need.begin(), need.end(), fam.name) == need.end()) continue;
        out.families.push_back(fam.name);
        for (const auto& cfg : configs) {
            FamilyOptions fo;
            fo.variant = variant;
            fo.family = fam;
            fo.config = cfg;
            fo.depth = fam.review_depth;
            const FamilyResult fr = explore_family(fo);
            checker.add(fr);
            ++out.runs;
            out.states += fr.states;
        }
    }
    out.results = checker.results();
    return out;
}

}  // namespace tagproof::explore
