// scenario_events.cpp — see scenario_events.hpp.
#include "scenario_events.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "error.hpp"
#include "gfp.hpp"

namespace tagproof::differential {

namespace {

// The handles the lockstep runner will hold, in its order, so a scenario
// variable becomes the pick that names it (Lockstep::pick counts the handles
// that qualify for the op, in creation order). Allocations are assumed to
// succeed: a seed whose allocation fails only names another handle.
struct Handles {
    struct H {
        enum Kind { page, ptr, vmalloc, stack, pgtable, alias } kind;
        bool live = true;
        std::int64_t size = 0;   // as the scenario sized it
        std::int64_t vsize = 0;  // as the vocabulary does (the lockstep runner's handle size)
    };
    std::vector<H> all;
    std::map<std::string, std::size_t> var;  // scenario variable -> handle

    std::size_t add(H::Kind k, std::int64_t size, const std::string& name, std::int64_t vsize = -1) {
        all.push_back({k, true, size, vsize < 0 ? size : vsize});
        if (!name.empty()) var[name] = all.size() - 1;
        return all.size() - 1;
    }
    // The pick of handle `h` among those `ok` accepts, or -1.
    template <class Ok>
    std::int64_t pick_of(std::size_t h, Ok ok) const {
        if (!ok(all[h])) return -1;
        std::int64_t n = 0;
        for (std::size_t i = 0; i < h; ++i) n += ok(all[i]);
        return n;
    }
};

// The vocabulary's size for a requested one: itself, else the next larger.
std::uint32_t vocabulary_size(const std::vector<std::uint32_t>& sizes, std::uint64_t want) {
    for (std::uint32_t s : sizes)
        if (s >= want) return s;
    return sizes.back();
}

// decode's `where` for an offset into an object the scenario sized `size`:
// inside as a fraction of 64, past the end as end + (0..32), before the
// start as -16..-1, so in- and out-of-bounds stay what they were.
std::int64_t where_of(std::int64_t off, std::int64_t size) {
    if (off < 0) return off >= -16 ? 113 + off : -1;
    if (off >= size) return off - size <= 32 ? 64 + (off - size) : -1;
    return std::min<std::int64_t>(63, off * 64 / std::max<std::int64_t>(size, 1));
}

}  // namespace

ScenarioEvents scenario_events(const scenario::Scenario& sc) {
    ScenarioEvents out;
    if (std::find(sc.modes.begin(), sc.modes.end(), Mode::hw_tags) == sc.modes.end()) {
        out.not_encoded = "no hw_tags run: the event vocabulary is HW_TAGS only";
        return out;
    }
    const auto& names = fuzz_variants();
    if (std::find(names.begin(), names.end(), sc.variant) == names.end()) {
        out.not_encoded = "variant " + sc.variant + " is not one the event fuzz targets list";
        return out;
    }
    const kernel::Variant& v = kernel::find_variant(sc.variant, sc.file);
    out.variant = &v;
    auto at = [&](int line) { return sc.file + ":" + std::to_string(line); };

    // configuration: MTE and at most two vocabulary boot words
    if (sc.config.count("mte")) {
        const std::string& m = sc.config.at("mte");
        out.config.mte = !(m == "n" || m == "no" || m == "off" || m == "0");
    }
    for (const auto& kv : sc.config)
        if (kv.first != "mte")
            out.left_out.push_back(at(sc.config_line) + ": config " + kv.first + "=" + kv.second +
                                   " (the lockstep runner's build and machine are fixed)");
    const std::vector<std::string> words = cmdline_vocabulary(v);
    const std::string boot = sc.boot_by_mode.count(Mode::hw_tags) ? sc.boot_by_mode.at(Mode::hw_tags) : sc.boot;
    std::istringstream bin(boot);
    int kept = 0;
    for (std::string w; bin >> w;) {
        if (w == "kasan_multi_shot") continue;
        if (kept < 2 && std::find(words.begin(), words.end(), w) != words.end()) {
            add_boot_word(out.config.cmdline, w);
            ++kept;
        } else {
            out.left_out.push_back(at(sc.boot_line) + ": boot word " + w);
        }
    }
    if (boot.find("kasan_multi_shot") != std::string::npos || sc.kunit_harness)
        add_boot_word(out.config.cmdline, "kasan_multi_shot");

    BuildConfig b;
    b.mode = Mode::hw_tags;
    const GfpLayout gfp = v.gfp_layout(b);
    const std::vector<std::string> gfps = gfp_vocabulary(v, b);
    Handles hs;
    using H = Handles::H;
    for (const auto& st : sc.statements) {
        if (st.kind != scenario::Statement::event) continue;
        if (!st.modes.empty() && std::find(st.modes.begin(), st.modes.end(), Mode::hw_tags) == st.modes.end()) continue;
        const std::string& c = st.call;
        auto skip = [&](const std::string& why) { out.left_out.push_back(at(st.line) + ": " + c + ": " + why); };
        auto handle = [&](std::size_t i) -> std::int64_t {
            if (i >= st.args.size() || st.args[i].is_number) return -1;
            auto it = hs.var.find(st.args[i].name);
            return it == hs.var.end() ? -1 : std::int64_t(it->second);
        };
        Event e;
        e.cpu = std::uint8_t(st.cpu);
        if (st.cpu > 1) {
            skip("cpu " + std::to_string(st.cpu) + " (the vocabulary has CPUs 0 and 1)");
            continue;
        }
        // an op on a pick: the handle named by argument 0, among those `ok` accepts
        auto on_pick = [&](Op op, auto ok, bool kill) {
            // a free or a retag takes the handle itself: `kfree(p + 1)` is not `kfree(p)`
            if (op != Op::access && !st.args.empty() && st.args[0].offset != 0) {
                skip("a pointer inside the object (the vocabulary frees and retags whole handles)");
                return false;
            }
            const std::int64_t h = handle(0);
            const std::int64_t p = h < 0 ? -1 : hs.pick_of(std::size_t(h), ok);
            if (p < 0 || p > 255) {
                skip("its argument is not a handle the vocabulary's " + std::string(op_name(op)) + " can pick");
                return false;
            }
            e.op = op;
            e.pick = std::uint32_t(p);
            if (kill) hs.all[std::size_t(h)].live = false;
            return true;
        };
        auto any = [](const H&) { return true; };
        bool ok = false;
        if (c == "alloc_pages" || c == "skb_alloc") {
            const bool skb = c == "skb_alloc";
            unsigned order = 3;
            if (!skb) {
                order = st.args.empty() || !st.args[0].is_number ? 99 : unsigned(st.args[0].number);
                if (order > 4) {
                    skip("order above 4");
                    continue;
                }
                const gfp_t want = st.args.size() > 1 ? gfp.parse(st.args[1].text, at(st.line)) : gfp.mask("GFP_KERNEL");
                std::int64_t gi = -1;
                for (std::size_t i = 0; i < gfps.size() && gi < 0; ++i)
                    if (gfp.parse(gfps[i], "gfp vocabulary") == want) gi = std::int64_t(i);
                if (gi < 0) {
                    skip("GFP " + (st.args.size() > 1 ? st.args[1].text : std::string("GFP_KERNEL")) +
                         " is not in the vocabulary");
                    continue;
                }
                e.gfp = std::uint8_t(gi);
            }
            e.op = skb ? Op::skb_alloc : Op::alloc_pages;
            e.order = std::uint8_t(order);
            hs.add(H::page, std::int64_t(4096) << order, st.result);
            ok = true;
        } else if (c == "page_address") {
            const std::int64_t h = handle(0);
            if (h >= 0 && !st.result.empty()) hs.var[st.result] = std::size_t(h);  // the same handle: no event
            else skip("its argument is not a page");
            continue;
        } else if (c == "free_pages") {
            ok = on_pick(Op::free_pages, [](const H& x) { return x.live && x.kind == H::page; }, true);
        } else if (c == "kmalloc" || c == "kzalloc" || c == "vmalloc" || c == "vzalloc") {
            const bool vm = c[0] == 'v';
            if (st.args.empty() || !st.args[0].is_number) {
                skip("the size is not a number");
                continue;
            }
            bool zero = c == "kzalloc" || c == "vzalloc";
            if (st.args.size() > 1) {
                const gfp_t g = gfp.parse(st.args[1].text, at(st.line));
                if ((g & ~gfp.mask("__GFP_ZERO")) != gfp.mask("GFP_KERNEL")) {
                    skip("GFP " + st.args[1].text + " (the vocabulary allocates with GFP_KERNEL[|__GFP_ZERO])");
                    continue;
                }
                zero = zero || (g & gfp.mask("__GFP_ZERO"));
            }
            e.op = vm ? Op::vmalloc : Op::kmalloc;
            e.size = vocabulary_size(vm ? vmalloc_sizes() : kmalloc_sizes(), st.args[0].number);
            if (e.size != st.args[0].number)
                out.approximated.push_back(at(st.line) + ": " + c + "(" + std::to_string(st.args[0].number) + ") as " +
                                           c + "(" + std::to_string(e.size) + ")");
            e.zero = zero;
            // the scenario's size: offsets keep their place relative to it
            hs.add(vm ? H::vmalloc : H::ptr, std::int64_t(st.args[0].number), st.result, e.size);
            ok = true;
        } else if (c == "kfree") {
            ok = on_pick(Op::kfree, [](const H& x) { return x.kind == H::ptr; }, true);
        } else if (c == "vfree") {
            ok = on_pick(Op::vfree, [](const H& x) { return x.kind == H::vmalloc; }, true);
        } else if (c == "stack_alloc" && !st.args.empty()) {
            skip("a stack for a given node is not in the event vocabulary (one NUMA node)");
        } else if (c == "stack_alloc") {
            e.op = Op::stack_alloc;
            hs.add(H::stack, 16384, st.result);
            ok = true;
        } else if (c == "stack_free") {
            ok = on_pick(Op::stack_free, [](const H& x) { return x.live && x.kind == H::stack; }, true);
        } else if (c == "pgtable_alloc") {
            const std::string k = st.args.empty() ? "" : st.args[0].text;
            e.op = Op::pgtable_alloc;
            e.pgkind = k == "kernel" ? 0 : k == "user" ? 1 : 2;
            hs.add(H::pgtable, k == "pgd_slab" ? 512 : 4096, st.result);
            ok = true;
        } else if (c == "pgtable_free") {
            ok = on_pick(Op::pgtable_free, [](const H& x) { return x.live && x.kind == H::pgtable; }, true);
        } else if (c == "reset_tag") {
            const std::int64_t h = handle(0);
            ok = on_pick(Op::reset_tag, any, false);
            if (ok) hs.add(H::alias, hs.all[std::size_t(h)].size, st.result, hs.all[std::size_t(h)].vsize);
        } else if (c == "read" || c == "write" || c == "rmw") {
            if (st.args.size() != 2 || !st.args[1].is_number) {
                skip("only PTR, LEN accesses are in the vocabulary");
                continue;
            }
            // a length the vocabulary lacks (a memset, a string op): its
            // largest length that fits, ending where the access ends, which
            // is where an overflow shows
            const std::int64_t want = std::int64_t(st.args[1].number);
            std::int64_t len = 0;
            for (std::uint8_t l : access_lengths())
                if (l <= want) len = std::max<std::int64_t>(len, l);
            const std::int64_t off = st.args[0].offset + want - len;
            const std::int64_t h = handle(0);
            if (h < 0) {
                skip("its pointer is not one the vocabulary's events made");
                continue;
            }
            const std::int64_t w = len == 0 ? -1 : where_of(off, hs.all[std::size_t(h)].size);
            if (w < 0) {
                skip("the offset has no encoding");
                continue;
            }
            if (!(ok = on_pick(Op::access, any, false))) continue;
            if (len != want)
                out.approximated.push_back(at(st.line) + ": " + c + " of " + std::to_string(want) + " bytes as its last " +
                                           std::to_string(len));
            // the offset the runner computes from `where` on the vocabulary's size
            const std::int64_t vs = hs.all[std::size_t(h)].vsize;
            const std::int64_t runs_at = w < 64 ? vs * w / 64 : w < 97 ? vs + (w - 64) : w - 113;
            if (runs_at != off)
                out.approximated.push_back(at(st.line) + ": " + c + " at offset " + std::to_string(off) + " as " +
                                           std::to_string(runs_at) + " of a " + std::to_string(vs) + "-byte object");
            e.where = std::uint8_t(w);
            e.len = std::uint8_t(len);
            e.kind = c == "read" ? AccessKind::read : c == "write" ? AccessKind::write : AccessKind::rmw;
        } else if (c == "kasan_check_async") {
            e.op = Op::check_async;
            ok = true;
        } else if (c == "rcu_barrier") {
            e.op = Op::rcu_barrier;
            ok = true;
        } else {
            skip("not in the event vocabulary");
        }
        // a left-out statement that assigns a variable: the name no longer means the old handle
        if (!ok && !st.result.empty()) hs.var.erase(st.result);
        if (ok) {
            out.events.push_back(e);
            out.event_lines.push_back(st.line);
        }
    }
    return out;
}

}  // namespace tagproof::differential
