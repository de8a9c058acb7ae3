// state_key.cpp — see state_key.hpp.
#include "state_key.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <cstring>
#include <stdexcept>

namespace tagproof::spec {

namespace {

// Appends plain values as bytes; sequences as run-length pairs (RAM is
// mostly long runs of one tag and one data value).
struct KeyWriter {
    // the caller's buffer: a key a transition, so its capacity is reused
    // (a fresh string grown from nothing a key was a tenth of a cross-check)
    explicit KeyWriter(std::string& o) : out(o) {}
    std::string& out;
    // HW_TAGS: tags other than the constants are named by first appearance
    // (0, 1, 2, ... from 0x100 up, apart from every real tag value)
    bool rename = false;
    std::bitset<256> fixed;
    std::array<std::uint16_t, 256> name{};
    std::uint16_t next = 0x100;
    std::uint16_t tag(Tag t) {
        if (!rename || fixed.test(t)) return t;
        if (!name[t]) name[t] = next++;
        return name[t];
    }
    template <class A, class B>
    void put(const std::pair<A, B>& v) {
        put(v.first);
        put(v.second);
    }
    // the bytes go to out[0, len): grown by doubling, cut to len at the end
    // (an append per value was a sixth of the explorer's time)
    // (and put() inline, its growth out of line: a call per byte put was a
    // tenth of a cross-check's time)
    std::size_t len = 0;
    template <class T>
    [[gnu::always_inline]] void put(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (len + sizeof v > out.size()) [[unlikely]]
            grow();
        std::memcpy(out.data() + len, &v, sizeof v);
        len += sizeof v;
    }
    [[gnu::noinline]] void grow() { out.resize(std::max({2 * out.size(), std::size_t(4096), out.capacity()})); }
    // Room for `bytes` more, then raw() puts without a check each: a page's
    // record or a chunk's runs as one stretch of stores (a check and a
    // length update a value was a fifth of the key's time)
    void reserve(std::size_t bytes) {
        while (len + bytes > out.size()) grow();
    }
    template <class T>
    [[gnu::always_inline]] void raw(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memcpy(out.data() + len, &v, sizeof v);
        len += sizeof v;
    }
    template <class T>
    void runs(const std::vector<T>& v) {
        put(std::uint32_t(v.size()));
        for (std::size_t i = 0; i < v.size();) {
            std::size_t j = i + 1;
            while (j < v.size() && v[j] == v[i]) ++j;
            put(std::uint32_t(j - i));
            put(v[i]);
            i = j;
        }
    }
    // RAM: runs within each page's chunk (a run that crosses pages is two:
    // still one key per state)
    // (a run's length in 16 bits: a chunk is one page's granules)
    template <class T>
    static void page_sized(const CowArray<T>& v) {
        if (v.chunk_size() > 0xFFFF) throw std::logic_error("state_key: a RAM chunk past 16-bit run lengths");
    }
    template <class T>
    void runs(const CowArray<T>& v) {
        page_sized(v);
        put(std::uint32_t(v.size()));
        for (std::size_t c = 0; c < v.chunks(); ++c) {
            const auto& rs = v.chunk_runs(c);
            reserve(rs.size() * (sizeof(std::uint16_t) + sizeof(T)));
            for (const auto& [n, x] : rs) raw(std::uint16_t(n)), raw(x);
        }
    }
    void tags(const std::vector<std::uint8_t>& v) {  // runs of tags
        put(std::uint32_t(v.size()));
        for (std::size_t i = 0; i < v.size();) {
            const std::size_t j = run_end(v.data(), i, v.size());
            put(std::uint32_t(j - i));
            put(tag(v[i]));
            i = j;
        }
    }
    void tags(const CowArray<std::uint8_t>& v) {
        page_sized(v);
        put(std::uint32_t(v.size()));
        for (std::size_t c = 0; c < v.chunks(); ++c) {
            const auto& rs = v.chunk_runs(c);
            reserve(rs.size() * (sizeof(std::uint16_t) + sizeof(std::uint16_t)));
            for (const auto& [n, t] : rs) raw(std::uint16_t(n)), raw(tag(t));
        }
    }
    void ptr(const Ptr& p) {
        put(p.addr);
        put(tag(p.tag));
        put(p.obj);
        put(p.null);
    }
};

}  // namespace

std::string state_key(const Model& m, const std::vector<Ptr>& held) {
    std::string out;
    state_key_into(m, held, out);
    return out;
}

void state_key_into(const Model& m, const std::vector<Ptr>& held, std::string& out) {
    KeyWriter w(out);
    w.rename = m.cfg_.build.mode == Mode::hw_tags;
    for (Tag t : {KASAN_TAG_KERNEL, KASAN_TAG_INVALID, Tag(0x00), mte_tag_from_nibble(0)}) w.fixed.set(t);
    for (Tag t : m.cfg_.distinguished_tags) w.fixed.set(mte_tag_from_nibble(t & 0xF)), w.fixed.set(t);
    // A page as 14 bytes: its nine flags and its order in one word, its
    // head in 32 bits (a model's pfns are few), the decoded tag, the owner
    // (27 bytes a page, written and hashed at every state, were the most
    // of the key). Lossless, so the same states are the same keys.
    if (m.pages_.size() >= (std::uint64_t(1) << 32)) throw std::logic_error("state_key: more pages than 32-bit pfns");
    w.reserve(m.pages_.size() * 14);
    for (std::uint64_t pfn = 0; pfn < m.pages_.size(); ++pfn) {
        const PageState& ps = m.pages_[pfn];
        if (ps.order >= (1u << 16)) throw std::logic_error("state_key: a page order past 16 bits");
        const std::uint32_t word = std::uint32_t(ps.allocated) | std::uint32_t(ps.head) << 1 |
                                   std::uint32_t(ps.pg_skip_kasan_poison) << 2 | std::uint32_t(ps.pg_mte_tagged) << 3 |
                                   std::uint32_t(ps.reserved) << 4 | std::uint32_t(ps.sampled_out) << 5 |
                                   std::uint32_t(ps.skip_requested) << 6 | std::uint32_t(ps.kfence_pool) << 7 |
                                   std::uint32_t(ps.kfence_protected) << 8 | ps.order << 16;
        // the decoded page tag: the model reads page->flags only through page_kasan_tag()
        const std::uint16_t page_tag = w.tag(m.page_kasan_tag(pfn));
        w.raw(word), w.raw(std::uint32_t(ps.head_pfn)), w.raw(page_tag), w.raw(ps.obj);
    }
    w.tags(m.tag_);
    w.runs(m.data_);
    w.runs(m.tag_by_);
    w.runs(m.mte_tag_);
    for (const Object& o : m.objects_) w.put(w.tag(o.tag));
    for (const Ptr& p : held) w.ptr(p);
    w.put(m.next_vaddr_);
    for (const VmArea& a : m.areas_) {
        w.put(a.id), w.put(a.start), w.put(a.size), w.put(a.tagged_mapping), w.put(a.live), w.put(w.tag(a.tag)), w.put(a.obj);
        w.put(a.is_stack), w.put(a.node);
        w.runs(a.pfns);
        w.runs(a.page_objs);
        w.runs(a.vshadow);
        w.runs(a.vshadow_by);
    }
    for (const Cache& c : m.caches_) {
        w.put(c.id), w.put(c.object_size), w.put(c.slot_size), w.put(c.order), w.put(c.ctor_or_rcu);
        w.put(c.typesafe_by_rcu), w.put(c.is_kmalloc);
        for (const Slab& s : c.slabs) {
            w.put(s.pfn), w.put(s.order);
            w.runs(s.slot_obj);
            w.tags(s.slot_tag);
            w.put(std::uint32_t(s.ring.size()));
            for (const RingEntry& e : s.ring) w.put(e.slot), w.put(w.tag(e.tag)), w.put(e.freed);
        }
        w.runs(c.freelist);
    }
    for (const Mempool& p : m.pools_) {
        w.put(p.id), w.put(p.kind), w.put(p.elem_size), w.put(p.order), w.put(p.cache), w.put(p.min_nr);
        w.put(std::uint32_t(p.reserve.size()));
        for (const Ptr& e : p.reserve) w.ptr(e);
    }
    for (const Skb& s : m.skbs_) {
        w.put(s.id), w.put(s.live);
        w.runs(s.frags);
    }
    w.put(std::uint32_t(m.rcu_deferred_.size()));
    for (const Ptr& p : m.rcu_deferred_) w.ptr(p);
    w.put(std::uint32_t(m.rcu_stacks_.size()));
    for (const auto& d : m.rcu_stacks_) w.put(d.area), w.put(d.obj), w.put(d.cpu);
    w.put(m.vmaps_);
    for (const CpuState& c : m.cpus_) {
        w.put(c.sample_skip), w.put(c.tag_checks_on), w.put(c.tfsr_pending), w.put(c.cached_stacks);
        w.put(c.eligible_seen), w.put(c.sample_phase);
    }
    for (const Object& o : m.objects_) {
        w.put(o.kind), w.put(o.caller), w.put(o.base), w.put(o.size), w.put(o.live);
        w.put(o.promised_zero), w.put(o.promised_zero_tags), w.put(o.resize_zero), w.put(o.vm_mte), w.put(o.prot_kernel);
        w.put(o.ctor_or_rcu), w.put(o.typesafe_by_rcu), w.put(o.rcu_gp_open), w.put(o.skip_requested);
        w.put(o.gfp), w.put(o.caller_gfp.value_or(~gfp_t(0))), w.put(o.order), w.put(o.pfn), w.put(o.cache), w.put(o.slab), w.put(o.slot), w.put(o.area);
        w.put(o.backing), w.put(o.cpu);
    }
    w.put(m.reported_once_), w.put(m.panicked_), w.put(m.pgd_cache_), w.put(m.kfence_pool_pfn_);
    w.runs(m.kfence_slot_obj_);
    w.put(m.rt_.kasan_enabled), w.put(m.rt_.hw_tags_enabled), w.put(m.rt_.check_mode), w.put(m.rt_.vmalloc_on);
    w.put(m.rt_.write_only);
    w.out.resize(w.len);
}

}  // namespace tagproof::spec
