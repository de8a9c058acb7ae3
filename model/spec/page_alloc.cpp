// page_alloc.cpp — alloc_pages / free_pages through the variant's
// post_alloc_hook and free_pages_prepare, and the event bracket.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "error.hpp"
#include "effects.hpp"
#include "model.hpp"
#include "value_scans.hpp"

namespace tagproof::spec {

void Model::begin_event(const std::string& label) {
    ++event_;
    label_ = label;
}

void Model::end_event() {
    if (cfg_.kunit_harness) {
        // KUNIT_EXPECT_KASAN_FAIL step 4: kasan_force_async_fault(); step 6:
        // re-enable tag checking on the CPU after a synchronous report.
        for (int c = 0; c < (int)cpus_.size(); ++c) {
            kasan_check_async(c);
            cpus_[c].tag_checks_on = true;
        }
    }
    // page-tag-consistency, checked on the whole state after every event.
    for (const Object& o : objects_) {
        if (!o.live || cfg_.build.mode == Mode::generic || !rt_.kasan_enabled) continue;
        if (o.kind != ObjKind::pages && o.kind != ObjKind::pgtable && o.kind != ObjKind::user_page &&
            o.kind != ObjKind::mempool_page && o.kind != ObjKind::kfence)
            continue;
        Tag pt = page_kasan_tag(o.pfn);
        if (pt == KASAN_TAG_KERNEL) continue;
        if (o.kind == ObjKind::mempool_page && pools_.size()) {
            // a page in a mempool's reserve is poisoned while keeping its page tag
            bool in_reserve = false;
            for (const auto& pl : pools_)
                for (const auto& e : pl.reserve) in_reserve |= e.obj == o.id;
            if (in_reserve) continue;
        }
        // page by page (each_page_span: the granules of a page share its translation)
        each_page_span(o.base, o.base + (PAGE_SIZE << o.order), [&](const Where& w, std::uint64_t a, std::uint64_t steps) {
            // an unmapped page (KFENCE's guard) has no tag to disagree with
            const std::size_t g0 = w.mapped ? gidx(w.pfn, w.off) : 0;
            const bool hw = cfg_.build.mode == Mode::hw_tags;
            // the common case first: every granule holds the page tag's own
            // byte (one page: one chunk, read in place)
            if (w.mapped) {
                const std::uint8_t want = hw ? mte_tag_from_nibble(mte_nibble(pt)) : pt;
                // 16 at a time (value_scans.hpp): this scan runs over every live
                // page after every event; std::all_of compares a byte a branch
                if (all_equal(tag_.at(g0), steps, want)) return true;
            }
            for (std::uint64_t i = 0; w.mapped && i < steps; ++i) {
                const std::uint8_t m = tag_[g0 + i];
                if (hw ? mte_nibble(m) == mte_nibble(pt) : m == pt) continue;
                if (tag_by_[g0 + i] == TAG_BY_USER || tag_by_[g0 + i] == TAG_BY_TEST) continue;
                violation("page-tag-consistency",
                          "page_address() of " + o.what + " carries tag " + tag_hex(pt) +
                              " but the memory tag at offset " + std::to_string(a + i * G_ - o.base) + " is " +
                              tag_hex(m) + ": an access through page_address() faults");
                return false;  // one report per object
            }
            return true;
        });
    }
}

void Model::warn(const std::string& msg) {
    ++warnings_;
    notes_.push_back(label_ + ": WARNING: " + msg);
}

int Model::new_object(ObjKind kind, const std::string& what) {
    Object o;
    o.id = (int)objects_.size();
    o.kind = kind;
    o.what = what;
    objects_.push_back(o);
    return o.id;
}

Ptr Model::hand_out(int id) {
    Object& o = objects_[id];
    o.promised_zero = requirement_of(o).zero_data;
    oracle_after_alloc(id);
    return Ptr{o.base, o.tag, id};
}

int Model::find_free_block(unsigned order) const {
    std::uint64_t n = std::uint64_t(1) << order;
    for (std::uint64_t pfn = n; pfn + n <= pages_.size(); pfn += n) {
        bool ok = true;
        for (std::uint64_t i = 0; i < n && ok; ++i) ok = !pages_[pfn + i].allocated && !pages_[pfn + i].reserved;
        if (ok) return (int)pfn;
    }
    return -1;
}

namespace {
kernel::Caller caller_of_kind(ObjKind k) {
    using kernel::Caller;
    switch (k) {
        case ObjKind::stack: return Caller::thread_stack;
        case ObjKind::pgtable: return Caller::pgtable_kernel;
        case ObjKind::user_page: return Caller::user_page;
        case ObjKind::vmalloc_page: return Caller::vmalloc_page;
        case ObjKind::mempool_page: return Caller::mempool_page;
        case ObjKind::slab_page: return Caller::slab_page;
        case ObjKind::kmalloc_large: return Caller::kmalloc_large;
        case ObjKind::kfence: return Caller::kfence;
        case ObjKind::vmap: return Caller::vmap;
        default: return Caller::alloc_pages;
    }
}
}  // namespace

int Model::alloc_pages(unsigned order, gfp_t gfp, int cpu, ObjKind kind, const std::string& what,
                       std::optional<kernel::Caller> caller, std::optional<gfp_t> caller_gfp) {
    if (cpu < 0 || cpu >= (int)cpus_.size()) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (order > 10) throw InputError("", "order " + std::to_string(order) + " is above MAX_PAGE_ORDER (10)");
    // __alloc_pages(): gfp &= gfp_allowed_mask (__GFP_BITS_MASK after boot): a
    // bit above the mask is dropped before any decision sees it.
    if (gfp_t dropped = gfp & ~gfp_->bits_mask()) {
        notes_.push_back(label_ + ": gfp_allowed_mask drops " + gfp_->print(dropped) + " (above __GFP_BITS_MASK, " +
                         "__GFP_BITS_SHIFT " + std::to_string(gfp_->bits_shift()) + ")");
        gfp &= gfp_->bits_mask();
    }
    int pfn = find_free_block(order);
    if (pfn < 0) {
        notes_.push_back(label_ + ": page allocation failure: order:" + std::to_string(order) + ", mode:" +
                         gfp_->print(gfp) + " (the model has " + std::to_string(pages_.size()) + " pages)");
        return -1;
    }
    int id = new_object(kind, what.empty() ? "alloc_pages(order=" + std::to_string(order) + ", " + gfp_->print(gfp) + ")"
                                           : what);
    std::uint64_t n = std::uint64_t(1) << order;
    for (std::uint64_t i = 0; i < n; ++i) {
        PageState& pg = pages_[pfn + i];
        pg.allocated = true;
        pg.head = i == 0;
        pg.order = order;
        pg.head_pfn = pfn;
        pg.obj = id;
        pg.sampled_out = false;
    }
    const std::int64_t skip = cpus_[cpu].sample_skip;
    auto plan = post_alloc_plans_.get({gfp, order, skip}, [&] { return v_.post_alloc_hook(env_, gfp, order, skip); });
    bool eligible_attempt = plan.unpoison || plan.sampled_out;
    cpus_[cpu].sample_skip = std::int64_t(plan.sample_skip_next);

    // The plan, in post_alloc_hook's order (model/kernel/effects.hpp states it
    // once: the page tag is taken from there; the granules' writes below must
    // give its memory tag, MTE tag and data, which the check after them asks).
    const Tag drawn = plan.unpoison ? random_tag("page_alloc tag") : KASAN_TAG_KERNEL;
    const auto fx = kernel::post_alloc_effect<kernel::Concrete>(env_, plan, drawn);
    if (plan.tag_clear) {
        // tag_clear_highpage(s): MTE tags := 0 through page_address (PG_mte_tagged below, effects.hpp).
        set_mte_page_tags_pfn(pfn, n, 0xF0, TAG_BY_TAG_CLEAR);
        if (plan.tag_clear_data) set_page_data_pfn(pfn, n, DATA_ZERO);
    }
    for (std::uint64_t i = 0; i < n; ++i) pages_[pfn + i].pg_mte_tagged = kernel::pg_mte_tagged_after_alloc(env_, plan);
    const Tag t = drawn;
    if (plan.unpoison) {
        Ptr p{linear(pfn), cfg_.build.mode == Mode::generic ? KASAN_TAG_KERNEL : t, id};
        kasan_unpoison(p, n * PAGE_SIZE, plan.unpoison_init, id);
    }
    if (plan.sampled_out) pages_[pfn].sampled_out = true;
    if (fx.page_tag_written) page_kasan_tag_set(pfn, n, Tag(fx.page_tag));  // unpoison's tag, or the reset after it
    if (plan.kernel_init) set_page_data_pfn(pfn, n, DATA_ZERO);
    check_block_effect(pfn, fx);
    if (plan.set_skip_poison_flag) pages_[pfn].pg_skip_kasan_poison = true;

    Object& o = objects_[id];
    o.base = linear(pfn);
    o.size = n * PAGE_SIZE;
    o.order = order;
    o.pfn = pfn;
    o.gfp = gfp;
    o.caller_gfp = caller_gfp;
    o.cpu = cpu;
    o.tag = page_address(id).tag;
    o.caller = caller ? *caller : caller_of_kind(kind);
    o.promised_zero = requirement_of(o).zero_data;
    o.promised_zero_tags = (gfp & env_.gfp.ZEROTAGS) && cfg_.machine.mte;
    gfp_t skip_flag = gfp_->defines("__GFP_SKIP_KASAN_POISON") ? gfp_->mask("__GFP_SKIP_KASAN_POISON")
                                                               : (gfp_->defines("__GFP_SKIP_KASAN") ? gfp_->mask("__GFP_SKIP_KASAN") : 0);
    o.skip_requested = (rt_.hw_tags_enabled && (gfp & skip_flag)) || plan.sampled_out;
    pages_[pfn].skip_requested = o.skip_requested;

    // sampling-accounting: which allocations reached kasan_unpoison_pages and were eligible.
    if (rt_.hw_tags_enabled && cfg_.boot.page_alloc_sample > 1 && eligible_attempt) {
        bool flag_based = gfp_->defines("__GFP_KASAN_SAMPLE");
        bool eligible = flag_based ? (gfp & gfp_->mask("__GFP_KASAN_SAMPLE")) != 0
                                   : order >= cfg_.boot.page_alloc_sample_order;
        oracle_sampling(cpu, eligible, plan.unpoison, flag_based);
    }
    oracle_after_alloc(id);
    return id;
}

void Model::free_pages(int id) {
    Object& o = objects_.at(id);
    if (!o.live) {
        Report r;
        r.kasan = false;
        r.bug_type = "bad-page-state";
        r.addr = o.base;
        r.event = event_;
        r.where = label_;
        reports_.push_back(r);
        notes_.push_back(label_ + ": BUG: Bad page state (freeing a free page); not a KASAN report");
        return;
    }
    std::uint64_t pfn = o.pfn;
    kernel::FreeInput<kernel::Concrete> in;
    in.page_tag = page_kasan_tag(pfn);
    in.pg_skip_kasan_poison = pages_[pfn].pg_skip_kasan_poison;
    in.fpi_skip_kasan_poison = false;
    auto plan = v_.free_pages_prepare(env_, in);
    std::uint64_t n = std::uint64_t(1) << o.order;
    bool page_tagged = in.page_tag != KASAN_TAG_KERNEL;
    if (plan.poison) kasan_poison(linear(pfn), n * PAGE_SIZE, shadow_poison(KASAN_PAGE_FREE_GENERIC), plan.poison_init);
    if (plan.kernel_init) set_page_data_pfn(pfn, n, DATA_ZERO);
    check_block_effect(pfn, kernel::free_pages_effect<kernel::Concrete>(env_, plan));
    oracle_on_page_free(id, plan.poison, page_tagged);
    free_block(pfn, o.order, id);
    // A vmap alias of these pages stays mapped but owns nothing any more: a
    // use through it is the caller's use-after-free (KASAN cannot see it).
    if (vmaps_)
        for (Object& a : objects_)
            if (a.kind == ObjKind::vmap && a.backing == id) a.live = false;
}

void Model::free_block(std::uint64_t pfn, unsigned order, int id) {
    std::uint64_t n = std::uint64_t(1) << order;
    for (std::uint64_t i = 0; i < n; ++i) {
        PageState& pg = pages_[pfn + i];
        pg.allocated = false;
        pg.head = false;
        pg.obj = -1;
        pg.pg_skip_kasan_poison = false;  // page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP
        pg.pg_mte_tagged = false;
        pg.skip_requested = false;
    }
    objects_[id].live = false;
}

Ptr Model::page_address(int id) const {
    const Object& o = objects_.at(id);
    Ptr p;
    p.addr = linear(o.pfn);
    p.obj = id;
    // page_to_virt(): __tag_set(addr, page_kasan_tag(page)); page_kasan_tag()
    // reads 0xFF when KASAN is off and in non-tag builds.
    p.tag = page_kasan_tag(o.pfn);
    return p;
}

Tag Model::page_kasan_tag(std::uint64_t pfn) const { return page_kasan_tag_of_field(pages_[pfn].kasan_tag_field); }

Tag Model::page_kasan_tag_of_field(std::uint8_t field) const {
    bool tags = rt_.kasan_enabled && (cfg_.build.mode == Mode::hw_tags || cfg_.build.mode == Mode::sw_tags);
    if (!tags) return KASAN_TAG_KERNEL;
    return tag_of_field_.get(field, [&] { return v_.page_kasan_tag(env_, field); });
}

void Model::check_block_effect(std::uint64_t pfn, const kernel::BlockEffect<kernel::Concrete>& fx) const {
    auto bad = [&](const std::string& what, unsigned got, unsigned want) {
        char b[160];
        std::snprintf(b, sizeof b, "%s of pfn %llu is 0x%02x, effects.hpp says 0x%02x", what.c_str(), (unsigned long long)pfn,
                      got, want);
        throw std::logic_error(std::string("the model's writes and effects.hpp disagree: ") + b);
    };
    const Mode m = cfg_.build.mode;
    if (fx.page_tag_written && page_kasan_tag(pfn) != Tag(fx.page_tag) &&
        rt_.kasan_enabled && (m == Mode::hw_tags || m == Mode::sw_tags))
        bad("the page tag", page_kasan_tag(pfn), unsigned(fx.page_tag));
    // Generic's shadow holds no tag: its memory tag is not compared
    if (fx.mem_written && m != Mode::generic && tag_[gidx(pfn, 0)] != std::uint8_t(fx.mem_tag))
        bad("the memory tag", tag_[gidx(pfn, 0)], unsigned(fx.mem_tag));
    if (fx.mte_written && mte_tag_at(pfn, 0) != Tag(fx.mte_tag)) bad("the MTE tag", mte_tag_at(pfn, 0), unsigned(fx.mte_tag));
    if (fx.data_zeroed && data_[gidx(pfn, 0)] != DATA_ZERO) bad("the data", data_[gidx(pfn, 0)], DATA_ZERO);
}

void Model::page_kasan_tag_set(std::uint64_t pfn, std::uint64_t npages, Tag t) {
    bool tags = rt_.kasan_enabled && (cfg_.build.mode == Mode::hw_tags || cfg_.build.mode == Mode::sw_tags);
    if (!tags) return;
    const auto field = std::uint8_t(v_.page_kasan_tag_field(env_, t));
    for (std::uint64_t i = 0; i < npages; ++i) {
        field_count_.sub(pages_[pfn + i].kasan_tag_field, 1);
        field_count_.add(field, 1);
        pages_[pfn + i].kasan_tag_field = field;
    }
}

int Model::page_object(const Ptr& p) const {
    Where w = translate(p.addr);
    if (!w.mapped || w.area >= 0) return -1;
    const PageState& pg = pages_[w.pfn];
    if (!pg.allocated) {
        // a freed block: find the last object that had this head page
        for (int i = (int)objects_.size() - 1; i >= 0; --i)
            if (objects_[i].pfn == w.pfn && objects_[i].base == (p.addr | ~ADDR_MASK)) return i;
        return -1;
    }
    return pg.obj;
}

Tag Model::page_tag_of(int id) const { return page_address(id).tag; }

std::vector<int> Model::split_page(int id) {
    const unsigned order = objects_.at(id).order;
    const std::uint64_t pfn = objects_[id].pfn, n = std::uint64_t(1) << order;
    std::vector<int> ids{id};
    for (std::uint64_t i = 1; i < n; ++i) {
        int nid = new_object(objects_[id].kind, objects_[id].what);
        Object o = objects_[id];
        o.id = nid;
        o.pfn = pfn + i;
        o.base = linear(pfn + i);
        o.order = 0;
        o.size = PAGE_SIZE;
        objects_[nid] = o;
        PageState& pg = pages_[pfn + i];
        pg.head = true;
        pg.order = 0;
        pg.head_pfn = pfn + i;
        pg.obj = nid;
        pg.skip_requested = pages_[pfn].skip_requested;
        ids.push_back(nid);
    }
    objects_[id].order = 0;
    objects_[id].size = PAGE_SIZE;
    pages_[pfn].order = 0;
    return ids;
}

}  // namespace tagproof::spec
