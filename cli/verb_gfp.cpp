// verb_gfp.cpp — `tagproof gfp`: GFP strings and numbers, as a variant's era
// and build define them.
#include <cstdio>
#include <iostream>

#include "error.hpp"
#include "variant.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

int verb_gfp(const Args& args) {
    Options o = parse_verb_options("gfp", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof gfp [--variant NAME] [--mode MODE] [--lockdep] [--table] [STRING|NUMBER]\n\n"
                     "Parses GFP_KERNEL|__GFP_ZERO or 0xdc0 and prints the value and the kernel's spelling\n"
                     "(show_gfp_flags) in the variant's era (default linux-7.0) and build mode (default hw_tags).\n"
                     "--table prints every flag of the layout with its bit and __GFP_BITS_MASK.\n";
        return 0;
    }
    const auto& v = kernel::find_variant(o.get("--variant", "linux-7.0"), "--variant");
    BuildConfig b;
    b.mode = parse_mode(o.get("--mode", "hw_tags"), "--mode");
    b.lockdep = o.has("--lockdep");
    GfpLayout L = v.gfp_layout(b);
    if (o.has("--table")) {
        std::printf("GFP layout %s (%s, %s, lockdep %s): __GFP_BITS_SHIFT %d, __GFP_BITS_MASK %#llx\n",
                    gfp_era_name(L.era()), v.name().c_str(), mode_name(b.mode), b.lockdep ? "on" : "off",
                    L.bits_shift(), (unsigned long long)L.bits_mask());
        for (const auto& f : L.single_flags()) std::printf("  %-28s %#10llx\n", f.name.c_str(), (unsigned long long)f.mask);
        for (const auto& f : L.composites()) std::printf("  %-28s %#10llx\n", f.name.c_str(), (unsigned long long)f.mask);
    }
    for (const auto& s : o.positional) {
        gfp_t g = L.parse(s, "gfp string");
        std::printf("%#llx %s\n", (unsigned long long)g, L.print(g).c_str());
    }
    if (o.positional.empty() && !o.has("--table")) throw InputError("command line", "tagproof gfp needs a GFP string");
    return 0;
}

int verb_boot(const Args& args) {
    Options o = parse_verb_options("boot", args);
    if (o.has("--help")) {
        std::cout << "usage: tagproof boot [--variant NAME] [--mode MODE] [--no-mte] [--lenient] 'CMDLINE'\n\n"
                     "Parses a kernel command line as the kernel's early_param handlers do and prints the\n"
                     "KASAN state it gives. A malformed value is an error (exit 2) unless --lenient, which\n"
                     "applies the kernel's own fallback and prints what the kernel would log.\n";
        return 0;
    }
    const auto& v = kernel::find_variant(o.get("--variant", "linux-7.0"), "--variant");
    std::string cmdline;
    for (const auto& p : o.positional) cmdline += (cmdline.empty() ? "" : " ") + p;
    BootParams p = o.has("--lenient") ? parse_boot_params(cmdline, v.boot_syntax())
                                      : parse_boot_params_strict(cmdline, "cmdline", v.boot_syntax());
    for (const auto& d : p.diagnostics)
        std::printf("Malformed early option '%s' (%s): %s\n", d.param.c_str(), d.value.c_str(), d.message.c_str());
    BuildConfig b;
    b.mode = parse_mode(o.get("--mode", "hw_tags"), "--mode");
    Machine m;
    m.mte = !o.has("--no-mte");
    RuntimeState r = derive_runtime(b, m, p);
    for (const auto& l : r.boot_log) std::printf("%s\n", l.c_str());
    std::printf("kasan_enabled=%d kasan_hw_tags_enabled=%d mode=%s vmalloc=%d write_only=%d sample=%llu "
                "sample.order=%u fault=%s multi_shot=%d init_on_alloc=%d init_on_free=%d\n",
                r.kasan_enabled, r.hw_tags_enabled, check_mode_name(r.check_mode), r.vmalloc_on, r.write_only,
                (unsigned long long)p.page_alloc_sample, p.page_alloc_sample_order, fault_policy_name(p.fault),
                p.multi_shot, p.init_on_alloc, p.init_on_free);
    for (const auto& t : p.not_modelled) std::printf("not modelled: %s\n", t.c_str());
    if (!p.init_args.empty()) std::printf("after \"--\", for init (not kernel parameters): %s\n", p.init_args.c_str());
    return 0;
}

}  // namespace tagproof::cli
