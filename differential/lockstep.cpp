// lockstep.cpp — see lockstep.hpp.
#include "lockstep.hpp"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "boot_params.hpp"
#include "error.hpp"

namespace tagproof::differential {

namespace {
std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
    return b;
}
std::string hex2(unsigned v) {
    char b[8];
    std::snprintf(b, sizeof b, "%02x", v & 0xFF);
    return b;
}
spec::ModelConfig model_config(const kernel::Variant& v, const DiffConfig& c, unsigned pages) {
    spec::ModelConfig mc;
    mc.build.mode = Mode::hw_tags;
    mc.machine.mte = c.mte;
    mc.boot = parse_boot_params_strict(c.cmdline, "differential command line", v.boot_syntax());
    mc.pages = pages;
    return mc;
}
reference::RefConfig ref_config(const spec::ModelConfig& mc, reference::RefMutation m) {
    reference::RefConfig rc;
    rc.build = mc.build;
    rc.machine = mc.machine;
    rc.boot = mc.boot;
    rc.pages = mc.pages;
    rc.initial_mem_tag = mc.initial_mem_tag;
    rc.mutation = m;
    return rc;
}
// model and reference reports have the same fields (mm/kasan/report.c)
template <class R>
std::string show_report(const R& r) {
    std::ostringstream o;
    o << (r.kasan ? "KASAN " : "") << r.bug_type << " addr=" << hex(r.addr) << (r.is_write ? " write" : " read")
      << " size=" << r.size << " ptr_tag=" << hex2(r.ptr_tag) << " mem_tag=" << hex2(r.mem_tag)
      << (r.has_tags ? "" : " no-tags") << (r.async ? " async" : "") << (r.free_report ? " free" : "") << " cpu=" << r.cpu;
    return o.str();
}
}  // namespace

Lockstep::Lockstep(const kernel::Variant& v, const DiffConfig& c, std::vector<std::uint8_t> picks,
                   reference::RefMutation mutation, unsigned pages)
    : v_(v), cfg_(c), chooser_(std::move(picks)), pages_(pages) {
    spec::ModelConfig mc = model_config(v, c, pages);
    model_ = std::make_unique<spec::Model>(v, mc, chooser_);
    ref_ = std::make_unique<reference::RefKernel>(v, ref_config(mc, mutation), tags_);
    gfps_ = gfp_vocabulary(v, mc.build);
}

std::string Lockstep::describe_config() const {
    return v_.name() + ", HW_TAGS" + (cfg_.mte ? "" : ", no MTE") + (cfg_.cmdline.empty() ? "" : ", boot: " + cfg_.cmdline);
}

std::string Lockstep::scenario(const std::string& name, const std::string& header) const {
    std::string s = "# written by " + header + "\n";
    s += "name " + name + "\nvariant " + v_.name() + "\nmodes hw_tags\n";
    s += "config pages=" + std::to_string(pages_) + " mte=" + (cfg_.mte ? "y" : "n") + "\n";
    if (!cfg_.cmdline.empty()) s += "boot " + cfg_.cmdline + "\n";
    for (const auto& l : lines_) s += l + "\n";
    return s;
}

Lockstep::Handle* Lockstep::pick(std::uint32_t p, bool (*ok)(const Handle&)) {
    std::size_t n = 0;
    for (const auto& h : handles_) n += ok(h);
    if (!n) return nullptr;
    std::size_t want = p % n;
    for (auto& h : handles_)
        if (ok(h) && want-- == 0) return &h;
    return nullptr;
}

