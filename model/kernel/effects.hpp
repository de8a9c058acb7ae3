// effects.hpp — what post_alloc_hook's plan does to the block it hands out
// (and free_pages_prepare's to the block it takes back),
// in the kernel's order, written once over the value domain (DESIGN §3): the
// model (model/spec/page_alloc.cpp), the reference (ref_page_alloc.cpp) and
// the solver (obligations.cpp, trace_bmc.cpp) all take the block's page tag,
// memory tag, MTE tag and data from here, so none of them re-states the order.
//
// post_alloc_hook (mm/page_alloc.c), in order:
//   1. tag_clear_highpage(s)      MTE allocation tags := 0 (data too if tag_clear_data)
//   2. kasan_unpoison_pages()     a random tag T on the memory (HW: MTE tags; SW_TAGS:
//                                 the shadow) and page_kasan_tag_set(T) on every page
//   3. page_kasan_tag_reset()     page tags := KASAN_TAG_KERNEL, after 2 if both happen
//   4. kernel_init_pages()        data := 0
//
// and what __vmalloc_node_range's KASAN part does to a new VM_ALLOC area after
// its backing pages' post_alloc_hook (vmalloc_area_effect), what a slab
// object's free does to it (slab_free_effect) and what taking a thread stack
// from the per-CPU cache does to it (cached_stack_effect) and what mapping a
// user page into a VM_MTE vma does to it (mte_sync_tags_effect), below.
#pragma once
#include "address_map.hpp"
#include "env.hpp"
#include "plans.hpp"
#include "tag.hpp"

