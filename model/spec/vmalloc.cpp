// vmalloc.cpp — __vmalloc_node_range's KASAN part (the variant decides),
// __kasan_unpoison_vmalloc, vfree and vrealloc (mm/vmalloc.c,
// mm/kasan/hw_tags.c, mm/kasan/shadow.c, mm/kasan/common.c __kasan_vrealloc).
#include <algorithm>
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

// get_vm_area(): a fresh virtual range and its guard page. Generic and
// SW_TAGS populate its shadow (kasan_populate_vmalloc: KASAN_VMALLOC_INVALID);
// without CONFIG_KASAN_VMALLOC the early shadow covers it.
VmArea Model::new_vm_area(std::uint64_t npages, std::uint64_t size) {
    VmArea va;
    va.id = (int)areas_.size();
    va.start = next_vaddr_;
    va.size = size;
    next_vaddr_ += (npages + 1) * PAGE_SIZE;  // + guard page
    bool software = cfg_.build.mode == Mode::generic || cfg_.build.mode == Mode::sw_tags;
    if (software) {
        const auto init = std::uint8_t(kernel::vm_area_shadow<kernel::Concrete>(env_));  // effects.hpp
        va.vshadow.assign(npages * PAGE_SIZE / G_, init);
        seen_elsewhere_.set(init);
        va.vshadow_by.assign(npages * PAGE_SIZE / G_, TAG_BY_POISON);
    }
    return va;
}

// map_vm_area(): kasan_unpoison_vmalloc()'s decision (the variant's) for
// `plan`, applied to the new area. area->addr keeps the tagged address
// (__vmalloc_node_range assigns the result of kasan_unpoison_vmalloc): a
// cached thread stack is later unpoisoned with it (kernel/fork.c
// kasan_unpoison_range(vm_area->addr)).
int Model::map_vm_area(VmArea va, ObjKind kind, const std::string& what,
                       const kernel::VmallocPlan<kernel::Concrete>& plan, std::uint64_t size, bool mapped_first) {
    va.tagged_mapping = plan.tagged_mapping;
    const int id = new_object(kind, what);
    va.obj = id;
    areas_.push_back(va);
    VmArea& a = areas_.back();
    const auto un = v_.kasan_unpoison_vmalloc(env_, plan);
    const std::uint64_t npages = a.pfns.size();
    // The area after kasan_unpoison_vmalloc, from the one transition
    // (effects.hpp, vmalloc_area_effect): the tag is taken from there; the
    // writes below must give its memory tag, page tags and data, which
    // check_area_effect() asks.
    const Tag drawn = un.retag && un.random_tag ? random_tag("vmalloc tag") : KASAN_TAG_KERNEL;
    const auto fx = kernel::vmalloc_area_effect<kernel::Concrete>(env_, plan, un, backing_state(a), drawn, mapped_first);
    const Tag t = Tag(fx.ptr_tag);
    // mm/kasan/hw_tags.c: init_vmalloc_pages() and the in-page redzone both
    // end with the page that holds the last requested byte; a huge area's
    // pages past it keep what their post_alloc_hook left (allocated with
    // __GFP_SKIP_ZERO | __GFP_SKIP_KASAN under HW_TAGS: stale data, the
    // previous owner's tags) -- what a vrealloc() grown in place hands out.
    const std::uint64_t in_pages = std::min(npages * PAGE_SIZE, round_up(size, PAGE_SIZE));
    if (un.clear_pages) set_data(a.start, in_pages, DATA_ZERO);
    if (fx.unmapped_fault) {
        // the first STG of kasan_unpoison() faults: nothing is written, and a
        // correct call of the caller's stops the kernel (oops=panic or not)
        Report r;
        r.kasan = false;
        r.bug_type = "page-fault";
        r.addr = Ptr{a.start, t, id}.value();
        r.is_write = true;
        r.has_tags = false;
        report(r);  // "Unable to handle kernel paging request at virtual address ..."
        violation("no-false-positive",
                  what + " faults in __kasan_unpoison_vmalloc(): it tags a non-VM_ALLOC area (tag " + tag_hex(t) +
                      ") that __get_vm_area_node() has not mapped yet, so the first tag store is a translation "
                      "fault and the kernel stops; HW_TAGS leaves such areas untagged");
    } else if (un.retag) {
        Ptr p{a.start, t, id};
        if (cfg_.build.mode == Mode::hw_tags) {
            std::uint64_t rz = round_up(a.start + size, G_), rz_end = a.start + in_pages;
            kasan_unpoison(p, rz - a.start, un.retag_init, id);
            if (fx.redzone_poisoned && rz_end > rz) kasan_poison(rz, rz_end - rz, KASAN_TAG_INVALID, un.retag_init);
            if (fx.page_tags_written)
                for (std::uint64_t pfn : a.pfns) page_kasan_tag_set(pfn, 1, t);  // unpoison_vmalloc_pages
        } else {
            kasan_unpoison(p, size, false, id);
        }
    }
    check_area_effect(a, size, fx);
    a.tag = t;
    Object& o = objects_[id];
    o.base = a.start;
    o.size = size;
    o.tag = t;
    o.area = a.id;
    return id;
}