std::string Lockstep::apply(const Event& e, bool& ran) {
    spec::Model& m = *model_;
    reference::RefKernel& r = *ref_;
    const int cpu = e.cpu;
    const std::string at = " cpu=" + std::to_string(cpu);
    ran = true;
    auto mismatch_ptr = [&](const std::string& what, const spec::Ptr& mp, std::uint64_t rp) -> std::string {
        if (mp.value() == rp) return "";
        return what + " returned " + hex(mp.value()) + " in the model, " + hex(rp) + " in the reference";
    };
    auto new_handle = [&](Handle::Kind k, const char* prefix, std::int64_t size) -> Handle& {
        Handle h;
        h.kind = k;
        h.name = prefix + std::to_string(next_++);
        h.size = size;
        handles_.push_back(h);
        return handles_.back();
    };
    const gfp_t zero = m.gfp().mask("__GFP_ZERO"), kernel = m.gfp().mask("GFP_KERNEL");
    switch (e.op) {
        case Op::alloc_pages:
        case Op::skb_alloc: {
            const bool skb = e.op == Op::skb_alloc;
            const std::string g = gfps_[e.gfp % gfps_.size()];
            const unsigned order = skb ? 3 : e.order;
            std::string name = (skb ? "sk" : "pg") + std::to_string(next_++);
            lines_.push_back(name + " = " + (skb ? "skb_alloc()" : "alloc_pages(" + std::to_string(order) + ", " + g + ")") + at);
            int id = skb ? m.skb_alloc(cpu) : m.alloc_pages(order, m.gfp().parse(g, "gfp vocabulary"), cpu);
            feed();
            std::int64_t pfn = skb ? r.skb_alloc(cpu) : r.alloc_pages(order, m.gfp().parse(g, "gfp vocabulary"), cpu);
            std::int64_t mpfn = id < 0 ? -1 : std::int64_t(m.object(id).pfn);
            if (mpfn != pfn)
                return lines_.back() + " gave pfn " + std::to_string(mpfn) + " in the model, " + std::to_string(pfn) +
                       " in the reference";
            if (id < 0) return "";
            Handle h;
            h.kind = Handle::page;
            h.name = name + "_p";
            h.size = std::int64_t(PAGE_SIZE) << m.object(id).order;  // skb_alloc may fall back to order 0
            h.mobj = id;
            h.mp = m.page_address(id);
            h.rpfn = pfn;
            h.rp = r.page_address(std::uint64_t(pfn));
            handles_.push_back(h);
            lines_.push_back(h.name + " = page_address(" + name + ")");
            return mismatch_ptr("page_address(" + name + ")", h.mp, h.rp);
        }
        case Op::free_pages: {
            Handle* h = pick(e.pick, [](const Handle& x) { return x.live && x.kind == Handle::page; });
            if (!h) break;
            lines_.push_back("free_pages(" + h->name.substr(0, h->name.size() - 2) + ")");
            h->live = false;
            m.free_pages(h->mobj);
            feed();
            r.free_pages(std::uint64_t(h->rpfn));
            return "";
        }
        case Op::kmalloc: {
            Handle& h = new_handle(Handle::ptr, "k", e.size);
            lines_.push_back(h.name + " = " + (e.zero ? "kzalloc(" : "kmalloc(") + std::to_string(e.size) + ")" + at);
            gfp_t g = kernel | (e.zero ? zero : 0);
            h.mp = m.kmalloc(e.size, g, cpu);
            feed();
            h.rp = r.kmalloc(e.size, g, cpu);
            return mismatch_ptr(lines_.back(), h.mp, h.rp);
        }
        case Op::kfree: {
            Handle* h = pick(e.pick, [](const Handle& x) { return x.kind == Handle::ptr; });
            if (!h) break;
            lines_.push_back("kfree(" + h->name + ")");
            h->live = false;
            if (!h->mp.null) m.kfree(h->mp);
            feed();
            r.kfree(h->rp);
            return "";
        }
        case Op::vmalloc: {
            Handle& h = new_handle(Handle::vmalloc, "v", e.size);
            lines_.push_back(h.name + " = " + (e.zero ? "vzalloc(" : "vmalloc(") + std::to_string(e.size) + ")" + at);
            gfp_t g = kernel | (e.zero ? zero : 0);
            h.mp = m.vmalloc(e.size, g, true, cpu);
            feed();
            h.rp = r.vmalloc(e.size, g, true, cpu);
            return mismatch_ptr(lines_.back(), h.mp, h.rp);
        }
        case Op::vfree: {
            Handle* h = pick(e.pick, [](const Handle& x) { return x.kind == Handle::vmalloc; });
            if (!h) break;
            lines_.push_back("vfree(" + h->name + ")");
            h->live = false;
            if (!h->mp.null) m.vfree(h->mp);
            feed();
            r.vfree(h->rp);
            return "";
        }
        case Op::stack_alloc: {
            Handle& h = new_handle(Handle::stack, "s", 16384);
            lines_.push_back(h.name + " = stack_alloc()" + at);
            h.mp = m.stack_alloc(cpu);
            feed();
            h.rp = r.stack_alloc(cpu);
            return mismatch_ptr(lines_.back(), h.mp, h.rp);
        }
        case Op::stack_free: {
            Handle* h = pick(e.pick, [](const Handle& x) { return x.live && x.kind == Handle::stack && !x.mp.null; });
            if (!h) break;
            lines_.push_back("stack_free(" + h->name + ")" + at);
            h->live = false;
            m.stack_free(h->mp, cpu);
            feed();
            r.stack_free(h->rp, cpu);
            return "";
        }
        case Op::pgtable_alloc: {
            static const char* kinds[] = {"kernel", "user", "pgd_slab"};
            const unsigned k = e.pgkind % 3;
            Handle& h = new_handle(Handle::pgtable, "t", k == 2 ? 512 : 4096);
            lines_.push_back(h.name + " = pgtable_alloc(" + kinds[k] + ")" + at);
            h.mp = m.pgtable_alloc(k != 0, k == 2, cpu);
            feed();
            h.rp = r.pgtable_alloc(k != 0, k == 2, cpu);
            return mismatch_ptr(lines_.back(), h.mp, h.rp);
        }
        case Op::pgtable_free: {
            Handle* h = pick(e.pick, [](const Handle& x) { return x.live && x.kind == Handle::pgtable && !x.mp.null; });
            if (!h) break;
            lines_.push_back("pgtable_free(" + h->name + ")");
            h->live = false;
            m.pgtable_free(h->mp);
            feed();
            r.pgtable_free(h->rp);
            return "";
        }
        case Op::access: {
            Handle* h = pick(e.pick, [](const Handle& x) { return !x.mp.null; });
            if (!h) break;
            const std::int64_t w = e.where % 113;
            const std::int64_t off = w < 64 ? h->size * w / 64 : w < 97 ? h->size + (w - 64) : w - 113;
            static const char* kinds[] = {"read", "write", "rmw"};
            const unsigned k = unsigned(e.kind) % 3;
            std::string o = off == 0 ? "" : off > 0 ? " + " + std::to_string(off) : " - " + std::to_string(-off);
            lines_.push_back(std::string(kinds[k]) + "(" + h->name + o + ", " + std::to_string(e.len) + ")" + at);
            m.access(m.offset(h->mp, off), e.len, spec::AccessKind(k), cpu);
            feed();
            const std::uint64_t rp = (h->rp & ~ADDR_MASK) | ((((h->rp | ~ADDR_MASK) + std::uint64_t(off))) & ADDR_MASK);
            r.access(rp, e.len, k != 0, cpu);
            return "";
        }
        case Op::reset_tag: {
            Handle* from = pick(e.pick, [](const Handle& x) { return !x.mp.null; });
            if (!from) break;
            Handle h;
            h.kind = Handle::alias;
            h.name = "r" + std::to_string(next_++);
            h.size = from->size;
            h.mp = m.reset_tag(from->mp);
            h.rp = from->rp | ~ADDR_MASK;
            lines_.push_back(h.name + " = reset_tag(" + from->name + ")");
            handles_.push_back(h);
            return "";
        }
        case Op::check_async:
            lines_.push_back("kasan_check_async()" + at);
            m.kasan_check_async(cpu);
            feed();
            r.kasan_check_async(cpu);
            return "";
        case Op::rcu_barrier:
            lines_.push_back("rcu_barrier()");
            m.rcu_barrier();
            feed();
            r.rcu_barrier();
            return "";
    }
    ran = false;
    return "";
}

