// explain.cpp — a finding's trace, replayed in the model with the state of
// every pointer each event touched, and the kernel functions on its path.
#include <map>
#include <set>
#include <sstream>

#include "error.hpp"
#include "review.hpp"
#include "runner.hpp"
#include "scenario.hpp"

namespace tagproof::review {

namespace {

// Scenario calls and the kernel functions they stand for.
const std::map<std::string, std::vector<std::string>>& functions_of() {
    static const std::map<std::string, std::vector<std::string>> f = {
        {"alloc_pages", {"post_alloc_hook()", "kasan_unpoison_pages()", "should_skip_kasan_unpoison()"}},
        {"free_pages", {"free_pages_prepare()", "should_skip_kasan_poison()", "kasan_poison_pages()"}},
        {"kmalloc", {"__kasan_slab_alloc()", "__kasan_kmalloc()"}},
        {"kzalloc", {"__kasan_slab_alloc()", "__kasan_kmalloc()"}},
        {"kfree", {"__kasan_slab_pre_free()", "__kasan_slab_free()"}},
        {"krealloc", {"__kasan_krealloc()"}},
        {"vmalloc", {"__vmalloc_node_range()", "__kasan_unpoison_vmalloc()"}},
        {"vzalloc", {"__vmalloc_node_range()", "__kasan_unpoison_vmalloc()"}},
        {"vrealloc", {"vrealloc_node_align_noprof()", "__kasan_vrealloc()"}},
        {"vfree", {"vfree()", "free_pages_prepare()"}},
        {"stack_alloc", {"alloc_thread_stack_node()", "__vmalloc_node_range()"}},
        {"stack_free", {"free_thread_stack()"}},
        {"pgtable_alloc", {"pagetable_alloc_noprof()", "post_alloc_hook()"}},
        {"pgtable_free", {"pagetable_free()", "free_pages_prepare()"}},
        {"user_fault", {"vma_alloc_zeroed_movable_folio()", "mte_sync_tags()"}},
        {"huge_zero_folio", {"get_huge_zero_folio()", "post_alloc_hook()"}},
        {"skb_alloc", {"skb_page_frag_refill()", "post_alloc_hook()"}},
        {"read", {"the tag check (mte_check_tfsr_el1 / do_tag_check_fault)"}},
        {"write", {"the tag check (mte_check_tfsr_el1 / do_tag_check_fault)"}},
        {"rmw", {"the tag check (mte_check_tfsr_el1 / do_tag_check_fault)"}},
        {"reset_tag", {"kasan_reset_tag()"}},
        {"page_address", {"page_to_virt() / page_kasan_tag()"}},
    };
    return f;
}

// The scenario restricted to one mode, without its expectations, so the run
// that shows the violation is the one the runner keeps.
std::string for_replay(const std::string& text, Mode m, std::string& config) {
    std::istringstream in(text);
    std::string l, out;
    while (std::getline(in, l)) {
        if (l.rfind("expect", 0) == 0) continue;
        if (l.rfind("modes ", 0) == 0) {
            out += std::string("modes ") + mode_name(m) + "\n";
            continue;
        }
        if (l.rfind("config ", 0) == 0 || l.rfind("boot ", 0) == 0) config += (config.empty() ? "" : "; ") + l;
        out += l + "\n";
    }
    return out;
}

}  // namespace

void explain_findings(VariantReview& r) {
    for (Finding& f : r.findings) {
        std::string cfg;
        const std::string text = for_replay(f.scenario, f.mode, cfg);
        f.config = std::string("CONFIG_KASAN_") +
                   (f.mode == Mode::hw_tags ? "HW_TAGS" : f.mode == Mode::sw_tags ? "SW_TAGS" : "GENERIC") + "=y" +
                   (cfg.empty() ? "" : "; " + cfg);
        f.expected = property_statement(f.property);
        try {
            scenario::Scenario sc = scenario::parse_scenario(text, "finding.litmus");
            scenario::RunOptions ro;
            ro.state_trace = true;
            ro.max_runs = 512;
            ro.samples = 64;
            for (const auto& res : scenario::run_scenario(sc, ro)) {
                if (res.mode != f.mode) continue;
                f.trace = res.trace;
                for (const auto& v : res.violations)
                    if (v.rfind(f.property + ":", 0) == 0 && (f.happened.empty() || f.source != "corpus")) f.happened = v;
            }
            std::set<std::string> seen;
            for (const auto& st : sc.statements) {
                auto it = functions_of().find(st.call);
                if (it == functions_of().end()) continue;
                for (const auto& fn : it->second)
                    if (seen.insert(fn).second) f.functions.push_back(fn);
            }
        } catch (const InputError& e) {
            f.trace.push_back("(the scenario did not replay: " + std::string(e.what()) + ")");
        }
        if (f.happened.empty()) f.happened = "the " + f.source + " reports a violation of " + f.property;
    }
}

}  // namespace tagproof::review