namespace tagproof::kernel {

// One block as the invariants read it.
template <class D>
struct BlockState {
    typename D::Word page_tag{};  // page->flags' KASAN tag, decoded
    typename D::Word mem_tag{};   // the KASAN tag of its granules (the MTE allocation tag under HW_TAGS)
    typename D::Word mte_tag{};   // the MTE allocation tag (a store of its own outside HW_TAGS)
    typename D::Bool data_zero{}; // every byte reads zero
};

// What a plan writes: each field is written (and then holds the value) or kept.
template <class D>
struct BlockEffect {
    typename D::Bool page_tag_written{}, mem_written{}, mte_written{}, data_zeroed{};
    typename D::Word page_tag{}, mem_tag{}, mte_tag{};
};

// `random_tag` is the tag kasan_unpoison_pages() draws (used only if it unpoisons).
template <class D>
BlockEffect<D> post_alloc_effect(const KasanEnv<D>& e, const PostAllocPlan<D>& p, typename D::Word random_tag) {
    BlockEffect<D> x;
    const auto match_all = D::lit(KASAN_TAG_KERNEL), zero_tag = D::lit(0xF0);
    // 1: tag_clear writes MTE tags: KASAN's own under HW_TAGS; outside it, an MTE CPU's
    auto cleared_hw = p.tag_clear && e.hw_tags;
    auto cleared_mte = p.tag_clear && (e.hw_tags || e.mte);
    // 2 then 3: the last write to the page tag wins
    x.page_tag_written = p.unpoison || p.reset_page_tag;
    x.page_tag = D::ite(p.reset_page_tag, match_all, random_tag);
    x.mem_written = p.unpoison || cleared_hw;
    x.mem_tag = D::ite(p.unpoison, random_tag, zero_tag);
    x.mte_written = D::ite(e.hw_tags, x.mem_written, cleared_mte);
    x.mte_tag = D::ite(e.hw_tags, x.mem_tag, zero_tag);
    // 1, 2 with init, 4
    x.data_zeroed = p.tag_clear_data || p.unpoison_init || p.kernel_init;
    return x;
}

// free_pages_prepare (mm/page_alloc.c): kasan_poison_pages() sets the block's
// KASAN tag to KASAN_TAG_INVALID (the shadow to KASAN_PAGE_FREE in Generic),
// zeroing the data with integrated init; kernel_init_pages() zeroes it
// otherwise. The page tag stays as it was (page_address() of a freed block
// keeps its old tag).
template <class D>
BlockEffect<D> free_pages_effect(const KasanEnv<D>& e, const FreePlan<D>& f) {
    BlockEffect<D> x;
    x.page_tag_written = D::boolean(false);
    x.page_tag = D::lit(KASAN_TAG_KERNEL);
    x.mem_written = f.poison;
    x.mem_tag = D::lit(KASAN_TAG_INVALID);
    x.mte_written = f.poison && e.hw_tags;  // KASAN writes MTE tags only under HW_TAGS
    x.mte_tag = D::lit(KASAN_TAG_INVALID);
    x.data_zeroed = f.poison_init || f.kernel_init;
    return x;
}

// ---- mempool pages -------------------------------------------------------------
// mm/mempool.c with a page pool (mempool_alloc_pages). add_element() ->
// kasan_poison_element() -> kasan_poison_pages() (v6.8+
// __kasan_mempool_poison_pages(), which leaves alone a page whose tag is
// KASAN_TAG_KERNEL: it was never tagged, hooks.skip_untagged_pages): memory
// := KASAN_TAG_INVALID, the page tag kept, as at a free. The check of a bad
// free that comes first (hooks.check_page_frees) is the caller's.
template <class D>
BlockEffect<D> mempool_page_poison_effect(const KasanEnv<D>& e, const MempoolHooks<D>& h, const BlockState<D>& s) {
    const auto untagged = e.tag_based() && s.page_tag == D::lit(KASAN_TAG_KERNEL);
    FreePlan<D> f;
    f.skip_poison = D::boolean(false);
    f.poison = e.kasan_enabled && !(h.skip_untagged_pages && untagged);
    f.poison_init = D::boolean(false);
    f.kernel_init = D::boolean(false);
    return free_pages_effect<D>(e, f);
}
// remove_element() -> kasan_unpoison_element() -> kasan_unpoison_pages(page,
// order, false): the memory and every page's tag := a new random tag when the
// sampler says so (v6.3+, the same per-CPU counter as alloc_pages); nothing at
// all otherwise: a page poisoned under tag T and re-issued sampled out keeps
// page tag T over KASAN_TAG_INVALID memory.
template <class D>
BlockEffect<D> mempool_page_unpoison_effect(const KasanEnv<D>& e, const SampleDecision<D>& d,
                                            typename D::Word random_tag) {
    PostAllocPlan<D> p;
    p.tag_clear = p.tag_clear_data = p.unpoison_init = p.kernel_init = p.reset_page_tag = D::boolean(false);
    p.unpoison = d.tag;
    return post_alloc_effect<D>(e, p, random_tag);
}

// ---- vmalloc ----------------------------------------------------------------
// get_vm_area() (mm/vmalloc.c): Generic and SW_TAGS give the new area a
// shadow of its own. kasan_populate_vmalloc() fills it with
// KASAN_VMALLOC_INVALID when KASAN is on and CONFIG_KASAN_VMALLOC is built;
// otherwise the early shadow covers it (accessible: 0 in Generic, the
// match-all tag in SW_TAGS). HW_TAGS has no shadow: the area's accesses are
// checked against the backing pages' MTE tags.
template <class D>
typename D::Word vm_area_shadow(const KasanEnv<D>& e) {
    auto populated = e.kasan_enabled && e.config_kasan_vmalloc;
    return D::ite(populated, D::ite(e.generic, D::lit(KASAN_VMALLOC_INVALID_GENERIC), D::lit(KASAN_TAG_INVALID)),
                  D::ite(e.generic, D::lit(0), D::lit(KASAN_TAG_KERNEL)));
}

// A new VM_ALLOC area as its caller gets it.
template <class D>
struct AreaEffect {
    typename D::Word ptr_tag{};           // the tag of area->addr, the pointer the caller gets
    typename D::Word mem_tag{};           // the first granule's tag (HW: MTE; else the area's shadow)
    typename D::Bool redzone_poisoned{};  // HW: round_up(size, G) to that page's end := KASAN_TAG_INVALID
    typename D::Bool page_tags_written{};  // HW: page_kasan_tag_set(ptr_tag) on every backing page
    // every byte of the pages that hold the requested bytes reads zero
    // afterwards (KASAN's INIT and init_vmalloc_pages() stop at the page of
    // the last requested byte: a huge area's pages past it are zero only if
    // their allocation zeroed them)
    typename D::Bool data_zeroed{};
    typename D::Bool tagged_mapping{};    // arch_vmap_pgprot_tagged(): MT_NORMAL_TAGGED PTEs
    // HW: the tag stores of kasan_unpoison() hit an address not mapped yet (a
    // translation fault in __kasan_unpoison_vmalloc, the kernel stops): none
    // of the writes above lands, and nothing is handed out
    typename D::Bool unmapped_fault{};
};

// __vmalloc_node_range after vm_area_alloc_pages(), in order:
//   1. the mapping: tagged PTEs if the plan says so
//   2. kasan.vmalloc=off with KASAN_VMALLOC_INIT (hw_tags.c): each page
//      clear_highpage_kasan_tagged(): data := 0
//   3. kasan_unpoison_vmalloc retags: the pointer's tag (random in the tag
//      modes; Generic's pointers carry none) on [addr, round_up(size, G));
//      HW: the rest of the last page KASAN_TAG_INVALID, every page's page tag
//      := that tag, and with KASAN_VMALLOC_INIT the data of all of it := 0.
// `backing` is the first backing page after its own post_alloc_hook (its
// MTE tag is what HW_TAGS checks when nothing retags); `random_tag` is the tag
// kasan_unpoison_vmalloc draws (read only if it retags with a random tag).
// `mapped_first`: the area is mapped before kasan_unpoison_vmalloc runs
// (__vmalloc_node_range, vm_map_ram); false for __get_vm_area_node's
// non-VM_ALLOC areas (vmap(), ioremap()), which it unpoisons "now as a
// best-effort approach, as they can be mapped outside of vmalloc code": the
// shadow modes write the area's shadow, which exists, but HW_TAGS's tag
// stores go to the area itself, unmapped (6.12.118 under QEMU MTE stops in
// __kasan_unpoison_vmalloc <- __get_vm_area_node <- ... <- ioremap when a
// patch tags such areas; docs/decisions.md).
template <class D>
AreaEffect<D> vmalloc_area_effect(const KasanEnv<D>& e, const VmallocPlan<D>& plan, const VmallocUnpoison<D>& un,
                                  const BlockState<D>& backing, typename D::Word random_tag,
                                  typename D::Bool mapped_first = D::boolean(true)) {
    AreaEffect<D> x;
    x.tagged_mapping = plan.tagged_mapping;
    x.unmapped_fault = un.retag && e.hw_tags && !mapped_first;
    const auto retags = un.retag && !x.unmapped_fault;
    x.ptr_tag = D::ite(un.retag && un.random_tag, random_tag, D::lit(KASAN_TAG_KERNEL));
    // Generic's unpoison writes the accessible shadow 0 (the first granule is whole)
    auto retagged = D::ite(e.generic, D::lit(0), x.ptr_tag);
    // HW: a tag store lands only through MT_NORMAL_TAGGED PTEs (an STG through
    // a PAGE_KERNEL mapping is ignored: AArch64.MemTag[], and 6.12.118 under
    // QEMU MTE); the page tags are page->flags, written whatever the mapping
    const auto lands = retags && (!e.hw_tags || plan.tagged_mapping);
    x.mem_tag = D::ite(lands, retagged, D::ite(e.hw_tags, backing.mem_tag, vm_area_shadow<D>(e)));
    x.redzone_poisoned = lands && e.hw_tags;
    x.page_tags_written = retags && e.hw_tags;
    x.data_zeroed = backing.data_zero || un.clear_pages || (un.retag_init && !x.unmapped_fault);
    return x;
}

// ---- slab -------------------------------------------------------------------
// kmem_cache_free() / kfree() of one object once the pre-free checks passed
// (mm/slub.c slab_free_hook, mm/kasan/common.c __kasan_slab_free). With
// CONFIG_SLUB_RCU_DEBUG a SLAB_TYPESAFE_BY_RCU object goes to call_rcu():
// slab_free_after_rcu_debug() poisons and frees it after the grace period
// (init_on_free never zeroes an RCU cache's objects: slab_want_init_on_free).
template <class D>
struct SlabFreeEffect {
    typename D::Bool poisoned_now{};       // round_up(object_size, G) := KASAN_SLAB_FREE at the free
    typename D::Bool poisoned_after_gp{};  // the same, once the RCU grace period has passed
    typename D::Bool data_zeroed{};        // init_on_free (integrated into the poisoning under HW_TAGS)
    typename D::Bool released_now{};       // the slot goes back (freelist; Generic: quarantine) at once
};

template <class D>
SlabFreeEffect<D> slab_free_effect(const KasanEnv<D>& e, const SlabFreePlan<D>& p, typename D::Bool ctor_or_rcu) {
    SlabFreeEffect<D> x;
    x.released_now = !p.defer_to_rcu;
    x.poisoned_now = p.poison && !p.defer_to_rcu;
    x.poisoned_after_gp = p.defer_to_rcu && p.poison_after_gp;
    x.data_zeroed = !p.defer_to_rcu && e.init_on_free && !ctor_or_rcu;
    return x;
}

// ---- slab allocation ----------------------------------------------------------
// slab_alloc_node() handing out one object, its KASAN part in order:
//   1. __kasan_slab_alloc: the object's tag -- a new random one (assign_tag for
//      caches without a constructor and not SLAB_TYPESAFE_BY_RCU), or the one
//      __kasan_init_slab_obj fixed for the slot -- over round_up(object_size,
//      G); with init passed and HW_TAGS on, the same write zeroes it
//   2. __kasan_kmalloc (kmalloc caches): poison_kmalloc_redzone from the
//      variant's kmalloc_redzone_start(size) to round_up(object_size, G)
//   3. slab_post_alloc_hook's memset(0) when the variant's slab_memset_init says
// `random_tag` is read only if the tag is per allocation; `slot_tag` is the
// slot's fixed tag (KASAN_TAG_KERNEL when none was fixed); `kasan_init` the
// init KASAN's unpoison is given (the variant's slab_alloc_kasan_init of the
// hook's init).
template <class D>
struct SlabAllocEffect {
    typename D::Word ptr_tag{};         // the tag of the pointer the caller gets
    typename D::Bool obj_written{};     // KASAN wrote the object's tag (or Generic's shadow 0)
    typename D::Word obj_tag{};         // the object's granules' tag (Generic: shadow 0)
    typename D::Bool redzone_poisoned{};  // kmalloc: [redzone_from, round_up(object_size, G)) poisoned
    typename D::Word redzone_from{};    // the redzone's start, an offset into the object
    typename D::Bool kasan_init{};      // kasan_slab_alloc zeroes the object (init integrated: HW_TAGS on)
    typename D::Bool data_zeroed{};     // the bytes the hook zeroes read zero (kmalloc: object_size)
};

template <class D>
SlabAllocEffect<D> slab_alloc_effect(const KasanEnv<D>& e, typename D::Bool per_alloc_tag, typename D::Word random_tag,
                                     typename D::Word slot_tag, typename D::Bool kasan_init, typename D::Bool memset,
                                     typename D::Bool is_kmalloc, typename D::Word redzone_from) {
    SlabAllocEffect<D> x;
    const auto tags = e.kasan_enabled && e.tag_based();
    x.ptr_tag = D::ite(tags, D::ite(per_alloc_tag, random_tag, slot_tag), D::lit(KASAN_TAG_KERNEL));
    x.obj_written = e.kasan_enabled;
    x.obj_tag = D::ite(e.generic, D::lit(0), x.ptr_tag);
    x.redzone_poisoned = e.kasan_enabled && is_kmalloc;
    x.redzone_from = redzone_from;
    x.kasan_init = kasan_init && e.kasan_hw_tags_enabled();
    x.data_zeroed = x.kasan_init || memset;
    return x;
}

// krealloc() of a kmalloc object in place (the new size fits its cache's
// object_size; mm/slab_common.c __do_krealloc): __kasan_krealloc unpoisons
// [0, size) with the object's own tag and poison_kmalloc_redzone poisons from
// the variant's kmalloc_redzone_start(new size) to the object's end -- the
// same rule as kmalloc. It is kmalloc's effect with the object's own tag kept
// (as the slot's tag), no init passed to KASAN and no byte below the new size
// zeroed: what __do_krealloc zeroes (the variant's krealloc_zeroes_spare) lies
// past it.
template <class D>
SlabAllocEffect<D> krealloc_in_place_effect(const KasanEnv<D>& e, typename D::Word ptr_tag,
                                            typename D::Word redzone_from) {
    return slab_alloc_effect<D>(e, D::boolean(false), ptr_tag, ptr_tag, D::boolean(false), D::boolean(false),
                                D::boolean(true), redzone_from);
}

// The tag (tag modes) or shadow byte (Generic) of the object's granule that
// starts at offset `granule` (< round_up(object_size, G)) after the allocation,
// for a kmalloc(size) object: the redzone's poison from redzone_from on;
// Generic's kasan_unpoison(object, size) leaves the partial granule before it
// the number of its accessible bytes.
template <class D>
typename D::Word slab_granule_after(const KasanEnv<D>& e, const SlabAllocEffect<D>& x, typename D::Word size,
                                    typename D::Word granule) {
    const auto in_redzone = x.redzone_poisoned && !D::ult(granule, x.redzone_from);
    // Generic: the granule holds the object's end
    const auto partial = D::ult(granule, size) && D::ult(size, D::add(granule, D::lit(8)));
    const auto shadow = D::ite(partial, D::sub(size, granule), D::lit(0));
    return D::ite(in_redzone, D::ite(e.generic, D::lit(KASAN_SLAB_REDZONE_GENERIC), D::lit(KASAN_TAG_INVALID)),
                  D::ite(e.generic, shadow, x.obj_tag));
}

// ---- mempool elements ---------------------------------------------------------
// mempool_alloc() taking a slab element back from the reserve (mm/mempool.c
// kasan_unpoison_element): since v6.8 __kasan_mempool_unpoison_object, i.e.
// unpoison_slab_object over the cache's object_size with the element's own
// tag, then, for a kmalloc pool, poison_kmalloc_redzone(elem size): kmalloc's
// rule. Before (the variant's mempool_hooks().unpoison_whole_slot)
// kasan_unpoison_range(element, __ksize(element)) and no redzone. No new tag,
// no zeroing: it is kmalloc's effect with the element's tag kept.
template <class D>
SlabAllocEffect<D> mempool_element_effect(const KasanEnv<D>& e, const MempoolHooks<D>& h, typename D::Word elem_tag,
                                          typename D::Bool kmalloc_pool, typename D::Word redzone_from) {
    return slab_alloc_effect<D>(e, D::boolean(false), elem_tag, elem_tag, D::boolean(false), D::boolean(false),
                                kmalloc_pool && !h.unpoison_whole_slot, redzone_from);
}

// ---- vmalloc areas, granule by granule ---------------------------------------------
// The tag (tag modes) or shadow byte (Generic) of the granule at offset
// `granule` of a new area of `size` bytes, within its backing pages: what
// vmalloc_area_effect wrote. Below round_up(size, G) the area's own (Generic:
// the partial last granule holds its accessible bytes); above it the redzone
// (HW: KASAN_TAG_INVALID when retagged, else the backing pages' tag; the
// shadow modes: the area's populated or early shadow).
template <class D>
typename D::Word vmalloc_granule_after(const KasanEnv<D>& e, const VmallocUnpoison<D>& un, const AreaEffect<D>& a,
                                       typename D::Word size, typename D::Word granule) {
    const auto inside = D::ult(granule, size);
    const auto partial = inside && D::ult(size, D::add(granule, e.granule()));
    const auto generic_inside = D::ite(un.retag, D::ite(partial, D::sub(size, granule), D::lit(0)), vm_area_shadow<D>(e));
    const auto redzone = D::ite(e.hw_tags, D::ite(a.redzone_poisoned, D::lit(KASAN_TAG_INVALID), a.mem_tag),
                                vm_area_shadow<D>(e));
    return D::ite(inside, D::ite(e.generic, generic_inside, a.mem_tag), redzone);
}

// ---- vrealloc in place -------------------------------------------------------------
// vrealloc() of an area whose pages hold the new size (mm/vmalloc.c; v6.12+):
// the KASAN call on the part that changes, as the variant's vrealloc_hooks
// say.
//   shrink: kasan_poison_vmalloc(p + new, old - new) -- shadow only, a no-op
//           under HW_TAGS; since the fix from round_up(new, G) to round_up(old, G)
//   grow:   kasan_unpoison_vmalloc(p + old, new - old, PROT_NORMAL [| VM_ALLOC |
//           KEEP_TAG]); since the fix from round_down(old, G). HW_TAGS retags
//           only a VM_ALLOC area it tags (kasan.vmalloc=on, tagged PTEs) and then
//           poisons the in-page redzone, from round_up(new, G) to the end of
//           that page (mm/kasan/hw_tags.c __kasan_unpoison_vmalloc: redzone_size
//           = round_up(redzone_start, PAGE_SIZE) - redzone_start; the pages
//           past it keep their tags, as 6.12.118 under QEMU MTE shows:
//           eras/vrealloc_grow_after_shrink_next_page), and sets every page's
//           tag (unpoison_vmalloc_pages); the shadow modes write the area's tag
//           (a new random one without KEEP_TAG).
// kasan_poison() / kasan_unpoison() WARN and do nothing at an address that is
// not granule-aligned. `area_tag` is the pointer's tag, `random_tag` the tag a
// grow without KEEP_TAG draws, `tagged_mapping` the area's PTEs.
template <class D>
struct VreallocEffect {
    typename D::Bool grow{};         // new size above the old one
    typename D::Bool called{};       // the call reaches a write (a shadow to write, or HW retagging)
    typename D::Bool aligned{};      // the call's start is granule-aligned (else: WARN, no write)
    typename D::Bool written{};      // [from, to) written with `tag`: called and aligned
    typename D::Word from{}, to{};   // offsets into the area
    typename D::Word tag{};          // grow: the tag written (Generic: accessible); shrink: the poison
    typename D::Bool poison_rest{};  // HW grow: [to, rest_to) := KASAN_TAG_INVALID, page tags := tag
    typename D::Word rest_to{};      // ... the end of the page holding the new size: round_up(to, PAGE_SIZE)
};

template <class D>
VreallocEffect<D> vrealloc_in_place_effect(const KasanEnv<D>& e, const VreallocHooks<D>& h, typename D::Word old_size,
                                           typename D::Word new_size, typename D::Word area_tag,
                                           typename D::Word random_tag, typename D::Bool tagged_mapping) {
    VreallocEffect<D> x;
    const auto shadow = e.kasan_enabled && !e.hw_tags && e.config_kasan_vmalloc;
    x.grow = D::ult(old_size, new_size);
    x.from = D::ite(x.grow, D::ite(h.granule_aligned, e.granule_down(old_size), old_size),
                    D::ite(h.granule_aligned, e.granule_up(new_size), new_size));
    x.to = D::ite(x.grow, e.granule_up(new_size), D::ite(h.granule_aligned, e.granule_up(old_size), old_size));
    x.aligned = e.granule_down(x.from) == x.from;
    const auto hw_retags = e.kasan_enabled && e.hw_tags && h.grow_vm_alloc && e.vmalloc_on && tagged_mapping;
    const auto grow_tag = D::ite(e.generic, D::lit(0), D::ite(h.grow_keep_tag, area_tag, random_tag));
    const auto poison = D::ite(e.generic, D::lit(KASAN_VMALLOC_INVALID_GENERIC), D::lit(KASAN_TAG_INVALID));
    x.called = D::ult(x.from, x.to) && D::ite(x.grow, hw_retags || shadow, shadow);
    x.written = x.called && x.aligned;
    x.tag = D::ite(x.grow, grow_tag, poison);
    x.poison_rest = x.grow && hw_retags;
    x.rest_to = D::add(x.to, D::lit(PAGE_SIZE - 1)) & D::lit(~(PAGE_SIZE - 1));
    return x;
}

// The granule at `granule` after vrealloc_in_place_effect, given its tag or
// shadow before; Generic's grow leaves the new last granule its accessible bytes.
template <class D>
typename D::Word vrealloc_granule_after(const KasanEnv<D>& e, const VreallocEffect<D>& x, typename D::Word new_size,
                                        typename D::Word granule, typename D::Word before) {
    const auto in_written = x.written && !D::ult(granule, x.from) && D::ult(granule, x.to);
    const auto in_rest = x.poison_rest && !D::ult(granule, x.to) && D::ult(granule, x.rest_to);
    const auto partial = D::ult(granule, new_size) && D::ult(new_size, D::add(granule, D::lit(8)));
    const auto grown = D::ite(e.generic, D::ite(partial, D::sub(new_size, granule), D::lit(0)), x.tag);
    return D::ite(in_written, D::ite(x.grow, grown, x.tag), D::ite(in_rest, D::lit(KASAN_TAG_INVALID), before));
}

// ---- thread stacks ----------------------------------------------------------
// alloc_thread_stack_node() serving a stack from this CPU's cached_stacks[]
// (kernel/fork.c, CONFIG_VMAP_STACK): kasan_unpoison_range(vm->addr,
// THREAD_SIZE) where the variant calls it and KASAN is on (the area's own tag
// over the whole stack; Generic: accessible), then memset(0) of the stack.
// `leftover` is what the previous task's stack instrumentation left in the
// shadow (Generic's stack redzones, SW_TAGS' frame tags).
template <class D>
struct CachedStackEffect {
    typename D::Bool unpoisoned{};  // kasan_unpoison_range() ran
    typename D::Word mem_tag{};     // a granule's tag or shadow afterwards
    typename D::Bool data_zeroed{};  // the stack reads zero
};

template <class D>
CachedStackEffect<D> cached_stack_effect(const KasanEnv<D>& e, typename D::Bool unpoison, typename D::Word area_tag,
                                         typename D::Word leftover) {
    CachedStackEffect<D> x;
    x.unpoisoned = unpoison && e.kasan_enabled;
    x.mem_tag = D::ite(x.unpoisoned, D::ite(e.generic, D::lit(0), area_tag), leftover);
    x.data_zeroed = D::boolean(true);  // memset(s, 0, THREAD_SIZE): not a KASAN decision
    return x;
}

// ---- user pages ---------------------------------------------------------------
// A user page is mapped with set_pte_at(); for a pte of a VM_MTE vma arm64's
// __sync_cache_and_tags() calls mte_sync_tags() (arch/arm64/kernel/mte.c),
// which clears the MTE tags of a page that is not yet PG_mte_tagged and sets
// the flag. post_alloc_hook's tag_clear_highpage(s) is what sets PG_mte_tagged
// at allocation (arm64 tag_clear_highpage: the tags are zeroed, so the page
// counts as tagged). `clears` is the variant's mte_sync_tags rule.
template <class D>
typename D::Bool pg_mte_tagged_after_alloc(const KasanEnv<D>& e, const PostAllocPlan<D>& p) {
    return p.tag_clear && e.mte;
}

template <class D>
BlockEffect<D> mte_sync_tags_effect(const KasanEnv<D>& e, typename D::Bool vm_mte, typename D::Bool clears) {
    BlockEffect<D> x;
    const auto cleared = vm_mte && clears && (e.mte || e.hw_tags);  // no MTE CPU: no tags to clear
    x.page_tag_written = D::boolean(false);
    x.page_tag = D::lit(KASAN_TAG_KERNEL);
    x.mte_written = cleared;
    x.mte_tag = D::lit(0xF0);
    x.mem_written = cleared && e.hw_tags;  // under HW_TAGS the MTE tags are KASAN's
    x.mem_tag = D::lit(0xF0);
    x.data_zeroed = D::boolean(false);
    return x;
}

template <class D>
BlockState<D> apply_effect(const BlockEffect<D>& x, const BlockState<D>& old) {
    BlockState<D> s;
    s.page_tag = D::ite(x.page_tag_written, x.page_tag, old.page_tag);
    s.mem_tag = D::ite(x.mem_written, x.mem_tag, old.mem_tag);
    s.mte_tag = D::ite(x.mte_written, x.mte_tag, old.mte_tag);
    s.data_zero = x.data_zeroed || old.data_zero;
    return s;
}

}  // namespace tagproof::kernel
