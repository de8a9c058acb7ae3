// state.hpp — the state of the modelled kernel (DESIGN §4).
#pragma once
#include <optional>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "address_map.hpp"
#include "gfp.hpp"
#include "requirements.hpp"
#include "tag.hpp"

namespace tagproof::spec {

using tagproof::PAGE_SIZE;
using tagproof::LINEAR_BASE;
using tagproof::VMALLOC_BASE;
using tagproof::ADDR_MASK;

// Data content of a granule: zero, stale (never written, unknown), or a
// secret written by the owner with that object id (secret(id) = id + 2).
inline constexpr std::uint32_t DATA_ZERO = 0;
inline constexpr std::uint32_t DATA_STALE = 1;
// DATA_WILD: written through a pointer outside its object's bounds or after
// the object was freed (an out-of-bounds or use-after-free write, itself the
// bug; the zeroing oracle does not blame the next owner's allocation for it).
inline constexpr std::uint32_t DATA_WILD = 2;
inline constexpr std::uint32_t data_secret(int obj) { return std::uint32_t(obj) + 3; }

// Who set a granule's tag last (for the detection oracle).
inline constexpr int TAG_BY_BOOT = -1;
inline constexpr int TAG_BY_POISON = -2;
inline constexpr int TAG_BY_USER = -3;
inline constexpr int TAG_BY_TEST = -4;
inline constexpr int TAG_BY_TAG_CLEAR = -5;

// A pointer: untagged address (top byte 0xFF) + the tag in its top byte, and
// the object it was derived from (provenance; the oracle's, not the kernel's).
struct Ptr {
    std::uint64_t addr = 0;
    Tag tag = KASAN_TAG_KERNEL;
    int obj = -1;
    bool null = false;
    std::uint64_t value() const { return null ? 0 : ((addr & ADDR_MASK) | (std::uint64_t(tag) << 56)); }
};

enum class ObjKind { pages, slab, slab_page, kmalloc_large, vmalloc, vmalloc_page, stack, pgtable, user_page, mempool_page,
                     kfence, vmap };
const char* obj_kind_name(ObjKind k);

// An allocation, as the oracle sees it.
struct Object {
    int id = -1;
    ObjKind kind = ObjKind::pages;
    kernel::Caller caller = kernel::Caller::alloc_pages;  // whose needs apply (requirements.hpp)
    std::string what;             // "kmalloc(107)", "alloc_pages(order=4, GFP_KERNEL)"
    std::uint64_t base = 0;       // untagged start address
    std::uint64_t size = 0;       // bytes the caller may use
    bool live = true;
    Tag tag = KASAN_TAG_KERNEL;   // the tag the returned pointer carries
    // What the caller requires (requirements.hpp), never what the variant asks for.
    bool promised_zero = false;   // page tables, stacks, __GFP_ZERO, init_on_alloc, init_on_free, vzalloc
    bool promised_zero_tags = false;  // __GFP_ZEROTAGS on an MTE machine (the variant's request: ZEROTAGS test hooks)
    bool resize_zero = false;     // kmalloc and vmalloc objects: every call so far asked zeroed memory (resize_asked_zero)
    bool vm_mte = false;          // user pages: the vma has VM_MTE
    bool prot_kernel = true;      // vmalloc: prot == PAGE_KERNEL
    bool ctor_or_rcu = false;     // kmem_cache objects
    bool typesafe_by_rcu = false; // ... of a SLAB_TYPESAFE_BY_RCU cache
    bool rcu_gp_open = false;     // freed, and no grace period has passed since (readers may still use it)
    bool skip_requested = false;  // the caller asked page_alloc not to tag (and so not to poison)
    gfp_t gfp = 0;
    // What the caller itself passed when the kernel's code between it and the
    // allocator changed the flags (alloc_skb_with_frags' caller, a socket's
    // sk_allocation): its needs are read from this (requirements.hpp), the
    // allocation's effects from `gfp`.
    std::optional<gfp_t> caller_gfp;
    unsigned order = 0;
    std::uint64_t pfn = 0;        // first page (page-backed objects)
    int cache = -1, slab = -1, slot = -1;
    int area = -1;                // vm area (vmalloc, vmap stacks)
    int backing = -1;             // vmap aliases: the page allocation they map
    int cpu = 0;
};

struct PageState {
    bool allocated = false;
    bool head = false;
    unsigned order = 0;
    std::uint64_t head_pfn = 0;
    // The KASAN tag bits of page->flags as stored (the variant's
    // page_kasan_tag_field rule); memmap starts zeroed. Model::page_kasan_tag() decodes.
    std::uint8_t kasan_tag_field = 0;
    bool pg_skip_kasan_poison = false;
    bool pg_mte_tagged = false;
    bool reserved = false;
    int obj = -1;        // the page_alloc object that owns it
    bool sampled_out = false;
    bool skip_requested = false;  // oracle: free-time skip was asked for at allocation
    bool kfence_pool = false;      // memblock-allocated for __kfence_pool: never through the page allocator
    bool kfence_protected = false; // a KFENCE guard page, or a freed KFENCE object's page: not present
};

struct VmArea {
    int id = -1;
    std::uint64_t start = 0;   // untagged
    std::uint64_t size = 0;    // requested size
    std::vector<std::uint64_t> pfns;
    bool tagged_mapping = false;
    bool live = true;
    Tag tag = KASAN_TAG_KERNEL;
    int obj = -1;
    std::vector<int> page_objs;  // the page_alloc objects backing it
    // Generic / SW_TAGS keep shadow per *virtual* address: a vmalloc area has
    // its own shadow, apart from the linear-map alias of its pages. (HW_TAGS
    // tags are physical and shared by both mappings.)
    std::vector<std::uint8_t> vshadow;
    std::vector<int> vshadow_by;
    bool is_stack = false;
    int node = 0;  // the NUMA node its pages are on (thread stacks)
};

// The stack ring as a report reads it (mm/kasan/report_tags.c searches it
// from the newest entry for the object's address and the pointer's tag):
// for each slot and tag, whether the newest entry is a free. Older entries
// with the same slot and tag are never read, so they are not kept: a state
// is what its future can read (two histories with the same newest entries
// are one state to the explorer), and a copy of a slab is one vector.
struct RingEntry {
    std::uint32_t slot = 0;
    Tag tag = 0;
    bool freed = false;
};

struct Slab {
    std::uint64_t pfn = 0;
    unsigned order = 0;
    std::vector<int> slot_obj;        // live object id per slot, -1 free
    std::vector<Tag> slot_tag;        // ctor / TYPESAFE_BY_RCU caches: tag fixed at slab creation
    // Ordered by slot; within a slot, by when each tag's newest entry was
    // recorded (an order tag renaming keeps, unlike the tags' values: the
    // explorer's state key merges states equal up to renaming).
    std::vector<RingEntry> ring;
    // Records an allocation (freed = false) or a free of `tag` in `slot`.
    void ring_record(std::uint32_t slot, Tag tag, bool freed);
    // The newest entry for `slot` and `tag`, or nullptr.
    const RingEntry* ring_newest(std::uint32_t slot, Tag tag) const;
};

struct Cache {
    int id = -1;
    std::string name;
    std::uint64_t object_size = 0;  // what kasan unpoisons (s->object_size)
    std::uint64_t slot_size = 0;    // the stride between objects (s->size)
    unsigned order = 0;             // slab page order
    bool ctor_or_rcu = false;       // a constructor or SLAB_TYPESAFE_BY_RCU: the tag is fixed per slot
    bool typesafe_by_rcu = false;
    bool is_kmalloc = false;
    std::vector<Slab> slabs;
    std::vector<std::pair<int, int>> freelist;  // (slab, slot), LIFO like SLUB's per-CPU freelist
};

// A mempool's reserve.
struct Mempool {
    int id = -1;
    enum Kind { kmalloc, slab, pages } kind = kmalloc;
    std::uint64_t elem_size = 0;
    unsigned order = 0;
    int cache = -1;
    unsigned min_nr = 0;
    std::vector<Ptr> reserve;  // elements held (poisoned)
};

// An sk_buff's page frags (alloc_skb_with_frags); the head is not modelled.
struct Skb {
    int id = -1;
    std::vector<int> frags;  // page objects, in skb_shinfo(skb)->frags[] order
    bool live = true;
};

// One tag-check report, as mm/kasan/report.c prints it.
struct Report {
    bool kasan = true;     // false: an MMU fault ("Unable to handle kernel paging request")
    std::string bug_type;  // "slab-out-of-bounds", "invalid-access", "double-free", ...
    std::uint64_t addr = 0;  // tagged address
    bool is_write = false;
    std::uint64_t size = 0;  // 0 for HW tag faults
    Tag ptr_tag = 0, mem_tag = 0;
    bool has_tags = true;
    bool async = false;
    bool free_report = false;
    int cpu = 0;
    std::size_t event = 0;
    std::string where;  // the event that triggered it
};

struct CpuState {
    std::int64_t sample_skip = 0;  // kasan_page_alloc_skip
    bool tag_checks_on = true;     // SCTLR_EL1.TCF != NONE
    bool tfsr_pending = false;     // TFSR_EL1.TF1 (async)
    std::array<int, 2> cached_stacks{-1, -1};  // vm area ids (kernel/fork.c NR_CACHED_STACKS)
    // oracle: eligible allocations seen and tagged, for sampling-accounting
    std::uint64_t eligible_seen = 0;
    std::uint64_t sample_phase = 0;  // the counter's value at boot (0, or chosen with sample_phase=any)
};

struct Violation {
    std::string invariant;  // "no-false-positive"
    std::string message;
    std::size_t event = 0;
};

}  // namespace tagproof::spec
