// gfp.hpp — GFP flags with the kernel's names and bit values, per era and build.
//
// A GfpLayout is include/linux/gfp_types.h of one kernel era compiled for one
// build configuration: flags that the era defines only under
// CONFIG_KASAN_HW_TAGS (__GFP_SKIP_ZERO, __GFP_SKIP_KASAN, ...) exist as names
// everywhere but have mask 0 outside HW_TAGS, exactly as in the kernel, so
// "gfp & __GFP_SKIP_KASAN" is statically false in Generic and SW_TAGS builds.
// Composite names (GFP_KERNEL, GFP_HIGHUSER_MOVABLE, ...) are defined as data
// in the same syntax the parser reads, and printing follows the kernel's
// %pGg / show_gfp_flags(): composite names first, each taken when all its bits
// are present, leftover bits in hex, "none" for zero.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"

namespace tagproof {

using gfp_t = std::uint64_t;

// Bit layouts of gfp_types.h (before 6.2 the flags lived in gfp.h).
enum class GfpEra {
    v6_1,     // hex constants; __GFP_ATOMIC; SKIP_ZERO / SKIP_KASAN_UNPOISON / SKIP_KASAN_POISON
    v6_3,     // as v6.1 without __GFP_ATOMIC (0x200 unused)
    v6_4,     // hex constants; one __GFP_SKIP_KASAN; NOLOCKDEP 0x4000000
    current,  // enum of bit numbers (v6.10+): bits absent from the build take no number, so
              // NOLOCKDEP / NO_OBJ_EXT move; names printed in bit order (v6.15+)
};

const char* gfp_era_name(GfpEra e);

struct GfpName {
    std::string name;
    gfp_t mask = 0;
};

// Extra flags a patch series adds (e.g. sample-v2's __GFP_KASAN_SAMPLE).
// Whether the patch also grows __GFP_BITS_SHIFT is its GFP_BITS_SHIFT rule.
struct GfpExtraFlag {
    std::string name;
    bool hw_tags_only = true;  // defined as 0 outside CONFIG_KASAN_HW_TAGS
};

// What __GFP_BITS_SHIFT is computed from: the era's rule (rules_*.hpp
// GFP_BITS_SHIFT) reads these; a variant may change the rule.
struct GfpBits {
    BuildConfig build;  // the build it is compiled for (CONFIG_LOCKDEP, the KASAN mode: IS_ENABLED())
    int last_bit = 0;   // the bit numbers the flags took (enum layouts: ___GFP_LAST_BIT)
};
using GfpBitsShift = std::function<int(const GfpBits&)>;

class GfpLayout {
public:
    // Hex eras define __GFP_NOLOCKDEP's number in the header, the bit after
    // the era's flags (and a series' own new ones), whatever the shift rule
    // says; enum eras give it the next number, and the shift reads ___GFP_LAST_BIT.
    GfpLayout(GfpEra era, const BuildConfig& build, const std::vector<GfpExtraFlag>& extra,
              const GfpBitsShift& bits_shift);

    GfpEra era() const { return era_; }
    // Mask of a single or composite name; throws InputError if this era does
    // not define the name at all. A name defined as 0 in this build returns 0.
    // (Names as string_views: the model asks for __GFP_SKIP_KASAN_POISON by
    // a literal at every page allocation, and a std::string of it was a heap
    // allocation each time.)
    gfp_t mask(std::string_view name) const;
    bool defines(std::string_view name) const;
    gfp_t bits_mask() const { return bits_mask_; }  // __GFP_BITS_MASK
    int bits_shift() const { return bits_shift_; }   // __GFP_BITS_SHIFT

    // "GFP_KERNEL|__GFP_ZERO", numbers ("0x400"), spaces around '|'.
    gfp_t parse(const std::string& text, const std::string& where) const;
    // show_gfp_flags() (ftrace) / %pGg: "GFP_KERNEL|__GFP_ZERO", leftover bits as
    // "0x...". Zero prints "none" as ftrace does (%pGg would print nothing).
    std::string print(gfp_t gfp) const;

    const std::vector<GfpName>& single_flags() const { return singles_; }
    const std::vector<GfpName>& composites() const { return composites_; }

private:
    GfpEra era_;
    std::vector<GfpName> singles_;     // every ___GFP_* bit of this era (mask 0 if absent in build)
    std::vector<GfpName> composites_;  // composite names, defined from singles
    std::vector<GfpName> print_order_;  // __def_gfpflag_names order, the flags this build has
    gfp_t bits_mask_ = 0;
    int bits_shift_ = 0;
    const GfpName* find(std::string_view name) const;
};

}  // namespace tagproof
