// ref_kernel.hpp — the reference implementation's kernel: the model's
// semantics for Hardware Tag-Based KASAN builds (arm64 MTE), kept the way the
// kernel keeps them (DESIGN §5):
//   - MTE tags in a TagStore, two granules per byte, set by whole words;
//   - struct page flags in one word with the KASAN tag field (PageFlags);
//   - which granules hold zero in a bit set (the model's data content, reduced
//     to what the zeroing promises are about);
//   - per-CPU kasan_page_alloc_skip counters, TCF state and TFSR;
//   - a first-fit page allocator on an allocation bitmap (the model's policy,
//     so both hand out the same pfns), SLUB-like caches with LIFO freelists,
//     vm areas from a bump allocator, the per-CPU cached stacks of fork.c.
// Every decision — post_alloc_hook, free_pages_prepare, __vmalloc_node_range,
// kasan_unpoison_vmalloc, the GFP constants of the callers, the granule tag
// check and MTE fault delivery — is the variant's code (model/kernel), called
// with the concrete domain, as the model calls it.
//
// Pointers are plain 64-bit values with the tag in the top byte, as in the
// kernel; a page is its pfn. After warm-up (caches and areas recycled), no
// event allocates from the heap.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "address_map.hpp"
#include "config.hpp"
#include "cost.hpp"
#include "kept_answers.hpp"
#include "mte_cost.hpp"
#include "page_flags.hpp"
#include "tag_source.hpp"
#include "tag_store.hpp"
#include "variant.hpp"

namespace tagproof::reference {

// Deliberate bugs, for the differential check's negative controls: each must
// be caught by the lockstep comparison (tests/property/differential_property_test.cpp).
enum class RefMutation {
    none,
    short_tag_range,       // tag_range_linear() leaves the block's last granule untagged
    shared_sample_counter, // one kasan_page_alloc_skip for all CPUs instead of one per CPU
    ring_ignores_free,     // reports call a use-after-free an out-of-bounds access
    check_misses_last_granule,  // an access spanning granules is not checked in its last one
    zero_misses_last_granule,   // zeroing a run of granules leaves its last one's data as it was
};

struct RefConfig {
    BuildConfig build;   // build.mode must be hw_tags
    Machine machine;
    BootParams boot;
    std::uint64_t pages = 64;                  // RAM in 4 KiB pages (pfn 0 reserved)
    Tag initial_mem_tag = KASAN_TAG_INVALID;   // MTE tags of never-tagged RAM
    std::uint64_t dczid = 4;                   // DCZID_EL0 for the cost model (BS=4: 64-byte blocks)
    RefMutation mutation = RefMutation::none;  // tests only
};

// One report, with the fields the model's Report has (mm/kasan/report.c).
struct RefReport {
    bool kasan = true;
    const char* bug_type = "";
    std::uint64_t addr = 0;
    bool is_write = false;
    std::uint64_t size = 0;
    Tag ptr_tag = 0, mem_tag = 0;
    bool has_tags = true;
    bool async = false;
    bool free_report = false;
    int cpu = 0;
};

// What owns an allocated block (the head page's record).
enum class PageOwner : std::uint8_t { pages, slab_page, kmalloc_large, vmalloc_page, stack, pgtable };

class RefKernel {
public:
    RefKernel(const kernel::Variant& v, const RefConfig& cfg, TagSource& tags);

    // One entry point called by the driver (trace line, workload step, lockstep
    // event): counted in cost().events.
    void begin_event() { ++cost_.events; }

    // ---- page_alloc (ref_page_alloc.cpp) -----------------------------------
    // The pfn of the block, or -1 when no block is free. `at`: the block the
    // caller names (trace replay); it must be free.
    std::int64_t alloc_pages(unsigned order, gfp_t gfp, int cpu, PageOwner owner = PageOwner::pages);
    std::int64_t alloc_pages_at(std::uint64_t pfn, unsigned order, gfp_t gfp, int cpu);
    void free_pages(std::uint64_t pfn);  // a free block: "Bad page state", not a KASAN report
    std::uint64_t page_address(std::uint64_t pfn) const;  // page_to_virt(): tagged with page_kasan_tag()
    std::int64_t skb_alloc(int cpu);                       // skb_page_frag_refill: order 3

