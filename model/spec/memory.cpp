// memory.cpp — construction, address translation, and the granule-level
// primitives kasan_poison / kasan_unpoison / kasan_byte_accessible.
#include <algorithm>
#include <cstring>
#include <set>

#include "error.hpp"
#include "model.hpp"
#include "value_scans.hpp"

namespace tagproof::spec {

const char* obj_kind_name(ObjKind k) {
    switch (k) {
        case ObjKind::pages: return "pages";
        case ObjKind::slab: return "slab";
        case ObjKind::slab_page: return "slab_page";
        case ObjKind::vmalloc_page: return "vmalloc_page";
        case ObjKind::kmalloc_large: return "kmalloc_large";
        case ObjKind::vmalloc: return "vmalloc";
        case ObjKind::stack: return "stack";
        case ObjKind::pgtable: return "pgtable";
        case ObjKind::user_page: return "user_page";
        case ObjKind::mempool_page: return "mempool_page";
        case ObjKind::kfence: return "kfence";
        case ObjKind::vmap: return "vmap";
    }
    return "?";
}

const char* access_kind_name(AccessKind k) {
    switch (k) {
        case AccessKind::read: return "read";
        case AccessKind::write: return "write";
        case AccessKind::rmw: return "rmw";
    }
    return "?";
}

Model::Model(const kernel::Variant& v, const ModelConfig& cfg, Chooser& chooser)
    : v_(v), cfg_(cfg), ch_(chooser), rt_(derive_runtime(cfg.build, cfg.machine, cfg.boot)),
      env_(v.make_env(cfg.build, cfg.machine, cfg.boot, rt_)), gfp_(v.gfp_layout_ptr(cfg.build)),
      G_(cfg.build.mode == Mode::generic ? 8 : 16) {
    if (cfg_.pages < ModelConfig::kMinPages || cfg_.pages > ModelConfig::kMaxPages)
        throw InputError("", "pages must be " + std::to_string(ModelConfig::kMinPages) + ".." +
                                 std::to_string(ModelConfig::kMaxPages));
    if (cfg_.machine.cpus < 1 || cfg_.machine.cpus > ModelConfig::kMaxCpus)
        throw InputError("", "cpus must be 1.." + std::to_string(ModelConfig::kMaxCpus));
    pages_.resize(cfg_.pages);
    field_count_.add(0, std::uint32_t(cfg_.pages));  // memmap starts zeroed
    pages_[0].reserved = true;  // pfn 0: firmware / kernel image, never handed out
    std::size_t n = cfg_.pages * gran_per_page();
    std::uint8_t init;
    switch (cfg_.build.mode) {
        case Mode::hw_tags: init = mte_tag_from_nibble(cfg_.initial_mem_tag); break;
        // KASAN_SHADOW_INIT (include/linux/kasan.h): 0xFE, KASAN_TAG_INVALID,
        // for SW_TAGS since "kasan: initialize shadow to TAG_INVALID for SW_TAGS"
        // (v5.13); 0 for Generic. release_boot_memory() then poisons what the era's
        // free_pages_prepare() poisons.
        case Mode::sw_tags: init = KASAN_TAG_INVALID; break;
        case Mode::generic: init = 0; break;
        default: init = KASAN_TAG_KERNEL; break;
    }
    tag_.assign(n, init, gran_per_page());
    tag_count_.add(init, std::uint32_t(n));
    data_.assign(n, cfg_.boot.init_on_free ? DATA_ZERO : DATA_STALE, gran_per_page());
    tag_by_.assign(n, TAG_BY_BOOT, gran_per_page());
    kfence_init_pool();
    release_boot_memory();
    if (mte_separate())
        mte_tag_.assign(cfg_.pages * (PAGE_SIZE / 16), mte_tag_from_nibble(cfg_.initial_mem_tag), PAGE_SIZE / 16);
    cpus_.resize(cfg_.machine.cpus);
    for (const auto& l : rt_.boot_log) notes_.push_back(l);
    for (const auto& t : cfg_.boot.not_modelled) notes_.push_back("boot parameter '" + t + "' is not modelled");
    if (cfg_.sample_phase_any && rt_.hw_tags_enabled && cfg_.boot.page_alloc_sample > 1) {
        std::uint64_t N = cfg_.boot.page_alloc_sample;
        if (N > 64) throw InputError("", "sample_phase=any needs kasan.page_alloc.sample <= 64");
        for (auto& c : cpus_) {
            std::vector<Option> opts(N, Option{1, N});
            c.sample_skip = std::int64_t(ch_.choose(opts, "sample_phase"));
            c.sample_phase = std::uint64_t(c.sample_skip);
        }
    }
    oracle_boot();
}

Model::Where Model::translate(std::uint64_t addr) const {
    addr |= ~ADDR_MASK;  // compare untagged
    if (addr >= LINEAR_BASE && addr < LINEAR_BASE + pages_.size() * PAGE_SIZE) {
        std::uint64_t pfn = (addr - LINEAR_BASE) / PAGE_SIZE;
        if (pages_[pfn].kfence_protected) return {false, pfn, addr % PAGE_SIZE, true, -1};  // not present
        return {true, pfn, addr % PAGE_SIZE, true, -1};
    }
    int a = area_of(addr);
    if (a >= 0) {
        const VmArea& va = areas_[a];
        std::uint64_t idx = (addr - va.start) / PAGE_SIZE;
        if (idx < va.pfns.size()) return {true, va.pfns[idx], addr % PAGE_SIZE, va.tagged_mapping, a};
    }
    return {false, 0, 0, false, -1};
}

// Page by page (each_page_span), not per granule: the per-granule lookup was
// a fifth of a review's corpus time.
void Model::set_tags(std::uint64_t addr, std::uint64_t len, std::uint8_t t, int by) {
    bool software = cfg_.build.mode == Mode::generic || cfg_.build.mode == Mode::sw_tags;
    std::uint8_t stored = cfg_.build.mode == Mode::hw_tags ? mte_tag_from_nibble(t) : t;
    each_page_span(addr, addr + len, [&](const Where& w, std::uint64_t a, std::uint64_t steps) {
        // MTE: an allocation tag store through a mapping that is not Normal
        // Tagged is ignored (the Arm ARM's AArch64.MemTag[] assignment; 6.12.118
        // under QEMU MTE: STG over vm_map_ram()'s PAGE_KERNEL alias left the
        // page's tag as it was, docs/decisions.md)
        if (w.mapped && !software && !w.tagged_mapping) return true;
        if (w.mapped && !(software && w.area >= 0)) {
            // the granules' own tags, consecutive in tag_ (one page: one
            // chunk). The counts move by runs, read before anything is
            // written; then the tags are one memset and the writers one fill
            // (a loop doing all three per granule was a tenth of the
            // explorer's time), and a page that holds the tag already is not
            // unshared.
            const std::size_t g0 = gidx(w.pfn, w.off);
            const std::uint8_t* old = tag_.at(g0);
            std::uint32_t changed = 0;
            for (std::uint64_t i = 0; i < steps;) {
                const std::uint8_t t = old[i];
                const std::uint64_t j = run_end(old, i, steps);
                if (t != stored) {
                    tag_count_.sub(t, std::uint32_t(j - i));
                    changed += std::uint32_t(j - i);
                }
                i = j;
            }
            if (changed) {
                tag_count_.add(stored, changed);
                std::memset(tag_.span(g0, steps), stored, steps);
            }
            tag_by_.fill(g0, g0 + steps, by);
        } else if (w.mapped) {
            // a vm area's own shadow (Generic, SW_TAGS): kept outside tag_;
            // the page's granules are consecutive there too (two divisions
            // per granule were a third of this function's time)
            VmArea& va = areas_[w.area];
            const std::size_t v0 = (((a | ~ADDR_MASK) - va.start) / G_);
            seen_elsewhere_.set(stored);
            std::fill_n(va.vshadow.begin() + std::ptrdiff_t(v0), steps, stored);
            std::fill_n(va.vshadow_by.begin() + std::ptrdiff_t(v0), steps, by);
        }
        return true;
    });
}

// krealloc() / vrealloc() moving an object (mm/slab_common.c __do_krealloc,
// mm/vmalloc.c vrealloc: memcpy(new, old, old size), then the old one freed).
// What the caller could read in the old object it may read in the new one:
// its own data stays its own, and so does whatever the old object held
// unpromised (an allocation that asked no zeroing may hold anything). A
// previous owner's data in an object that was promised zero is that
// promise's breach, and is copied as it is, to be seen where it is read. Their
// kernel-doc honours __GFP_ZERO only when every call from the allocation on
// asked for it: the new object's resize_zero is the old one's and this call's.
void Model::copy_resized(int from_obj, int to_obj, std::uint64_t bytes, bool asked_zero) {
    const Object& o = objects_[from_obj];
    Object& n = objects_[to_obj];
    for (std::uint64_t a = 0; a < bytes; a += G_) {
        const Where wo = translate(o.base + a), wn = translate(n.base + a);
        const std::uint32_t d = data_[gidx(wo.pfn, wo.off)];
        const bool own = d == data_secret(from_obj) || (d != DATA_ZERO && !o.promised_zero);
        data_.set(gidx(wn.pfn, wn.off), own ? data_secret(to_obj) : d);
    }
    n.resize_zero = o.resize_zero && asked_zero;
}

void Model::set_data(std::uint64_t addr, std::uint64_t len, std::uint32_t d) {
    if (len == 0) return;
    each_page_span(addr - addr % G_, addr + len, [&](const Where& w, std::uint64_t, std::uint64_t steps) {
        if (w.mapped) data_.fill(gidx(w.pfn, w.off), gidx(w.pfn, w.off) + steps, d);
        return true;
    });
}

void Model::set_page_tags_pfn(std::uint64_t pfn, std::uint64_t npages, std::uint8_t t, int by) {
    set_tags(linear(pfn), npages * PAGE_SIZE, t, by);
}

void Model::set_mte_page_tags_pfn(std::uint64_t pfn, std::uint64_t npages, std::uint8_t t, int by) {
    if (cfg_.build.mode == Mode::hw_tags) {
        set_page_tags_pfn(pfn, npages, t, by);
        return;
    }
    if (!cfg_.machine.mte) return;  // no MTE: nothing holds tags (the callers need MTE anyway)
    const std::uint64_t per = PAGE_SIZE / 16;
    mte_tag_.fill(pfn * per, (pfn + npages) * per, t);
}

Tag Model::mte_tag_at(std::uint64_t pfn, std::uint64_t off) const {
    if (cfg_.build.mode == Mode::hw_tags) return tag_[gidx(pfn, off)];
    if (!mte_separate()) return KASAN_TAG_KERNEL;
    return mte_tag_[pfn * (PAGE_SIZE / 16) + off / 16];
}

void Model::set_page_data_pfn(std::uint64_t pfn, std::uint64_t npages, std::uint32_t d) {
    data_.fill(gidx(pfn, 0), gidx(pfn + npages, 0), d);
}

std::uint8_t Model::shadow_poison(std::uint8_t generic_code) const {
    return cfg_.build.mode == Mode::generic ? generic_code : KASAN_TAG_INVALID;
}

// kasan_poison(): HW: tags := value (+ data zeroed if init, integrated init);
// SW/Generic: shadow := value, init ignored. Callers check kasan_enabled().
void Model::kasan_poison(std::uint64_t addr, std::uint64_t len, std::uint8_t value, bool init) {
    if (cfg_.build.mode == Mode::none) return;
    set_tags(addr, len, value, TAG_BY_POISON);
    if (init && cfg_.build.mode == Mode::hw_tags) set_data(addr, len, DATA_ZERO);
}

// kasan_unpoison(): the pointer's own tag over round_up(len, G). Generic marks
// the last partial granule with the number of accessible bytes.
void Model::kasan_unpoison(const Ptr& p, std::uint64_t len, bool init, int by) {
    if (cfg_.build.mode == Mode::none || len == 0) return;
    std::uint64_t rounded = (len + G_ - 1) / G_ * G_;
    if (cfg_.build.mode == Mode::generic) {
        set_tags(p.addr, rounded, 0, by);
        if (len % G_) set_tags(p.addr + rounded - G_, G_, std::uint8_t(len % G_), by);
        return;
    }
    set_tags(p.addr, rounded, p.tag, by);
    if (init && cfg_.build.mode == Mode::hw_tags) set_data(p.addr, rounded, DATA_ZERO);
}

// kasan_byte_accessible() (mm/kasan/kasan.h, current two-clause form for tag
// modes): pointer tag match-all, or equal to the first granule's memory tag.
// Generic: the shadow byte of the first byte is not a poison code.
bool Model::kasan_byte_accessible(const Ptr& p) const {
    if (!rt_.kasan_enabled) return true;
    Where w = translate(p.addr);
    if (!w.mapped) return false;
    bool software = cfg_.build.mode == Mode::generic || cfg_.build.mode == Mode::sw_tags;
    std::uint8_t m;
    if (software && w.area >= 0) {
        const VmArea& va = areas_[w.area];
        m = va.vshadow[((p.addr | ~ADDR_MASK) - va.start) / G_];
    } else {
        m = tag_[gidx(w.pfn, w.off)];
    }
    if (cfg_.build.mode == Mode::generic) return m < 0x80 && (m == 0 || (p.addr % G_) < m);
    if (cfg_.build.mode == Mode::hw_tags) return p.tag == KASAN_TAG_KERNEL || mte_nibble(p.tag) == mte_nibble(m);
    return p.tag == KASAN_TAG_KERNEL || p.tag == m;
}

// kasan_random_tag(), as a nondeterministic choice. Tags are compared only for
// equality with each other and with the values already in the state, so the
// options are: each tag already present (weight 1/R each) and one fresh tag
// standing for all the others (weight (R-k)/R). This is exact, and keeps
// SW_TAGS' 254 tags enumerable.
Tag Model::random_tag(const char* what) {
    if (cfg_.build.mode == Mode::generic || cfg_.build.mode == Mode::none) return KASAN_TAG_KERNEL;
    unsigned lo = v_.random_tag_min(env_), hi = v_.random_tag_max(env_);
    unsigned R = hi - lo + 1;
    // The values present, 64 to a word (tag_set.hpp): four passes of 256
    // values each were a fifth of a review's corpus time.
    TagSet present = seen_elsewhere_ | tag_count_.held;
    // constants the model itself writes: tag_clear_highpage / mte_sync_tags zero tags
    present.set(0x00);
    for (Tag t : cfg_.distinguished_tags) present.set(t);
    // HW_TAGS compares the low nibble alone: each value held stands for 0xF0 | its nibble
    if (cfg_.build.mode == Mode::hw_tags) present = present.mte_nibbles();
    present.set(KASAN_TAG_KERNEL);
    present.set(KASAN_TAG_INVALID);
    // every page's tag, as page_kasan_tag() reads it: each distinct stored
    // field decoded once (a virtual call per page made this loop a twentieth
    // of a review; a pass over the pages for the fields, a fiftieth)
    field_count_.held.for_each([&](unsigned f) { present.set(page_kasan_tag_of_field(std::uint8_t(f))); });
    // The fresh tag first: a chooser that leans to index 0 (a shrunk RapidCheck
    // case) then draws distinct tags, and collisions are the deliberate choice.
    const TagSet in_range = present.range(lo, std::min(hi, 255u));
    std::vector<unsigned> cands;
    std::vector<Option> opts;
    const unsigned k = in_range.count();
    cands.reserve(k + 1);  // one allocation each, not one per doubling
    opts.reserve(k + 1);
    if (k < R) {
        unsigned fresh = lo;
        while (present.test(fresh)) ++fresh;
        cands.push_back(fresh);
        opts.push_back({R - k, R});
    }
    in_range.for_each([&](unsigned t) {
        cands.push_back(t);
        opts.push_back({1, R});
    });
    Tag t = Tag(cands[ch_.choose(opts, what)]);
    chosen_tags_.push_back(t);
    seen_elsewhere_.set(t);  // pointers keep it after the memory is retagged
    oracle_tag_chosen(t);
    return t;
}

std::optional<Tag> Model::mem_tag(const Ptr& p) const {
    Where w = translate(p.addr);
    if (!w.mapped) return std::nullopt;
    bool software = cfg_.build.mode == Mode::generic || cfg_.build.mode == Mode::sw_tags;
    if (software && w.area >= 0) {
        const VmArea& va = areas_[w.area];
        return va.vshadow[((p.addr | ~ADDR_MASK) - va.start) / G_];
    }
    return tag_[gidx(w.pfn, w.off)];
}

std::optional<Tag> Model::mte_allocation_tag(const Ptr& p) const {
    Where w = translate(p.addr);
    if (!w.mapped || !cfg_.machine.mte) return std::nullopt;
    return mte_tag_at(w.pfn, w.off);
}

// Every granule of [addr rounded down, addr + len) holds zero. One
// translation per page, as set_tags (a mapping covers a whole page), then the
// page's granules read in place.
bool Model::data_zero(const Ptr& p, std::uint64_t len) const {
    return each_page_span(p.addr - p.addr % G_, p.addr + len, [&](const Where& w, std::uint64_t, std::uint64_t steps) {
        if (!w.mapped) return false;
        const std::uint32_t* d = data_.at(gidx(w.pfn, w.off));  // the rest of the page's granules
        return all_equal(d, steps, std::uint32_t(DATA_ZERO));  // 16 at a time (value_scans.hpp)
    });
}

std::string Model::ptr_str(const Ptr& p) const {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)p.value());
    return buf;
}

}  // namespace tagproof::spec
