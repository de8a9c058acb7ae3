// Every "proved" set against the families explorer (explore/cross_check.hpp,
// issue 15 item 4). The real proofs of linux-7.0 agree with the enumeration;
// the negative control is each obligation the solver refutes for linux-7.0,
// presented to the cross-check as if proved: where the explorer drives its
// entry point and reaches the defect, the cross-check must name it.
#include <gtest/gtest.h>

#include <set>

#include <algorithm>

#include "cross_check.hpp"
#include "families.hpp"
#include "proofs.hpp"
#include "variant.hpp"

using namespace tagproof;

namespace {

// The families at the default boot and each one's review depth, as review
// runs them; or one family over the boot product, as `tagproof explore` does.
std::vector<explore::CrossCheck> check(const std::string& variant, const std::vector<explore::ProvedObligation>& claims,
                                       const std::string& product_family = "") {
    explore::CrossChecker checker(claims);
    const kernel::Variant& v = kernel::find_variant(variant);
    for (const auto& fam : explore::families(v)) {
        explore::FamilyOptions fo;
        fo.variant = variant;
        fo.family = fam;
        fo.depth = fam.review_depth;
        if (product_family.empty()) {
            checker.add(explore::explore_family(fo));
            continue;
        }
        if (fam.name != product_family) continue;
        for (const auto& bc : explore::boot_product(v, true)) {
            fo.config = bc;
            checker.add(explore::explore_family(fo));
        }
    }
    return checker.results();
}

// The obligations of linux-7.0 within caller contracts, by verdict, as review selects them.
std::vector<explore::ProvedObligation> with_verdict(const std::string& verdict) {
    return review::enumerable_obligations("linux-7.0", verdict);
}

TEST(CrossCheck, EveryProofOfLinux70AgreesWithTheEnumeration) {
    const auto proved = with_verdict("proved");
    ASSERT_GT(proved.size(), 15u);
    std::set<std::string> open;
    for (const auto& cc : check("linux-7.0", proved)) {
        EXPECT_NE(cc.kind, explore::CrossCheck::disagrees) << cc.obligation << ": " << cc.detail;
        if (cc.kind == explore::CrossCheck::agrees)
            EXPECT_GT(cc.transitions, 0u) << cc.obligation;
        else
            open.insert(cc.obligation);
    }
    // not enumerated, each by name: two have no entry point, and no family
    // allocates executable memory (the vmalloc family is at its state budget)
    EXPECT_EQ(open, (std::set<std::string>{"tag-range/random_tag", "gfp-encoding/layout",
                                           "no-false-positive/vmalloc_exec"}));
}

// linux-7.0's refuted obligations within caller contracts are its recorded
// defects: zeroing/huge_zero_folio (stale tags with init_on_free=1, which
// skips the tag zeroing), the page mempool element re-issued sampled out
// (no-false-positive and page-tag-consistency), zeroing/vrealloc_huge (a huge
// area's pages past the requested bytes come unzeroed; no family drives it)
// and detection/vrealloc (the shrink is a no-op under HW_TAGS; the explorer's
// vrealloc only grows). The
// first, claimed as proved, the user family over the boot product
// contradicts; at the default boot alone it is not reached.
TEST(CrossCheck, ARefutedObligationPassedOffAsProvedIsCaught) {
    auto refuted = with_verdict("counterexample");
    ASSERT_EQ(refuted.size(), 5u);
    EXPECT_EQ(refuted[0].id, "zeroing/huge_zero_folio");
    EXPECT_EQ(refuted[1].id, "no-false-positive/mempool_page");
    EXPECT_EQ(refuted[2].id, "page-tag-consistency/mempool_page");
    EXPECT_EQ(refuted[3].id, "zeroing/vrealloc_huge");
    EXPECT_EQ(refuted[4].id, "detection/vrealloc");
    refuted.resize(1);
    const auto at_default = check("linux-7.0", refuted);
    EXPECT_EQ(at_default[0].kind, explore::CrossCheck::agrees) << at_default[0].detail;
    const auto over_product = check("linux-7.0", refuted, "user");
    ASSERT_EQ(over_product.size(), 1u);
    EXPECT_EQ(over_product[0].kind, explore::CrossCheck::disagrees);
    EXPECT_NE(over_product[0].detail.find("the user family at init_on_free=1: '"), std::string::npos)
        << over_product[0].detail;
    EXPECT_NE(over_product[0].detail.find("huge_zero_folio("), std::string::npos) << over_product[0].detail;
}

// The same four passed off as proved to what `tagproof prove` runs
// (cross_check_over_product: every family that decides one, over the boot
// product): the families are explored, the user family at init_on_free=1
// breaks the huge zero folio's, the mempool family with sampling the page
// element's two; linux-7.0's real proofs there agree.
TEST(CrossCheck, ProveOverTheProductCatchesARefutedObligation) {
    const auto refuted = with_verdict("counterexample");
    const auto pc = explore::cross_check_over_product("linux-7.0", refuted);
    ASSERT_EQ(pc.results.size(), 5u);
    // no family drives vmalloc_huge + vrealloc: not enumerated, never "agrees"
    EXPECT_EQ(pc.results[3].kind, explore::CrossCheck::not_enumerated) << pc.results[3].detail;
    EXPECT_EQ(pc.results[0].kind, explore::CrossCheck::disagrees) << pc.results[0].detail;
    EXPECT_NE(pc.results[0].detail.find("init_on_free=1"), std::string::npos) << pc.results[0].detail;
    for (int i : {1, 2}) {
        EXPECT_EQ(pc.results[i].kind, explore::CrossCheck::disagrees) << pc.results[i].detail;
        EXPECT_NE(pc.results[i].detail.find("kasan.page_alloc.sample=2 kasan.page_alloc.sample.order=1"), std::string::npos)
            << pc.results[i].detail;
    }
    auto families = pc.families;
    std::sort(families.begin(), families.end());
    EXPECT_EQ(families, (std::vector<std::string>{"mempool", "user", "vmalloc"}));
    EXPECT_EQ(pc.runs, 3 * pc.configs);
    const auto ok = explore::cross_check_over_product("linux-7.0", {{"zeroing/user_page_mte", "zeroing"}});
    ASSERT_EQ(ok.results.size(), 1u);
    EXPECT_EQ(ok.results[0].kind, explore::CrossCheck::agrees) << ok.results[0].detail;
}

// The obligations of __vmalloc's area (zeroing, coverage, no-false-positive),
// of an allocation's use (no-false-positive/alloc_pages) and of a slab
// object's free: each refuted for a mutant; passed off as proved, its family
// over the boot product contradicts it (mutant-no-tcma's stale tags behind a
// 0xff pointer show only with kasan.vmalloc=off).
TEST(CrossCheck, RefutedEntryPointObligationsPassedOffAsProvedAreCaught) {
    struct Case {
        std::string variant, family;
        explore::ProvedObligation claim;
        std::string line;  // the transition that contradicts it
    };
    const std::vector<Case> cases = {
        {"control-vmalloc-drops-zero", "vmalloc", {"zeroing/vmalloc", "zeroing"}, "vmalloc(3000, GFP_KERNEL|__GFP_ZERO)"},
        {"mutant-match-all-tag", "vmalloc", {"detection/coverage/vmalloc", "detection"}, "vmalloc(3004)"},
        // no-false-positive is decided where the caller uses its pointer
        // (vmalloc(3000) ends inside a granule: the read goes to its last
        // byte), on the handles vrealloc does not resize (vzalloc, __vmalloc)
        {"mutant-no-tcma", "vmalloc", {"no-false-positive/vmalloc", "no-false-positive"}, "0 + 2999, 1)"},
        // vrealloc in place: v6.15's grow keeps the redzone under HW_TAGS
        {"vrealloc-v6.15", "vmalloc", {"no-false-positive/vrealloc", "no-false-positive"}, "read(v0 + 3499, 1)"},
        // out of bounds is decided on the read past the object, not on a use-after-free
        {"control-mempool-whole-slot", "mempool", {"detection/oob/mempool", "detection"}, "read(e0 + 48, 1)"},
        {"mutant-no-tcma", "pages", {"no-false-positive/alloc_pages", "no-false-positive"}, "p, 1)"},
        // a kmalloc object's tag is judged where kmalloc / kzalloc hands it out
        {"mutant-match-all-tag", "slab", {"detection/coverage/kmalloc", "detection"}, "alloc("},
        // a freed slab object is judged when it is used again
        {"control-rcu-debug-not-deferred", "kmem_cache_rcu", {"detection/kmem_cache_free", "detection"}, "(t"},
        {"control-rcu-poisoned-at-free", "kmem_cache_rcu", {"no-false-positive/kmem_cache_free", "no-false-positive"},
         "(t"},
    };
    for (const auto& cs : cases) {
        const auto r = check(cs.variant, {cs.claim}, cs.family);
        ASSERT_EQ(r.size(), 1u);
        EXPECT_EQ(r[0].kind, explore::CrossCheck::disagrees) << cs.variant << " " << cs.claim.id << ": " << r[0].detail;
        EXPECT_NE(r[0].detail.find("the " + cs.family + " family"), std::string::npos) << r[0].detail;
        EXPECT_NE(r[0].detail.find("breaks " + cs.claim.invariant), std::string::npos) << r[0].detail;
        EXPECT_NE(r[0].detail.find(cs.line), std::string::npos) << r[0].detail;
    }
    // the positive twin: linux-7.0's own vmalloc proofs agree there
    const auto ok = check("linux-7.0", {{"zeroing/vmalloc", "zeroing"},
                                                       {"detection/coverage/vmalloc", "detection"},
                                                       {"no-false-positive/vmalloc", "no-false-positive"}});
    for (const auto& cc : ok) EXPECT_EQ(cc.kind, explore::CrossCheck::agrees) << cc.obligation << ": " << cc.detail;
    const auto slab_ok = check("linux-7.0", {{"detection/kmem_cache_free", "detection"},
                                             {"no-false-positive/kmem_cache_free", "no-false-positive"}},
                               "kmem_cache_rcu");
    for (const auto& cc : slab_ok) EXPECT_EQ(cc.kind, explore::CrossCheck::agrees) << cc.obligation << ": " << cc.detail;
}

TEST(CrossCheck, AnObligationWithoutAnEntryPointIsNotEnumerated) {
    const auto r = check("linux-6.1", {{"tag-range/random_tag", "tag-range"}, {"no-false-positive/alloc_pages", "no-false-positive"}});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].kind, explore::CrossCheck::not_enumerated);
    EXPECT_NE(r[0].detail.find("no family"), std::string::npos);
    EXPECT_EQ(r[1].kind, explore::CrossCheck::agrees) << r[1].detail;
}

}  // namespace