std::string Lockstep::dump_page(std::uint64_t pfn) const {
    const spec::Model& m = *model_;
    const reference::RefKernel& r = *ref_;
    std::ostringstream o;
    const auto& mt = m.phys_tags();
    const auto& md = m.phys_data();
    const std::size_t g0 = pfn * reference::RefKernel::kGranulesPerPage;
    o << "  pfn " << pfn << ":\n    model:     allocated=" << m.page_state(pfn).allocated
      << " page_tag=" << hex2(m.page_kasan_tag(pfn)) << " skip_poison=" << m.page_state(pfn).pg_skip_kasan_poison
      << "\n    reference: allocated=" << r.page_allocated(pfn) << " page_tag=" << hex2(r.page_kasan_tag(pfn))
      << " skip_poison=" << r.page_flags(pfn).test(reference::PG_skip_kasan_poison) << "\n";
    o << "    memory tags (one hex digit a granule; z = zero data), model then reference:\n";
    for (std::size_t row = 0; row < 4; ++row) {
        std::string a, b;
        for (std::size_t k = 0; k < 64; ++k) {
            std::size_t g = g0 + row * 64 + k;
            static const char* digits = "0123456789abcdef";
            a += digits[mte_nibble(mt[g])];
            a += md[g] == spec::DATA_ZERO ? 'z' : '.';
            b += digits[r.mem_tag_nibble(g)];
            b += r.granule_zero(g) ? 'z' : '.';
        }
        o << "    +" << std::string(4 - std::to_string(row * 1024).size(), ' ') << row * 1024 << " " << a << "\n"
          << "          " << b << "\n";
    }
    return o.str();
}

