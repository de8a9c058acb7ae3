// model.hpp — the executable model: events over the state of state.hpp.
//
// Each event is one kernel entry point (alloc_pages, kmalloc, vmalloc, thread
// stack allocation, an access through a pointer, ...). It asks the variant for
// its decision, asks the Chooser for random tags, applies the plan, records
// KASAN reports as the kernel would print them, and runs the oracle.
#pragma once
#include <algorithm>
#include <array>
#include <bitset>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cow_array.hpp"
#include "kept_answers.hpp"
#include "chooser.hpp"
#include "config.hpp"
#include "state.hpp"
#include "tag_set.hpp"
#include "effects.hpp"
#include "variant.hpp"

namespace tagproof::spec {

struct ModelConfig {
    // What one model instance holds. Every engine's inputs (scenario config
    // and sizes, the CLI) are held to these at parse time; a larger instance
    // would only make every state copy slower, and no decision depends on RAM
    // beyond a few MAX_PAGE_ORDER blocks.
    static constexpr unsigned kMinPages = 4;       // pfn 0 reserved, one order-1 block, a slab page
    static constexpr unsigned kMaxPages = 16384;   // 64 MiB: sixteen MAX_PAGE_ORDER blocks
    static constexpr int kMaxCpus = 64;
    static constexpr std::uint64_t kMaxBytes = std::uint64_t(kMaxPages) * 4096;

    BuildConfig build;
    Machine machine;
    BootParams boot;
    unsigned pages = 64;             // physical RAM in 4 KiB pages (pfn 0 is reserved)
    Tag initial_mem_tag = KASAN_TAG_INVALID;  // MTE tags of never-tagged RAM (architecturally UNKNOWN)
    bool kunit_harness = false;      // KUNIT_EXPECT_KASAN_FAIL semantics: multi-shot, force async
                                     // checks and re-enable tag checking after every event
    bool sample_phase_any = false;   // start each CPU's sampling counter at a chosen phase
    // Tag values something compares against (a scenario's constants): random
    // tags equal to one of these are a separate choice, so enumerating "up to
    // renaming" stays exact. 0x00/0xF0 (zeroed MTE tags), 0xFE and 0xFF are always in.
    std::vector<Tag> distinguished_tags;
};

// The invariants the oracle judges, in the order reviews list them.
const std::vector<std::string>& invariant_names();

enum class AccessKind { read, write, rmw };
const char* access_kind_name(AccessKind k);

class Model {
public:
    Model(const kernel::Variant& v, const ModelConfig& cfg, Chooser& chooser);

    // ---- events ---------------------------------------------------------
    void begin_event(const std::string& label);  // labels reports and violations
    void end_event();                            // KUnit harness step 4/6, oracle checks

    // `caller` says whose needs apply (requirements.hpp); by default the one `kind` implies.
    // `caller_gfp`: what the caller passed when the kernel changed it on the way (its needs).
    int alloc_pages(unsigned order, gfp_t gfp, int cpu, ObjKind kind = ObjKind::pages, const std::string& what = "",
                    std::optional<kernel::Caller> caller = std::nullopt, std::optional<gfp_t> caller_gfp = std::nullopt);
    void free_pages(int obj);
    Ptr page_address(int obj) const;
    int page_object(const Ptr& p) const;  // the page_alloc object whose head page p points at

    Ptr kmalloc(std::uint64_t size, gfp_t gfp, int cpu);
    void kfree(const Ptr& p);
    Ptr krealloc(const Ptr& p, std::uint64_t size, gfp_t gfp, int cpu);
    std::uint64_t ksize(const Ptr& p);
    int kmem_cache_create(const std::string& name, std::uint64_t size, bool ctor = false, bool typesafe_by_rcu = false);
    Ptr kmem_cache_alloc(int cache, gfp_t gfp, int cpu);
    void kmem_cache_free(int cache, const Ptr& p);
    // rcu_barrier(): a grace period passes and every call_rcu callback runs.
    void rcu_barrier();

