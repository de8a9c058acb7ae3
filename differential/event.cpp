// event.cpp — see event.hpp.
#include "event.hpp"

#include <sstream>

#include "error.hpp"
#include "gfp.hpp"

namespace tagproof::differential {

const char* op_name(Op op) {
    switch (op) {
        case Op::alloc_pages: return "alloc_pages";
        case Op::free_pages: return "free_pages";
        case Op::kmalloc: return "kmalloc";
        case Op::kfree: return "kfree";
        case Op::vmalloc: return "vmalloc";
        case Op::vfree: return "vfree";
        case Op::stack_alloc: return "stack_alloc";
        case Op::stack_free: return "stack_free";
        case Op::pgtable_alloc: return "pgtable_alloc";
        case Op::pgtable_free: return "pgtable_free";
        case Op::skb_alloc: return "skb_alloc";
        case Op::access: return "access";
        case Op::reset_tag: return "reset_tag";
        case Op::check_async: return "kasan_check_async";
        case Op::rcu_barrier: return "rcu_barrier";
    }
    return "?";
}

const std::vector<std::uint32_t>& kmalloc_sizes() {
    static const std::vector<std::uint32_t> s = {1,   7,   8,   9,   15,  16,   17,   24,   31,   32,   33,
                                                 43,  48,  64,  96,  100, 107,  112,  127,  128,  129,  192,
                                                 201, 235, 256, 1000, 2048, 4096, 7936, 8192, 8193, 8202};
    return s;
}
const std::vector<std::uint32_t>& vmalloc_sizes() {
    static const std::vector<std::uint32_t> s = {1, 16, 100, 2027, 4096, 5000, 8192};
    return s;
}
const std::vector<std::uint8_t>& access_lengths() {
    static const std::vector<std::uint8_t> s = {1, 1, 2, 4, 8, 16};
    return s;
}

std::vector<std::string> gfp_vocabulary(const kernel::Variant& v, const BuildConfig& b, const kernel::Variant* baseline) {
    GfpLayout L = v.gfp_layout(b);
    std::vector<std::string> out = {"GFP_KERNEL", "GFP_KERNEL", "GFP_KERNEL|__GFP_ZERO", "GFP_KERNEL|__GFP_COMP",
                                    "GFP_HIGHUSER_MOVABLE|__GFP_ZERO", "GFP_KERNEL_ACCOUNT|__GFP_ZERO"};
    if (L.defines("__GFP_SKIP_KASAN")) {
        out.push_back("GFP_KERNEL|__GFP_SKIP_KASAN");
        out.push_back("GFP_KERNEL|__GFP_ZERO|__GFP_SKIP_KASAN");
    }
    if (L.defines("__GFP_KASAN_SAMPLE")) out.push_back("GFP_KERNEL|__GFP_KASAN_SAMPLE");
    // the last bit of the layout (gfp-encoding: inside __GFP_BITS_SHIFT's mask)
    if (b.lockdep && L.defines("__GFP_NOLOCKDEP")) out.push_back("GFP_KERNEL|__GFP_NOLOCKDEP");
    if (baseline) {
        GfpLayout B = baseline->gfp_layout(b);
        std::vector<std::string> both;
        for (const auto& g : out) {
            try {
                B.parse(g, "baseline");
                both.push_back(g);
            } catch (const InputError&) {
            }
        }
        out = both;
    }
    return out;
}

std::vector<std::string> cmdline_vocabulary(const kernel::Variant& v) {
    BootParamSyntax syn = v.boot_syntax();
    std::vector<std::string> out = {"", "kasan=off", "kasan.mode=async", "kasan.mode=asymm", "init_on_alloc=1",
                                    "init_on_free=1", "kasan.vmalloc=off", "kasan.fault=panic"};
    if (syn.page_alloc_sample) {
        out.push_back("kasan.page_alloc.sample=2");
        out.push_back("kasan.page_alloc.sample=3");
        out.push_back("kasan.page_alloc.sample=10");
    }
    if (syn.page_alloc_sample_order) {
        out.push_back("kasan.page_alloc.sample.order=0");
        out.push_back("kasan.page_alloc.sample.order=1");
    }
    return out;
}

void add_boot_word(std::string& cmdline, const std::string& word) {
    if (word.empty()) return;
    // one value a parameter: "kasan.mode=async" is not added after
    // "kasan.mode=asymm"; a flag ("kasan_multi_shot") is not added twice
    const std::size_t eq = word.find('=');
    std::istringstream in(cmdline);
    for (std::string t; in >> t;)
        if (eq == std::string::npos ? t == word : t.rfind(word.substr(0, eq + 1), 0) == 0) return;
    cmdline += (cmdline.empty() ? "" : " ") + word;
}

Decoded decode_events(const std::uint8_t* data, std::size_t size, const kernel::Variant& v) {
    Decoded d;
    std::vector<std::string> words = cmdline_vocabulary(v);
    std::size_t i = 0;
    if (size >= 2) {
        // byte 0: bit 7 no MTE, bit 6 single-shot reports; byte 0 bits 0-5 and
        // byte 1: up to two command-line words
        std::string cmd;
        auto add = [&](const std::string& w) { add_boot_word(cmd, w); };
        add(words[(data[0] & 0x3F) % words.size()]);
        add(words[data[1] % words.size()]);
        if (!(data[0] & 0x40)) add("kasan_multi_shot");
        d.config.mte = !(data[0] & 0x80);
        d.config.cmdline = cmd;
        i = 2;
    }
    for (; i + 4 <= size; i += 4) {
        const std::uint8_t b0 = data[i], b1 = data[i + 1], b2 = data[i + 2], b3 = data[i + 3];
        Event e;
        e.op = Op(b0 % kOps);
        e.cpu = (b0 / kOps) & 1;
        e.pick = b1;
        e.order = b1 % 5;
        e.gfp = b2;
        e.size = e.op == Op::vmalloc ? vmalloc_sizes()[b1 % vmalloc_sizes().size()]
                                     : kmalloc_sizes()[b1 % kmalloc_sizes().size()];
        e.zero = b2 & 1;
        e.pgkind = b1 % 3;
        e.where = b2 % 113;
        e.len = access_lengths()[b3 % access_lengths().size()];
        e.kind = AccessKind((b3 / 6) % 3);
        d.events.push_back(e);
    }
    return d;
}

namespace {

// The fields decode_events gives an event of this op (the others it fills
// with whatever the bytes say, and the op ignores): what encode_events must
// reproduce.
bool same_meaning(const Event& a, const Event& b) {
    if (a.op != b.op || a.cpu != b.cpu) return false;
    switch (a.op) {
        case Op::alloc_pages: return a.order == b.order && a.gfp == b.gfp;
        case Op::kmalloc:
        case Op::vmalloc: return a.size == b.size && a.zero == b.zero;
        case Op::pgtable_alloc: return a.pgkind == b.pgkind;
        case Op::free_pages:
        case Op::kfree:
        case Op::vfree:
        case Op::stack_free:
        case Op::pgtable_free:
        case Op::reset_tag: return a.pick == b.pick;
        case Op::access: return a.pick == b.pick && a.where == b.where && a.len == b.len && a.kind == b.kind;
        case Op::stack_alloc:
        case Op::skb_alloc:
        case Op::check_async:
        case Op::rcu_barrier: return true;
    }
    return false;
}

template <class T>
std::uint8_t index_of(const std::vector<T>& list, T value, const std::string& what) {
    for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i] == value) return std::uint8_t(i);
    throw InputError("event", what + " has no encoding in the event vocabulary");
}

}  // namespace

