// gfp.cpp — the per-era GFP tables. Sources (stored copies read through the
// project's search tool; see docs/sources.md): include/linux/gfp.h (v6.1),
// include/linux/gfp_types.h (v6.4 hex form; 2024+ enum form),
// include/trace/events/mmflags.h (__def_gfpflag_names), lib/vsprintf.c
// (format_flags).
#include "gfp.hpp"

#include <algorithm>
#include <cctype>

#include "error.hpp"
#include "number.hpp"

namespace tagproof {

const char* gfp_era_name(GfpEra e) {
    switch (e) {
        case GfpEra::v6_1: return "v6.1";
        case GfpEra::v6_3: return "v6.3";
        case GfpEra::v6_4: return "v6.4";
        case GfpEra::current: return "current";
    }
    return "?";
}

namespace {

enum class Cond { always, hw_tags, lockdep };

bool two_skip_flags(GfpEra e) { return e == GfpEra::v6_1 || e == GfpEra::v6_3; }

struct FlagDef {
    const char* name;
    Cond cond;
};

// Flags in bit order. In the hex eras a conditional flag keeps its bit number
// and is 0 when its config is off; in the enum era (current) an absent flag
// takes no bit number and the ones after it move down.
std::vector<FlagDef> flag_order(GfpEra era) {
    std::vector<FlagDef> f = {
        {"__GFP_DMA", Cond::always},          {"__GFP_HIGHMEM", Cond::always},
        {"__GFP_DMA32", Cond::always},        {"__GFP_MOVABLE", Cond::always},
        {"__GFP_RECLAIMABLE", Cond::always},  {"__GFP_HIGH", Cond::always},
        {"__GFP_IO", Cond::always},           {"__GFP_FS", Cond::always},
        {"__GFP_ZERO", Cond::always},
        {era == GfpEra::v6_1 ? "__GFP_ATOMIC" : "", Cond::always},  // 0x200: unused from v6.3
        {"__GFP_DIRECT_RECLAIM", Cond::always}, {"__GFP_KSWAPD_RECLAIM", Cond::always},
        {"__GFP_WRITE", Cond::always},        {"__GFP_NOWARN", Cond::always},
        {"__GFP_RETRY_MAYFAIL", Cond::always}, {"__GFP_NOFAIL", Cond::always},
        {"__GFP_NORETRY", Cond::always},      {"__GFP_MEMALLOC", Cond::always},
        {"__GFP_COMP", Cond::always},         {"__GFP_NOMEMALLOC", Cond::always},
        {"__GFP_HARDWALL", Cond::always},     {"__GFP_THISNODE", Cond::always},
        {"__GFP_ACCOUNT", Cond::always},      {"__GFP_ZEROTAGS", Cond::always},
        {"__GFP_SKIP_ZERO", Cond::hw_tags},
    };
    if (two_skip_flags(era)) {
        f.push_back({"__GFP_SKIP_KASAN_UNPOISON", Cond::hw_tags});
        f.push_back({"__GFP_SKIP_KASAN_POISON", Cond::hw_tags});
    } else {
        f.push_back({"__GFP_SKIP_KASAN", Cond::hw_tags});
    }
    return f;
}

// Composite names, in terms of the names above. The text is parsed with the
// same parser users use, so a definition and a user's string mean one thing.
std::vector<std::pair<std::string, std::string>> composite_defs(GfpEra era) {
    std::string skip_user = two_skip_flags(era) ? "__GFP_SKIP_KASAN_UNPOISON|__GFP_SKIP_KASAN_POISON"
                                                : "__GFP_SKIP_KASAN";
    return {
        {"__GFP_RECLAIM", "__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM"},
        {"GFP_ATOMIC", era == GfpEra::v6_1 ? "__GFP_HIGH|__GFP_ATOMIC|__GFP_KSWAPD_RECLAIM"
                                           : "__GFP_HIGH|__GFP_KSWAPD_RECLAIM"},
        {"GFP_KERNEL", "__GFP_RECLAIM|__GFP_IO|__GFP_FS"},
        {"GFP_KERNEL_ACCOUNT", "GFP_KERNEL|__GFP_ACCOUNT"},
        {"GFP_NOWAIT", era == GfpEra::current ? "__GFP_KSWAPD_RECLAIM|__GFP_NOWARN" : "__GFP_KSWAPD_RECLAIM"},
        {"GFP_NOIO", "__GFP_RECLAIM"},
        {"GFP_NOFS", "__GFP_RECLAIM|__GFP_IO"},
        {"GFP_USER", "__GFP_RECLAIM|__GFP_IO|__GFP_FS|__GFP_HARDWALL"},
        {"GFP_DMA", "__GFP_DMA"},
        {"GFP_DMA32", "__GFP_DMA32"},
        {"GFP_HIGHUSER", "GFP_USER|__GFP_HIGHMEM"},
        {"GFP_HIGHUSER_MOVABLE", "GFP_HIGHUSER|__GFP_MOVABLE|" + skip_user},
        // GFP_TRANSHUGE_LIGHT = (GFP_HIGHUSER_MOVABLE|__GFP_COMP|__GFP_NOMEMALLOC|__GFP_NOWARN) & ~__GFP_RECLAIM;
        // written below as a special case because the syntax has no '&~'.
        {"GFP_TRANSHUGE_LIGHT", ""},
        {"GFP_TRANSHUGE", "GFP_TRANSHUGE_LIGHT|__GFP_DIRECT_RECLAIM"},
    };
}

// include/trace/events/mmflags.h __def_gfpflag_names (+ _kasan under HW_TAGS).
// Up to v6.14 a hand-ordered list; from v6.15 (TRACE_GFP_FLAGS) the composites
// and then every single flag in bit order, NOLOCKDEP and NO_OBJ_EXT named too.
std::vector<std::string> print_order(GfpEra era, const std::vector<GfpName>& singles) {
    std::vector<std::string> o = {"GFP_TRANSHUGE", "GFP_TRANSHUGE_LIGHT", "GFP_HIGHUSER_MOVABLE", "GFP_HIGHUSER",
                                  "GFP_USER", "GFP_KERNEL_ACCOUNT", "GFP_KERNEL", "GFP_NOFS", "GFP_ATOMIC",
                                  "GFP_NOIO", "GFP_NOWAIT", "GFP_DMA"};
    if (era == GfpEra::current) {
        o.push_back("GFP_DMA32");
        o.push_back("__GFP_RECLAIM");
        for (const auto& f : singles) o.push_back(f.name);
        return o;
    }
    for (const char* n : {"__GFP_HIGHMEM", "GFP_DMA32", "__GFP_HIGH"}) o.push_back(n);
    if (era == GfpEra::v6_1) o.push_back("__GFP_ATOMIC");
    for (const char* n : {"__GFP_IO", "__GFP_FS", "__GFP_NOWARN", "__GFP_RETRY_MAYFAIL", "__GFP_NOFAIL",
                          "__GFP_NORETRY", "__GFP_COMP", "__GFP_ZERO", "__GFP_NOMEMALLOC", "__GFP_MEMALLOC",
                          "__GFP_HARDWALL", "__GFP_THISNODE", "__GFP_RECLAIMABLE", "__GFP_MOVABLE",
                          "__GFP_ACCOUNT", "__GFP_WRITE", "__GFP_RECLAIM", "__GFP_DIRECT_RECLAIM",
                          "__GFP_KSWAPD_RECLAIM", "__GFP_ZEROTAGS"})
        o.push_back(n);
    if (two_skip_flags(era)) {
        for (const char* n : {"__GFP_SKIP_ZERO", "__GFP_SKIP_KASAN_POISON", "__GFP_SKIP_KASAN_UNPOISON"})
            o.push_back(n);
    } else {
        for (const char* n : {"__GFP_SKIP_ZERO", "__GFP_SKIP_KASAN"}) o.push_back(n);
    }
    return o;  // NOLOCKDEP has no name before v6.15: printed as leftover hex
}

std::string trim(const std::string& s) {
    auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

}  // namespace

GfpLayout::GfpLayout(GfpEra era, const BuildConfig& build, const std::vector<GfpExtraFlag>& extra,
                     const GfpBitsShift& bits_shift)
    : era_(era) {
    const bool hw = build.mode == Mode::hw_tags;
    int bit = 0;
    for (const auto& f : flag_order(era)) {
        bool present = f.cond == Cond::always || (f.cond == Cond::hw_tags && hw);
        if (era == GfpEra::current && !present) {  // enum: the name is 0, no bit number taken
            singles_.push_back({f.name, 0});
            continue;
        }
        if (*f.name) singles_.push_back({f.name, present ? (gfp_t(1) << bit) : 0});
        ++bit;
    }
    // Extra flags of a patch series go after the KASAN bits, before NOLOCKDEP
    // (where every KASAN bit so far was put).
    for (const auto& x : extra) {
        bool present = !x.hw_tags_only || hw;
        if (era == GfpEra::current && !present) {
            singles_.push_back({x.name, 0});
            continue;
        }
        // gfp_t is an unsigned int: the flags after these (__GFP_NOLOCKDEP,
        // __GFP_NO_OBJ_EXT) need bits below 32 too
        if (bit >= 30)
            throw InputError("", x.name + " would take bit " + std::to_string(bit) +
                                     ": the GFP flags would pass gfp_t's 32 bits (an unsigned int)");
        singles_.push_back({x.name, present ? (gfp_t(1) << bit) : 0});
        ++bit;
    }
    GfpBits in;
    in.build = build;
    if (era == GfpEra::current) {
        // Enum: NOLOCKDEP takes a number only with CONFIG_LOCKDEP; NO_OBJ_EXT
        // is unconditional in the v7.0-era tree (slab sheaves series).
        singles_.push_back({"__GFP_NOLOCKDEP", build.lockdep ? (gfp_t(1) << bit) : 0});
        if (build.lockdep) ++bit;
        singles_.push_back({"__GFP_NO_OBJ_EXT", gfp_t(1) << bit});
        ++bit;
        in.last_bit = bit;
        bits_shift_ = bits_shift(in);
    } else {
        // Hex eras: the header defines NOLOCKDEP's number, the bit after the
        // flags (0x8000000 before v6.4, 0x4000000 from v6.4: gfp.h / gfp_types.h,
        // and tagproof lift reads the same from Debian's 6.1 tree), whatever
        // __GFP_BITS_SHIFT is. A patch that moves only the shift leaves it
        // there: v5.18's 24 + 3 * IS_ENABLED(CONFIG_KASAN_HW_TAGS) +
        // IS_ENABLED(CONFIG_LOCKDEP) put it outside the mask without HW tags.
        in.last_bit = bit;
        bits_shift_ = bits_shift(in);
        singles_.push_back({"__GFP_NOLOCKDEP", build.lockdep ? (gfp_t(1) << bit) : 0});
    }
    bits_mask_ = (gfp_t(1) << bits_shift_) - 1;

    for (const auto& [name, def] : composite_defs(era)) {
        gfp_t m;
        if (name == "GFP_TRANSHUGE_LIGHT")
            m = (mask("GFP_HIGHUSER_MOVABLE") | mask("__GFP_COMP") | mask("__GFP_NOMEMALLOC") | mask("__GFP_NOWARN")) &
                ~mask("__GFP_RECLAIM");
        else
            m = parse(def, std::string("gfp table ") + gfp_era_name(era));
        composites_.push_back({name, m});
    }
    // the names print() writes, in __def_gfpflag_names order, with their masks
    // (a name looked up per flag per print was a fortieth of an exploration:
    // every allocation's description prints its gfp)
    std::vector<std::string> order = print_order(era, singles_);
    for (const auto& x : extra) order.push_back(x.name);
    for (const auto& name : order)
        if (const GfpName* f = find(name); f && f->mask != 0)  // not compiled in: never printed
            print_order_.push_back(*f);
}

const GfpName* GfpLayout::find(std::string_view name) const {
    for (const auto& f : singles_)
        if (f.name == name) return &f;
    for (const auto& f : composites_)
        if (f.name == name) return &f;
    return nullptr;
}

bool GfpLayout::defines(std::string_view name) const { return find(name) != nullptr; }

gfp_t GfpLayout::mask(std::string_view name) const {
    if (const GfpName* f = find(name)) return f->mask;
    throw InputError("", "GFP flag " + std::string(name) + " is not defined in the " + gfp_era_name(era_) +
                             " GFP layout");
}

gfp_t GfpLayout::parse(const std::string& text, const std::string& where) const {
    gfp_t v = 0;
    std::size_t pos = 0;
    if (trim(text).empty()) throw InputError(where, "empty GFP string (write 0 or none for no flags)");
    while (pos <= text.size()) {
        std::size_t bar = text.find('|', pos);
        std::string tok = trim(text.substr(pos, bar == std::string::npos ? std::string::npos : bar - pos));
        // for a message only: made when one is thrown, not for every token read
        auto col = [pos] { return " (column " + std::to_string(pos + 1) + ")"; };
        if (tok.empty()) throw InputError(where, "empty flag name in GFP string '" + text + "'" + col());
        if (tok == "none" || tok == "0") {
        } else if (std::isdigit((unsigned char)tok[0])) {
            std::uint64_t n = 0;
            const NumberRead r = read_number(tok, n);
            if (r == NumberRead::beyond_u64) n = ~std::uint64_t(0);  // refused just below as any n > 32 bits
            else if (r != NumberRead::ok) throw InputError(where, "bad number '" + tok + "' in GFP string" + col());
            // gfp_t is an unsigned int (include/linux/types.h): 32 bits in every era
            if (n > 0xFFFFFFFFull)
                throw InputError(where, "'" + tok + "' does not fit gfp_t (unsigned int, 32 bits)" + col());
            v |= n;
        } else if (const GfpName* f = find(tok)) {
            v |= f->mask;
        } else {
            std::string hint;
            if (tok == "__GFP_SKIP_KASAN" && era_ == GfpEra::v6_1)
                hint = "; v6.1 has __GFP_SKIP_KASAN_UNPOISON and __GFP_SKIP_KASAN_POISON";
            else if (tok.find("SKIP_KASAN_") != std::string::npos && era_ != GfpEra::v6_1)
                hint = "; since v6.4 there is one __GFP_SKIP_KASAN";
            else if (tok.rfind("GFP", 0) != 0 && tok.rfind("__GFP", 0) != 0)
                hint = "; flag names look like GFP_KERNEL or __GFP_ZERO";
            throw InputError(where, "unknown GFP flag '" + tok + "' in the " + gfp_era_name(era_) + " layout" +
                                        col() + hint);
        }
        if (bar == std::string::npos) break;
        pos = bar + 1;
    }
    return v;
}

std::string GfpLayout::print(gfp_t gfp) const {
    if (gfp == 0) return "none";
    std::string out;
    gfp_t left = gfp;
    for (const GfpName& f : print_order_) {
        if ((left & f.mask) != f.mask) continue;
        left &= ~f.mask;
        if (!out.empty()) out += '|';
        out += f.name;
    }
    if (left) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%#llx", (unsigned long long)left);
        out += (out.empty() ? "" : "|") + std::string(buf);
    }
    return out;
}

}  // namespace tagproof