// The first backing page as effects.hpp reads it (BlockState), before
// kasan_unpoison_vmalloc: its page tag, the tag the area's first granule
// has, its MTE tag, and whether the area's pages read zero (their head
// granules, as check_block_effect reads a block: a whole scan of every
// stack and area cost the corpus a fifth of its time).
kernel::BlockState<kernel::Concrete> Model::backing_state(const VmArea& a) const {
    kernel::BlockState<kernel::Concrete> b;
    if (a.pfns.empty()) return b;
    b.page_tag = page_kasan_tag(a.pfns[0]);
    b.mem_tag = tag_[gidx(a.pfns[0], 0)];
    b.mte_tag = mte_tag_at(a.pfns[0], 0);
    b.data_zero = true;
    for (std::uint64_t pfn : a.pfns) b.data_zero = b.data_zero && data_[gidx(pfn, 0)] == DATA_ZERO;
    return b;
}

// The model's area against vmalloc_area_effect: a disagreement is a bug of
// the model (or of effects.hpp), never a finding.
void Model::check_area_effect(const VmArea& a, std::uint64_t size, const kernel::AreaEffect<kernel::Concrete>& fx) const {
    auto bad = [&](const std::string& what, unsigned got, unsigned want) {
        char b[160];
        std::snprintf(b, sizeof b, "%s of the area at %#llx is 0x%02x, effects.hpp says 0x%02x", what.c_str(),
                      (unsigned long long)a.start, got, want);
        throw std::logic_error(std::string("the model's vmalloc and effects.hpp disagree: ") + b);
    };
    if (a.pfns.empty()) return;
    const Mode m = cfg_.build.mode;
    // Generic marks a partial first granule with its length: compare whole ones
    if (m != Mode::none && !(m == Mode::generic && size < G_)) {
        const Tag mt = mem_tag(Ptr{a.start, KASAN_TAG_KERNEL, a.obj}).value_or(0);
        if (mt != Tag(fx.mem_tag)) bad("the first granule's tag", mt, unsigned(fx.mem_tag));
    }
    const std::uint64_t rz = round_up(size, G_);
    if (fx.redzone_poisoned && rz < a.pfns.size() * PAGE_SIZE &&
        tag_[gidx(a.pfns[rz / PAGE_SIZE], rz % PAGE_SIZE)] != KASAN_TAG_INVALID)
        bad("the redzone's tag", tag_[gidx(a.pfns[rz / PAGE_SIZE], rz % PAGE_SIZE)], KASAN_TAG_INVALID);
    if (fx.page_tags_written && rt_.kasan_enabled && page_kasan_tag(a.pfns.back()) != Tag(fx.ptr_tag))
        bad("the last page's page tag", page_kasan_tag(a.pfns.back()), unsigned(fx.ptr_tag));
    // zeroed: the pages that hold the requested bytes (all of them when the
    // backing pages came zeroed)
    const std::uint64_t in_pages = round_up(size, PAGE_SIZE) / PAGE_SIZE;
    if (fx.data_zeroed)
        for (std::uint64_t i = 0; i < a.pfns.size() && i < in_pages; ++i)
            if (data_[gidx(a.pfns[i], 0)] != DATA_ZERO) bad("the data", data_[gidx(a.pfns[i], 0)], DATA_ZERO);
}

