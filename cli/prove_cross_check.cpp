// prove_cross_check.cpp — see prove_cross_check.hpp.
#include "prove_cross_check.hpp"

#include "cross_check.hpp"
#include "proofs.hpp"

namespace tagproof::cli {

ProofCrossCheck cross_check_proofs(const std::string& variant, const std::vector<solver::Verdict>& verdicts) {
    ProofCrossCheck out;
    std::vector<explore::ProvedObligation> proved;
    for (const auto& vd : verdicts)
        if (review::enumerable(vd)) proved.push_back({vd.id, vd.invariant});
    if (proved.empty()) return out;
    const std::size_t n = proved.size();
    const explore::ProductCrossCheck pc = explore::cross_check_over_product(variant, std::move(proved));
    std::size_t agree = 0, open = 0;
    for (const auto& cc : pc.results) {
        if (cc.kind == explore::CrossCheck::agrees) ++agree;
        else if (cc.kind == explore::CrossCheck::disagrees) out.disagrees[cc.obligation] = cc.detail;
        else ++open;
    }
    std::string names;
    for (const auto& f : pc.families) names += (names.empty() ? "" : ", ") + f;
    out.note = "cross-check: " + std::to_string(n) + " proved obligations against the explorer's families (" +
               (names.empty() ? std::string("none drives them") : names) + ") in " + std::to_string(pc.configs) +
               " boot configurations, " + std::to_string(pc.runs) + " explorations, " + std::to_string(pc.states) +
               " states: " + std::to_string(agree) + " not broken on any transition of their entry point, " +
               std::to_string(out.disagrees.size()) + " broken (modelling gaps), " + std::to_string(open) +
               " not enumerated";
    return out;
}

}  // namespace tagproof::cli
