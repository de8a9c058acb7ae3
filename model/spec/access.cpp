// access.cpp — the tag check of a load or store, and KASAN reports.
//
// HW_TAGS (arm64 MTE, arch/arm64/mm/fault.c, mm/kasan/report*.c): an access
// is unchecked when the pointer's top byte is match-all (TCR_EL1.TCMA1), when
// tag checks are off on the CPU (SCTLR_EL1.TCF = NONE after an earlier sync
// fault), when the mapping is not Normal-Tagged, or a load under
// kasan.write_only. Otherwise each 16-byte granule's 4-bit tag is compared
// with pointer bits 59..56. Sync (and asymm loads): report with size 0 at the
// first bad granule, then TCF := NONE on this CPU only; the access completes.
// Async (and asymm stores): TFSR_EL1.TF1 is set; reported at the next check.
// SW_TAGS: compiler check against the shadow byte, 0xFF pointers skipped,
// reports with the access size, checking stays on. Generic: shadow bytes,
// byte precise, pointer tags ignored.
#include <algorithm>
#include <cstdio>
#include <functional>

#include "checks/generic_check.hpp"
#include "checks/hw_check.hpp"
#include "checks/sw_checks.hpp"

#include "error.hpp"
#include "bug_types.hpp"
#include "model.hpp"

