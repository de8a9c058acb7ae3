// requirements_test.cpp — the requirements table is the caller's, not the
// variant's; claims and recorded defects are the variant's own data.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "model.hpp"
#include "runner.hpp"
#include "requirements.hpp"
#include "variant.hpp"

namespace tagproof {
namespace {

using kernel::Caller;
using kernel::Concrete;

kernel::CEnv env_of(const kernel::Variant& v, const std::string& cmdline = "") {
    BuildConfig b;
    Machine m;
    BootParams p = parse_boot_params(cmdline, v.boot_syntax());
    return v.make_env(b, m, p, derive_runtime(b, m, p));
}

// The same table for every variant: a variant whose GFP_PGTABLE_KERNEL drops
// __GFP_ZERO still owes the page-table code zeroed tables.
TEST(Requirements, PageTablesAndStacksAreZeroedWhateverTheConstant) {
    for (const char* name : {"linux-7.0", "control-pgtable-no-zero", "control-stack-no-zero", "anjum-v4"}) {
        const auto& v = kernel::find_variant(name);
        auto e = env_of(v);
        kernel::CallerInput<Concrete> in;
        EXPECT_TRUE(kernel::required<Concrete>(Caller::pgtable_kernel, e, in).zero_data) << name;
        EXPECT_TRUE(kernel::required<Concrete>(Caller::pgtable_user, e, in).zero_data) << name;
        EXPECT_TRUE(kernel::required<Concrete>(Caller::thread_stack, e, in).zero_data) << name;
        // tagged page tables unless sampled out or claimed; stacks' pointers are reset
        EXPECT_FALSE(kernel::required<Concrete>(Caller::pgtable_kernel, e, in).match_all_ok) << name;
        EXPECT_TRUE(kernel::required<Concrete>(Caller::thread_stack, e, in).match_all_ok) << name;
    }
}

TEST(Requirements, CallersOwnGfpDecidesForAllocPages) {
    const auto& v = kernel::find_variant("linux-7.0");
    auto e = env_of(v);
    kernel::CallerInput<Concrete> in;
    in.gfp = e.gfp.GFP_KERNEL;
    EXPECT_FALSE(kernel::required<Concrete>(Caller::alloc_pages, e, in).zero_data);
    EXPECT_FALSE(kernel::required<Concrete>(Caller::alloc_pages, e, in).match_all_ok);
    in.gfp = e.gfp.GFP_KERNEL | e.gfp.ZERO | e.gfp.SKIP_KASAN;
    EXPECT_TRUE(kernel::required<Concrete>(Caller::alloc_pages, e, in).zero_data);
    EXPECT_TRUE(kernel::required<Concrete>(Caller::alloc_pages, e, in).match_all_ok);
    // init_on_alloc makes every allocation's data a requirement
    auto e2 = env_of(v, "init_on_alloc=1");
    in.gfp = e2.gfp.GFP_KERNEL;
    EXPECT_TRUE(kernel::required<Concrete>(Caller::alloc_pages, e2, in).zero_data);
    // sampling allows match-all from kasan.page_alloc.sample.order up
    auto e3 = env_of(v, "kasan.page_alloc.sample=4 kasan.page_alloc.sample.order=2");
    in.order = 1;
    EXPECT_FALSE(kernel::required<Concrete>(Caller::alloc_pages, e3, in).match_all_ok);
    in.order = 2;
    EXPECT_TRUE(kernel::required<Concrete>(Caller::alloc_pages, e3, in).match_all_ok);
    // no tags to lose with KASAN off
    auto off = env_of(v, "kasan=off");
    in.order = 0;
    EXPECT_TRUE(kernel::required<Concrete>(Caller::kmalloc, off, in).match_all_ok);
}

TEST(Claims, AreTheVariantsOwnAndChecked) {
    const auto& anjum = kernel::find_variant("anjum-v4");
    auto e = env_of(anjum);
    EXPECT_TRUE(kernel::claimed_untag<Concrete>(anjum.claims(), Caller::pgtable_kernel, e, 0));
    EXPECT_FALSE(kernel::claimed_untag<Concrete>(anjum.claims(), Caller::kmalloc, e, 0));
    // vmalloc only with the caller's __GFP_SKIP_KASAN
    EXPECT_FALSE(kernel::claimed_untag<Concrete>(anjum.claims(), Caller::vmalloc, e, e.gfp.GFP_KERNEL));
    EXPECT_TRUE(kernel::claimed_untag<Concrete>(anjum.claims(), Caller::vmalloc, e, e.gfp.GFP_KERNEL | e.gfp.SKIP_KASAN));
    // a claim means nothing without HW tags active
    auto off = env_of(anjum, "kasan=off");
    EXPECT_FALSE(kernel::claimed_untag<Concrete>(anjum.claims(), Caller::pgtable_kernel, off, 0));
    // a variant that states no claims claims no change at all
    const auto& m = kernel::find_variant("control-untag-comp");
    EXPECT_EQ(m.claims().changes, kernel::ChangeScope::none);
    EXPECT_TRUE(m.claims().untags.empty());
    EXPECT_EQ(kernel::find_variant("linux-7.0").claims().changes, kernel::ChangeScope::any);
}

TEST(RecordedDefects, BelongToTheVariantThatRecordsThem) {
    // linux-7.0 records three (the mempool element's free reported with sampling, vrealloc's tail,
    // the huge zero folio); anjum-v4, derived from it, records none of them
    EXPECT_EQ(kernel::find_variant("linux-7.0").known_defects(),
              (std::vector<std::string>{"no-false-positive", "detection", "zeroing"}));
    EXPECT_TRUE(kernel::find_variant("anjum-v4").known_defects().empty());
    EXPECT_TRUE(kernel::find_variant("control-claimed-untag").known_defects().empty());
    // the engines may still see the baseline's: they are not news
    auto ex = kernel::expected_defects(kernel::find_variant("anjum-v4"));
    EXPECT_NE(std::find(ex.begin(), ex.end(), "zeroing"), ex.end());
    // a negative control hides nothing
    EXPECT_TRUE(kernel::expected_defects(kernel::find_variant("control-pgtable-no-zero")).empty());
    for (const auto* v : kernel::all_variants())
        for (const auto& d : v->recorded_defects()) EXPECT_FALSE(d.why.empty()) << v->name() << " " << d.property;
}

// The oracle reads the table: the control that drops __GFP_ZERO from page
// tables violates zeroing at the allocation, with KASAN on or off (the kernel
// zeroes by kernel_init_pages() when KASAN is off); linux-7.0 does not.
TEST(Requirements, OracleHoldsPageTablesToThem) {
    for (const char* cmdline : {"", "kasan=off"})
        for (const char* name : {"linux-7.0", "control-pgtable-no-zero"}) {
            const auto& v = kernel::find_variant(name);
            spec::ModelConfig cfg;
            cfg.boot = parse_boot_params(cmdline, v.boot_syntax());
            spec::FirstChooser ch;
            spec::Model m(v, cfg, ch);
            m.begin_event("pt = pgtable_alloc(kernel)");
            m.pgtable_alloc(false, false, 0);
            m.end_event();
            bool zeroing = false;
            for (const auto& vi : m.violations()) zeroing |= vi.invariant == "zeroing";
            EXPECT_EQ(zeroing, std::string(name) != "linux-7.0") << name << " " << cmdline;
        }
}

// Coverage: a page table handed out match-all is a finding unless claimed.
TEST(Requirements, CoverageLostOnlyWhereClaimed) {
    for (const char* name : {"control-unclaimed-untag", "control-claimed-untag"}) {
        const auto& v = kernel::find_variant(name);
        spec::ModelConfig cfg;
        spec::FirstChooser ch;
        spec::Model m(v, cfg, ch);
        m.begin_event("pt = pgtable_alloc(kernel)");
        spec::Ptr p = m.pgtable_alloc(false, false, 0);
        m.end_event();
        EXPECT_EQ(p.tag, KASAN_TAG_KERNEL) << name;
        bool lost = false;
        for (const auto& vi : m.violations()) lost |= vi.invariant == "detection";
        EXPECT_EQ(lost, std::string(name) == "control-unclaimed-untag") << name;
    }
}

}  // namespace
}  // namespace tagproof