    // __vmalloc_node_range(): what vmalloc(), vzalloc() and fork's stacks call.
    // `caller_gfp`: what the caller passed, when a filter changed it (its needs).
    Ptr vmalloc(std::uint64_t size, gfp_t gfp, bool prot_kernel, int cpu, ObjKind kind = ObjKind::vmalloc,
                std::optional<gfp_t> caller_gfp = std::nullopt, bool allow_huge = false);
    // vmap() / vm_map_ram() of a page allocation's pages; vunmap() / vm_unmap_ram().
    Ptr vmap(int page_obj, bool map_ram);
    void vunmap(const Ptr& p);
    // __vmalloc(size, gfp): the caller's flags through vmalloc_fix_flags() first.
    Ptr vmalloc_gfp(std::uint64_t size, gfp_t gfp, int cpu);
    void vfree(const Ptr& p);
    Ptr vrealloc(const Ptr& p, std::uint64_t size, gfp_t gfp, int cpu);
    void vrealloc_kasan(int area, Tag ptr_tag, std::uint64_t old_size, std::uint64_t new_size);  // in place
    Ptr vmalloc_to_page_address(const Ptr& p) const;  // page_address(vmalloc_to_page(p))

    // alloc_thread_stack_node(tsk, node): `node` as asked (NUMA_NO_NODE: none).
    Ptr stack_alloc(int cpu, std::optional<int> node = std::nullopt);
    void stack_free(const Ptr& p, int cpu);
    void stack_poison_leftover(const Ptr& stack, std::uint64_t off, std::uint64_t len);
    Ptr pgtable_alloc(bool user, bool slab_backed, int cpu);
    void pgtable_free(const Ptr& p);
    int user_fault(bool vm_mte, int cpu);
    int huge_zero_folio(unsigned order, int cpu);
    void user_set_tag(int obj, std::uint64_t off, std::uint8_t nibble);
    void munmap(int obj);
    // skb_page_frag_refill(): order 3, else the order-0 fallback.
    int skb_alloc(int cpu);
    // alloc_skb_with_frags(): an skb whose frags hold data_len bytes (-1 when it fails).
    int alloc_skb_with_frags(std::uint64_t data_len, unsigned max_page_order, gfp_t gfp, int cpu);
    void kfree_skb(int skb);  // put_page() of every frag
    const Skb& skb(int id) const { return skbs_.at(id); }
    // A kmalloc the KFENCE sampling timer hands to kfence_alloc() (slab_alloc_node);
    // a plain kmalloc when KFENCE is off (the variant's kfence_enabled rule), the
    // pool is full, or the size is above a page.
    Ptr kfence_kmalloc(std::uint64_t size, gfp_t gfp, int cpu);
    // page_address(virt_to_page(p)) + offset_in_page(p): p's linear address with
    // the tag page_kasan_tag() of its page gives.
    Ptr virt_to_page_address(const Ptr& p) const;
    int mempool_create(Mempool::Kind kind, std::uint64_t size_or_order, unsigned min_nr, int cpu);
    Ptr mempool_alloc(int pool, int cpu);
    Ptr mempool_take(int pool, int cpu);  // mempool_alloc_preallocated without the oracle
    // elements in the pool's reserve (a free KASAN reported keeps its element out)
    std::size_t mempool_reserve(int pool) const { return pools_.at(pool).reserve.size(); }
    void mempool_free(int pool, const Ptr& p);

    Ptr set_tag(const Ptr& p, Tag t) const;
    Ptr reset_tag(const Ptr& p) const;
    Ptr offset(const Ptr& p, std::int64_t off) const;
    void set_mem_tag(const Ptr& p, std::uint64_t len, Tag t);  // test hook: kasan_poison(p, len, t)
    // insn: a single load or store the compiler checks with one granule check
    // (its type claims alignment); otherwise a range (mem*, str*, loadN).
    void access(const Ptr& p, std::uint64_t len, AccessKind kind, int cpu, bool insn = false);
    // Another CPU retags the granule of p to `tag` while this CPU's check runs:
    // between the fast path's shadow load and the slow path's (SW_TAGS fastpath
    // style; for the other styles the retag simply lands before the check).
    void access_racing_retag(const Ptr& p, std::uint64_t len, AccessKind kind, int cpu, Tag tag);
    void kasan_check_async(int cpu);