Ptr Model::vmalloc(std::uint64_t size, gfp_t gfp, bool prot_kernel, int cpu, ObjKind kind,
                   std::optional<gfp_t> caller_gfp, bool allow_huge) {
    if (size == 0) throw InputError("", "vmalloc(0) returns NULL; give a size");
    auto plan = vmalloc_plans_[prot_kernel].get(gfp, [&] { return v_.vmalloc_node_range(env_, gfp, prot_kernel); });
    // VM_ALLOW_HUGE_VMAP (vmalloc_huge()): the era's vm_shift(); the area is
    // rounded up to it, and a failed high-order attempt retries with order 0.
    const unsigned order = allow_huge ? unsigned(v_.vmalloc_huge_order(env_, size)) : 0;
    const std::uint64_t block = PAGE_SIZE << order;
    std::uint64_t npages = (size + block - 1) / block * (block / PAGE_SIZE);
    VmArea va = new_vm_area(npages, size);
    // __vmalloc_area_node -> vm_area_alloc_pages(): blocks of 2^order pages
    // with the plan's gfp, no __GFP_COMP: post_alloc_hook sees each block
    // whole, then split_page() makes order-0 pages of it.
    for (std::uint64_t i = 0; i < npages; i += block / PAGE_SIZE) {
        int pg = alloc_pages(order, plan.page_gfp, cpu, ObjKind::vmalloc_page, "vmalloc backing page");
        if (pg < 0) {
            for (int q : va.page_objs) free_pages(q);
            if (order > 0) {
                notes_.push_back(label_ + ": vmalloc_huge: no order-" + std::to_string(order) +
                                 " block; retried with order-0 pages");
                next_vaddr_ = va.start;  // the new area replaces the failed one
                return vmalloc(size, gfp, prot_kernel, cpu, kind, caller_gfp, false);
            }
            return Ptr{0, KASAN_TAG_KERNEL, -1, true};
        }
        for (int sub : order ? split_page(pg) : std::vector<int>{pg}) {
            va.pfns.push_back(objects_[sub].pfn);
            va.page_objs.push_back(sub);
        }
    }
    const int id = map_vm_area(std::move(va), kind,
                               kind == ObjKind::stack
                                   ? "thread stack (vmalloc, GFP_VMAP_STACK = " + gfp_->print(gfp) + ")"
                                   : std::string(allow_huge ? "vmalloc_huge(" : prot_kernel ? "vmalloc(" : "vmalloc_exec(") + std::to_string(size) +
                                         ", " + gfp_->print(caller_gfp.value_or(gfp)) + ")",
                               plan, size);
    Object& o = objects_[id];
    o.gfp = caller_gfp.value_or(gfp);  // the caller's own flags say what it needs
    o.resize_zero = kernel::resize_asked_zero<kernel::Concrete>(env_, o.gfp);  // vrealloc's promise
    o.cpu = cpu;
    o.caller = kind == ObjKind::stack ? kernel::Caller::thread_stack : kernel::Caller::vmalloc;
    o.prot_kernel = prot_kernel;
    return hand_out(id);
}

