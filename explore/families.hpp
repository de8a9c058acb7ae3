// families.hpp — the model's whole event vocabulary, as the explorer drives
// it: families of entry points that share state (the slab allocator, vmalloc,
// thread stacks, page tables and user pages, mempools, skbs, KFENCE, the page
// allocator's flags and orders). Each family names the allocations it makes
// (an allocation kind: the call, how it is freed, its size), what it sets up
// first, and the events that take no handle (rcu_barrier()). A path's length
// counts transitions: an allocation of a page and its page_address() are one.
// Every event is a
// scenario line run by scenario::Interpreter, so a counterexample replays
// with `tagproof run` exactly as it was found.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config.hpp"
#include "variant.hpp"

namespace tagproof::explore {

// One kind of allocation a family makes: `H = ALLOC` and `FREE` with % the
// handle's name.
struct AllocKind {
    // the fields a family names, in order; the rest keep their defaults
    AllocKind() = default;
    AllocKind(std::string stem_, std::string alloc_, std::string free_, std::uint64_t size_, unsigned slots_ = 2,
              bool per_cpu_ = false, bool refree_ = false, bool accessed_ = true)
        : stem(std::move(stem_)), alloc(std::move(alloc_)), free(std::move(free_)), size(size_), slots(slots_),
          per_cpu(per_cpu_), refree(refree_), accessed(accessed_) {}
    std::string stem;   // handle names: stem0, stem1, ...
    std::string alloc;  // "kmalloc(32)"
    std::string free;   // "kfree(%)"; empty: never freed (the huge zero folio)
    std::uint64_t size = 0;   // the bytes the caller may use (the access past it is out of bounds)
    unsigned slots = 2;       // handles of this kind at once (a freed one stays, dangling, until reused)
    bool per_cpu = false;     // allocate and free on either CPU (per-CPU caches and counters)
    bool refree = false;      // freeing a freed handle is an event too (double-free reports)
    bool accessed = true;     // read / write through the handle (an skb is not a pointer)
    std::string realloc;      // "krealloc(%, 96)": the handle becomes the result
    std::uint64_t realloc_size = 0;
    std::string shrink;       // a second resize, as realloc ("krealloc(%, 32, ...)")
    std::uint64_t shrink_size = 0;
    std::string touch;        // an event on a live handle: "user_set_tag(%, 0, 3)"
    bool page = false;        // it returns a page: `%p = page_address(%)` follows, and accesses use %p
};

struct Family {
    Family() = default;
    Family(std::string name_, std::string doc_, unsigned pages_ = 16)
        : name(std::move(name_)), doc(std::move(doc_)), pages(pages_) {}
    std::string name;
    std::string doc;
    unsigned pages = 16;                // the instance's RAM
    std::vector<std::string> config;    // scenario config words: "kfence=y"
    std::vector<std::string> setup;     // lines run before the first event (not counted)
    std::vector<AllocKind> kinds;
    std::vector<std::string> globals;   // events with no handle: "rcu_barrier()"
    // The depth `tagproof review` explores it to, at the default boot, within
    // review's budget (`tagproof explore` takes --family-depth, 4 by default).
    unsigned review_depth = 4;
    // a review explores it under the other boots of the product too (at depth
    // 2); false: the default boot's alone, for a family whose states are
    // large (vmalloc_huge's 1600 pages) and whose path is the default boot's
    bool review_other_boots = true;
    // RapidCheck's walks draw it (properties/family_walk_property.cpp); false
    // for a family whose every walk builds a large model (vmalloc_huge: its
    // walks were four fifths of a review's RapidCheck time)
    bool walked = true;
};

// The families for a variant's era (a kind whose call or flag the era lacks is left out).
std::vector<Family> families(const kernel::Variant& v);

// A boot configuration the explorer covers.
struct BootConfig {
    std::string boot;  // kernel command line ("" the default boot)
    bool mte = true;
    std::string name() const;  // "default boot", "init_on_free=1", "no MTE"
};
// The named boot product: each configuration the decisions branch on, as the
// era parses it: the default boot, init_on_alloc=1, init_on_free=1,
// kasan.vmalloc=off, kasan=off, sampling (N=2, and order 1), write_only,
// and no MTE; with `check_modes` also kasan.mode=async and asymm (the page
// instance is the trace BMC's and is sync only).
//
// Generic and SW_TAGS parse none of the kasan.* parameters above (they are
// mm/kasan/hw_tags.c's early_params: kasan=, kasan.mode=, kasan.vmalloc=,
// kasan.page_alloc.sample*, kasan.write_only=); what their decisions branch
// on is init_on_alloc / init_on_free (mm/mm_init.c) and whether the CPU has
// MTE (user pages' tags, arch/arm64/kernel/mte.c). Their product is those.
std::vector<BootConfig> boot_product(const kernel::Variant& v, bool check_modes, Mode mode = Mode::hw_tags);

}  // namespace tagproof::explore