    // ---- slab (ref_slab.cpp) -----------------------------------------------
    std::uint64_t kmalloc(std::uint64_t size, gfp_t gfp, int cpu);  // 0: NULL or ZERO_SIZE_PTR
    void kfree(std::uint64_t ptr);

    // ---- vmalloc, stacks, page tables (ref_vmalloc.cpp) --------------------
    std::uint64_t vmalloc(std::uint64_t size, gfp_t gfp, bool prot_kernel, int cpu, bool stack = false);
    void vfree(std::uint64_t ptr);
    std::uint64_t stack_alloc(int cpu);
    void stack_free(std::uint64_t ptr, int cpu);
    // rcu_barrier(): a grace period ends; thread_stack_free_rcu() for the stacks
    // freed before it (the reference has no SLAB_TYPESAFE_BY_RCU caches).
    void rcu_barrier();
    std::uint64_t pgtable_alloc(bool user, bool slab_backed, int cpu);
    void pgtable_free(std::uint64_t ptr);

    // ---- accesses (ref_access.cpp) -----------------------------------------
    void access(std::uint64_t ptr, std::uint64_t len, bool is_write, int cpu);
    void kasan_check_async(int cpu);
    // Would this access report (or set TFSR)? The check alone: no report, no
    // state change. Unmapped addresses: false (that is an MMU fault).
    bool would_fault(std::uint64_t ptr, std::uint64_t len, bool is_write, int cpu) const;

    // ---- queries ---------------------------------------------------------
    std::uint64_t pages() const { return npages_; }
    bool page_allocated(std::uint64_t pfn) const { return (alloc_[pfn / 64] >> (pfn % 64)) & 1; }
    const PageFlags& page_flags(std::uint64_t pfn) const { return flags_[pfn]; }
    // include/linux/mm.h page_kasan_tag(): the variant's decoding; 0xff with KASAN off.
    // The field is KASAN_TAG_MASK (one byte) wide: each of its values (and
    // each tag's field) is asked of the variant once a run (kept_answers.hpp).
    static_assert(KASAN_TAG_MASK == 0xFF);
    Tag page_kasan_tag(std::uint64_t pfn) const {
        if (!rt_.kasan_enabled) return KASAN_TAG_KERNEL;
        const auto f = std::uint8_t(flags_[pfn].kasan_field());
        return tag_of_field_.get(f, [&] { return v_.page_kasan_tag(env_, f); });
    }
    void page_kasan_tag_set(std::uint64_t pfn, Tag t) {
        if (!rt_.kasan_enabled) return;
        // the setter keeps the field's bits
        flags_[pfn].set_kasan_field(field_of_tag_.get(t, [&] { return v_.page_kasan_tag_field(env_, t) & KASAN_TAG_MASK; }));
    }
    void page_kasan_tag_reset(std::uint64_t pfn) { page_kasan_tag_set(pfn, KASAN_TAG_KERNEL); }
    std::uint8_t mem_tag_nibble(std::size_t granule) const { return tags_.get(granule); }
    bool granule_zero(std::size_t granule) const { return (zero_[granule / 64] >> (granule % 64)) & 1; }
    // The same, a word at a time: granules [16 w, 16 w + 16)'s tags as
    // TagStore::word() packs them, granules [64 w, 64 w + 64)'s zero bits.
    std::uint64_t mem_tag_word(std::size_t w) const { return tags_.word(w); }
    std::uint64_t zero_word(std::size_t w) const { return zero_[w]; }
    // The MTE tag (0xF0 | nibble) of a mapped address; false when unmapped.
    bool mem_tag_at(std::uint64_t addr, Tag& out) const;
    std::int64_t sample_skip(int cpu) const { return cpus_[cpu].sample_skip; }
    bool tag_checks_on(int cpu) const { return cpus_[cpu].tag_checks_on; }
    bool tfsr_pending(int cpu) const { return cpus_[cpu].tfsr_pending; }
    bool panicked() const { return panicked_; }
    const std::vector<RefReport>& reports() const { return reports_; }
    std::uint64_t reports_suppressed() const { return suppressed_; }
    const Cost& cost() const { return cost_; }
    const RuntimeState& runtime() const { return rt_; }
    const kernel::CEnv& env() const { return env_; }
    const kernel::Variant& variant() const { return v_; }
    const RefConfig& config() const { return cfg_; }
    gfp_t gfp_mask(const char* name) const;  // a flag of the variant's layout (0 if the era lacks it)
    bool owner_is(std::uint64_t pfn, PageOwner o) const { return page_allocated(pfn) && page_[pfn].owner == o; }
    std::uint64_t head_pfn(std::uint64_t pfn) const { return page_[pfn].head; }
    unsigned block_order(std::uint64_t pfn) const { return page_[pfn].order; }
    // Forget the report list (long replays keep the count, not the records).
    void clear_reports() { reports_.clear(); }

