// oracle.cpp — the invariants of DESIGN §4, judged from intent.
//
// The oracle states each property in its own words and never asks the
// variant how to judge: pointer provenance says what an access means (in
// bounds of a live object, out of bounds, use after free, through a
// match-all pointer); the checks below say what must then have happened.
//
//  1 match-all-never-faults  2 mismatch-faults  3 no-false-positive
//  4 detection  5 zeroing  6 page-tag-consistency  7 tag-range
//  8 sampling-accounting  9 mode-isolation (scenario runner, two models)
// 10 gfp-encoding
#include <algorithm>

#include "coverage.hpp"
#include "model.hpp"

namespace tagproof::spec {

const std::vector<std::string>& invariant_names() {
    static const std::vector<std::string> n = {"match-all-never-faults", "mismatch-faults", "no-false-positive",
                                               "detection", "zeroing", "page-tag-consistency", "tag-range",
                                               "sampling-accounting", "mode-isolation", "gfp-encoding"};
    return n;
}

void Model::violation(const std::string& invariant, const std::string& msg) {
    for (const auto& v : violations_)
        if (v.invariant == invariant && v.message == msg) return;
    violations_.push_back({invariant, label_.empty() ? msg : label_ + ": " + msg, event_});
}

// 10 gfp-encoding: every flag bit lies inside __GFP_BITS_MASK, no two flags share a bit.
void Model::oracle_boot() {
    gfp_t seen = 0;
    for (const auto& f : gfp_->single_flags()) {
        if (f.mask == 0) continue;
        if (f.mask & ~gfp_->bits_mask())
            violation("gfp-encoding", f.name + " = " + gfp_->print(f.mask) + " (" + std::to_string(f.mask) +
                                          ") lies outside __GFP_BITS_MASK (__GFP_BITS_SHIFT " +
                                          std::to_string(gfp_->bits_shift()) + ")");
        if (f.mask & seen) violation("gfp-encoding", f.name + " shares its bit with another GFP flag");
        seen |= f.mask;
    }
}

// 7 tag-range: KASAN never assigns the poison or match-all tag as a random tag.
void Model::oracle_tag_chosen(Tag t) {
    bool hw = cfg_.build.mode == Mode::hw_tags;
    Tag lo = hw ? KASAN_TAG_MIN_HW : KASAN_TAG_MIN_SW;
    if (t < lo || t > KASAN_TAG_MAX)
        violation("tag-range", "random tag " + tag_hex(t) + " outside " + tag_hex(lo) + ".." + tag_hex(KASAN_TAG_MAX) +
                                   (t == KASAN_TAG_KERNEL ? " (the match-all tag: this object is never checked)"
                                                          : t == KASAN_TAG_INVALID ? " (the poison tag)" : ""));
}

// 8 sampling-accounting: per CPU, of the eligible allocations exactly the 1st,
// (N+1)th, ... are tagged (from the CPU's starting phase).
void Model::oracle_sampling(int cpu, bool eligible, bool tagged, bool flag_based) {
    if (!eligible) {
        if (!tagged)
            violation("sampling-accounting",
                      flag_based ? "an allocation without __GFP_KASAN_SAMPLE was not tagged (with the flag, only the "
                                   "allocations marked with it are sampled)"
                                 : "an allocation below kasan.page_alloc.sample.order was not tagged");
        return;
    }
    CpuState& c = cpus_[cpu];
    std::uint64_t N = cfg_.boot.page_alloc_sample;
    // counter starts at the phase k: allocations k, k+N, k+2N, ... are tagged
    std::uint64_t i = c.eligible_seen++;
    bool expect = i % N == c.sample_phase % N;
    if (tagged != expect)
        violation("sampling-accounting", "eligible allocation #" + std::to_string(i + 1) + " on CPU " +
                                             std::to_string(cpu) + " was " + (tagged ? "tagged" : "not tagged") +
                                             "; with kasan.page_alloc.sample=" + std::to_string(N) +
                                             " only every " + std::to_string(N) + "th, starting with the 1st, is tagged");
}

// What the object's caller requires (requirements.hpp): the caller, the gfp
// it passed itself, the boot and runtime state. Never the variant's rules.
kernel::Requirement<kernel::Concrete> Model::requirement_of(const Object& o) const {
    kernel::CallerInput<kernel::Concrete> in;
    in.gfp = o.caller_gfp.value_or(o.gfp);
    in.order = o.order;
    in.vm_mte = o.vm_mte;
    in.prot_kernel = o.prot_kernel;
    in.ctor_or_rcu = o.ctor_or_rcu;
    in.typesafe_by_rcu = o.typesafe_by_rcu;
    return kernel::required<kernel::Concrete>(o.caller, env_, in);
}

// 4 detection, coverage: an allocation's pointer carries a random tag unless
// the requirements allow match-all for its caller (KASAN off, Generic, the
// caller's own skip flag, sampling, tsk->stack, user pages, ...) or the
// variant's claims name it. A lost tag is a lost check on every access
// through that pointer, whatever the memory tags say.
// 5 zeroing, at the allocation: memory the caller requires zero holds zero
// (data a wild write left in free memory excepted: that write is the bug).
// Page-tag consistency for page_alloc users is checked on the whole state at
// end_event (a caller may still be re-tagging, e.g. vmalloc).
// 3 no-false-positive, at the allocation: executable memory (vmalloc with a
// prot other than PAGE_KERNEL) is handed out through a match-all pointer,
// since its addresses become the PC (coverage.hpp tagged_code_pointer).
void Model::oracle_coverage(const Object& o, Tag handed_out) {
    const bool area = o.area >= 0;
    kernel::Claims untags;
    untags.untags = v_.untag_claims();
    const kernel::Requirement<kernel::Concrete> need = requirement_of(o);
    if (need.match_all_required) ++match_all_checks_;
    if (kernel::tagged_code_pointer<kernel::Concrete>(need, handed_out))
        violation("no-false-positive", o.what + " is executable memory handed out through a tagged pointer (tag " +
                                           tag_hex(handed_out) + "): the kernel does not tolerate a tagged PC, the "
                                           "first instruction fetched through it faults; an area "
                                           "__vmalloc_node_range() maps with a prot other than PAGE_KERNEL is "
                                           "never tagged");
    const auto loss = kernel::coverage_loss<kernel::Concrete>(env_, untags, o.caller, need, o.gfp,
                                                              handed_out, area, area && areas_[o.area].tagged_mapping);
    if (loss.match_all_pointer)
        violation("detection", o.what + " is handed out through a match-all pointer (tag " + tag_hex(handed_out) +
                                   "): coverage lost, no access through it is checked; " +
                                   kernel::caller_title(o.caller) + " are tagged here, and no claim of " +
                                   v_.name() + " names them (allocated with " + gfp_->print(o.gfp) + ")");
    else if (loss.untagged_mapping)
        violation("detection", o.what + " is handed out with tag " + tag_hex(handed_out) +
                                   " but mapped without MT_NORMAL_TAGGED: coverage lost, no access through it is "
                                   "checked; " + kernel::caller_title(o.caller) + " are tagged here, and no claim of " +
                                   v_.name() + " names them");
}

void Model::oracle_after_alloc(int id) {
    const Object& o = objects_[id];
    oracle_coverage(o, o.tag);
    if (o.promised_zero) oracle_zeroed(id, 0, "");
}

// The bytes [from, size) of object `id` read zero; `when` says what the
// caller did last ("" at its allocation). Page by page
// (each_page_span): a page's granules are consecutive in data_ (the
// per-granule lookup was an eighth of the explorer's time).
void Model::oracle_zeroed(int id, std::uint64_t from, const std::string& when) {
    ++zeroing_checks_;
    const Object& o = objects_[id];
    each_page_span(o.base + from / G_ * G_, o.base + o.size, [&](const Where& w, std::uint64_t a, std::uint64_t steps) {
        if (w.mapped) {
            const std::uint32_t* data = data_.at(gidx(w.pfn, w.off));
            // 16 granules at a time while they all read zero (or wild): no
            // branch inside a block, so gcc -O2 makes it vector compares (one
            // branch a granule was a twentieth of the explorer's time)
            std::uint64_t i = 0;
            for (; i + 16 <= steps; i += 16) {
                std::uint32_t other = 0;
                for (std::uint64_t k = 0; k < 16; ++k)
                    other |= std::uint32_t(data[i + k] != DATA_ZERO) & std::uint32_t(data[i + k] != DATA_WILD);
                if (other) break;
            }
            for (; i < steps; ++i) {
                const std::uint32_t d = data[i];
                if (d == DATA_ZERO || d == DATA_WILD) continue;
                std::string src = d == DATA_STALE ? "stale data" : "a secret of " + objects_[d - 3].what;
                violation("zeroing", o.what + when + " holds " + src + " at offset " +
                                         std::to_string(a + i * G_ - o.base) + ", but " +
                                         kernel::caller_title(o.caller) + " must be zeroed" +
                                         // what asked for the zeroing, and the gfp that lost it
                                         ((o.gfp & env_.gfp.ZERO) ? "" : "; allocated with " + gfp_->print(o.gfp) +
                                                                             ": no __GFP_ZERO") +
                                         (env_.init_on_alloc ? ", with init_on_alloc=1" : ""));
                return false;
            }
        }
        return true;
    });
}

// 6 page-tag-consistency, free side: pages whose caller asked not to be
// tagged (and so not poisoned) must not be poisoned; pages that still carry
// a KASAN tag must be.
void Model::oracle_on_page_free(int id, bool poisoned, bool page_tagged) {
    if (!rt_.hw_tags_enabled) return;
    const Object& o = objects_[id];
    if (o.skip_requested && !page_tagged && poisoned)
        violation("page-tag-consistency", o.what + " skipped tagging at allocation" +
                                              (pages_[o.pfn].sampled_out ? " (sampled out)" : " on request") +
                                              " but was poisoned at free: free-time skip does not match alloc-time skip");
    if (page_tagged && !poisoned)
        violation("page-tag-consistency", o.what + " carries page tag " + tag_hex(page_kasan_tag(o.pfn)) +
                                              " but was not poisoned at free");
}

bool Model::via_page_address(const Ptr& p) const {
    const std::uint64_t ua = p.addr | ~ADDR_MASK;
    return ua >= LINEAR_BASE && ua < LINEAR_BASE + pages_.size() * PAGE_SIZE &&
           p.tag == page_kasan_tag((ua - LINEAR_BASE) / PAGE_SIZE);
}

// 3 no-false-positive, frees: a free report on a live object, through a
// pointer to its start that the kernel hands out (its own, match-all, or
// rebuilt from its page with page_address()), is a report on a valid free.
void Model::oracle_on_free_report(const Ptr& p, const char* bug_type) {
    if (p.obj < 0 || p.null) return;
    const Object& o = objects_[p.obj];
    if (!o.live || (p.addr | ~ADDR_MASK) != o.base) return;
    const bool via_page = via_page_address(p);
    if (p.tag == o.tag || p.tag == KASAN_TAG_KERNEL || via_page)
        violation("no-false-positive", std::string("freeing live ") + o.what + " through " + ptr_str(p) +
                                           (via_page && p.tag != o.tag ? " (page_address() of its page)" : "") +
                                           " reported " + bug_type);
}

// 5 zeroing, tags: a page user space maps as it is (PROT_MTE) must have zero MTE tags.
void Model::oracle_zero_tags(int id) {
    const Object& o = objects_[id];
    if (!requirement_of(o).zero_tags) return;
    const std::uint64_t bytes = PAGE_SIZE << o.order;
    for (std::uint64_t off = 0; off < bytes; off += 16)
        if (Tag t = mte_tag_at(o.pfn + off / PAGE_SIZE, off % PAGE_SIZE); mte_nibble(t) != 0) {
            violation("zeroing", o.what + " is handed to user space with memory tag " + tag_hex(t) +
                                     " at offset " + std::to_string(off) + ", but " +
                                     kernel::caller_title(o.caller) +
                                     " must have zero MTE tags: a PROT_MTE mapping sees them as they are");
            return;
        }
}

namespace {
std::uint64_t round_up(std::uint64_t x, std::uint64_t g) { return (x + g - 1) / g * g; }
}  // namespace

void Model::oracle_on_access(const Ptr& p, std::uint64_t len, AccessKind kind, int cpu, bool faulted, bool checked,
                             const std::vector<std::uint64_t>& bad) {
    const Mode mode = cfg_.build.mode;
    // The tag invariants need KASAN; zeroing (below) holds in every state:
    // with KASAN off the kernel zeroes by kernel_init_pages() instead.
    const bool kasan = rt_.kasan_enabled && mode != Mode::none;
    bool tag_mode = kasan && mode != Mode::generic;
    bool match_all = tag_mode && p.tag == KASAN_TAG_KERNEL;
    std::string what = std::string(access_kind_name(kind)) + " of " + std::to_string(len) + " at " + ptr_str(p);

    // 1 match-all-never-faults
    if (kasan && match_all && faulted) violation("match-all-never-faults", what + " through a match-all pointer faulted");

    // 2 mismatch-faults: the oracle's own comparison (nibbles for MTE, bytes for SW_TAGS)
    if (tag_mode && !match_all) {
        bool hw = mode == Mode::hw_tags;
        bool checking = hw ? (cpus_[cpu].tag_checks_on || faulted) && !(rt_.write_only && kind == AccessKind::read)
                           : true;
        std::uint64_t mism = 0;
        for (std::uint64_t a = p.addr - p.addr % G_; a < p.addr + len; a += G_) {
            Where w = translate(a);
            if (hw && !w.tagged_mapping) continue;
            std::uint8_t m = *mem_tag(Ptr{a, p.tag, -1});
            if (hw ? mte_nibble(m) != mte_nibble(p.tag) : m != p.tag) {
                mism = a;
                break;
            }
        }
        if (checking && mism && !faulted)
            violation("mismatch-faults", what + ": pointer tag " + tag_hex(p.tag) + " differs from memory tag " +
                                             tag_hex(*mem_tag(Ptr{mism, p.tag, -1})) + " at " +
                                             ptr_str(Ptr{mism, p.tag}) + " but no fault was raised");
    }

    if (p.obj < 0) return;
    const Object& o = objects_[p.obj];
    // Where does the access fall relative to the object? Aliases (vmalloc
    // backing pages through page_address) are mapped back to the object.
    auto obj_offset = [&](std::uint64_t a) -> std::int64_t {
        std::uint64_t ua = a | ~ADDR_MASK;
        if (o.area >= 0 && area_of(ua) != o.area && ua >= LINEAR_BASE && ua < VMALLOC_BASE) {
            const VmArea& va = areas_[o.area];
            std::uint64_t pfn = (ua - LINEAR_BASE) / PAGE_SIZE;
            for (std::size_t i = 0; i < va.pfns.size(); ++i)
                if (va.pfns[i] == pfn) return std::int64_t(i * PAGE_SIZE + ua % PAGE_SIZE);
            return -1;
        }
        return std::int64_t(ua) - std::int64_t(o.base);
    };
    std::int64_t off = obj_offset(p.addr);
    bool in_bounds = off >= 0 && std::uint64_t(off) + len <= o.size;
    // a pointer rebuilt from the object's page is its own too (slab pages: 0xff)
    bool own_tag = p.tag == o.tag || match_all || via_page_address(p);

    // Tags a test hook or user space wrote are not KASAN's: no judgement on them.
    bool foreign_tags = false;
    for (std::uint64_t a = p.addr - p.addr % G_; a < p.addr + len; a += G_) {
        Where w = translate(a);
        int by = tag_by_[gidx(w.pfn, w.off)];
        foreign_tags |= by == TAG_BY_TEST || by == TAG_BY_USER;
    }

    // An RCU reader's access to a freed SLAB_TYPESAFE_BY_RCU object before the
    // grace period ends is legal: as good as live for the oracle.
    const kernel::Requirement<kernel::Concrete> need = requirement_of(o);
    const bool rcu_reader = !o.live && o.rcu_gp_open && need.readable_in_grace_period;

    // 3 no-false-positive
    if (kasan && (o.live || rcu_reader) && in_bounds && own_tag && faulted && !foreign_tags)
        violation("no-false-positive", what + " is in bounds of " + (o.live ? "live " : "RCU-readable ") + o.what +
                                           " through its own pointer, yet it faulted");

    // 5 zeroing: reads of a zero-promised object see zero or the owner's own data
    if (o.live && in_bounds && kind != AccessKind::write && o.promised_zero) {
        for (std::uint64_t a = p.addr - p.addr % G_; a < p.addr + len; a += G_) {
            Where w = translate(a);
            std::uint32_t d = data_[gidx(w.pfn, w.off)];
            if (d != DATA_ZERO && d != data_secret(o.id) && d != DATA_WILD) {
                std::string src = d == DATA_STALE ? "stale data" : "a secret of " + objects_[d - 3].what;
                violation("zeroing", what + " of " + o.what + " (promised zero) reads " + src);
                break;
            }
        }
    }

    // 4 detection: an out-of-bounds or use-after-free access through a tagged
    // pointer that was not caught, where the memory still carries the tag
    // KASAN gave this very object: KASAN failed to retag memory it owned.
    if (kasan && !match_all && !(o.live && in_bounds) && !(rcu_reader && in_bounds) && (o.live || need.uaf_caught) &&
        !faulted && checked) {
        for (std::uint64_t a = p.addr - p.addr % G_; a < p.addr + len; a += G_) {
            Where w = translate(a);
            int by;
            // a vmalloc area in the shadow modes (Generic too) has a shadow of its own
            bool software = mode != Mode::hw_tags;
            if (software && w.area >= 0 && !areas_[w.area].vshadow_by.empty()) {
                const VmArea& va = areas_[w.area];
                const std::uint64_t i = ((a | ~ADDR_MASK) - va.start) / G_;
                // past the area's pages (its guard page): no granule of this object
                by = i < va.vshadow_by.size() ? va.vshadow_by[i] : TAG_BY_POISON;
            } else {
                by = tag_by_[gidx(w.pfn, w.off)];
            }
            if (by == TAG_BY_POISON && p.tag != KASAN_TAG_KERNEL &&
                (mode == Mode::hw_tags ? mte_nibble(p.tag) == mte_nibble(KASAN_TAG_INVALID) : p.tag == KASAN_TAG_INVALID)) {
                violation("detection", std::string(o.live ? "out-of-bounds " : "use-after-free ") + what + " (" +
                                           o.what + ") not detected: the object's tag is the poison tag " +
                                           tag_hex(o.tag) + " itself");
                break;
            }
            if (by != o.id) continue;
            std::int64_t go = obj_offset(a);
            if (o.live && go >= 0 && std::uint64_t(go) < round_up(o.size, G_)) continue;  // granule precision: declared
            std::string kind_s = o.live ? "out-of-bounds" : "use-after-free";
            violation("detection", kind_s + " " + what + " (" + o.what + ") not detected: the granule at offset " +
                                       std::to_string(go) + " still carries the object's tag " + tag_hex(o.tag));
            break;
        }
    }
    (void)bad;
}

}  // namespace tagproof::spec