namespace tagproof::spec {

Ptr Model::set_tag(const Ptr& p, Tag t) const {
    Ptr q = p;
    // set_tag is a no-op in Generic builds (pointers carry no KASAN tag)
    if (cfg_.build.mode != Mode::generic) q.tag = t;
    return q;
}

Ptr Model::reset_tag(const Ptr& p) const {
    Ptr q = p;
    q.tag = KASAN_TAG_KERNEL;  // kasan_reset_tag(): sign-extend from bit 55 -> 0xFF for TTBR1
    return q;
}

Ptr Model::offset(const Ptr& p, std::int64_t off) const {
    Ptr q = p;
    q.addr = std::uint64_t(std::int64_t(p.addr) + off) | ~ADDR_MASK;
    return q;
}

void Model::set_mem_tag(const Ptr& p, std::uint64_t len, Tag t) {
    if (p.addr % G_ || len % G_) throw InputError("", "set_mem_tag needs a granule-aligned address and length");
    set_tags(p.addr, len, t, TAG_BY_TEST);
}

std::string Model::bug_type_for(const Ptr& p, std::uint64_t bad_addr, std::uint8_t mem) const {
    if (cfg_.build.mode == Mode::generic) {
        switch (mem) {
            case KASAN_SLAB_FREE_GENERIC: return "slab-use-after-free";
            case KASAN_SLAB_REDZONE_GENERIC: return "slab-out-of-bounds";
            case KASAN_PAGE_FREE_GENERIC: return "use-after-free";
            case KASAN_VMALLOC_INVALID_GENERIC: return "vmalloc-out-of-bounds";
            case 0xF1: case 0xF2: case 0xF3: return "stack-out-of-bounds";
            default: return "out-of-bounds";
        }
    }
    // report_tags.c: look for the slab object at the address and a stack-ring
    // entry with the pointer's tag: a free entry -> use-after-free, an alloc
    // entry -> out-of-bounds; otherwise invalid-access.
    Where w = translate(bad_addr);
    if (w.mapped && w.area < 0) {
        for (const Cache& c : caches_)
            for (const Slab& s : c.slabs) {
                std::uint64_t start = linear(s.pfn), a = bad_addr | ~ADDR_MASK;
                if (a < start || a >= start + (PAGE_SIZE << s.order)) continue;
                std::uint64_t slot = (a - start) / c.slot_size;
                if (slot >= s.slot_obj.size()) continue;
                if (const RingEntry* e = s.ring_newest(std::uint32_t(slot), p.tag))
                    return e->freed ? "slab-use-after-free" : "slab-out-of-bounds";
            }
    }
    return "invalid-access";
}

void Model::report(Report r) {
    if (!known_bug_type(r.bug_type))
        throw std::logic_error("report of bug type '" + r.bug_type + "' that bug_types.hpp does not list");
    r.event = event_;
    r.where = label_;
    bool multi = cfg_.boot.multi_shot || cfg_.kunit_harness;
    if (!multi && reported_once_ && r.kasan) {
        notes_.push_back(label_ + ": a KASAN report was suppressed (only the first one is printed without kasan_multi_shot)");
        return;
    }
    if (r.kasan) reported_once_ = true;
    reports_.push_back(r);
    if (r.kasan && (cfg_.boot.fault == FaultPolicy::panic ||
                    (cfg_.boot.fault == FaultPolicy::panic_on_write && r.is_write))) {
        panicked_ = true;
        notes_.push_back(label_ + ": Kernel panic - not syncing: kasan.fault=" + fault_policy_name(cfg_.boot.fault) +
                         " set ...");
    }
}

void Model::report_free(const Ptr& p, const char* bug_type) {
    Report r;
    r.bug_type = bug_type;
    r.addr = p.value();
    r.free_report = true;
    r.ptr_tag = p.tag;
    r.mem_tag = mem_tag(p).value_or(0);
    report(r);
    oracle_on_free_report(p, bug_type);
}

void Model::kasan_check_async(int cpu) {
    CpuState& c = cpus_.at(cpu);
    if (!c.tfsr_pending) return;
    c.tfsr_pending = false;
    Report r;
    r.bug_type = "invalid-access";
    r.async = true;
    r.is_write = true;
    r.has_tags = false;
    r.cpu = cpu;
    report(r);
}

namespace {
// The model's memory as the check styles read it: a shadow address maps back
// to the granule it describes (kernel addresses only: bit 55 set), data bytes
// are 0x00 for zeroed granules and 0xAA otherwise (the model keeps no bytes).
struct StyleMem {
    const Model& m;
    std::uint64_t off56;
    std::function<std::optional<std::uint8_t>(std::uint64_t)> tag_at;
    std::function<std::optional<bool>(std::uint64_t)> zero_at;
    std::uint64_t mem_of(std::uint64_t s56) const {
        std::uint64_t x = (s56 - off56) & ADDR_MASK;
        return ((x << 4) & ADDR_MASK) | ~ADDR_MASK;
    }
    bool is_kernel(std::uint64_t s56) const { return (((s56 - off56) & ADDR_MASK) >> 51) & 1; }
    std::uint64_t shadow(std::uint64_t s56) const { return tag_at(mem_of(s56)).value_or(0); }
    bool mapped(std::uint64_t s56) const { return is_kernel(s56) && tag_at(mem_of(s56)).has_value(); }
    std::uint64_t data(std::uint64_t a56) const { return zero_at(a56 | ~ADDR_MASK).value_or(false) ? 0x00 : 0xAA; }
};
}  // namespace

bool Model::sw_style_check(const Ptr& p, std::uint64_t len, bool is_write, int cpu, bool& reported) {
    using namespace kernel::checks;
    if (!eligible(len, len)) return false;
    unsigned k = 0;
    while ((1u << k) < len) ++k;
    const ShadowEra& era = kShadowBefore;
    StyleMem mem{*this, era.offset & ADDR_MASK,
                 [this](std::uint64_t a) -> std::optional<std::uint8_t> {
                     auto t = mem_tag(Ptr{a, KASAN_TAG_KERNEL, -1});
                     return t ? std::optional<std::uint8_t>(*t) : std::nullopt;
                 },
                 [this](std::uint64_t a) -> std::optional<bool> {
                     Where w = translate(a);
                     if (!w.mapped) return std::nullopt;
                     return data_[gidx(w.pfn, w.off)] == DATA_ZERO;
                 }};
    std::uint64_t v = p.value();
    CheckResult<kernel::Concrete> r;
    switch (cfg_.build.check_style) {
        case CheckStyle::inline_check: r = inline_check<kernel::Concrete>(era, mem, v, k); break;
        case CheckStyle::outlined: r = outlined_check<kernel::Concrete>(era, mem, v, k); break;
        case CheckStyle::fastpath:
            if (race_retag_) {
                // the slow path's reload sees the other CPU's retag of this granule
                StyleMem later = mem;
                RaceRetag race = *race_retag_;
                auto before = mem.tag_at;
                later.tag_at = [before, race](std::uint64_t a) -> std::optional<std::uint8_t> {
                    if (a - a % 16 == race.granule) return race.tag;
                    return before(a);
                };
                r = fastpath_check<kernel::Concrete>(era, mem, later, v, k);
            } else {
                r = fastpath_check<kernel::Concrete>(era, mem, v, k);
            }
            break;
        case CheckStyle::calls: r = call_check<kernel::Concrete>(era, mem, v, len); break;
    }
    reported = false;
    if (r.fault) {
        Report f;
        f.kasan = false;
        f.bug_type = "page-fault";
        f.addr = v;
        f.is_write = is_write;
        f.cpu = cpu;
        report(f);
        notes_.push_back(label_ + ": the " + check_style_name(cfg_.build.check_style) +
                         " check loads an unmapped shadow byte (an oops inside the check)");
        reported = true;
    } else if (r.report) {
        Report rep;
        rep.addr = v;
        rep.is_write = is_write;
        rep.ptr_tag = p.tag;
        rep.mem_tag = mem_tag(p).value_or(0);
        rep.cpu = cpu;
        rep.size = r.size;
        rep.bug_type = bug_type_for(p, p.addr, rep.mem_tag);
        report(rep);
        reported = true;
    }
    return true;
}

void Model::access(const Ptr& p, std::uint64_t len, AccessKind kind, int cpu, bool insn) {
    if (cpu < 0 || cpu >= (int)cpus_.size()) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (len == 0) throw InputError("", "an access needs a length of at least 1");
    if (panicked_) return;
    bool is_write = kind != AccessKind::read;
    // 0. SW_TAGS single instructions: the compiler's check runs before the
    // access itself (it may report, or oops on an unmapped shadow byte, for an
    // address the access would then fault on).
    // the first byte of each page the access touches; the end is inclusive so
    // an access ending at the top of the address space does not wrap to 0
    std::vector<std::uint64_t> pages;
    {
        std::uint64_t last = p.addr + (len - 1) < p.addr ? ~std::uint64_t(0) : p.addr + (len - 1);
        for (std::uint64_t a = p.addr;;) {
            pages.push_back(a);
            std::uint64_t next = (a / PAGE_SIZE + 1) * PAGE_SIZE;
            if (next == 0 || next > last) break;
            a = next;
        }
    }
    bool mapped_all = true;
    for (std::uint64_t a : pages) mapped_all &= translate(a).mapped;
    if (rt_.kasan_enabled && cfg_.build.mode == Mode::sw_tags && insn) {
        bool style_reported = false;
        if (sw_style_check(p, len, is_write, cpu, style_reported)) {
            if (!mapped_all) {
                if (!style_reported) {
                    Report r;
                    r.kasan = false;
                    r.bug_type = "page-fault";
                    r.addr = p.value();
                    r.is_write = is_write;
                    r.cpu = cpu;
                    report(r);
                }
                // the oracle judges the report against the pointer only: nothing is mapped there
                if (style_reported && p.tag == KASAN_TAG_KERNEL && !reports_.empty() && reports_.back().kasan)
                    violation("match-all-never-faults", std::string(access_kind_name(kind)) + " of " + std::to_string(len) +
                                                            " at " + ptr_str(p) + " through a match-all pointer was reported");
                return;
            }
            if (is_write && !panicked_)
                set_data(p.addr, len, data_written(p, len));
            oracle_on_access(p, len, kind, cpu, style_reported, p.tag != KASAN_TAG_KERNEL, {});
            return;
        }
    }
    // 1. translation: an unmapped byte is an MMU fault, not a tag check fault
    for (std::uint64_t a : pages) {
        if (!translate(a).mapped) {
            Report r;
            r.kasan = false;
            r.bug_type = "page-fault";
            if (in_kfence_pool(a)) {
                // the fault goes to kfence_handle_page_fault(): a guard page, or a freed object's page
                const std::uint64_t i = ((a | ~ADDR_MASK) - linear(kfence_pool_pfn_)) / PAGE_SIZE;
                notes_.push_back(label_ + ": BUG: KFENCE: " + (i >= 2 && i % 2 == 0 ? "use-after-free" : "out-of-bounds") +
                                 (is_write ? " write" : " read") + " at " + ptr_str(offset(p, std::int64_t(a - p.addr))));
            }
            r.addr = offset(p, std::int64_t(a - p.addr)).value();
            r.is_write = is_write;
            r.cpu = cpu;
            report(r);
            notes_.push_back(label_ + ": Unable to handle kernel paging request at virtual address " +
                             ptr_str(offset(p, std::int64_t(a - p.addr))));
            return;
        }
    }
    CpuState& c = cpus_[cpu];
    const Mode mode = cfg_.build.mode;
    bool checked = false;
    bool faulted = false;  // a report (or a pending async fault) came from this access
    std::vector<std::uint64_t> bad;
    std::uint64_t first_bad = 0;
    std::uint8_t first_mem = 0;
    if (rt_.kasan_enabled && mode != Mode::none) {
        checked = mode == Mode::generic ||
                  (mode == Mode::sw_tags ? p.tag != KASAN_TAG_KERNEL
                                         : c.tag_checks_on && p.tag != KASAN_TAG_KERNEL && !(rt_.write_only && !is_write));
        for (std::uint64_t a = p.addr - p.addr % G_; a < p.addr + len; a += G_) {
            Where w = translate(a);
            auto m = *mem_tag(Ptr{a, p.tag, -1});
            bool fault;
            if (mode == Mode::generic) {
                // byte precise: the last byte of this granule the access touches
                std::uint64_t last = std::min(a + G_, p.addr + len) - 1;
                fault = kernel::checks::generic_granule_poisons<kernel::Concrete>(m, last - a, last != p.addr + len - 1);
            } else {
                kernel::TagCheckInput<kernel::Concrete> in;
                in.tcf_on = c.tag_checks_on;
                in.write_only = rt_.write_only;
                in.is_write = is_write;
                in.tagged_mapping = w.tagged_mapping || mode == Mode::sw_tags;
                in.ptr_tag = p.tag;
                in.mem_tag = m;
                fault = v_.granule_check_faults(env_, in);
            }
            if (fault) {
                if (bad.empty()) {
                    first_bad = std::max(a, p.addr);
                    first_mem = m;
                }
                bad.push_back(a);
            }
        }
        if (!bad.empty()) {
            faulted = true;
            Report r;
            r.addr = offset(p, std::int64_t(first_bad - p.addr)).value();
            r.is_write = is_write;
            r.ptr_tag = p.tag;
            r.mem_tag = first_mem;
            r.cpu = cpu;
            r.bug_type = bug_type_for(p, first_bad, first_mem);
            if (mode == Mode::hw_tags) {
                TagCheckMode cm = rt_.check_mode;
                auto how = kernel::checks::mte_fault_delivery<kernel::Concrete>(cm == TagCheckMode::async,
                                                                                cm == TagCheckMode::asymm, is_write);
                if (how.deferred) {
                    c.tfsr_pending = true;
                } else {
                    r.size = 0;  // do_tag_recovery: size unknown at EL1
                    report(r);
                }
                if (how.checks_off_after) c.tag_checks_on = false;  // SCTLR_EL1.TCF := NONE on this CPU
            } else {
                r.size = len;
                r.has_tags = mode == Mode::sw_tags;
                report(r);
            }
        }
    }
    // 2. the data effect (the access completes in every case but a panic)
    if (is_write && !panicked_) set_data(p.addr, len, data_written(p, len));
    oracle_on_access(p, len, kind, cpu, faulted, checked, bad);
}

// What a write through p leaves in memory: the secret of the object whose
// data it is, or DATA_WILD for a write outside a live object. A vmap alias
// owns no data: what is written through it is its pages' owner's.
std::uint32_t Model::data_written(const Ptr& p, std::uint64_t len) const {
    if (p.obj < 0) return DATA_STALE;
    const Object& o = objects_[p.obj];
    std::uint64_t a = p.addr | ~ADDR_MASK;
    bool inside = o.live && a >= o.base && a + len <= o.base + o.size;
    // an alias (vmalloc backing page through the linear map) is judged by the oracle; keep it the owner's
    if (o.area >= 0 && a < VMALLOC_BASE) inside = o.live;
    if (!inside) return DATA_WILD;
    return data_secret(o.kind == ObjKind::vmap ? o.backing : p.obj);
}

void Model::access_racing_retag(const Ptr& p, std::uint64_t len, AccessKind kind, int cpu, Tag tag) {
    const std::uint64_t a = p.addr | ~ADDR_MASK, granule = a - a % G_;
    // only the fast path loads the tag twice; every other check sees the retag
    // or not, and the one that changes the outcome is the retag landing first
    const bool window = cfg_.build.mode == Mode::sw_tags && cfg_.build.check_style == CheckStyle::fastpath;
    if (window)
        race_retag_ = RaceRetag{granule, tag};
    else
        set_tags(granule, G_, tag, TAG_BY_TEST);
    access(p, len, kind, cpu, true);
    if (window) {
        race_retag_.reset();
        set_tags(granule, G_, tag, TAG_BY_TEST);  // the retag lands
    }
}

std::string Model::format_report(const Report& r) const {
    char buf[96];
    std::string s;
    if (!r.kasan) {
        if (r.bug_type == "page-fault") {
            std::snprintf(buf, sizeof buf, "Unable to handle kernel paging request at virtual address %016llx",
                          (unsigned long long)r.addr);
            return buf;
        }
        if (r.bug_type.rfind("KFENCE: ", 0) == 0) return "BUG: " + r.bug_type + " in " + r.where;
        return "BUG: Bad page state (" + r.where + ")";
    }
    s = "BUG: KASAN: " + r.bug_type + (r.async ? "" : " in " + r.where) + "\n";
    if (r.async) return s + "Asynchronous fault: no details available\n";
    if (r.free_report) {
        std::snprintf(buf, sizeof buf, "Free of addr %016llx by task tagproof/%d\n", (unsigned long long)r.addr, r.cpu);
    } else if (r.size == 0) {
        std::snprintf(buf, sizeof buf, "%s at addr %016llx by task tagproof/%d\n", r.is_write ? "Write" : "Read",
                      (unsigned long long)r.addr, r.cpu);
    } else {
        std::snprintf(buf, sizeof buf, "%s of size %llu at addr %016llx by task tagproof/%d\n",
                      r.is_write ? "Write" : "Read", (unsigned long long)r.size, (unsigned long long)r.addr, r.cpu);
    }
    s += buf;
    if (r.has_tags && cfg_.build.mode != Mode::generic) {
        std::snprintf(buf, sizeof buf, "Pointer tag: [%02x], memory tag: [%02x]\n", r.ptr_tag, r.mem_tag);
        s += buf;
    }
    return s;
}

}  // namespace tagproof::spec