    static constexpr std::uint64_t G = 16;  // MTE_GRANULE_SIZE
    static constexpr std::uint64_t kGranulesPerPage = PAGE_SIZE / G;

private:
    friend class RefChecks;
    const kernel::Variant& v_;
    RefConfig cfg_;
    TagSource& tagsrc_;
    RuntimeState rt_;
    kernel::CEnv env_;
    std::shared_ptr<const GfpLayout> gfp_;  // the variant's, shared by every copy
    gfp_t gfp_comp_ = 0, gfp_kernel_nowarn_ = 0, skip_flag_ = 0;
    unsigned random_tag_min_ = 0, random_tag_max_ = 0;  // kasan_random_tag()'s range, the era's rule
    // The variant's answers, asked once: env_ is fixed for the run, and a
    // variant answers alike whenever asked alike (the premise
    // kernel/variant_calls.hpp states), so a kept answer is the answer. Per
    // run: the slab's per-allocation tag and memset init; by size, as they
    // come: the kmalloc redzone's start.
    mutable kernel::KeptByteAnswers tag_of_field_, field_of_tag_;
    bool slab_tag_per_alloc_ = false;
    bool slab_memset_init_[2] = {false, false};
    bool slab_kasan_init_[2] = {false, false};  // the init __kasan_slab_alloc's unpoison is given, by the hook's
    std::vector<std::uint32_t> redzone_start_;  // by size up to KMALLOC_MAX_CACHE_SIZE; kNotAsked until asked
    static constexpr std::uint32_t kNotAsked = ~std::uint32_t(0);
    std::uint64_t redzone_start(std::uint64_t size);

    // physical memory
    std::uint64_t npages_;
    std::vector<std::uint64_t> alloc_;   // 1 bit a page: allocated or reserved
    std::uint64_t free_hint_ = 0;        // no free page in alloc_ words below this
    std::vector<PageFlags> flags_;
    // What a page's allocation made of it, one record a page, so that kfree()
    // finds a pointer's block, owner and slab with one load. Every page of a
    // block carries the head's order and owner (valid while allocated).
    struct PageRec {
        std::uint32_t head = 0;   // the block's head pfn
        std::int32_t slab = -1;   // pages of a slab: index into slabs_
        std::uint8_t order = 0;   // the block's order
        PageOwner owner = PageOwner::pages;
    };
    std::vector<PageRec> page_;
    TagStore tags_;
    std::vector<std::uint64_t> zero_;    // 1 bit a granule: the data there is zero

