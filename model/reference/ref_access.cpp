// ref_access.cpp — the tag check of a load or store and KASAN reports, for
// HW_TAGS: MMU translation first (an unmapped byte is a paging fault, not a
// tag fault), then each granule through the variant's granule_check_faults,
// the first bad granule reported per the architecture's fault delivery
// (model/kernel/checks/hw_check.hpp): sync reports and turns TCF off on this
// CPU, async sets TFSR and reports at the next check.
#include <algorithm>

#include "checks/hw_check.hpp"
#include "error.hpp"
#include "ref_kernel.hpp"

namespace tagproof::reference {

// report_tags.c: the stack ring's newest entry with the pointer's tag for the
// slab object at the address: a free -> use-after-free, an allocation ->
// out-of-bounds; otherwise invalid-access.
const char* RefKernel::bug_type_for(Tag ptr_tag, std::uint64_t bad) const {
    std::int32_t si = slab_at(bad);
    if (si < 0 || (ptr_tag & 0xF0) != 0xF0) return "invalid-access";
    const Slab& s = slabs_[si];
    const std::uint64_t slot = ((bad | ~ADDR_MASK) - (LINEAR_BASE + s.pfn * PAGE_SIZE)) / caches_[s.cache].slot_size;
    if (slot >= s.nslots) return "invalid-access";
    const std::uint16_t bit = std::uint16_t(1u << (ptr_tag & 0xF));
    if (!(slots_[s.first_slot + slot].ring_seen & bit)) return "invalid-access";
    const bool freed = (slots_[s.first_slot + slot].ring_freed & bit) && cfg_.mutation != RefMutation::ring_ignores_free;
    return freed ? "slab-use-after-free" : "slab-out-of-bounds";
}

void RefKernel::report(RefReport r) {
    if (!cfg_.boot.multi_shot && reported_once_ && r.kasan) {
        ++suppressed_;  // only the first report is printed without kasan_multi_shot
        return;
    }
    if (r.kasan) reported_once_ = true;
    reports_.push_back(r);
    if (r.kasan && (cfg_.boot.fault == FaultPolicy::panic || (cfg_.boot.fault == FaultPolicy::panic_on_write && r.is_write)))
        panicked_ = true;
}

void RefKernel::report_free(std::uint64_t ptr, const char* bug_type) {
    RefReport r;
    r.bug_type = bug_type;
    r.addr = ptr;
    r.free_report = true;
    r.ptr_tag = Tag(ptr >> 56);
    Tag m = 0;
    r.mem_tag = mem_tag_at(ptr, m) ? m : 0;
    report(r);
}

void RefKernel::kasan_check_async(int cpu) {
    if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    Cpu& c = cpus_[cpu];
    if (!c.tfsr_pending) return;
    c.tfsr_pending = false;
    RefReport r;
    r.bug_type = "invalid-access";
    r.async = true;
    r.is_write = true;
    r.has_tags = false;
    r.cpu = cpu;
    report(r);
}

// The granules of a mapped access through the variant's check: whether one
// faults, the first that does (address and memory tag), and how many the
// hardware compares. No side effects.
bool RefKernel::scan(std::uint64_t ptr, std::uint64_t len, bool is_write, int cpu, std::uint64_t& first_bad,
                     Tag& first_mem, std::uint64_t& ngran) const {
    const Cpu& c = cpus_[cpu];
    const Tag ptag = Tag(ptr >> 56);
    const std::uint64_t a0 = ptr | ~ADDR_MASK;
    const std::uint64_t last = a0 + (len - 1) < a0 ? ~std::uint64_t(0) : a0 + (len - 1);
    std::uint64_t nbad = 0;
    kernel::TagCheckInput<kernel::Concrete> in;
    in.tcf_on = c.tag_checks_on;
    in.write_only = rt_.write_only;
    in.is_write = is_write;
    in.ptr_tag = ptag;
    // Per page the check can depend only on the memory tag: ask the
    // variant once per possible tag (16), then find the first granule
    // whose tag faults — a word-at-a-time compare when the rule is
    // "every tag but the pointer's faults", a table lookup otherwise.
    const std::uint16_t all_but_ptr = std::uint16_t(0xFFFF & ~(1u << mte_nibble(ptag)));
    bool have_table = false, table_mapping = false;
    std::uint16_t faults = 0;
    for (std::uint64_t a = a0 - a0 % G; a <= last && !nbad;) {
        const Where w = translate(a);
        const std::uint64_t page_end = (a / PAGE_SIZE + 1) * PAGE_SIZE;
        const std::uint64_t stop = page_end == 0 || last < page_end ? last : page_end - 1;
        std::size_t n = (stop - a) / G + 1;
    if (cfg_.mutation == RefMutation::check_misses_last_granule && stop == last && n > 1) --n;
        if (!have_table || table_mapping != w.tagged_mapping) {
            in.tagged_mapping = table_mapping = w.tagged_mapping;
            faults = 0;
            for (unsigned t = 0; t < 16; ++t) {
                in.mem_tag = mte_tag_from_nibble(std::uint8_t(t));
                if (v_.granule_check_faults(env_, in)) faults |= std::uint16_t(1u << t);
            }
            have_table = true;
        }
        ngran += n;
        std::size_t bad = w.granule + n;
        if (faults == all_but_ptr) {
            bad = tags_.first_mismatch(w.granule, n, mte_nibble(ptag));
        } else if (faults) {
            for (std::size_t g = w.granule; g < w.granule + n; ++g)
                if (faults >> tags_.get(g) & 1) {
                    bad = g;
                    break;
                }
        }
        if (bad < w.granule + n) {
            nbad = 1;
            first_bad = std::max(a + (bad - w.granule) * G, a0);
            first_mem = mte_tag_from_nibble(tags_.get(bad));
        }
        if (page_end == 0) break;
        a = page_end;
    }
    // the granules after the first bad one are checked too (the access completes)
    if (nbad) ngran = (last - (a0 - a0 % G)) / G + 1;
    return nbad != 0;
}

// The first unmapped byte's page of [a0, last] (the end inclusive: no wrap
// at 2^64), or false when every page is mapped.
bool RefKernel::unmapped_page(std::uint64_t a0, std::uint64_t last, std::uint64_t& at) const {
    for (std::uint64_t a = a0;;) {
        if (!translate(a).mapped) {
            at = a;
            return true;
        }
        std::uint64_t next = (a / PAGE_SIZE + 1) * PAGE_SIZE;
        if (next == 0 || next > last) return false;
        a = next;
    }
}

bool RefKernel::would_fault(std::uint64_t ptr, std::uint64_t len, bool is_write, int cpu) const {
    if (!rt_.kasan_enabled || len == 0) return false;
    const std::uint64_t a0 = ptr | ~ADDR_MASK, last = a0 + (len - 1) < a0 ? ~std::uint64_t(0) : a0 + (len - 1);
    std::uint64_t at = 0;
    if (unmapped_page(a0, last, at)) return false;  // a paging fault, not a tag check
    std::uint64_t first_bad = 0, ngran = 0;
    Tag first_mem = 0;
    return scan(ptr, len, is_write, cpu, first_bad, first_mem, ngran);
}

void RefKernel::access(std::uint64_t ptr, std::uint64_t len, bool is_write, int cpu) {
    if (cpu < 0 || cpu >= int(cpus_.size())) throw InputError("", "cpu " + std::to_string(cpu) + " does not exist");
    if (len == 0) throw InputError("", "an access needs a length of at least 1");
    if (panicked_) return;
    const Tag ptag = Tag(ptr >> 56);
    const std::uint64_t a0 = ptr | ~ADDR_MASK;
    const std::uint64_t last = a0 + (len - 1) < a0 ? ~std::uint64_t(0) : a0 + (len - 1);
    // 1. translation: an unmapped byte is an MMU fault, not a tag check fault
    std::uint64_t at = 0;
    if (unmapped_page(a0, last, at)) {
        RefReport r;
        r.kasan = false;
        r.bug_type = "page-fault";
        r.addr = (std::uint64_t(ptag) << 56) | (at & ADDR_MASK);
        r.is_write = is_write;
        r.cpu = cpu;
        return report(r);
    }
    // 2. the tag check
    Cpu& c = cpus_[cpu];
    if (rt_.kasan_enabled) {
        const bool checked = c.tag_checks_on && ptag != KASAN_TAG_KERNEL && !(rt_.write_only && !is_write);
        std::uint64_t first_bad = 0, ngran = 0;
        Tag first_mem = 0;
        const bool nbad = scan(ptr, len, is_write, cpu, first_bad, first_mem, ngran);
        if (checked) cost_.granules_checked += ngran;
        if (nbad) {
            RefReport r;
            r.addr = (std::uint64_t(ptag) << 56) | (first_bad & ADDR_MASK);
            r.is_write = is_write;
            r.ptr_tag = ptag;
            r.mem_tag = first_mem;
            r.cpu = cpu;
            r.bug_type = bug_type_for(ptag, first_bad);
            auto how = kernel::checks::mte_fault_delivery<kernel::Concrete>(
                rt_.check_mode == TagCheckMode::async, rt_.check_mode == TagCheckMode::asymm, is_write);
            if (how.deferred) {
                c.tfsr_pending = true;
            } else {
                r.size = 0;  // do_tag_recovery: size unknown at EL1
                report(r);
            }
            if (how.checks_off_after) c.tag_checks_on = false;  // SCTLR_EL1.TCF := NONE on this CPU
        }
    }
    // 3. the data effect: the access completes in every case but a panic
    if (is_write && !panicked_) zero_range_virt(a0, len, false);
}

}  // namespace tagproof::reference
