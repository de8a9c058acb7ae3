// claims.hpp — what a patch says it changes: data of the variant, printed
// by `tagproof variants` and checked by the review.
//
// A claim is the patch's own statement ("skip HW tagging for all kernel
// stacks", "coverage is unchanged outside HW_TAGS"), written as data so that
// the tool can hold the patch to it:
//  - `changes`: where behaviour may differ from the baseline. A difference
//    outside it is a mode-isolation finding.
//  - `untags`: allocations the patch leaves with a match-all pointer while HW
//    tags are active. Coverage lost anywhere else (requirements.hpp says
//    where the kernel itself allows it) is a detection finding.
// A variant that states no claims claims nothing: every difference from its
// baseline and every untagged allocation the requirements do not allow is a
// finding.
#pragma once
#include <string>
#include <vector>

#include "error.hpp"
#include "requirements.hpp"

namespace tagproof::kernel {

enum class ChangeScope {
    none,            // the patch claims no behavioural change at all
    hw_tags_active,  // only with HW_TAGS compiled in and active (kasan_hw_tags_enabled())
    any,             // a kernel release, or a patch that changes other modes too
};
const char* change_scope_name(ChangeScope s);

struct UntagClaim {
    Caller caller;
    std::string when_gfp;      // only allocations whose own gfp carries this flag ("" = all of them)
    bool when_sampled = false;  // only with kasan.page_alloc.sample > 1
    std::string why;           // the patch's words
};

struct Claims {
    ChangeScope changes = ChangeScope::none;
    std::vector<UntagClaim> untags;
    std::string text;  // the claim as the cover letter puts it
};

// GfpMasks by kernel name, for the flags a claim may name.
template <class D>
typename D::Word claim_gfp_mask(const GfpMasks<D>& g, const std::string& name) {
    if (name == "__GFP_SKIP_KASAN") return g.SKIP_KASAN | g.SKIP_KASAN_UNPOISON;
    if (name == "__GFP_KASAN_SAMPLE") return g.KASAN_SAMPLE;
    if (name == "__GFP_ZEROTAGS") return g.ZEROTAGS;
    if (name == "__GFP_ACCOUNT") return g.ACCOUNT;
    throw InputError("claim", "a claim may name __GFP_SKIP_KASAN, __GFP_KASAN_SAMPLE, __GFP_ZEROTAGS or "
                              "__GFP_ACCOUNT, not '" + name + "'");
}

// Does a claim cover a match-all pointer for this caller's allocation?
template <class D>
typename D::Bool claimed_untag(const Claims& cl, Caller c, const KasanEnv<D>& e, typename D::Word gfp) {
    typename D::Bool any = D::boolean(false);
    for (const auto& u : cl.untags) {
        if (u.caller != c) continue;
        typename D::Bool ok = e.kasan_hw_tags_enabled();
        if (!u.when_gfp.empty()) ok = ok && D::any(gfp, claim_gfp_mask(e.gfp, u.when_gfp));
        if (u.when_sampled) ok = ok && D::ult(D::lit(1), e.sample);
        any = any || ok;
    }
    return any;
}

// One line a claim, for `tagproof variants` and the reports.
std::vector<std::string> describe_claims(const Claims& cl);

}  // namespace tagproof::kernel