    struct Cpu {
        std::int64_t sample_skip = 0;
        bool tag_checks_on = true;
        bool tfsr_pending = false;
        std::array<std::int32_t, 2> cached_stacks{-1, -1};  // area indexes
    };
    std::vector<Cpu> cpus_;

    // slab (ref_slab.cpp)
    struct Slab {
        std::uint64_t pfn = 0;
        std::int32_t cache = -1;
        std::uint32_t nslots = 0;
        std::uint32_t first_slot = 0;  // index of slot 0 in the slot arrays
        // slots [unused, nslots) were never handed out: a slab's slots go
        // out lowest first, and a freed one to the freelist, so with the
        // freelist empty the newest slab's first free slot is this one
        std::uint32_t unused = 0;
    };
    struct Cache {
        std::uint64_t object_size = 0, slot_size = 0;
        // ceil(2^40 / slot_size): an offset into a slab (under 2^15 bytes, order
        // at most 3) times this, shifted down 40, is the slot, without a division
        std::uint64_t slot_reciprocal = 0;
        std::uint64_t slot_of(std::uint64_t offset) const { return (offset * slot_reciprocal) >> 40; }
        unsigned order = 0;
        bool is_kmalloc = true;
        std::vector<std::int32_t> slabs;                    // indexes into slabs_, creation order
        std::vector<std::pair<std::int32_t, std::uint32_t>> freelist;  // (slab, slot), LIFO
    };
    std::vector<Cache> caches_;
    std::array<std::int32_t, 14> kmalloc_cache_{};  // size class -> cache (-1: not yet created)
    // kmalloc_index() of every size up to KMALLOC_MAX_CACHE_SIZE, by (size + 7) / 8
    // (every class is a multiple of 8), from the era's kmalloc_minalign at
    // construction: the rule is evaluated once, not on every kmalloc
    std::array<std::uint8_t, 8192 / 8 + 1> kmalloc_class_{};  // ref_memory.cpp checks 8192
    std::int32_t pgd_cache_ = -1;
    std::vector<Slab> slabs_;
    // per slot (all slabs): live?, the tag its object was given, and the
    // stack ring reduced to what a report reads: for each of the 16 MTE tags,
    // whether an entry with it exists and whether the newest such entry is a
    // free. One record a slot, six bytes: an allocation or a free touches one
    // cache line of them, not four.
    struct SlotState {
        std::uint16_t ring_seen = 0, ring_freed = 0;
        Tag tag = KASAN_TAG_KERNEL;
        std::uint8_t live = 0;
    };
    std::vector<SlotState> slots_;
    std::int32_t cache_for_size(std::uint64_t size);
    std::int32_t create_cache(std::uint64_t object_size, std::uint64_t slot_size, bool is_kmalloc);
    std::uint64_t slab_alloc(std::int32_t cache, std::uint64_t size, gfp_t gfp, int cpu);
    std::uint64_t kmalloc_large(std::uint64_t size, gfp_t gfp, int cpu);
    // the slab holding a linear-map address, or -1
    std::int32_t slab_at(std::uint64_t untagged) const;

    // vm areas (ref_vmalloc.cpp)
    struct Area {
        std::uint64_t start = 0, size = 0;
        std::vector<std::uint64_t> pfns;  // capacity kept when the area is recycled
        bool tagged_mapping = false;
        bool live = false;
        Tag tag = KASAN_TAG_KERNEL;       // area->addr's tag
        int node = 0;                     // the NUMA node of its pages (stacks)
    };
    struct DelayedStack {
        std::int32_t area = -1;  // vm area, or -1 for a page-based stack at pfn
        std::uint64_t pfn = 0;
        int cpu = 0;
    };
    std::vector<DelayedStack> rcu_stacks_;  // thread_stack_delayed_free(), waiting for the grace period
    bool try_release_thread_stack_to_cache(std::int32_t area, int cpu);
    std::vector<Area> areas_;
    std::vector<std::int32_t> free_areas_;  // recycled Area records
    std::vector<std::int32_t> live_areas_;  // sorted by start (bump addresses only grow)
    std::uint64_t next_vaddr_ = VMALLOC_BASE;
    std::int32_t area_at(std::uint64_t untagged) const;  // a live area mapping the address, or -1
    void area_release(std::int32_t a);