std::vector<std::uint8_t> encode_events(const DiffConfig& config, const std::vector<Event>& events,
                                        const kernel::Variant& v) {
    const std::vector<std::string> words = cmdline_vocabulary(v);
    std::vector<std::string> mine;
    bool multi_shot = false;
    std::istringstream in(config.cmdline);
    for (std::string w; in >> w;) {
        if (w == "kasan_multi_shot") multi_shot = true;
        else mine.push_back(w);
    }
    if (mine.size() > 2) throw InputError("boot", "'" + config.cmdline + "': at most two words besides kasan_multi_shot");
    mine.resize(2);  // "" is word 0
    std::vector<std::uint8_t> out(2);
    out[0] = index_of(words, mine[0], "boot word '" + mine[0] + "'");
    out[1] = index_of(words, mine[1], "boot word '" + mine[1] + "'");
    out[0] |= (config.mte ? 0 : 0x80) | (multi_shot ? 0 : 0x40);
    for (std::size_t n = 0; n < events.size(); ++n) {
        const Event& e = events[n];
        const std::string what = "event " + std::to_string(n + 1) + " (" + op_name(e.op) + ")";
        std::uint8_t b[4] = {std::uint8_t(unsigned(e.op) + kOps * (e.cpu & 1u)), 0, 0, 0};
        if (e.cpu > 1) throw InputError("event", what + ": cpu " + std::to_string(e.cpu) + " (the vocabulary has 0 and 1)");
        switch (e.op) {
            case Op::alloc_pages: b[1] = e.order; b[2] = e.gfp; break;
            case Op::kmalloc: b[1] = index_of(kmalloc_sizes(), e.size, what + ": size " + std::to_string(e.size)); b[2] = e.zero; break;
            case Op::vmalloc: b[1] = index_of(vmalloc_sizes(), e.size, what + ": size " + std::to_string(e.size)); b[2] = e.zero; break;
            case Op::pgtable_alloc: b[1] = e.pgkind; break;
            case Op::access:
                b[1] = std::uint8_t(e.pick);
                b[2] = e.where;
                b[3] = std::uint8_t(index_of(access_lengths(), e.len, what + ": length " + std::to_string(e.len)) +
                                    6 * unsigned(e.kind));
                break;
            default: b[1] = std::uint8_t(e.pick); break;
        }
        // the decoder is the definition: check these bytes mean this event
        const std::uint8_t probe[6] = {0, 0, b[0], b[1], b[2], b[3]};
        const Decoded d = decode_events(probe, sizeof probe, v);
        if (d.events.size() != 1 || !same_meaning(d.events[0], e))
            throw InputError("event", what + " has no encoding in the event vocabulary");
        out.insert(out.end(), b, b + 4);
    }
    return out;
}