// vmap(pages, count, VM_MAP, PAGE_KERNEL) / vm_map_ram(): a new mapping of
// pages someone else owns. __get_vm_area_node / vm_map_ram call
// kasan_unpoison_vmalloc(addr, size, KASAN_VMALLOC_PROT_NORMAL) without
// VM_ALLOC: the variant's rule decides (HW_TAGS: nothing, a 0xff pointer, and
// the PTEs are plain Normal memory, so nothing is checked through the alias;
// SW_TAGS: the alias's shadow gets a random tag; Generic: unpoisoned).
Ptr Model::vmap(int page_obj, bool map_ram) {
    const Object& po = objects_.at(page_obj);
    if (!po.live || (po.kind != ObjKind::pages && po.kind != ObjKind::user_page && po.kind != ObjKind::pgtable))
        throw InputError("", std::string(map_ram ? "vm_map_ram" : "vmap") + ": not a live page allocation");
    const std::uint64_t npages = std::uint64_t(1) << po.order, size = npages * PAGE_SIZE;
    VmArea va = new_vm_area(npages, size);
    for (std::uint64_t i = 0; i < npages; ++i) va.pfns.push_back(po.pfn + i);
    // PAGE_KERNEL: MT_NORMAL, not MT_NORMAL_TAGGED (the plan says so)
    // vmap(): get_vm_area_caller() -> __get_vm_area_node() unpoisons the area,
    // then vmap_pages_range() maps it; vm_map_ram() maps, then unpoisons
    const int id = map_vm_area(std::move(va), ObjKind::vmap,
                               std::string(map_ram ? "vm_map_ram(" : "vmap(") + po.what + ")",
                               v_.vmap_unpoison_plan(env_), size, map_ram);
    Object& o = objects_[id];
    o.caller = kernel::Caller::vmap;
    o.backing = page_obj;
    ++vmaps_;
    return hand_out(id);
}

// vunmap() / vm_unmap_ram(): kasan_poison_vmalloc (the shadow of Generic and
// SW_TAGS; a no-op under HW_TAGS) and the mapping goes; the pages stay.
void Model::vunmap(const Ptr& p) {
    int ai = area_of(p.addr);
    if (ai < 0 || areas_[ai].start != (p.addr | ~ADDR_MASK) || objects_[areas_[ai].obj].kind != ObjKind::vmap) {
        warn("Trying to vunmap() nonexistent vm area (not a KASAN report)");
        return;
    }
    remove_vm_area(ai);
    objects_[areas_[ai].obj].live = false;
}

// remove_vm_area(): kasan_poison_vmalloc (the software modes' shadow of the
// area; a no-op on HW), and the mapping is gone.
void Model::remove_vm_area(int ai) {
    VmArea& a = areas_[ai];
    if (rt_.kasan_enabled && cfg_.build.kasan_vmalloc && !a.vshadow.empty())
        std::fill(a.vshadow.begin(), a.vshadow.end(), shadow_poison(KASAN_VMALLOC_INVALID_GENERIC));
    seen_elsewhere_.set(shadow_poison(KASAN_VMALLOC_INVALID_GENERIC));
    a.live = false;
}