std::string Lockstep::dump_cpus() const {
    std::ostringstream o;
    for (int c = 0; c < 2; ++c) {
        const auto& mc = model_->cpu_state(c);
        o << "  cpu " << c << ": model sample_skip=" << mc.sample_skip << " tcf=" << mc.tag_checks_on
          << " tfsr=" << mc.tfsr_pending << "; reference sample_skip=" << ref_->sample_skip(c)
          << " tcf=" << ref_->tag_checks_on(c) << " tfsr=" << ref_->tfsr_pending(c) << "\n";
    }
    return o.str();
}

// Every granule of page pfn: the same MTE tag (a nibble) and the same
// zero-or-not data in both. Compared a word at a time, the model's page
// packed as the reference keeps it: 16 tag words and 4 zero words a page.
// This ran for every granule of RAM after every event, one granule at a
// time, and was 84 % of the differential check's time (perf, fifteenth
// session); every granule is still compared.
bool Lockstep::same_granules(std::uint64_t pfn) const {
    constexpr std::size_t kPage = reference::RefKernel::kGranulesPerPage;
    static_assert(kPage % 64 == 0, "a page is whole tag words and whole zero words");
    const spec::Model& m = *model_;
    const reference::RefKernel& r = *ref_;
    const auto& mt = m.phys_tags();
    const auto& md = m.phys_data();
    const std::size_t g0 = pfn * kPage;
    // the model's RAM arrays are chunked by page (cow_array.hpp), so a page's granules are contiguous
    if (mt.chunk_size() % kPage || md.chunk_size() % kPage)
        throw std::logic_error("lockstep: the model's RAM is not chunked by whole pages");
    const std::uint8_t* t = mt.at(g0);
    const std::uint32_t* d = md.at(g0);
    // eight tag bytes to eight nibbles, byte i's low nibble to bits 4 i .. 4 i + 3
    auto nibbles = [](const std::uint8_t* p) {
        std::uint64_t x;
        std::memcpy(&x, p, 8);
        x &= 0x0F0F0F0F0F0F0F0FULL;                         // mte_nibble() of each byte
        x = (x | (x >> 4)) & 0x00FF00FF00FF00FFULL;         // byte pairs into one byte
        x = (x | (x >> 8)) & 0x0000FFFF0000FFFFULL;         // ... into 16-bit lanes
        return (x | (x >> 16)) & 0x00000000FFFFFFFFULL;     // ... into the low 32 bits
    };
    for (std::size_t w = 0; w < kPage / 16; ++w)
        if ((nibbles(t + w * 16) | nibbles(t + w * 16 + 8) << 32) != r.mem_tag_word(g0 / 16 + w)) return false;
    static_assert(spec::DATA_ZERO == 0, "zero data is the value 0");
    for (std::size_t w = 0; w < kPage / 64; ++w) {
        // a byte 0 or 1 per granule (a loop the compiler vectorises), then eight
        // such bytes to eight bits by one multiplication: byte i to bit i
        std::uint8_t is_zero[64];
        for (unsigned i = 0; i < 64; ++i) is_zero[i] = d[w * 64 + i] == 0;
        std::uint64_t zero = 0;
        for (unsigned k = 0; k < 8; ++k) {
            std::uint64_t x;
            std::memcpy(&x, is_zero + 8 * k, 8);
            zero |= ((x * 0x0102040810204080ULL) >> 56) << (8 * k);
        }
        if (zero != r.zero_word(g0 / 64 + w)) return false;
    }
    return true;
}

