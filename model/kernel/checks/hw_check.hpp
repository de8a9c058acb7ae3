// hw_check.hpp — how an MTE tag check fault reaches KASAN (arm64), written
// over the value domain. Whether a granule's check faults at all (TCMA1
// match-all, TCF off, untagged mapping, kasan.write_only) is the variant's
// granule_check_faults (rules_6_1.hpp): patches change that; the delivery
// below is the architecture's and no variant changes it.
//
//   kasan.mode=sync   SCTLR_EL1.TCF1 = SYNC: the faulting access traps;
//                     do_tag_recovery() reports it (size unknown: 0) and sets
//                     TCF = NONE on this CPU, so later mismatches there pass.
//   kasan.mode=async  TCF1 = ASYNC: TFSR_EL1.TF1 is set and the access
//                     completes; KASAN reports at the next check of TFSR
//                     (kernel entry/exit, mte_check_tfsr_*), checking stays on.
//   kasan.mode=asymm  TCF1 = ASYMM (FEAT_MTE3): loads as sync, stores as async;
//                     without ARM64_MTE_ASYMM the kernel falls back to sync.
#pragma once

namespace tagproof::kernel::checks {

template <class D>
struct MteFaultDelivery {
    typename D::Bool deferred{};          // TFSR_EL1.TF1 set, reported later
    typename D::Bool checks_off_after{};  // this CPU's TCF := NONE after the report
};

template <class D>
MteFaultDelivery<D> mte_fault_delivery(const typename D::Bool& tcf_async, const typename D::Bool& tcf_asymm,
                                       const typename D::Bool& is_write) {
    MteFaultDelivery<D> r;
    r.deferred = tcf_async || (tcf_asymm && is_write);
    r.checks_off_after = !r.deferred;
    return r;
}

}  // namespace tagproof::kernel::checks
