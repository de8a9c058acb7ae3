// commands.hpp — one RapidCheck command per model event.
//
// A command is generated from the abstract state (which handles exist), asserts
// its preconditions again in checkPreconditions (a shrunk sequence may lack the
// handle it was generated for), changes the abstract state in apply, runs the
// event on the model in run — failing on the first invariant violation the
// variant is not recorded to have — and prints itself in show() the way a
// kernel developer writes the call.
#pragma once
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <map>
#include <ostream>
#include <string>

#include "harness.hpp"

namespace tagproof::properties {

using Cmd = rc::state::Command<AbstractState, Sut>;

// The shortest failing run of the current check (reset by check_invariants):
// after shrinking, the minimal counterexample or one as short.
struct LastFailure {
    std::string invariant, message, scenario;
    std::size_t events = 0;
};
LastFailure& last_failure();
// What a check let pass because the variant's baseline shows it at the same
// event (PropertyOptions::baseline_filter): a violation all the same, the
// baseline's too. The shortest run of each "invariant@mode", reset with
// last_failure(); a review fills those cells with it instead of "holds".
std::map<std::string, LastFailure>& shared_with_baseline();
// Keeps `f` under `key` unless a run as short or shorter is kept already.
void keep_shortest(std::map<std::string, LastFailure>& m, const std::string& key, const LastFailure& f);
void note_shared(const std::string& invariant, Mode mode, const std::string& message, const std::string& scenario,
                 std::size_t events);
// Asserts the event left no unexpected violation; records the failure.
void assert_holds(Sut& sut, const std::string& violated);

struct AllocPages : Cmd {
    std::string name;
    unsigned order;
    std::string gfp;
    int cpu;
    explicit AllocPages(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// Commands that use an existing handle hold a pick, resolved against the
// handles that exist when they run (pick % count): a shrunk sequence is always
// valid, and RapidCheck never has to regenerate a command.
struct FreePages : Cmd {
    std::size_t pick;
    std::string shown;  // the handle the pick named when generated (for show())
    explicit FreePages(const AbstractState& s);
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

struct Kmalloc : Cmd {
    std::string name;
    std::uint64_t size;
    bool zero;
    bool kfence;  // the KFENCE timer fired: kfence_kmalloc (CONFIG_KFENCE only)
    int cpu;
    explicit Kmalloc(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// kfree / vfree / stack_free / pgtable_free / munmap: releasing a live handle.
struct Release : Cmd {
    std::size_t pick;
    std::string shown;
    int cpu;
    explicit Release(const AbstractState& s);
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

struct Vmalloc : Cmd {
    std::string name;
    std::uint64_t size;
    bool zero;
    bool huge;  // vmalloc_huge(): VM_ALLOW_HUGE_VMAP
    int cpu;
    explicit Vmalloc(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

struct StackAlloc : Cmd {
    std::string name;
    int cpu;
    int node;  // -1: NUMA_NO_NODE; else the node asked for (config nodes=2)
    explicit StackAlloc(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// vmap() / vm_map_ram() of a live page allocation: an alias handle (vfree()d = vunmap).
struct Vmap : Cmd {
    std::string name;
    std::size_t pick;
    bool map_ram;
    std::string shown;
    explicit Vmap(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// A grace period ends: RCU-delayed stack frees (and SLUB_RCU_DEBUG frees) run.
struct RcuBarrier : Cmd {
    explicit RcuBarrier(const AbstractState&) {}
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

struct PgtableAlloc : Cmd {
    std::string name, kind;  // kernel / user / pgd_slab
    int cpu;
    explicit PgtableAlloc(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

struct UserFault : Cmd {
    std::string name;
    bool mte;
    int cpu;
    explicit UserFault(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

struct UserSetTag : Cmd {
    std::size_t pick;
    std::string shown;
    unsigned nibble;
    explicit UserSetTag(const AbstractState& s);
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

struct ResetTag : Cmd {
    std::string name;
    std::size_t pick;
    bool via_page;  // page_address(virt_to_page(p)) + offset instead (linear-map pointers)
    std::string shown;
    explicit ResetTag(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// krealloc() of a live kmalloc handle to another size, as `p = krealloc(p, SIZE, GFP)`:
// in place when the slot holds it (the spare part's zeroing, __do_krealloc), else a
// new object and the old one freed; the handle becomes the result.
struct Krealloc : Cmd {
    std::size_t pick;
    std::string shown;
    std::uint64_t size;
    bool zero;
    int cpu;
    explicit Krealloc(const AbstractState& s);
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// mempool_create(kmalloc|slab|pages, ...) with one preallocated element: the
// reserve, and the allocator behind it (mm/mempool.c; the KASAN hooks of
// kasan_mempool_*).
struct MempoolCreate : Cmd {
    std::string name;
    std::string kind;  // kmalloc, slab, pages
    int cpu;
    explicit MempoolCreate(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// mempool_alloc(pool): an element from the allocator, else the reserve.
struct MempoolAlloc : Cmd {
    std::string name;
    std::size_t pick;
    std::string shown;
    int cpu;
    explicit MempoolAlloc(const AbstractState& s);
    void checkPreconditions(const AbstractState& s) const override;
    void apply(AbstractState& s) const override;
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// read / write / rmw through any pointer handle, live or not, around its bounds.
struct Access : Cmd {
    std::size_t pick;
    std::string shown;
    std::int64_t offset;  // resolved against the handle's size: a fraction of it, or past it
    std::uint64_t len;
    std::string kind;
    int cpu;
    explicit Access(const AbstractState& s);
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// observe gfp(FLAGS) >= 0 / observe __GFP_BITS_SHIFT >= 0: a build's GFP
// constants are compiled into every caller and module, so what they are is an
// outcome too; drawn only against a baseline (mode-isolation), where the
// baseline's value is compared (a bit the patch adds moves __GFP_NOLOCKDEP
// under CONFIG_LOCKDEP, in every KASAN mode: the corpus's
// linux61_gfp_bits_shift, gfp_term_layout).
struct ObserveGfp : Cmd {
    std::string what;  // "gfp(GFP_KERNEL|__GFP_NOLOCKDEP)" or "__GFP_BITS_SHIFT"
    explicit ObserveGfp(const AbstractState& s);
    void run(const AbstractState& s, Sut& sut) const override;
    void show(std::ostream& os) const override;
};

// The generator RapidCheck draws commands from.
inline auto command_generator() {
    return rc::state::gen::execOneOfWithArgs<AllocPages, AllocPages, FreePages, Kmalloc, Kmalloc, Krealloc, Krealloc, Release, Release,
                                             Vmalloc, Vmap, StackAlloc, RcuBarrier, MempoolCreate, MempoolAlloc, PgtableAlloc, UserFault, UserSetTag, ResetTag,
                                             Access, Access, Access, ObserveGfp>();
}

}  // namespace tagproof::properties
