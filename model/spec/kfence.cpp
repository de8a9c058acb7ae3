// kfence.cpp — KFENCE objects beside KASAN (mm/kfence/core.c, CONFIG_KFENCE).
//
// The pool (__kfence_pool) is memblock memory: it never passes through the
// page allocator, so post_alloc_hook never writes its page flags (their KASAN
// tag field stays zero: what page_kasan_tag() then reads is the era's
// encoding rule) and KASAN never tags or poisons it. Objects are handed out
// through the pool's linear address, tag 0xff; KASAN's hooks skip them
// (is_kfence_address() in __kasan_slab_alloc, __kasan_slab_pre_free, ...).
// KFENCE detects by itself: guard pages and freed objects' pages are not
// present, and an access there is a KFENCE report.
//
// kfree() recognises a KFENCE object by pointer arithmetic,
// is_kfence_address(): (addr - __kfence_pool) < KFENCE_POOL_SIZE, without
// kasan_reset_tag(), so a pointer whose tag is not 0xff is not one. A rebuilt
// pointer such as page_address(virt_to_page(p)) + offset_in_page(p) is one
// only if the page tag reads 0xff (cf10bd4c4aff's motivating bug: it read
// 0x00 and the object went to SLUB).
#include "error.hpp"
#include "model.hpp"

namespace tagproof::spec {

void Model::kfence_init_pool() {
    // Disabled at boot (the variant's kfence_enabled rule): kfence_alloc_pool_and_metadata()
    // hands the pool back with memblock_free_late(), and it is released like the rest.
    if (!cfg_.build.kfence || !v_.kfence_enabled(env_)) return;
    const std::uint64_t npages = 2 * (kKfenceObjects + 1);
    if (cfg_.pages < npages + 8)
        throw InputError("", "config kfence=y needs at least " + std::to_string(npages + 8) + " pages of RAM");
    kfence_pool_pfn_ = cfg_.pages - npages;  // memblock_alloc() takes it from the top
    for (std::uint64_t i = 0; i < npages; ++i) {
        PageState& pg = pages_[kfence_pool_pfn_ + i];
        pg.reserved = true;
        pg.kfence_pool = true;
        // kfence_init_pool(): the first two pages and every object's right
        // neighbour are guard pages (kfence_protect)
        pg.kfence_protected = i < 2 || i % 2 == 1;
        // never released to the buddy allocator: Generic's shadow keeps
        // KASAN_SHADOW_INIT (0, accessible), the tag modes their initial tags
    }
    kfence_slot_obj_.assign(kKfenceObjects, -1);
}

bool Model::in_kfence_pool(std::uint64_t addr) const {
    if (kfence_slot_obj_.empty()) return false;
    const std::uint64_t a = addr | ~ADDR_MASK, start = linear(kfence_pool_pfn_);
    return a >= start && a < start + 2 * (kKfenceObjects + 1) * PAGE_SIZE;
}

bool Model::is_kfence_address(const Ptr& p) const { return p.tag == KASAN_TAG_KERNEL && in_kfence_pool(p.addr); }

Ptr Model::kfence_kmalloc(std::uint64_t size, gfp_t gfp, int cpu) {
    if (!cfg_.build.kfence) throw InputError("", "kfence_kmalloc: KFENCE is not built in (config kfence=y)");
    if (cpu < 0 || cpu >= (int)cpus_.size()) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    const auto fallback = [&](const std::string& why) {
        notes_.push_back(label_ + ": kfence_alloc() declines (" + why + "): a plain kmalloc");
        return kmalloc(size, gfp, cpu);
    };
    if (!v_.kfence_enabled(env_)) return fallback("KFENCE is disabled in this build and boot");
    if (size == 0 || size > PAGE_SIZE) return fallback("size outside 1..PAGE_SIZE");
    int slot = -1;
    for (int i = 0; i < (int)kfence_slot_obj_.size() && slot < 0; ++i)
        if (kfence_slot_obj_[i] < 0) slot = i;
    if (slot < 0) return fallback("the pool is full");
    const std::uint64_t pfn = kfence_pool_pfn_ + 2 + 2 * std::uint64_t(slot);
    int id = new_object(ObjKind::kfence, "kfence object (kmalloc(" + std::to_string(size) + "))");
    kfence_slot_obj_[slot] = id;
    pages_[pfn].kfence_protected = false;  // kfence_unprotect()
    Object& o = objects_[id];
    o.base = linear(pfn);  // left-aligned in its page (KFENCE picks either side)
    o.size = size;
    o.tag = KASAN_TAG_KERNEL;  // the pool's own linear address: KASAN never tags it
    o.gfp = gfp;
    o.pfn = pfn;
    o.cpu = cpu;
    o.slot = slot;
    o.caller = kernel::Caller::kfence;
    // kfence_guarded_alloc(): memzero_explicit() iff slab_want_init_on_alloc()
    if (env_.init_on_alloc || (gfp & env_.gfp.ZERO)) set_data(o.base, size, DATA_ZERO);
    return hand_out(id);
}

// kfence_free() -> kfence_guarded_free(): the address must be the object's
// own, else KFENCE reports an invalid free; the page is protected after.
void Model::kfence_free(const Ptr& p) {
    const std::uint64_t a = p.addr | ~ADDR_MASK;
    for (int i = 0; i < (int)kfence_slot_obj_.size(); ++i) {
        const int id = kfence_slot_obj_[i];
        if (id < 0 || objects_[id].base != a) continue;
        Object& o = objects_[id];
        if (cfg_.boot.init_on_free) set_data(o.base, o.size, DATA_ZERO);  // slab_want_init_on_free()
        o.live = false;
        kfence_slot_obj_[i] = -1;
        pages_[o.pfn].kfence_protected = true;
        return;
    }
    Report r;
    r.kasan = false;
    r.bug_type = "KFENCE: invalid-free";
    r.addr = p.value();
    r.free_report = true;
    report(r);
    notes_.push_back(label_ + ": BUG: KFENCE: invalid free in kfree() at " + ptr_str(p));
}

// A pool address with a tag other than 0xff: SLUB takes it for one of its own
// (the pool pages are slab pages) and KASAN's pre-free check, which skips only
// KFENCE addresses, tests the byte: a report on a valid free when it fails;
// else the object lands on a SLUB freelist it does not belong to.
void Model::kfree_kfence_page(const Ptr& p) {
    if (rt_.kasan_enabled && cfg_.build.mode != Mode::none && !kasan_byte_accessible(p)) {
        report_free(p, "double-free");
        return;
    }
    notes_.push_back(label_ + ": kfree() of a KFENCE object through " + ptr_str(p) +
                     ": not is_kfence_address(), put on a SLUB freelist (memory corruption)");
}

Ptr Model::virt_to_page_address(const Ptr& p) const {
    Where w = translate(p.addr);
    const std::uint64_t a = p.addr | ~ADDR_MASK;
    if (a < LINEAR_BASE || a >= LINEAR_BASE + pages_.size() * PAGE_SIZE)
        throw InputError("", "virt_to_page_address: " + ptr_str(p) + " is not a linear-map address");
    (void)w;
    Ptr q = p;
    q.addr = a;
    q.tag = page_kasan_tag((a - LINEAR_BASE) / PAGE_SIZE);
    return q;
}

}  // namespace tagproof::spec