std::string Lockstep::compare_state(std::size_t mb, std::size_t rb) const {
    const spec::Model& m = *model_;
    const reference::RefKernel& r = *ref_;
    std::ostringstream o;
    // reports
    const auto& mr = m.reports();
    const auto& rr = r.reports();
    for (std::size_t i = 0; mb + i < mr.size() || rb + i < rr.size(); ++i) {
        std::string a = mb + i < mr.size() ? show_report(mr[mb + i]) : "(none)";
        std::string b = rb + i < rr.size() ? show_report(rr[rb + i]) : "(none)";
        if (a != b) o << "report " << i + 1 << " of the event differs:\n  model:     " << a << "\n  reference: " << b << "\n";
    }
    if (m.panicked() != r.panicked()) o << "panicked: model " << m.panicked() << ", reference " << r.panicked() << "\n";
    // per-CPU state
    for (int c = 0; c < 2; ++c) {
        const auto& mc = m.cpu_state(c);
        if (mc.sample_skip != r.sample_skip(c) || mc.tag_checks_on != r.tag_checks_on(c) ||
            mc.tfsr_pending != r.tfsr_pending(c)) {
            o << "per-CPU state differs:\n" << dump_cpus();
            break;
        }
    }
    // pages and granules
    int shown = 0;
    for (std::uint64_t pfn = 1; pfn < m.page_count() && shown < 2; ++pfn) {
        const spec::PageState& ps = m.page_state(pfn);
        const bool differs = ps.allocated != r.page_allocated(pfn) ||
                             m.page_kasan_tag(pfn) != r.page_kasan_tag(pfn) ||
                             (ps.allocated && ps.pg_skip_kasan_poison != r.page_flags(pfn).test(reference::PG_skip_kasan_poison)) ||
                             !same_granules(pfn);
        if (differs) {
            o << "page state differs:\n" << dump_page(pfn);
            ++shown;
        }
    }
    return o.str();
}

void Lockstep::feed() {
    const auto& drawn = model_->chosen_tags();
    for (; fed_ < drawn.size(); ++fed_) tags_.push(drawn[fed_]);
}

std::string Lockstep::step(const Event& e) {
    const std::size_t mb = model_->reports().size(), rb = ref_->reports().size();
    const std::size_t tags_before = model_->chosen_tags().size();
    const std::size_t ntrace = lines_.size();
    std::string diff;
    bool ran = false;
    try {
        diff = apply(e, ran);
    } catch (const InputError& x) {
        // the vocabulary only builds calls both accept: an error is a finding too
        diff = std::string("the event raised an error: ") + x.what() + "\n";
        ran = true;
    }
    if (!ran) return "";
    if (diff.empty()) diff = compare_state(mb, rb);
    if (diff.empty() && (tags_.pending() || tags_.underflows()))
        diff = "random tags: the model drew " + std::to_string(model_->chosen_tags().size() - tags_before) +
               ", the reference " + (tags_.underflows() ? "asked for more" : "used fewer") + "\n";
    if (diff.empty()) return "";
    std::ostringstream o;
    o << "MISMATCH between the model and the reference (" << describe_config() << ")\n"
      << "at event " << ntrace + 1 << ": " << (lines_.size() > ntrace ? lines_[ntrace] : std::string(op_name(e.op)))
      << "\n" << diff << (diff.find("per-CPU state differs") == std::string::npos ? dump_cpus() : "") << "trace:\n";
    for (const auto& l : lines_) o << "  " << l << "\n";
    return o.str();
}

std::string Lockstep::run(const std::vector<Event>& events) {
    for (const auto& e : events) {
        std::string d = step(e);
        if (!d.empty()) return d;
    }
    return "";
}

}  // namespace tagproof::differential
