// commands.cpp — see commands.hpp. Generation draws from the abstract state;
// run() executes the event on the model and writes the scenario line that
// replays it (`tagproof run`).
#include "commands.hpp"

#include <functional>
#include <sstream>

namespace tagproof::properties {

LastFailure& last_failure() {
    static thread_local LastFailure f;
    return f;
}

std::map<std::string, LastFailure>& shared_with_baseline() {
    static thread_local std::map<std::string, LastFailure> m;
    return m;
}

void keep_shortest(std::map<std::string, LastFailure>& m, const std::string& key, const LastFailure& f) {
    auto it = m.find(key);
    if (it == m.end()) m.emplace(key, f);
    else if (f.events < it->second.events) it->second = f;
}

void note_shared(const std::string& invariant, Mode mode, const std::string& message, const std::string& scenario,
                 std::size_t events) {
    keep_shortest(shared_with_baseline(), invariant + "@" + mode_name(mode), {invariant, message, scenario, events});
}

void assert_holds(Sut& sut, const std::string& violated) {
    if (violated.empty()) return;
    // Keep the shortest failing run seen: every failing run is a real
    // counterexample, and the shortest is the one worth a scenario file.
    LastFailure& f = last_failure();
    if (f.invariant.empty() || sut.lines.size() < f.events) {
        f.invariant = violated;
        f.message = sut.first_violation;
        f.scenario = sut.scenario(violated, sut.twin && !sut.twin_filters ? sut.twin->variant.name() : "");
        f.events = sut.lines.size();
    }
    RC_FAIL(sut.first_violation);
}

namespace {

int gen_cpu() { return *rc::gen::weightedOneOf<int>({{3, rc::gen::just(0)}, {1, rc::gen::just(1)}}); }

// Sizes around granule and size-class boundaries, and past KMALLOC_MAX_CACHE_SIZE.
std::uint64_t gen_kmalloc_size() {
    static const std::vector<std::uint64_t> sizes = {1,   7,   8,   9,   15,  16,  17,  24,   31,   32,   33,   43,  48,
                                          64,  96,  100, 107, 112, 127, 128, 129,  192,  201,  235,  256, 1000,
                                          2048, 4096, 7936, 8192, 8193, 8202};
    return *rc::gen::elementOf(sizes);
}

void set_dead(AbstractState& s, const std::string& name) {
    for (auto& h : s.handles)
        if (h.name == name) h.live = false;
}

std::string ptr_var(const Handle& h) {
    return h.kind == Handle::page || h.kind == Handle::user ? h.name + "_p" : h.name;
}

}  // namespace

// ---- alloc_pages ---------------------------------------------------------------------------
AllocPages::AllocPages(const AbstractState& s)
    : name(std::string("pg") + std::to_string(s.next)), order(*rc::gen::inRange(0u, 4u)),
      gfp(*rc::gen::elementOf(s.gfp_choices)), cpu(gen_cpu()) {}
void AllocPages::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void AllocPages::apply(AbstractState& s) const {
    s.handles.push_back({Handle::page, name, true, cpu, std::int64_t(4096) << order});
    s.next++;
}
void AllocPages::run(const AbstractState&, Sut& sut) const {
    std::string line = name + " = alloc_pages(" + std::to_string(order) + ", " + gfp + ") cpu=" + std::to_string(cpu);
    std::string v = sut.step(line, [&](Sut& x) {
        int id = x.model->alloc_pages(order, x.model->gfp().parse(gfp, "generated gfp"), cpu);
        if (id < 0) return;
        x.pages[name] = id;
        x.ptrs[name + "_p"] = x.model->page_address(id);
    });
    assert_holds(sut, v);
    if (sut.pages.count(name)) sut.lines.push_back(name + "_p = page_address(" + name + ")");
}
void AllocPages::show(std::ostream& os) const {
    os << name << " = alloc_pages(order=" << order << ", " << gfp << ") cpu=" << cpu;
}

// ---- free_pages ----------------------------------------------------------------------------
namespace {
const Handle* resolve(const AbstractState& s, std::size_t pick, const std::function<bool(const Handle&)>& ok) {
    std::vector<const Handle*> c;
    for (const auto& h : s.handles)
        if (ok(h)) c.push_back(&h);
    return c.empty() ? nullptr : c[pick % c.size()];
}
bool live_page(const Handle& h) { return h.live && h.kind == Handle::page; }
bool releasable(const Handle& h) {
    return h.live && (h.kind == Handle::ptr || h.kind == Handle::vmalloc || h.kind == Handle::stack ||
                      h.kind == Handle::pgtable || h.kind == Handle::user || h.kind == Handle::pool_elem);
}
bool live_user(const Handle& h) { return h.live && h.kind == Handle::user; }
bool any_handle(const Handle&) { return true; }
}  // namespace

FreePages::FreePages(const AbstractState& s) : pick(*rc::gen::arbitrary<std::size_t>()) {
    const Handle* h = resolve(s, pick, live_page);
    if (!h) RC_DISCARD("no live page");
    shown = h->name;
}
void FreePages::apply(AbstractState& s) const {
    if (const Handle* h = resolve(s, pick, live_page)) set_dead(s, h->name);
}
void FreePages::run(const AbstractState& s, Sut& sut) const {
    const Handle* h = resolve(s, pick, live_page);
    if (!h || !sut.pages.count(h->name)) return;
    std::string page = h->name;
    assert_holds(sut, sut.step("free_pages(" + page + ")", [&](Sut& x) {
        if (x.pages.count(page)) x.model->free_pages(x.pages.at(page));
    }));
}
void FreePages::show(std::ostream& os) const { os << "free_pages(" << shown << ")"; }

// ---- kmalloc ------------------------------------------------------------------------------
Kmalloc::Kmalloc(const AbstractState& s)
    : name(std::string("k") + std::to_string(s.next)), size(gen_kmalloc_size()), zero(*rc::gen::arbitrary<bool>()),
      kfence(s.kfence && *rc::gen::weightedElement<bool>({{1, true}, {2, false}})), cpu(gen_cpu()) {}
void Kmalloc::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void Kmalloc::apply(AbstractState& s) const {
    s.handles.push_back({Handle::ptr, name, true, cpu, std::int64_t(size), kfence});
    s.next++;
}
void Kmalloc::run(const AbstractState&, Sut& sut) const {
    std::string line = name + " = " +
                       (kfence ? "kfence_kmalloc(" + std::to_string(size) + (zero ? ", GFP_KERNEL|__GFP_ZERO)" : ")")
                               : (zero ? "kzalloc(" : "kmalloc(") + std::to_string(size) + ")") +
                       " cpu=" + std::to_string(cpu);
    assert_holds(sut, sut.step(line, [&](Sut& x) {
        gfp_t g = x.model->gfp().mask("GFP_KERNEL") | (zero ? x.model->gfp().mask("__GFP_ZERO") : 0);
        x.ptrs[name] = kfence ? x.model->kfence_kmalloc(size, g, cpu) : x.model->kmalloc(size, g, cpu);
    }, name));
}
void Kmalloc::show(std::ostream& os) const {
    os << name << " = " << (kfence ? "kfence_kmalloc(" : zero ? "kzalloc(" : "kmalloc(") << size
       << (kfence && zero ? ", GFP_KERNEL|__GFP_ZERO" : ", GFP_KERNEL") << ") cpu=" << cpu;
}

// ---- kfree / vfree / stack_free / pgtable_free / munmap -------------------------------------
Release::Release(const AbstractState& s) : pick(*rc::gen::arbitrary<std::size_t>()), cpu(gen_cpu()) {
    const Handle* h = resolve(s, pick, releasable);
    if (!h) RC_DISCARD("nothing to release");
    shown = h->kind == Handle::pool_elem
                ? "mempool_free(" + h->owner + ", " + h->name + ")"
                : std::string(h->kind == Handle::vmalloc ? "vfree" : h->kind == Handle::stack ? "free_thread_stack"
                              : h->kind == Handle::pgtable ? "pte_free" : h->kind == Handle::user ? "munmap" : "kfree") +
                      "(" + h->name + ")";
}
void Release::apply(AbstractState& s) const {
    if (const Handle* h = resolve(s, pick, releasable)) set_dead(s, h->name);
}
static const char* release_call(Handle::Kind k) {
    switch (k) {
        case Handle::vmalloc: return "vfree";
        case Handle::stack: return "stack_free";
        case Handle::pgtable: return "pgtable_free";
        case Handle::user: return "munmap";
        default: return "kfree";
    }
}
void Release::run(const AbstractState& s, Sut& sut) const {
    const Handle* h = resolve(s, pick, releasable);
    if (!h) return;
    std::string target = h->name;
    Handle::Kind kind = h->kind;
    const std::string pool = h->owner;
    std::string line = kind == Handle::pool_elem ? "mempool_free(" + pool + ", " + target + ")"
                                                 : std::string(release_call(kind)) + "(" + target + ")" +
                                                       (kind == Handle::stack ? " cpu=" + std::to_string(cpu) : "");
    assert_holds(sut, sut.step(line, [&](Sut& x) {
        switch (kind) {
            case Handle::vmalloc:
                if (x.ptrs.count(target) && !x.ptrs.at(target).null) x.model->vfree(x.ptrs.at(target));
                break;
            case Handle::stack:
                if (x.ptrs.count(target) && !x.ptrs.at(target).null) x.model->stack_free(x.ptrs.at(target), cpu);
                break;
            case Handle::pgtable:
                if (x.ptrs.count(target) && !x.ptrs.at(target).null) x.model->pgtable_free(x.ptrs.at(target));
                break;
            case Handle::user:
                if (x.pages.count(target)) x.model->munmap(x.pages.at(target));
                break;
            case Handle::pool_elem:
                if (x.ptrs.count(target) && !x.ptrs.at(target).null && x.pools.count(pool))
                    x.model->mempool_free(x.pools.at(pool), x.ptrs.at(target));
                break;
            default:
                if (x.ptrs.count(target)) x.model->kfree(x.ptrs.at(target));
        }
    }));
}
void Release::show(std::ostream& os) const { os << shown << " cpu=" << cpu; }

// ---- krealloc ------------------------------------------------------------------------------
namespace {
bool live_kmalloc(const Handle& h) { return h.live && h.kind == Handle::ptr && !h.kfence; }
}  // namespace
Krealloc::Krealloc(const AbstractState& s)
    : pick(*rc::gen::arbitrary<std::size_t>()), size(0),
      zero(*rc::gen::weightedElement<bool>({{2, true}, {1, false}})), cpu(gen_cpu()) {
    const Handle* h = resolve(s, pick, live_kmalloc);
    if (!h) RC_DISCARD("no live kmalloc object");
    shown = h->name;
    // half or twice the handle's size (a shrink, then a grow back, stays in the
    // slot: the path __do_krealloc's spare zeroing guards), else any size
    const std::uint64_t now = std::uint64_t(std::max<std::int64_t>(h->size, 2));
    size = *rc::gen::weightedOneOf<std::uint64_t>(
        {{2, rc::gen::just(now / 2)}, {2, rc::gen::just(std::min<std::uint64_t>(now * 2, 8192))},
         {1, rc::gen::elementOf(std::vector<std::uint64_t>{8, 16, 32, 60, 64, 96, 128, 200})}});
}
void Krealloc::apply(AbstractState& s) const {
    const Handle* h = resolve(s, pick, live_kmalloc);
    if (!h) return;
    for (auto& x : s.handles)
        if (x.name == h->name) x.size = std::int64_t(size);
}
void Krealloc::run(const AbstractState& s, Sut& sut) const {
    const Handle* h = resolve(s, pick, live_kmalloc);
    if (!h || !sut.ptrs.count(h->name) || sut.ptrs.at(h->name).null) return;
    const std::string p = h->name;
    const std::string line = p + " = krealloc(" + p + ", " + std::to_string(size) +
                             (zero ? ", GFP_KERNEL|__GFP_ZERO)" : ", GFP_KERNEL)") + " cpu=" + std::to_string(cpu);
    assert_holds(sut, sut.step(line, [&](Sut& x) {
        gfp_t g = x.model->gfp().mask("GFP_KERNEL") | (zero ? x.model->gfp().mask("__GFP_ZERO") : 0);
        x.ptrs[p] = x.model->krealloc(x.ptrs.at(p), size, g, cpu);
    }, p));
}
void Krealloc::show(std::ostream& os) const {
    os << shown << " = krealloc(" << shown << ", " << size << (zero ? ", GFP_KERNEL|__GFP_ZERO" : ", GFP_KERNEL")
       << ") cpu=" << cpu;
}

// ---- mempools ------------------------------------------------------------------------------
// 40-byte elements (a kmalloc-64 slot, a cache slot), or order-1 pages (the
// sample.order=1 boot samples them), as the explorer's mempool family.
MempoolCreate::MempoolCreate(const AbstractState& s)
    : name(std::string("mp") + std::to_string(s.next)),
      kind(*rc::gen::elementOf(std::vector<std::string>{"kmalloc", "slab", "pages"})), cpu(gen_cpu()) {}
void MempoolCreate::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void MempoolCreate::apply(AbstractState& s) const {
    Handle h{Handle::pool, name, true, cpu, 0};
    h.owner = kind;  // a pool handle names its kind: its elements' size
    s.handles.push_back(h);
    s.next++;
}
void MempoolCreate::run(const AbstractState&, Sut& sut) const {
    const std::string arg = kind == "pages" ? "1" : "40";
    assert_holds(sut, sut.step(name + " = mempool_create(" + kind + ", " + arg + ", 1) cpu=" + std::to_string(cpu),
                               [&](Sut& x) {
                                   const spec::Mempool::Kind k = kind == "pages"  ? spec::Mempool::pages
                                                                 : kind == "slab" ? spec::Mempool::slab
                                                                                  : spec::Mempool::kmalloc;
                                   const int id = x.model->mempool_create(k, kind == "pages" ? 1 : 40, 1, cpu);
                                   if (id >= 0) x.pools[name] = id;
                               }));
}
void MempoolCreate::show(std::ostream& os) const {
    os << name << " = mempool_create_" << (kind == "pages" ? "page_pool(1, 1)" : kind == "slab" ? "slab_pool(1, 40)" : "kmalloc_pool(1, 40)")
       << " cpu=" << cpu;
}

namespace {
bool live_pool(const Handle& h) { return h.live && h.kind == Handle::pool; }
// The model's mempool_alloc is mempool_alloc_preallocated() (the reserve only,
// as kasan_test_c.c calls it): a pool of one element hands out one at a time.
bool reserve_empty(const AbstractState& s, const std::string& pool) {
    for (const auto& h : s.handles)
        if (h.live && h.kind == Handle::pool_elem && h.owner == pool) return true;
    return false;
}
}  // namespace
MempoolAlloc::MempoolAlloc(const AbstractState& s)
    : name(std::string("e") + std::to_string(s.next)), pick(*rc::gen::arbitrary<std::size_t>()), cpu(gen_cpu()) {
    const Handle* h = resolve(s, pick, live_pool);
    if (!h) RC_DISCARD("no mempool");
    if (reserve_empty(s, h->name)) RC_DISCARD("the pool's one element is out");
    shown = h->name;
}
void MempoolAlloc::checkPreconditions(const AbstractState& s) const {
    RC_PRE(s.find(name) == nullptr);
    const Handle* h = resolve(s, pick, live_pool);
    RC_PRE(h != nullptr && !reserve_empty(s, h->name));
}
void MempoolAlloc::apply(AbstractState& s) const {
    const Handle* h = resolve(s, pick, live_pool);
    if (!h) return;
    Handle e{Handle::pool_elem, name, true, cpu, h->owner == "pages" ? 8192 : 40};
    e.owner = h->name;
    s.handles.push_back(e);
    s.next++;
}
void MempoolAlloc::run(const AbstractState& s, Sut& sut) const {
    const Handle* h = resolve(s, pick, live_pool);
    if (!h) return;
    const std::string pool = h->name;
    // mempool_alloc_preallocated() with an empty reserve (a free KASAN reported
    // keeps its element out) is no event the model has: not run, not written
    if (!sut.pools.count(pool) || sut.model->mempool_reserve(sut.pools.at(pool)) == 0) return;
    assert_holds(sut, sut.step(name + " = mempool_alloc(" + pool + ") cpu=" + std::to_string(cpu), [&](Sut& x) {
        // mempool_alloc_preallocated() with an empty reserve is no event the model has
        if (x.pools.count(pool) && x.model->mempool_reserve(x.pools.at(pool)) > 0)
            x.ptrs[name] = x.model->mempool_alloc(x.pools.at(pool), cpu);
    }, name));
}
void MempoolAlloc::show(std::ostream& os) const { os << name << " = mempool_alloc(" << shown << ", GFP_KERNEL) cpu=" << cpu; }

// ---- vmalloc ------------------------------------------------------------------------------
Vmalloc::Vmalloc(const AbstractState& s)
    : name(std::string("v") + std::to_string(s.next)),
      size(*rc::gen::elementOf(std::vector<std::uint64_t>{1, 16, 100, 2027, 4096, 5000, 8192, 65536})),
      zero(*rc::gen::arbitrary<bool>()), huge(*rc::gen::weightedElement<bool>({{1, true}, {3, false}})),
      cpu(gen_cpu()) {}
void Vmalloc::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void Vmalloc::apply(AbstractState& s) const {
    s.handles.push_back({Handle::vmalloc, name, true, cpu, std::int64_t(size)});
    s.next++;
}
void Vmalloc::run(const AbstractState&, Sut& sut) const {
    std::string line = name + " = " +
                       (huge ? "vmalloc_huge(" + std::to_string(size) + (zero ? ", GFP_KERNEL|__GFP_ZERO)" : ")")
                             : (zero ? "vzalloc(" : "vmalloc(") + std::to_string(size) + ")") +
                       " cpu=" + std::to_string(cpu);
    assert_holds(sut, sut.step(line, [&](Sut& x) {
        gfp_t g = x.model->gfp().mask("GFP_KERNEL") | (zero ? x.model->gfp().mask("__GFP_ZERO") : 0);
        x.ptrs[name] = x.model->vmalloc(size, g, true, cpu, spec::ObjKind::vmalloc, std::nullopt, huge);
    }, name));
}
void Vmalloc::show(std::ostream& os) const {
    os << name << " = " << (huge ? "vmalloc_huge(" : zero ? "vzalloc(" : "vmalloc(") << size << (huge && zero ? ", __GFP_ZERO" : "")
       << ") cpu=" << cpu;
}

// ---- vmap: an alias of a page allocation ------------------------------------------------
Vmap::Vmap(const AbstractState& s)
    : name(std::string("m") + std::to_string(s.next)), pick(*rc::gen::arbitrary<std::size_t>()),
      map_ram(*rc::gen::arbitrary<bool>()) {
    const Handle* h = resolve(s, pick, live_page);
    if (!h) RC_DISCARD("no page allocation");
    shown = h->name;
}
void Vmap::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void Vmap::apply(AbstractState& s) const {
    const Handle* h = resolve(s, pick, live_page);
    s.handles.push_back({Handle::vmalloc, name, true, 0, h ? h->size : 4096});
    s.next++;
}
void Vmap::run(const AbstractState& s, Sut& sut) const {
    const Handle* h = resolve(s, pick, live_page);
    if (!h) return;
    const std::string page = h->name;
    assert_holds(sut, sut.step(name + (map_ram ? " = vm_map_ram(" : " = vmap(") + page + ")", [&](Sut& x) {
        if (x.pages.count(page)) x.ptrs[name] = x.model->vmap(x.pages.at(page), map_ram);
    }, name));
}
void Vmap::show(std::ostream& os) const { os << name << (map_ram ? " = vm_map_ram(" : " = vmap(") << shown << ")"; }

// ---- thread stacks ----------------------------------------------------------------------
StackAlloc::StackAlloc(const AbstractState& s)
    : name(std::string("s") + std::to_string(s.next)), cpu(gen_cpu()),
      node(s.nodes > 1 ? *rc::gen::inRange(-1, s.nodes) : -1) {}
void StackAlloc::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void StackAlloc::apply(AbstractState& s) const {
    s.handles.push_back({Handle::stack, name, true, cpu, 16384});
    s.next++;
}
void StackAlloc::run(const AbstractState&, Sut& sut) const {
    const std::string arg = node < 0 ? "" : std::to_string(node);
    assert_holds(sut, sut.step(name + " = stack_alloc(" + arg + ") cpu=" + std::to_string(cpu), [&](Sut& x) {
        x.ptrs[name] = x.model->stack_alloc(cpu, node < 0 ? std::nullopt : std::optional<int>(node));
    }, name));
}
void StackAlloc::show(std::ostream& os) const {
    os << name << " = alloc_thread_stack_node(" << (node < 0 ? "NUMA_NO_NODE" : std::to_string(node)) << ") cpu=" << cpu;
}

// ---- rcu_barrier: a grace period ends ----------------------------------------------------
void RcuBarrier::run(const AbstractState&, Sut& sut) const {
    assert_holds(sut, sut.step("rcu_barrier()", [](Sut& x) { x.model->rcu_barrier(); }));
}
void RcuBarrier::show(std::ostream& os) const { os << "rcu_barrier()"; }

// ---- what the build's GFP constants are ------------------------------------------------------
ObserveGfp::ObserveGfp(const AbstractState& s) {
    if (!s.isolation) RC_DISCARD("a GFP constant is compared against a baseline only");
    std::vector<std::string> whats = {"__GFP_BITS_SHIFT"};
    for (const auto& g : s.gfp_choices) whats.push_back("gfp(" + g + ")");
    what = *rc::gen::elementOf(whats);
}
void ObserveGfp::run(const AbstractState&, Sut& sut) const {
    assert_holds(sut, sut.step("observe " + what + " >= 0", [&](Sut& x) {
        const GfpLayout& g = x.model->gfp();
        const std::uint64_t v = what == "__GFP_BITS_SHIFT" ? std::uint64_t(g.bits_shift())
                                                           : g.parse(what.substr(4, what.size() - 5), "observe");
        char b[32];
        std::snprintf(b, sizeof b, "%#llx", (unsigned long long)v);
        x.seen = what + " = " + b;
    }));
}
void ObserveGfp::show(std::ostream& os) const { os << "observe " << what << " >= 0"; }

// ---- page tables --------------------------------------------------------------------------
PgtableAlloc::PgtableAlloc(const AbstractState& s)
    : name(std::string("t") + std::to_string(s.next)),
      kind(*rc::gen::elementOf(std::vector<std::string>{"kernel", "user", "pgd_slab"})), cpu(gen_cpu()) {}
void PgtableAlloc::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void PgtableAlloc::apply(AbstractState& s) const {
    s.handles.push_back({Handle::pgtable, name, true, cpu, kind == "pgd_slab" ? 512 : 4096});
    s.next++;
}
void PgtableAlloc::run(const AbstractState&, Sut& sut) const {
    assert_holds(sut, sut.step(name + " = pgtable_alloc(" + kind + ") cpu=" + std::to_string(cpu), [&](Sut& x) {
        x.ptrs[name] = x.model->pgtable_alloc(kind != "kernel", kind == "pgd_slab", cpu);
    }, name));
}
void PgtableAlloc::show(std::ostream& os) const {
    os << name << " = " << (kind == "pgd_slab" ? "pgd_alloc() [pgd_cache]" : kind == "user" ? "pte_alloc_one()" : "pte_alloc_one_kernel()")
       << " cpu=" << cpu;
}

// ---- user pages -----------------------------------------------------------------------------
UserFault::UserFault(const AbstractState& s)
    : name(std::string("u") + std::to_string(s.next)), mte(*rc::gen::arbitrary<bool>()), cpu(gen_cpu()) {}
void UserFault::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void UserFault::apply(AbstractState& s) const {
    s.handles.push_back({Handle::user, name, true, cpu, 4096});
    s.next++;
}
void UserFault::run(const AbstractState&, Sut& sut) const {
    std::string line = name + " = user_fault(" + (mte ? "mte" : "") + ") cpu=" + std::to_string(cpu);
    assert_holds(sut, sut.step(line, [&](Sut& x) {
        int id = x.model->user_fault(mte && x.config.mte, cpu);
        if (id < 0) return;
        x.pages[name] = id;
        x.ptrs[name + "_p"] = x.model->page_address(id);
    }));
    if (sut.pages.count(name)) sut.lines.push_back(name + "_p = page_address(" + name + ")");
}
void UserFault::show(std::ostream& os) const {
    os << name << " = vma_alloc_zeroed_movable_folio(" << (mte ? "VM_MTE" : "") << ") cpu=" << cpu;
}

UserSetTag::UserSetTag(const AbstractState& s) : pick(*rc::gen::arbitrary<std::size_t>()), nibble(*rc::gen::inRange(0u, 16u)) {
    if (!s.hw) RC_DISCARD("no MTE tags in this build");
    const Handle* h = resolve(s, pick, live_user);
    if (!h) RC_DISCARD("no user page");
    shown = h->name;
}
void UserSetTag::run(const AbstractState& s, Sut& sut) const {
    const Handle* h = resolve(s, pick, live_user);
    if (!h || !sut.pages.count(h->name)) return;
    std::string page = h->name;
    assert_holds(sut, sut.step("user_set_tag(" + page + ", 0, " + std::to_string(nibble) + ")", [&](Sut& x) {
        if (x.pages.count(page)) x.model->user_set_tag(x.pages.at(page), 0, std::uint8_t(nibble));
    }));
}
void UserSetTag::show(std::ostream& os) const { os << "stg(" << shown << " + 0, tag " << nibble << ")  [user space]"; }

// ---- kasan_reset_tag ---------------------------------------------------------------------
ResetTag::ResetTag(const AbstractState& s)
    : name(std::string("r") + std::to_string(s.next)), pick(*rc::gen::arbitrary<std::size_t>()),
      via_page(*rc::gen::arbitrary<bool>()) {
    const Handle* h = resolve(s, pick, any_handle);
    if (!h) RC_DISCARD("no pointer");
    shown = ptr_var(*h);
}
void ResetTag::checkPreconditions(const AbstractState& s) const { RC_PRE(s.find(name) == nullptr); }
void ResetTag::apply(AbstractState& s) const {
    const Handle* h = resolve(s, pick, any_handle);
    std::int64_t size = h ? h->size : 0;
    s.handles.push_back({Handle::alias, name, true, 0, size});
    s.next++;
}
void ResetTag::run(const AbstractState& s, Sut& sut) const {
    const Handle* h = resolve(s, pick, any_handle);
    if (!h) return;
    std::string from = ptr_var(*h);
    if (!sut.ptrs.count(from) || sut.ptrs.at(from).null) return;
    const std::uint64_t ua = sut.ptrs.at(from).addr | ~ADDR_MASK;
    const bool page = via_page && ua >= LINEAR_BASE && ua < LINEAR_BASE + sut.model->page_count() * PAGE_SIZE;
    assert_holds(sut, sut.step(name + (page ? " = virt_to_page_address(" : " = reset_tag(") + from + ")", [&](Sut& x) {
        if (!x.ptrs.count(from)) return;
        x.ptrs[name] = page ? x.model->virt_to_page_address(x.ptrs.at(from)) : x.model->reset_tag(x.ptrs.at(from));
    }));
}
void ResetTag::show(std::ostream& os) const {
    os << name << (via_page ? " = page_address(virt_to_page(" : " = kasan_reset_tag(") << shown << (via_page ? "))" : ")");
}

// ---- an access ----------------------------------------------------------------------------
Access::Access(const AbstractState& s) : pick(*rc::gen::arbitrary<std::size_t>()) {
    const Handle* h = resolve(s, pick, any_handle);
    if (!h) RC_DISCARD("no pointer");
    shown = ptr_var(*h);
    // offset in 1/64ths of the object (0..63), or bytes past its end (>= 64 -> 64..96 => 0..32 past), or before it
    offset = *rc::gen::weightedOneOf<std::int64_t>({{4, rc::gen::inRange<std::int64_t>(0, 64)},
                                                    {2, rc::gen::inRange<std::int64_t>(64, 97)},
                                                    {1, rc::gen::inRange<std::int64_t>(-16, 0)}});
    len = *rc::gen::elementOf(std::vector<std::uint64_t>{1, 1, 2, 4, 8, 16});
    kind = *rc::gen::elementOf(std::vector<std::string>{"read", "write", "read", "rmw"});
    cpu = gen_cpu();
}
void Access::run(const AbstractState& s, Sut& sut) const {
    const Handle* h = resolve(s, pick, any_handle);
    if (!h) return;
    std::string ptr = ptr_var(*h);
    if (!sut.ptrs.count(ptr) || sut.ptrs.at(ptr).null) return;
    std::int64_t off = offset < 0 ? offset : offset < 64 ? h->size * offset / 64 : h->size + (offset - 64);
    std::string o = off == 0 ? "" : off > 0 ? " + " + std::to_string(off) : " - " + std::to_string(-off);
    std::string line = kind + "(" + ptr + o + ", " + std::to_string(len) + ") cpu=" + std::to_string(cpu);
    spec::AccessKind k = kind == "read" ? spec::AccessKind::read : kind == "write" ? spec::AccessKind::write
                                                                                   : spec::AccessKind::rmw;
    assert_holds(sut, sut.step(line, [&](Sut& x) {
        if (x.ptrs.count(ptr)) x.model->access(x.model->offset(x.ptrs.at(ptr), off), len, k, cpu);
    }));
}
void Access::show(std::ostream& os) const {
    std::string where = offset < 0 ? " - " + std::to_string(-offset)
                        : offset < 64 ? " + " + std::to_string(offset) + "/64 of its size"
                                      : " + size + " + std::to_string(offset - 64);
    os << kind << "(" << shown << where << ", " << len << ") cpu=" << cpu;
}

}  // namespace tagproof::properties