    // ---- queries -----------------------------------------------------------
    std::optional<Tag> mem_tag(const Ptr& p) const;  // nothing if unmapped
    // The MTE allocation tag of p's granule, as a PROT_MTE user mapping sees
    // it (any KASAN mode); nothing if unmapped or the CPU has no MTE.
    std::optional<Tag> mte_allocation_tag(const Ptr& p) const;
    Tag page_tag_of(int obj) const;
    // page_kasan_tag(page): the variant's decoding of the stored bits; 0xFF
    // when KASAN is off or not tag-based, where include/linux/mm.h returns
    // 0xff without reading page->flags.
    Tag page_kasan_tag(std::uint64_t pfn) const;
    Tag page_kasan_tag_of_field(std::uint8_t field) const;  // what page_kasan_tag() reads from a page with it
    bool data_zero(const Ptr& p, std::uint64_t len) const;
    const Object& object(int id) const { return objects_.at(id); }
    const std::vector<Object>& objects() const { return objects_; }
    const std::vector<Report>& reports() const { return reports_; }
    const std::vector<Violation>& violations() const { return violations_; }
    const std::vector<std::string>& notes() const { return notes_; }
    std::size_t warnings() const { return warnings_; }  // WARN()s the kernel printed (a note each)
    // how often the oracle held memory to its zeroing requirement (oracle_zeroed):
    // the events after which a caller is owed zeroes, whatever they held
    std::size_t zeroing_checks() const { return zeroing_checks_; }
    // how often the oracle held an allocation to a match-all pointer
    // (Requirement::match_all_required, oracle_coverage): the events whose
    // pointer a kernel run is asked the tag of, whatever tag it carried
    std::size_t match_all_checks() const { return match_all_checks_; }
    const RuntimeState& runtime() const { return rt_; }
    // Raw state, read by the differential check against the reference.
    std::size_t page_count() const { return pages_.size(); }
    const PageState& page_state(std::uint64_t pfn) const { return pages_.at(pfn); }
    const CpuState& cpu_state(int cpu) const { return cpus_.at(cpu); }
    const CowArray<std::uint8_t>& phys_tags() const { return tag_; }    // per granule of RAM
    // MTE allocation tags (0xF0|nibble) per 16-byte granule: tag_ in HW_TAGS
    // builds; on an MTE machine with another KASAN mode (or none), a store of
    // their own, empty when the machine has no MTE.
    const CowArray<std::uint8_t>& phys_mte_tags() const { return mte_separate() ? mte_tag_ : tag_; }
    Tag mte_tag_at(std::uint64_t pfn, std::uint64_t off) const;
    const CowArray<std::uint32_t>& phys_data() const { return data_; }  // DATA_ZERO / ... per granule
    const kernel::CEnv& env() const { return env_; }
    const GfpLayout& gfp() const { return *gfp_; }
    const kernel::Variant& variant() const { return v_; }
    const ModelConfig& config() const { return cfg_; }
    std::size_t granule() const { return G_; }
    bool panicked() const { return panicked_; }
    std::string format_report(const Report& r) const;
    const std::vector<Tag>& chosen_tags() const { return chosen_tags_; }

private:
    friend struct Oracle;
    friend void state_key_into(const Model&, const std::vector<Ptr>&, std::string&);  // state_key.hpp
    const kernel::Variant& v_;
    ModelConfig cfg_;
    Chooser& ch_;
    RuntimeState rt_;
    kernel::CEnv env_;
    // The variant's page_kasan_tag(env_, field) by field, asked once
    // (kept_answers.hpp: env_ is fixed for a model's life; a copy keeps what
    // its original was told)
    mutable kernel::KeptByteAnswers tag_of_field_;
    // The variant's post_alloc_hook(env_, gfp, order, skip) and
    // vmalloc_node_range(env_, gfp, prot_kernel) plans by their arguments,
    // asked once (kept_answers.hpp), shared with the copies
    struct PostAllocQuestion {
        gfp_t gfp;
        unsigned order;
        std::int64_t skip;
        bool operator==(const PostAllocQuestion&) const = default;
    };
    struct PostAllocQuestionHash {
        std::size_t operator()(const PostAllocQuestion& q) const {
            return std::hash<std::uint64_t>()(q.gfp * 0x9E3779B97F4A7C15ull ^ (std::uint64_t(q.skip) << 5) ^ q.order);
        }
    };
    kernel::KeptAnswers<PostAllocQuestion, kernel::PostAllocPlan<kernel::Concrete>, PostAllocQuestionHash> post_alloc_plans_;
    kernel::KeptAnswers<gfp_t, kernel::VmallocPlan<kernel::Concrete>, std::hash<gfp_t>> vmalloc_plans_[2];  // by prot_kernel
    std::shared_ptr<const GfpLayout> gfp_;  // the variant's, shared by every copy
    std::size_t G_;  // KASAN granule: 8 Generic, 16 otherwise

