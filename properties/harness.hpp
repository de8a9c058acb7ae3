// harness.hpp — the system under test of the RapidCheck properties.
#pragma once
#include <map>
#include <ostream>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "chooser.hpp"
#include "model.hpp"

namespace tagproof::properties {

// A run's configuration: build, machine, boot command line.
struct Config {
    Mode mode = Mode::hw_tags;
    bool mte = true;
    bool kfence = false;  // CONFIG_KFENCE: kmallocs may be KFENCE's
    int nodes = 1;        // NUMA nodes (CPU c on node c % nodes)
    bool lockdep = false; // CONFIG_LOCKDEP: __GFP_NOLOCKDEP gets a bit (the GFP layout's last)
    std::string cmdline;
    std::string describe() const;
};
// How RapidCheck prints a configuration in a counterexample.
void showValue(const Config& c, std::ostream& os);

// What RapidCheck's generator and preconditions see: the handles so far.
struct Handle {
    enum Kind { page, ptr, vmalloc, stack, pgtable, user, alias, pool, pool_elem };
    Handle() = default;
    Handle(Kind k, std::string n, bool l, int c, std::int64_t sz, bool kf = false)
        : kind(k), name(std::move(n)), live(l), cpu(c), size(sz), kfence(kf) {}
    Kind kind = ptr;
    std::string name;
    bool live = true;
    int cpu = 0;
    std::int64_t size = 0;  // bytes an access may address (for offsets around the bounds)
    bool kfence = false;    // a ptr from kfence_kmalloc: not in a slab (krealloc leaves it alone)
    std::string owner;      // pool_elem: the mempool it came from (mempool_free gives it back there); pool: its kind
};
struct AbstractState {
    std::vector<Handle> handles;
    int next = 0;
    std::vector<std::string> gfp_choices;  // GFP strings this variant's era and build define
    bool isolation = false;                // run against a baseline in lockstep (ObserveGfp is drawn)
    bool hw = false;                       // HW_TAGS build (user tag writes exist)
    bool kfence = false;                   // CONFIG_KFENCE: kfence_kmalloc exists
    int nodes = 1;                         // NUMA nodes: stack_alloc may ask for one
    std::string fresh(const char* prefix) { return prefix + std::to_string(next++); }
    const Handle* find(const std::string& name) const;
    std::vector<const Handle*> of(Handle::Kind k, bool live_only) const;
};

// The model under test, the values of the handles, and the replay script.
// Random tags come from a generated list of picks (spec::PickChooser).
using spec::PickChooser;

// Is `invariant` let pass in `mode` by `allowed` ("inv" in every mode, "inv@mode" in that one)?
bool lets_pass(const std::set<std::string>& allowed, const std::string& invariant, Mode mode);

struct Sut {
    Sut(const kernel::Variant& v, const Config& c, std::vector<std::uint8_t> picks);
    const kernel::Variant& variant;
    Config config;
    PickChooser chooser;
    std::unique_ptr<spec::Model> model;
    std::map<std::string, spec::Ptr> ptrs;
    std::map<std::string, int> pages;  // page-handle -> object id
    std::map<std::string, int> pools;  // pool-handle -> the model's mempool
    std::vector<std::string> lines;    // scenario events, in order
    std::vector<std::string> observed; // per event: what a reviewer could see (mode-isolation)
    std::string seen;                  // what a line that is no event saw (ObserveGfp), for `observed`
    // Invariants not asserted: the variant's recorded defects, "inv" (every
    // mode) or "inv@mode" (one KASAN mode: a review that has a counterexample
    // there goes on searching the others).
    std::set<std::string> allowed;
    bool is_allowed(const std::string& invariant) const;
    std::string first_violation;       // "invariant: message" that made the property fail
    // Runs one event: records its scenario line and observation, and returns
    // the first new violation of an invariant not in `allowed` ("" if none).
    std::string step(const std::string& line, const std::function<void(Sut&)>& event, const std::string& result_name = "");
    // mode-isolation: the baseline runs every event in lockstep (same seed);
    // any difference in what the events show is a violation.
    std::unique_ptr<Sut> twin;
    // The twin as a filter instead: a violation the baseline shows at the
    // same event is not the patch's doing (a review looks for new ones).
    bool twin_filters = false;
    bool twin_broken = false;  // the baseline could not run an event: no filter from there on
    std::string scenario(const std::string& invariant, const std::string& baseline = "") const;
};

}  // namespace tagproof::properties