Ptr Model::vmalloc_gfp(std::uint64_t size, gfp_t gfp, int cpu) {
    const auto fixed = v_.vmalloc_fix_flags(env_, gfp);
    if (fixed.warned) {
        const gfp_t invalid = gfp & ~fixed.gfp;
        char b[64];
        std::snprintf(b, sizeof b, "%#llx", (unsigned long long)invalid);
        char c[64];
        std::snprintf(c, sizeof c, "%#llx", (unsigned long long)fixed.gfp);
        warn(std::string("Unexpected gfp: ") + b + " (" + gfp_->print(invalid) + "). Fixing up to gfp: " + c + " (" +
             gfp_->print(fixed.gfp) + "). Fix your code!");
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
    if (objects_[areas_[ai].obj].kind == ObjKind::vmap) {
        vunmap(p);  // a VM_MAP area has no pages of its own: vfree() only unmaps it
        return;
    }
    remove_vm_area(ai);
    std::vector<int> pages = areas_[ai].page_objs;
    int obj = areas_[ai].obj;
    // the pages go back one by one; free_pages_prepare decides on poisoning
    for (int pg : pages) free_pages(pg);
    objects_[obj].live = false;
}

// vrealloc() in place, its KASAN call: effects.hpp vrealloc_in_place_effect
// says which granules it writes and with what; the writes below must give
// what vrealloc_granule_after says of them (a difference is the model's own
// bug, never a finding). A tag is drawn only when the grow takes a new one.
void Model::vrealloc_kasan(int ai, Tag ptr_tag, std::uint64_t old, std::uint64_t size) {
    const auto h = v_.vrealloc_hooks(env_);
    const bool tagged = areas_[ai].tagged_mapping;
    auto fx = kernel::vrealloc_in_place_effect<kernel::Concrete>(env_, h, old, size, ptr_tag, KASAN_TAG_KERNEL, tagged);
    if (fx.grow && fx.called && !h.grow_keep_tag && cfg_.build.mode != Mode::generic) {
        const Tag t = random_tag("vrealloc grow tag");
        fx = kernel::vrealloc_in_place_effect<kernel::Concrete>(env_, h, old, size, ptr_tag, t, tagged);
    }
    const VmArea& a = areas_[ai];
    const std::uint64_t end = a.pfns.size() * PAGE_SIZE;
    // the granules checked afterwards, and what they held before
    std::vector<std::pair<std::uint64_t, Tag>> probe;
    for (std::uint64_t off : {fx.from, fx.to - 1, fx.to, fx.rest_to - 1, fx.rest_to})
        if (off < end && fx.from < fx.to) {
            const std::uint64_t g = off / G_ * G_;
            probe.push_back({g, mem_tag(Ptr{a.start + g, KASAN_TAG_KERNEL, a.obj}).value_or(KASAN_TAG_KERNEL)});
        }
    if (fx.called && !fx.aligned)  // kasan_poison() / kasan_unpoison() (shadow.c)
        warn(std::string(fx.grow ? "kasan_unpoison" : "kasan_poison") + ": address " +
             ptr_str(Ptr{a.start + fx.from, ptr_tag}) + " is not granule-aligned");
    if (fx.written && fx.grow) kasan_unpoison(Ptr{a.start + fx.from, Tag(fx.tag), a.obj}, size - fx.from, false, a.obj);
    if (fx.written && !fx.grow) set_tags(a.start + fx.from, fx.to - fx.from, Tag(fx.tag), TAG_BY_POISON);
    if (fx.poison_rest) {
        const std::uint64_t rest_to = std::min<std::uint64_t>(fx.rest_to, end);
        if (rest_to > fx.to) kasan_poison(a.start + fx.to, rest_to - fx.to, KASAN_TAG_INVALID, false);
        for (std::uint64_t pfn : a.pfns) page_kasan_tag_set(pfn, 1, Tag(fx.tag));
    }
    for (const auto& [g, before] : probe)
        if (mem_tag(Ptr{a.start + g, KASAN_TAG_KERNEL, a.obj}).value_or(KASAN_TAG_KERNEL) !=
            Tag(kernel::vrealloc_granule_after<kernel::Concrete>(env_, fx, size, g, before)))
            throw std::logic_error("the model's vrealloc and effects.hpp disagree on the granule at offset " +
                                   std::to_string(g) + " of " + objects_[a.obj].what);
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
        // a shrink zeroes the bytes given up as the variant's rule says (the
        // tree's own condition when it is read); a grow zeroes nothing
        if (size <= old && v_.vrealloc_shrink_zeroes(env_, gfp)) set_data(a.start + size, old - size, DATA_ZERO);
        a.size = size;
        o.size = size;
        if (rt_.kasan_enabled) vrealloc_kasan(ai, p.tag, old, size);
        // vrealloc()'s promise (its kernel-doc, requirements.hpp
        // resize_asked_zero): with __GFP_ZERO on the allocation and on every
        // call since, the bytes it grows by read zero ("no need to zero memory
        // here, as unused memory will have already been zeroed")
        o.resize_zero = o.resize_zero && kernel::resize_asked_zero<kernel::Concrete>(env_, gfp);
        if (size > old && o.resize_zero) oracle_zeroed(a.obj, old, " grown in place by vrealloc()");
        return Ptr{a.start, p.tag, a.obj};
    }
    // vmalloc() below adds an area: `a` does not survive it
    const int old_obj = a.obj;
    Ptr q = vmalloc(size, gfp, true, cpu);
    if (q.null) return q;
    // memcpy(n, p, old_size)
    copy_resized(old_obj, q.obj, old, kernel::resize_asked_zero<kernel::Concrete>(env_, gfp));
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