    // physical memory
    std::vector<PageState> pages_;
    // RAM, per granule, shared page by page between copies (cow_array.hpp)
    CowArray<std::uint8_t> tag_;        // per granule: MTE tag (0xF0|nibble) or shadow byte
    CowArray<std::uint32_t> data_;      // per granule: DATA_ZERO / DATA_STALE / secret
    CowArray<int> tag_by_;              // per granule: who set the tag (object id or TAG_BY_*)
    // User space's MTE tags when KASAN is not HW_TAGS: CONFIG_ARM64_MTE does
    // not need KASAN, so a Generic, SW_TAGS or KASAN-less kernel on an MTE CPU
    // still writes them, through tag_clear_highpage(s) (__GFP_ZEROTAGS) and
    // mte_sync_tags(); KASAN's poisoning never does (it writes shadow).
    CowArray<std::uint8_t> mte_tag_;
    bool mte_separate() const { return cfg_.machine.mte && cfg_.build.mode != Mode::hw_tags; }
    // The MTE tags of whole pages := t, in whichever store holds them.
    void set_mte_page_tags_pfn(std::uint64_t pfn, std::uint64_t npages, std::uint8_t t, int by);
    // How many granules hold each value (physical tags); values ever held by a
    // vmalloc shadow or chosen as a tag. They make random_tag() cheap.
    ValueCounts tag_count_;
    // pages by their page->flags tag field (page_kasan_tag_set() the one
    // writer): random_tag() reads which fields are present without a pass
    // over every page
    ValueCounts field_count_;
    TagSet seen_elsewhere_;
    std::vector<VmArea> areas_;
    std::uint64_t next_vaddr_ = VMALLOC_BASE;
    std::vector<Cache> caches_;
    std::vector<Mempool> pools_;
    std::vector<Skb> skbs_;
    std::vector<Ptr> rcu_deferred_;  // CONFIG_SLUB_RCU_DEBUG frees waiting for the grace period
    // thread_stack_delayed_free(): stacks waiting for thread_stack_free_rcu()
    // (a vm area, or a page object without CONFIG_VMAP_STACK), by freeing CPU.
    struct DelayedStack {
        int area = -1, obj = -1, cpu = 0;
    };
    std::vector<DelayedStack> rcu_stacks_;
    std::size_t vmaps_ = 0;  // vmap aliases made (free_pages looks for them only then)
    int cpu_node(int cpu) const { return cpu % cfg_.machine.nodes; }
    bool try_release_thread_stack_to_cache(int area, int cpu);
    void thread_stack_free_rcu(const DelayedStack& d);
    std::vector<CpuState> cpus_;
    std::vector<Object> objects_;
    std::vector<Report> reports_;
    std::vector<Violation> violations_;
    std::vector<std::string> notes_;
    std::size_t warnings_ = 0;
    std::size_t zeroing_checks_ = 0;
    std::size_t match_all_checks_ = 0;
    void warn(const std::string& msg);  // a kernel WARN(): counted, and noted with the event
    std::vector<Tag> chosen_tags_;
    std::size_t event_ = 0;
    std::string label_;
    bool reported_once_ = false;
    bool panicked_ = false;
    int pgd_cache_ = -1;

