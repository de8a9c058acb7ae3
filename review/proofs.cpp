// proofs.cpp — see proofs.hpp.
#include "proofs.hpp"

namespace tagproof::review {

bool enumerable(const solver::Verdict& vd, const std::string& verdict) {
    return vd.applicable && vd.primary() && vd.primary()->verdict == verdict && !vd.informational &&
           vd.invariant != "mode-isolation";
}

std::vector<explore::ProvedObligation> enumerable_obligations(const std::string& variant, const std::string& verdict) {
    solver::ProveOptions po;
    po.variant = variant;
    po.raw_scope = false;
    po.replay = false;
    std::vector<explore::ProvedObligation> out;
    for (const auto& vd : solver::prove(po))
        if (enumerable(vd, verdict)) out.push_back({vd.id, vd.invariant});
    return out;
}

}  // namespace tagproof::review
