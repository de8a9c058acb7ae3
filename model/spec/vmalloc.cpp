// vmalloc.cpp — __vmalloc_node_range's KASAN part (the variant decides),
// __kasan_unpoison_vmalloc, vfree and vrealloc (mm/vmalloc.c,
// mm/kasan/hw_tags.c, mm/kasan/shadow.c, mm/kasan/common.c __kasan_vrealloc).
#include <cstdio>

#include "error.hpp"
#include "layout.hpp"
#include "model.hpp"

namespace tagproof::spec {

using layout::round_up;

int Model::area_of(std::uint64_t addr) const {
    addr |= ~ADDR_MASK;
    for (int i = (int)areas_.size() - 1; i >= 0; --i) {
        const VmArea& a = areas_[i];
        if (a.live && addr >= a.start && addr < a.start + a.pfns.size() * PAGE_SIZE) return i;
    }
    return -1;
}

Ptr Model::vmalloc(std::uint64_t size, gfp_t gfp, bool prot_kernel, int cpu, ObjKind kind,
                   std::optional<gfp_t> caller_gfp) {
    if (size == 0) throw InputError("", "vmalloc(0) returns NULL; give a size");
    auto plan = v_.vmalloc_node_range(env_, gfp, prot_kernel);
    std::uint64_t npages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
    VmArea va;
    va.id = (int)areas_.size();
    va.start = next_vaddr_;
    va.size = size;
    next_vaddr_ += (npages + 1) * PAGE_SIZE;  // + guard page
    bool software = cfg_.build.mode == Mode::generic || cfg_.build.mode == Mode::sw_tags;
    if (software) {
        // kasan_populate_vmalloc: shadow pages initialised to KASAN_VMALLOC_INVALID;
        // without CONFIG_KASAN_VMALLOC the area is covered by the early shadow.
        bool populated = rt_.kasan_enabled && cfg_.build.kasan_vmalloc;
        std::uint8_t init = populated ? shadow_poison(KASAN_VMALLOC_INVALID_GENERIC)
                                      : (cfg_.build.mode == Mode::generic ? 0 : KASAN_TAG_KERNEL);
        va.vshadow.assign(npages * PAGE_SIZE / G_, init);
        seen_elsewhere_.set(init);
        va.vshadow_by.assign(npages * PAGE_SIZE / G_, TAG_BY_POISON);
    }
    // __vmalloc_area_node: order-0 pages with the plan's gfp.
    for (std::uint64_t i = 0; i < npages; ++i) {
        int pg = alloc_pages(0, plan.page_gfp, cpu, ObjKind::vmalloc_page, "vmalloc backing page");
        if (pg < 0) {
            for (int q : va.page_objs) free_pages(q);
            return Ptr{0, KASAN_TAG_KERNEL, -1, true};
        }
        va.pfns.push_back(objects_[pg].pfn);
        va.page_objs.push_back(pg);
    }
    va.tagged_mapping = plan.tagged_mapping;
    int id = new_object(kind, kind == ObjKind::stack
                                  ? "thread stack (vmalloc, GFP_VMAP_STACK = " + gfp_.print(gfp) + ")"
                                  : "vmalloc(" + std::to_string(size) + ", " + gfp_.print(caller_gfp.value_or(gfp)) + ")");
    va.obj = id;
    areas_.push_back(va);
    VmArea& a = areas_.back();

    auto un = v_.kasan_unpoison_vmalloc(env_, plan);
    Tag t = KASAN_TAG_KERNEL;
    if (un.clear_pages) set_data(a.start, npages * PAGE_SIZE, DATA_ZERO);
    if (un.retag) {
        if (un.random_tag) t = random_tag("vmalloc tag");
        Ptr p{a.start, t, id};
        if (cfg_.build.mode == Mode::hw_tags) {
            std::uint64_t rz = round_up(a.start + size, G_), rz_end = a.start + npages * PAGE_SIZE;
            kasan_unpoison(p, rz - a.start, un.retag_init, id);
            if (rz_end > rz) kasan_poison(rz, rz_end - rz, KASAN_TAG_INVALID, un.retag_init);
            for (std::uint64_t pfn : a.pfns) page_kasan_tag_set(pfn, 1, t);  // unpoison_vmalloc_pages
        } else {
            kasan_unpoison(p, size, false, id);
        }
    }
    // area->addr keeps the tagged address (__vmalloc_node_range assigns the
    // result of kasan_unpoison_vmalloc): a cached thread stack is later
    // unpoisoned with it (kernel/fork.c kasan_unpoison_range(vm_area->addr)).
    a.tag = t;
    Object& o = objects_[id];
    o.base = a.start;
    o.size = size;
    o.tag = t;
    o.area = a.id;
    o.gfp = caller_gfp.value_or(gfp);  // the caller's own flags say what it needs
    o.cpu = cpu;
    o.caller = kind == ObjKind::stack ? kernel::Caller::thread_stack : kernel::Caller::vmalloc;
    o.prot_kernel = prot_kernel;
    o.promised_zero = requirement_of(o).zero_data;
    oracle_after_alloc(id);
    return Ptr{a.start, t, id};
}

Ptr Model::vmalloc_gfp(std::uint64_t size, gfp_t gfp, int cpu) {
    const auto fixed = v_.vmalloc_fix_flags(env_, gfp);
    if (fixed.warned) {
        const gfp_t invalid = gfp & ~fixed.gfp;
        char b[64];
        std::snprintf(b, sizeof b, "%#llx", (unsigned long long)invalid);
        char c[64];
        std::snprintf(c, sizeof c, "%#llx", (unsigned long long)fixed.gfp);
        warn(std::string("Unexpected gfp: ") + b + " (" + gfp_.print(invalid) + "). Fixing up to gfp: " + c + " (" +
             gfp_.print(fixed.gfp) + "). Fix your code!");
    }
    return vmalloc(size, fixed.gfp, true, cpu, ObjKind::vmalloc, gfp);
}

void Model::vfree(const Ptr& p) {
    if (p.null) return;
    int ai = area_of(p.addr);
    if (ai < 0 || areas_[ai].start != (p.addr | ~ADDR_MASK)) {
        warn("Trying to vfree() nonexistent vm area (not a KASAN report)");
        return;
    }
    VmArea& a = areas_[ai];
    // remove_vm_area: kasan_poison_vmalloc (software shadow; a no-op on HW).
    if (rt_.kasan_enabled && cfg_.build.kasan_vmalloc && !a.vshadow.empty())
        std::fill(a.vshadow.begin(), a.vshadow.end(), shadow_poison(KASAN_VMALLOC_INVALID_GENERIC));
    seen_elsewhere_.set(shadow_poison(KASAN_VMALLOC_INVALID_GENERIC));
    a.live = false;
    std::vector<int> pages = a.page_objs;
    int obj = a.obj;
    // the pages go back one by one; free_pages_prepare decides on poisoning
    for (int pg : pages) free_pages(pg);
    objects_[obj].live = false;
}

Ptr Model::vrealloc(const Ptr& p, std::uint64_t size, gfp_t gfp, int cpu) {
    if (!v_.features().vrealloc) throw InputError("", "vrealloc() does not exist in " + v_.name() + " (v6.12+)");
    if (p.null) return vmalloc(size, gfp, true, cpu);
    if (size == 0) {
        vfree(p);
        return Ptr{0, KASAN_TAG_KERNEL, -1, true};
    }
    int ai = area_of(p.addr);
    if (ai < 0) throw InputError("", "vrealloc of a pointer that is no live vmalloc area");
    VmArea& a = areas_[ai];
    std::uint64_t old = a.size, alloced = a.pfns.size() * PAGE_SIZE;
    Object& o = objects_[a.obj];
    if (size <= alloced) {
        if (size <= old && (cfg_.boot.init_on_free || v_.want_init_on_alloc(env_, gfp)))
            set_data(a.start + size, old - size, DATA_ZERO);
        a.size = size;
        o.size = size;
        if (rt_.kasan_enabled) {
            const auto h = v_.vrealloc_hooks(env_);
            const bool shadow = !a.vshadow.empty() && cfg_.build.kasan_vmalloc;
            // kasan_poison() / kasan_unpoison() (shadow.c) WARN and do nothing on an
            // address that is not granule-aligned
            auto aligned = [&](std::uint64_t off, const char* fn) {
                if (off % G_ == 0) return true;
                warn(std::string(fn) + ": address " + ptr_str(Ptr{a.start + off, p.tag}) + " is not granule-aligned");
                return false;
            };
            if (size < old) {
                // shrink: __kasan_poison_vmalloc, shadow only: a no-op on HW, so
                // the tail keeps the allocation's tag.
                const std::uint64_t from = h.granule_aligned ? round_up(size, G_) : size;
                const std::uint64_t to = h.granule_aligned ? round_up(old, G_) : old;
                if (shadow && to > from && (h.granule_aligned || aligned(from, "kasan_poison")))
                    set_tags(a.start + from, to - from, shadow_poison(KASAN_VMALLOC_INVALID_GENERIC), TAG_BY_POISON);
            } else if (size > old) {
                // grow: __kasan_unpoison_vmalloc(p + from, size - from, PROT_NORMAL [| VM_ALLOC | KEEP_TAG])
                const std::uint64_t from = h.granule_aligned ? old / G_ * G_ : old;
                if (cfg_.build.mode == Mode::hw_tags) {
                    if (h.grow_vm_alloc && rt_.vmalloc_on && a.tagged_mapping) {
                        const Tag t = h.grow_keep_tag ? p.tag : random_tag("vrealloc grow tag");
                        std::uint64_t rz = round_up(a.start + size, G_), end = a.start + alloced;
                        if (h.granule_aligned || aligned(from, "kasan_unpoison"))
                            kasan_unpoison(Ptr{a.start + from, t, a.obj}, rz - a.start - from, false, a.obj);
                        if (end > rz) kasan_poison(rz, end - rz, KASAN_TAG_INVALID, false);
                        for (std::uint64_t pfn : a.pfns) page_kasan_tag_set(pfn, 1, t);
                    }
                } else if (shadow && (h.granule_aligned || aligned(from, "kasan_unpoison"))) {
                    // SW_TAGS without KEEP_TAG: a new random tag the returned pointer does not carry
                    const Tag t = h.grow_keep_tag || cfg_.build.mode == Mode::generic ? p.tag
                                                                                       : random_tag("vrealloc grow tag");
                    kasan_unpoison(Ptr{a.start + from, t, a.obj}, size - from, false, a.obj);
                }
            }
        }
        return Ptr{a.start, p.tag, a.obj};
    }
    Ptr q = vmalloc(size, gfp, true, cpu);
    if (q.null) return q;
    for (std::uint64_t off = 0; off < old; off += G_) {
        Where wo = translate(a.start + off), wn = translate(q.addr + off);
        std::uint32_t d = data_[gidx(wo.pfn, wo.off)];
        data_[gidx(wn.pfn, wn.off)] = d == data_secret(a.obj) ? data_secret(q.obj) : d;
    }
    vfree(p);
    return q;
}

Ptr Model::vmalloc_to_page_address(const Ptr& p) const {
    Where w = translate(p.addr);
    if (!w.mapped || w.area < 0) throw InputError("", "vmalloc_to_page of an address that is not vmalloc'ed");
    int pg = pages_[w.pfn].obj;
    Ptr q = page_address(pg);
    q.obj = areas_[w.area].obj;  // provenance: the vmalloc allocation
    return q;
}

}  // namespace tagproof::spec