    // memory.cpp
    std::size_t gran_per_page() const { return PAGE_SIZE / G_; }
    struct Where { bool mapped; std::uint64_t pfn; std::uint64_t off; bool tagged_mapping; int area; };
    Where translate(std::uint64_t addr) const;
    // [a, end) page by page, one translation each: f(w, a, steps) with the
    // page's mapping, the span's first address, and its granules (stepping by
    // G_ from a, so consecutive at gidx(w.pfn, w.off) when mapped: a mapping
    // covers a whole page). f returns false to stop; so does the walk.
    template <class F>
    bool each_page_span(std::uint64_t a, std::uint64_t end, F f) const {
        while (a < end) {
            const Where w = translate(a);
            const std::uint64_t span = std::min<std::uint64_t>(end - a, PAGE_SIZE - a % PAGE_SIZE);
            const std::uint64_t steps = (span + G_ - 1) / G_;
            if (!f(w, a, steps)) return false;
            a += steps * G_;
        }
        return true;
    }
    std::size_t gidx(std::uint64_t pfn, std::uint64_t off) const { return pfn * gran_per_page() + off / G_; }
    void set_tags(std::uint64_t addr, std::uint64_t len, std::uint8_t tag, int by);
    void set_data(std::uint64_t addr, std::uint64_t len, std::uint32_t d);
    // krealloc / vrealloc moving an object: memcpy(new, old, bytes) (memory.cpp)
    void copy_resized(int from_obj, int to_obj, std::uint64_t bytes, bool asked_zero);
    void set_page_tags_pfn(std::uint64_t pfn, std::uint64_t npages, std::uint8_t tag, int by);
    void set_page_data_pfn(std::uint64_t pfn, std::uint64_t npages, std::uint32_t d);
    void kasan_poison(std::uint64_t addr, std::uint64_t len, std::uint8_t value, bool init);
    void kasan_unpoison(const Ptr& p, std::uint64_t len, bool init, int by);
    bool kasan_byte_accessible(const Ptr& p) const;
    bool kasan_check_byte(const Ptr& p);  // reports when the byte check fails
    std::uint8_t shadow_poison(std::uint8_t generic_code) const;  // value to poison with in this mode
    Tag random_tag(const char* what);
    std::uint64_t linear(std::uint64_t pfn) const { return LINEAR_BASE + pfn * PAGE_SIZE; }
    std::uint64_t pfn_of_linear(std::uint64_t addr) const { return (addr - LINEAR_BASE) / PAGE_SIZE; }

    // page_alloc.cpp
    // page_kasan_tag_set() / _reset() on npages pages; nothing is stored when
    // KASAN is off or not tag-based (the kernel's setter does nothing there).
    void page_kasan_tag_set(std::uint64_t pfn, std::uint64_t npages, Tag t);
    void page_kasan_tag_reset(std::uint64_t pfn, std::uint64_t npages) { page_kasan_tag_set(pfn, npages, KASAN_TAG_KERNEL); }
    // The block's head after post_alloc_hook or free_pages_prepare against the one transition
    // (effects.hpp): a difference is a bug in the model, never a finding.
    void check_block_effect(std::uint64_t pfn, const kernel::BlockEffect<kernel::Concrete>& fx) const;
    void check_slab_effect(int id, std::uint64_t size, const kernel::SlabAllocEffect<kernel::Concrete>& fx,
                           std::uint64_t zero_from, std::uint64_t zero_len) const;
    kernel::BlockState<kernel::Concrete> backing_state(const VmArea& a) const;
    void check_area_effect(const VmArea& a, std::uint64_t size, const kernel::AreaEffect<kernel::Concrete>& fx) const;
    int find_free_block(unsigned order) const;
    // split_page(): a non-compound block becomes order-0 page objects (ids, the first is obj)
    std::vector<int> split_page(int obj);
    int new_object(ObjKind kind, const std::string& what);
    // The allocation reaches its caller: what the caller requires is fixed
    // (requirements.hpp) and the allocation oracle runs. Returns its pointer.
    Ptr hand_out(int obj);
    void free_block(std::uint64_t pfn, unsigned order, int obj);