namespace tagproof {
namespace {

std::string eras_file(const std::string& name) {
    std::ifstream in(std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/eras/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// vrealloc()'s kernel-doc owes __GFP_ZERO at a grow only when every call
// from the allocation on asked for it: the oracle holds the grow to zeroing
// when the shrink asked too, not when it did not (what a kernel confirmation
// reads before it counts non-zero data as a violation, oracle/confirm.cpp).
// Lines as the files have them: vzalloc at 11 and 9, the grow at 14 and 12.
TEST(Requirements, VreallocOwesZeroesOnlyWhenEveryCallAsked) {
    const std::set<int> every = scenario::required_lines(eras_file("vrealloc_shrink_grow_zeroed.litmus"), Mode::hw_tags).zeroing;
    EXPECT_TRUE(every.count(14)) << "the grow after a __GFP_ZERO shrink owes zeroes";
    const std::set<int> unasked =
        scenario::required_lines(eras_file("vrealloc_shrink_without_zero_not_promised.litmus"), Mode::hw_tags).zeroing;
    EXPECT_FALSE(unasked.count(12)) << "the grow after a shrink without __GFP_ZERO owes nothing";
    EXPECT_TRUE(unasked.count(9)) << "vzalloc itself owes zeroes";
}

}  // namespace
}  // namespace tagproof