const std::vector<std::string>& fuzz_variants() {
    static const std::vector<std::string> names = {"linux-6.1", "linux-6.3", "linux-6.4", "linux-7.0", "mm-2026",
                                                   "anjum-v2",  "anjum-v3",  "anjum-v4",  "sample-v2", "sample-v3"};
    return names;
}

FuzzInput decode_fuzz_input(const std::uint8_t* data, std::size_t size, const kernel::Variant* fixed) {
    FuzzInput f;
    if (size < 2) return f;
    f.variant = fixed ? fixed : &kernel::find_variant(fuzz_variants()[data[0] % fuzz_variants().size()]);
    const std::size_t k = std::min<std::size_t>(data[1] % 16, size - 2);
    f.picks.assign(data + 2, data + 2 + k);
    f.decoded = decode_events(data + 2 + k, size - 2 - k, *f.variant);
    return f;
}

std::vector<std::uint8_t> encode_fuzz_input(const kernel::Variant& v, const std::vector<std::uint8_t>& picks,
                                            const DiffConfig& config, const std::vector<Event>& events) {
    if (picks.size() > 15) throw InputError("picks", std::to_string(picks.size()) + " random-tag picks: at most 15");
    std::vector<std::uint8_t> out = {index_of(fuzz_variants(), v.name(), "variant '" + v.name() + "'"),
                                     std::uint8_t(picks.size())};
    out.insert(out.end(), picks.begin(), picks.end());
    const std::vector<std::uint8_t> rest = encode_events(config, events, v);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

}  // namespace tagproof::differential
