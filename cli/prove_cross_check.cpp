// prove_cross_check.cpp — see prove_cross_check.hpp.
#include "prove_cross_check.hpp"

#include "cross_check.hpp"
#include "families.hpp"
#include "family_explorer.hpp"
#include "proofs.hpp"
#include "variant.hpp"

namespace tagproof::cli {

ProofCrossCheck cross_check_proofs(const std::string& variant, const std::vector<solver::Verdict>& verdicts) {
    ProofCrossCheck out;
    std::vector<explore::ProvedObligation> proved;
    for (const auto& vd : verdicts)
        if (review::enumerable(vd)) proved.push_back({vd.id, vd.invariant});
    if (proved.empty()) return out;
    explore::CrossChecker checker(proved);
    const kernel::Variant& v = kernel::find_variant(variant, "--variant");
    const auto configs = explore::boot_product(v, true);
    std::size_t runs = 0, states = 0;
    std::string names;
    for (const auto& fam : explore::families(v)) {
        const auto need = checker.families_needed();
        if (std::find(need.begin(), need.end(), fam.name) == need.end()) continue;
        names += (names.empty() ? "" : ", ") + fam.name;
        for (const auto& cfg : configs) {
            explore::FamilyOptions fo;
            fo.variant = variant;
            fo.family = fam;
            fo.config = cfg;
            fo.depth = fam.review_depth;
            const explore::FamilyResult fr = explore::explore_family(fo);
            checker.add(fr);
            ++runs;
            states += boost::num_vertices(fr.graph);
        }
    }
    std::size_t agree = 0, open = 0;
    for (const auto& cc : checker.results()) {
        if (cc.kind == explore::CrossCheck::agrees) ++agree;
        else if (cc.kind == explore::CrossCheck::disagrees) out.disagrees[cc.obligation] = cc.detail;
        else ++open;
    }
    out.note = "cross-check: " + std::to_string(proved.size()) + " proved obligations against the explorer's families (" +
               (names.empty() ? std::string("none drives them") : names) + ") in " +
               std::to_string(configs.size()) + " boot configurations, " + std::to_string(runs) + " explorations, " +
               std::to_string(states) + " states: " + std::to_string(agree) + " not broken on any transition of their entry point, " +
               std::to_string(out.disagrees.size()) + " broken (modelling gaps), " + std::to_string(open) + " not enumerated";
    return out;
}

}  // namespace tagproof::cli