    // translation: a mapped address's granule index and mapping type
    struct Where {
        bool mapped;
        std::uint64_t granule;  // pfn * 256 + offset / 16
        bool tagged_mapping;
        std::int32_t area;
    };
    Where translate(std::uint64_t addr) const;

    // tag and data primitives (ref_memory.cpp), charging the cost model
    void tag_range_linear(std::uint64_t pfn, std::uint64_t bytes, std::uint8_t nibble, bool init);
    // A range in the linear map (every slab object and kmalloc redzone) is
    // one granule run, done inline; any other goes page by page.
    void tag_range_virt(std::uint64_t addr, std::uint64_t len, std::uint8_t nibble, bool init) {
        if (len == 0) return;
        const std::uint64_t a = addr | ~ADDR_MASK, end = a + (len + G - 1) / G * G;
        if (a >= LINEAR_BASE && end > a && end - LINEAR_BASE <= npages_ * PAGE_SIZE) [[likely]] {
            // the linear map is physically contiguous: the granules the page walk visits
            const std::size_t g = (a - LINEAR_BASE) / G, n = (end - a) / G;
            tags_.set_range(g, n, nibble);
            if (init) zero_granules(g, n, true);
            return charge_tag_call(a, len, init);
        }
        tag_range_pages(addr, len, nibble, init);
    }
    void tag_range_pages(std::uint64_t addr, std::uint64_t len, std::uint8_t nibble, bool init);
    void zero_granules(std::size_t g, std::size_t n, bool value);
    void release_boot_memory();
    void zero_range_virt(std::uint64_t addr, std::uint64_t len, bool value);
    // One mte_set_mem_tag_range() call over [addr, addr + size): the granules
    // it retags and the STG / STZG and DC GVA / GZVA it issues (DCZID a parameter).
    void charge_tag_call(std::uint64_t addr, std::uint64_t size, bool init) {
        size = (size + G - 1) / G * G;
        if (size == 0) return;
        const TagRangeCost c = mte_set_mem_tag_range_cost(addr & ADDR_MASK, size, cfg_.dczid);
        ++cost_.tag_calls;
        cost_.granules_tagged += c.granules;
        (init ? cost_.stzg : cost_.stg) += c.stg;
        (init ? cost_.dc_gzva : cost_.dc_gva) += c.dc_gva;
    }
    void charge_clear_pages(std::uint64_t n);  // clear_page(): DC ZVA over each page
    Tag random_tag() {
        ++cost_.random_tags;
        return tagsrc_.next(random_tag_min_, random_tag_max_);
    }

    // page_alloc internals
    std::int64_t find_free_block(unsigned order) const;
    void take_block(std::uint64_t pfn, unsigned order, PageOwner owner);
    void post_alloc_hook(std::uint64_t pfn, unsigned order, gfp_t gfp, int cpu);

    // reports (ref_access.cpp)
    bool unmapped_page(std::uint64_t a0, std::uint64_t last, std::uint64_t& at) const;
    bool scan(std::uint64_t ptr, std::uint64_t len, bool is_write, int cpu, std::uint64_t& first_bad, Tag& first_mem,
              std::uint64_t& ngran) const;
    void report(RefReport r);
    void report_free(std::uint64_t ptr, const char* bug_type);
    const char* bug_type_for(Tag ptr_tag, std::uint64_t bad_untagged) const;

    std::vector<RefReport> reports_;
    std::uint64_t suppressed_ = 0;
    bool reported_once_ = false;
    bool panicked_ = false;
    Cost cost_;
};

}  // namespace tagproof::reference
