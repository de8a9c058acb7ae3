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
    // one value a parameter: "kasan.mode=async" is not added after "kasan.mode=asymm"
    const std::string key = word.substr(0, word.find('=') + 1);
    std::size_t at = 0;
    while ((at = cmdline.find(key, at)) != std::string::npos) {
        if (at == 0 || cmdline[at - 1] == ' ') return;
        at += key.size();
    }
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

}  // namespace tagproof::differential