    // slab.cpp
    int kmalloc_cache_for(std::uint64_t size);
    Ptr slab_alloc(int cache, std::uint64_t size, gfp_t gfp, int cpu, const std::string& what);
    bool slab_free_checks(const Ptr& p, int& obj, const char* fn);
    void slab_free(int obj);
    void slab_release_slot(int obj);  // back on the freelist (Generic: into the quarantine)
    void poison_slab_object(int obj, bool poison, bool init);
    Ptr kmalloc_large(std::uint64_t size, gfp_t gfp, int cpu);
    void kfree_large(const Ptr& p, int obj);

    // vmalloc.cpp
    int area_of(std::uint64_t addr) const;
    VmArea new_vm_area(std::uint64_t npages, std::uint64_t size);
    void remove_vm_area(int area);
    // The area registered with its object (`size` bytes at its start), after
    // kasan_unpoison_vmalloc()'s decision for `plan`: the object id.
    // `mapped_first`: mapped before the unpoison (effects.hpp vmalloc_area_effect).
    int map_vm_area(VmArea va, ObjKind kind, const std::string& what, const kernel::VmallocPlan<kernel::Concrete>& plan,
                    std::uint64_t size, bool mapped_first = true);

    // kfence.cpp: __kfence_pool, (kKfenceObjects + 1) * 2 pages at the top of
    // RAM: two guard pages, then an object page and its guard page per object.
    static constexpr unsigned kKfenceObjects = 2;
    std::uint64_t kfence_pool_pfn_ = 0;
    std::vector<int> kfence_slot_obj_;  // live object per slot, -1 free
    void kfence_init_pool();
    bool is_kfence_address(const Ptr& p) const;  // pointer arithmetic: the tag counts
    bool in_kfence_pool(std::uint64_t addr) const;
    void kfence_free(const Ptr& p);
    void kfree_kfence_page(const Ptr& p);  // a pool address that is_kfence_address() missed

    // boot.cpp: memblock_free_pages() -> __free_pages_core() for every page.
    void release_boot_memory();

    // access.cpp
    void report(Report r);
    std::uint32_t data_written(const Ptr& p, std::uint64_t len) const;
    void report_free(const Ptr& p, const char* bug_type);
    std::string bug_type_for(const Ptr& p, std::uint64_t bad_addr, std::uint8_t mem) const;
    // SW_TAGS: a single-instruction access through the build's check style
    // (model/kernel/checks); returns false when the style does not apply.
    bool sw_style_check(const Ptr& p, std::uint64_t len, bool is_write, int cpu, bool& reported);
    struct RaceRetag {
        std::uint64_t granule;  // kernel address of the granule another CPU retags
        Tag tag;
    };
    std::optional<RaceRetag> race_retag_;  // set by access_racing_retag for the duration of one check

    // oracle.cpp
    void violation(const std::string& invariant, const std::string& msg);
    void oracle_after_alloc(int obj);
    void oracle_zeroed(int obj, std::uint64_t from, const std::string& when);  // [from, size) reads zero
    void oracle_coverage(const Object& o, Tag handed_out);  // 4 detection: the pointer a caller gets
    kernel::Requirement<kernel::Concrete> requirement_of(const Object& o) const;
    void oracle_zero_tags(int obj);  // user pages after mte_sync_tags, the huge zero folio
    void oracle_on_access(const Ptr& p, std::uint64_t len, AccessKind kind, int cpu, bool faulted,
                          bool checked, const std::vector<std::uint64_t>& mismatch_addrs);
    void oracle_on_page_free(int obj, bool poisoned, bool skip_requested_now);
    void oracle_on_free_report(const Ptr& p, const char* bug_type);
    // p is page_address(virt_to_page(x)) + offset: a linear-map address whose
    // tag is its page's page_kasan_tag() (a pointer the kernel may use for
    // any object on the page).
    bool via_page_address(const Ptr& p) const;
    void oracle_tag_chosen(Tag t);
    // flag_based: the build defines __GFP_KASAN_SAMPLE, so only marked allocations are eligible
    void oracle_sampling(int cpu, bool eligible, bool tagged, bool flag_based);
    void oracle_boot();
    std::string ptr_str(const Ptr& p) const;
};

}  // namespace tagproof::spec
