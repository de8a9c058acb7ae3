// explain.cpp — a finding's trace, replayed in the model with the state of
// every pointer each event touched, and the kernel functions on its path.
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "error.hpp"
#include "file/rule_use.hpp"
#include "layout.hpp"
#include "property.hpp"
#include "report.hpp"
#include "requirements.hpp"
#include "review.hpp"
#include "runner.hpp"
#include "scenario.hpp"

namespace tagproof::review {

namespace {

// Scenario calls and the kernel functions they stand for, named as callers
// write them in every era modelled: without 6.10's _noprof (pagetable_alloc()
// is pagetable_alloc_noprof() behind alloc_hooks() from v6.10, and a
// function from v6.5; vrealloc() is vrealloc_noprof() in 6.12 and
// vrealloc_node_align_noprof() from v6.17).
const std::map<std::string, std::vector<std::string>>& functions_of() {
    static const std::map<std::string, std::vector<std::string>> f = {
        {"alloc_pages", {"post_alloc_hook()", "should_skip_init()", "kasan_unpoison_pages()", "should_skip_kasan_unpoison()"}},
        {"free_pages", {"free_pages_prepare()", "should_skip_kasan_poison()", "kasan_poison_pages()"}},
        {"kmalloc", {"__kasan_slab_alloc()", "__kasan_kmalloc()"}},
        {"kzalloc", {"__kasan_slab_alloc()", "__kasan_kmalloc()"}},
        {"kfree", {"__kasan_slab_pre_free()", "__kasan_slab_free()"}},
        // kmalloc() above KMALLOC_MAX_CACHE_SIZE and its kfree(): pages (path_call below)
        {"kmalloc_large", {"__kmalloc_large_node()", "post_alloc_hook()", "__kasan_kmalloc_large()"}},
        {"kfree_large", {"free_large_kmalloc()", "__kasan_kfree_large()", "free_pages_prepare()",
                         "should_skip_kasan_poison()", "kasan_poison_pages()"}},
        {"krealloc", {"__do_krealloc()", "__kasan_krealloc()"}},
        {"vmalloc", {"__vmalloc_node_range()", "__kasan_unpoison_vmalloc()"}},
        {"vzalloc", {"__vmalloc_node_range()", "__kasan_unpoison_vmalloc()"}},
        {"vrealloc", {"vrealloc()", "__kasan_vrealloc()"}},
        {"vfree", {"vfree()", "free_pages_prepare()"}},
        {"stack_alloc", {"alloc_thread_stack_node()", "__vmalloc_node_range()"}},
        {"stack_free", {"free_thread_stack()"}},
        {"pgtable_alloc", {"pte_alloc_one() / pte_alloc_one_kernel()", "post_alloc_hook()"}},
        {"pgtable_free", {"pagetable_free()", "free_pages_prepare()"}},
        {"user_fault", {"vma_alloc_zeroed_movable_folio()", "mte_sync_tags()"}},
        {"huge_zero_folio", {"get_huge_zero_folio()", "post_alloc_hook()"}},
        {"skb_alloc", {"skb_page_frag_refill()", "post_alloc_hook()"}},
        {"alloc_skb_with_frags", {"alloc_skb_with_frags()", "post_alloc_hook()"}},
        {"kmem_cache_free", {"slab_free_hook()", "__kasan_slab_pre_free()", "__kasan_slab_free()"}},
        {"rcu_barrier", {"slab_free_after_rcu_debug()"}},
        {"mempool_alloc", {"kasan_unpoison_element()", "__kasan_mempool_unpoison_object()"}},
        {"mempool_free", {"kasan_poison_element()", "__kasan_mempool_poison_object()"}},
        {"reset_tag", {"kasan_reset_tag()"}},
        {"kfence_kmalloc", {"kfence_alloc()", "kfence_guarded_alloc()"}},
        {"vmalloc_huge", {"__vmalloc_node_range() (VM_ALLOW_HUGE_VMAP)", "vm_area_alloc_pages()", "split_page()"}},
        // vmap()'s area is unpoisoned by __get_vm_area_node(), before vmap() maps it
        {"vmap", {"vmap()", "__get_vm_area_node()", "__kasan_unpoison_vmalloc()"}},
        {"vm_map_ram", {"vm_map_ram()", "__kasan_unpoison_vmalloc()"}},
        {"vunmap", {"vunmap()", "__kasan_poison_vmalloc()"}},
        {"virt_to_page_address", {"virt_to_page() / page_kasan_tag()"}},
        {"page_address", {"page_to_virt() / page_kasan_tag()"}},
    };
    return f;
}

// An access's check, as the finding's mode makes it (model/kernel/checks/:
// the MTE hardware, the compiler's tag check, the compiler's shadow check).
std::string check_function(Mode m) {
    switch (m) {
        case Mode::hw_tags: return "the tag check (mte_check_tfsr_el1 / do_tag_check_fault)";
        case Mode::sw_tags: return "the tag check (__hwasan_loadN / __hwasan_storeN, kasan_check_range)";
        case Mode::generic: return "the shadow check (__asan_loadN / __asan_storeN, kasan_check_range)";
        case Mode::none: break;
    }
    return "no check (no KASAN compiled in)";
}

// The entry of functions_of() for a statement: a kmalloc() above
// KMALLOC_MAX_CACHE_SIZE takes the page allocator's path, and so does the
// kfree() of what it returned (the model's kmalloc makes the same test,
// model/spec/slab.cpp); `large` holds the variables such a kmalloc set.
std::string path_call(const scenario::Statement& st, std::set<std::string>& large) {
    const bool kmalloc = st.call == "kmalloc" || st.call == "kzalloc";
    if (kmalloc && !st.args.empty() && st.args[0].is_number && st.args[0].number > layout::KMALLOC_MAX_CACHE_SIZE) {
        large.insert(st.result);
        return "kmalloc_large";
    }
    if (kmalloc) large.erase(st.result);
    if (st.call == "kfree" && !st.args.empty() && large.count(st.args[0].name)) return "kfree_large";
    return st.call;
}

// The kernel functions of the caller the violation names (requirements.hpp's
// titles appear in the oracle's messages): listed first.
std::vector<std::string> caller_functions(const std::string& happened) {
    using kernel::Caller;
    static const std::map<Caller, std::vector<std::string>> f = {
        {Caller::alloc_pages, {"post_alloc_hook()", "should_skip_init()", "should_skip_kasan_unpoison()"}},
        {Caller::pgtable_kernel, {"pte_alloc_one_kernel()", "post_alloc_hook()"}},
        {Caller::pgtable_user, {"pte_alloc_one()", "post_alloc_hook()"}},
        {Caller::pgd_slab, {"pgd_alloc()", "__kasan_slab_alloc()"}},
        {Caller::thread_stack, {"alloc_thread_stack_node()"}},
        {Caller::kmalloc, {"__kasan_slab_alloc()", "__kasan_kmalloc()"}},
        {Caller::kmem_cache, {"__kasan_slab_alloc()"}},
        {Caller::kmalloc_large, {"__kmalloc_large_node()", "post_alloc_hook()", "__kasan_kmalloc_large()"}},
        {Caller::vmalloc, {"__vmalloc() / vmalloc_fix_flags()", "__vmalloc_node_range()", "__kasan_unpoison_vmalloc()"}},
        {Caller::user_page, {"vma_alloc_zeroed_movable_folio()", "post_alloc_hook()"}},
        {Caller::huge_zero_folio, {"get_huge_zero_folio()", "post_alloc_hook()"}},
        {Caller::skb_frag, {"skb_page_frag_refill()", "post_alloc_hook()"}},
        {Caller::mempool_page, {"mempool_alloc_pages()", "post_alloc_hook()"}},
    };
    // an executable area comes straight from __vmalloc_node_range() (module
    // text, JIT images), not through __vmalloc()
    if (happened.find("vmalloc_exec(") != std::string::npos) return {"__vmalloc_node_range()", "__kasan_unpoison_vmalloc()"};
    for (const auto& [c, fns] : f)
        if (happened.find(kernel::caller_title(c)) != std::string::npos) return fns;
    return {};
}


// Does the scenario (expectations stripped) show a violation of `property`?
bool shows(const std::string& text, Mode m, const std::string& property) {
    return !scenario::violations_shown(text, property, m, 512, 64).empty();
}

// Boot parameters and config keys that do not matter, removed one at a time
// while the violation still shows: the report names only what it needs.
std::string minimise_config(std::string text, Mode m, const std::string& property) {
    if (!shows(text, m, property)) return text;
    for (const char* key : {"boot ", "config "}) {
        std::size_t at = text.find(std::string("\n") + key);
        if (at == std::string::npos) continue;
        ++at;
        const std::size_t end = text.find('\n', at);
        std::istringstream words(text.substr(at + std::strlen(key), end - at - std::strlen(key)));
        std::vector<std::string> ws;
        for (std::string w; words >> w;) ws.push_back(w);
        for (std::size_t i = 0; i < ws.size();) {
            // A mode-isolation finding holds a state the claims keep unchanged
            // (HW_TAGS compiled in but off: kasan=off, no MTE). The scenario
            // compares outcomes without the claims, so dropping the word that
            // turns HW tags off still "shows" a difference, now in the state
            // the patch may change: keep those words.
            if (property == "mode-isolation" && (ws[i].rfind("kasan=", 0) == 0 || ws[i].rfind("mte=", 0) == 0)) {
                ++i;
                continue;
            }
            std::vector<std::string> rest = ws;
            rest.erase(rest.begin() + std::ptrdiff_t(i));
            std::string line;
            for (const auto& w : rest) line += (line.empty() ? "" : " ") + w;
            const std::size_t e2 = text.find('\n', at);
            std::string cand = text.substr(0, at) + (rest.empty() ? "" : key + line + "\n") + text.substr(e2 + 1);
            if (shows(cand, m, property)) {
                text = cand;
                ws = rest;
                if (rest.empty()) break;
            } else {
                ++i;
            }
        }
    }
    return text;
}

}  // namespace

std::string replay_text(const std::string& text, Mode m, std::string* config) {
    std::istringstream in(text);
    std::string l, out;
    while (std::getline(in, l)) {
        // expectations and checks, with or without a [mode] prefix: the replay judges afresh
        std::string body = l;
        if (!body.empty() && body[0] == '[' && body.find(']') != std::string::npos) {
            body.erase(0, body.find(']') + 1);
            body.erase(0, body.find_first_not_of(' '));
        }
        if (body.rfind("expect", 0) == 0 || l.rfind("#", 0) == 0) continue;
        // a check becomes an observation: what it saw still counts for
        // mode-isolation, but the variant's own value is no failure
        if (body.rfind("check ", 0) == 0) {
            const std::size_t at = l.find("check ");
            l = l.substr(0, at) + "observe " + l.substr(at + 6);
        }
        // the outcome a file states is its variant's; the reproducer states the violation
        if (l.find(" => ") != std::string::npos) l = l.substr(0, l.find(" => "));
        if (l.rfind("modes ", 0) == 0) l = std::string("modes ") + mode_name(m);
        if (config && (l.rfind("config ", 0) == 0 || l.rfind("boot ", 0) == 0))
            *config += (config->empty() ? "" : "; ") + l;
        out += l + "\n";
    }
    // Under `harness kunit` an event with no outcome expects no report: the
    // violation the reproducer is about (a report where none is owed) would
    // then fail its run as well as show. Each event is told `=> any`, the
    // parser saying which lines are events.
    scenario::Scenario sc;
    try {
        sc = scenario::parse_scenario(out, "replay");
    } catch (const std::exception&) {
        return out;  // its run says what is wrong with it
    }
    if (!sc.kunit_harness) return out;
    std::set<int> events;
    for (const auto& st : sc.statements)
        if (st.kind == scenario::Statement::event) events.insert(st.line);
    std::istringstream again(out);
    std::string told;
    for (int n = 1; std::getline(again, l); ++n) told += l + (events.count(n) ? " => any\n" : "\n");
    return told;
}

// A finding its own replay does not show is a modelling gap, never a finding
// (the solver's counterexamples are held to this in review.cpp; here the
// corpus's, the explorer's and RapidCheck's): its cell's source becomes
// unknown, the cell is violated only if another source still shows it, the
// review is undecided, and the finding is not reported (issue 34 item 4).
static void demote_unreproduced(VariantReview& r, const std::vector<std::size_t>& idx) {
    for (auto it = idx.rbegin(); it != idx.rend(); ++it) {
        const Finding& f = r.findings[*it];
        r.gaps.push_back(f.source + " " + f.property + " [" + mode_name(f.mode) + "] (" + f.origin +
                         "): its replay does not show " + f.property + ", so it is not reported as a finding");
        r.unknown = true;
        for (auto& pv : r.verdicts) {
            if (pv.property != f.property || pv.mode != f.mode) continue;
            bool still = false;
            for (auto& sv : pv.sources) {
                if (sv.source == f.source && sv.status == SourceVerdict::counterexample)
                    sv = {sv.source, SourceVerdict::unknown, "modelling gap: the counterexample does not reproduce"};
                still |= sv.status == SourceVerdict::counterexample;
            }
            pv.violated = still;
        }
        r.findings.erase(r.findings.begin() + long(*it));
    }
}

void explain_findings(VariantReview& r) {
    std::vector<std::size_t> unreproduced;  // findings whose own replay does not show them
    for (Finding& f : r.findings) {
        std::string cfg;
        // the events that do not matter, then the boot and config words
        std::size_t events = 0;
        const std::string minimal = minimise_config(
            properties::minimise_scenario(replay_text(f.scenario, f.mode), f.property, events), f.mode, f.property);
        const std::string text = replay_text(minimal, f.mode, &cfg);
        f.config = std::string("CONFIG_KASAN_") +
                   (f.mode == Mode::hw_tags ? "HW_TAGS" : f.mode == Mode::sw_tags ? "SW_TAGS" : "GENERIC") + "=y" +
                   (cfg.empty() ? "" : "; " + cfg);
        try {
            scenario::Scenario sc = scenario::parse_scenario(text, "finding.litmus");
            scenario::RunOptions ro;
            ro.state_trace = true;
            ro.max_runs = 512;
            ro.samples = 64;
            std::set<std::string> shown;
            // What happened is told from the run the trace shows (its tags), except
            // for a corpus mode-isolation finding, whose text is the comparison itself.
            const bool keep_comparison = f.source == "corpus" && f.property == "mode-isolation" && !f.happened.empty();
            bool told = false;
            std::vector<scenario::ModeResult> runs;
            {
                kernel::RecordRuleUse record(f.rules_run);
                runs = scenario::run_scenario(sc, ro);
            }
            for (const auto& res : runs) {
                if (res.mode != f.mode) continue;
                f.trace = res.trace;
                for (const auto& v : res.violations) {
                    shown.insert(v.substr(0, v.find(':')));
                    if (v.rfind(f.property + ":", 0) == 0 && !keep_comparison && !told) {
                        f.happened = v;
                        told = true;
                    }
                }
            }
            // The reproducer carries its verdict, litmus-style: `tagproof run`
            // says PASS exactly when the violation shows again.
            std::string repro = "# tagproof review: " + f.variant + " violates " + f.property + " in " +
                                mode_name(f.mode) + "; `tagproof run` PASSes when it shows\n" + text;
            for (const auto& inv : shown) repro += "expect violation " + inv + "\n";
            if (!shown.count(f.property)) {
                f.trace.push_back("(the replay does not show " + f.property + ": the finding does not reproduce)");
                repro += "expect violation " + f.property + "\n";
                unreproduced.push_back(&f - r.findings.data());
            }
            f.scenario = repro;
            std::set<std::string> seen;
            for (const auto& fn : caller_functions(f.happened))
                if (seen.insert(fn).second) f.functions.push_back(fn);
            std::set<std::string> large;
            for (const auto& st : sc.statements) {
                if (st.call == "read" || st.call == "write" || st.call == "rmw") {
                    if (seen.insert(check_function(f.mode)).second) f.functions.push_back(check_function(f.mode));
                    continue;
                }
                auto it = functions_of().find(path_call(st, large));
                if (it == functions_of().end()) continue;
                for (const auto& fn : it->second)
                    if (seen.insert(fn).second) f.functions.push_back(fn);
            }
            // a sampling finding is about the sampler the allocations went through
            if (f.property == "sampling-accounting")
                for (const char* fn : {"__kasan_unpoison_pages()", "kasan_sample_page_alloc()"})
                    if (seen.insert(fn).second) f.functions.push_back(fn);
        } catch (const InputError& e) {
            f.trace.push_back("(the scenario did not replay: " + std::string(e.what()) + ")");
        }
        if (f.happened.empty()) f.happened = "the " + f.source + " reports a violation of " + f.property;
        f.expected = expected_for(f);
    }
    demote_unreproduced(r, unreproduced);
}

}  // namespace tagproof::review
