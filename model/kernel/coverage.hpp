// coverage.hpp — invariant 4 (detection), its coverage half (DESIGN §4): the
// caller's accesses go unchecked where neither the caller's requirements
// (requirements.hpp) nor the variant's claims (claims.hpp) allow it. Written
// once over the value domain: the model's oracle (model/spec/oracle.cpp) and
// the solver's detection/coverage obligations both read it.
#pragma once
#include "claims.hpp"
#include "requirements.hpp"
#include "tag.hpp"

namespace tagproof::kernel {

template <class D>
struct CoverageLoss {
    // handed out with KASAN_TAG_KERNEL: no access through the pointer is checked
    typename D::Bool match_all_pointer{};
    // HW_TAGS checks a tag only through MT_NORMAL_TAGGED PTEs: a vmalloc area
    // mapped without them is unchecked whatever tag its pointer carries
    typename D::Bool untagged_mapping{};
};

// `handed_out` is the tag of the pointer the caller gets; `vm_area` says it
// points into a vmalloc area, mapped with tagged PTEs or not.
template <class D>
CoverageLoss<D> coverage_loss(const KasanEnv<D>& e, const Claims& cl, Caller c, const Requirement<D>& need,
                              typename D::Word gfp, typename D::Word handed_out, typename D::Bool vm_area,
                              typename D::Bool tagged_mapping) {
    const auto lost = !(need.match_all_ok || claimed_untag<D>(cl, c, e, gfp));
    const auto match_all = handed_out == D::lit(KASAN_TAG_KERNEL);
    return {lost && match_all, lost && !match_all && e.kasan_hw_tags_enabled() && vm_area && !tagged_mapping};
}

// Invariant 3 (no-false-positive) at the allocation: a caller that must get
// a match-all pointer (executable memory, requirements.hpp) got a tagged one,
// and the first instruction fetched through it would fault. The model's
// oracle reads it; written here beside the coverage half it mirrors.
template <class D>
typename D::Bool tagged_code_pointer(const Requirement<D>& need, typename D::Word handed_out) {
    return need.match_all_required && !(handed_out == D::lit(KASAN_TAG_KERNEL));
}

}  // namespace tagproof::kernel
