// Variant files (scenario/variant-files.md): the reader's errors, the expression
// evaluator, and a file giving what its built-in twin gives, obligation by
// obligation.
#include <gtest/gtest.h>

#include "test_env.hpp"

#include <fstream>
#include <map>
#include <set>

#include "file/variant_file.hpp"
#include "prove.hpp"

using namespace tagproof;
using namespace tagproof::kernel;
using tagproof::test::env_for;

namespace {
std::string error_of(const std::string& text) {
    try {
        parse_variant_file(text, "t.variant");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(VariantFile, ErrorsNameLineAndColumn) {
    EXPECT_NE(error_of("name a\nbase linux-7.0\nrule THREADINFO_GFP = GFP_KERNEL |\n").find("t.variant:3:"), std::string::npos);
    EXPECT_NE(error_of("name a\nbase linux-7.0\nfrobnicate\n").find("t.variant:3:1: unknown keyword 'frobnicate'"),
              std::string::npos);
    EXPECT_NE(error_of("base linux-7.0\n").find("no 'name' line"), std::string::npos);
    EXPECT_NE(error_of("name linux-7.0\nbase linux-7.0\n").find("is a built-in variant's"), std::string::npos);
    EXPECT_NE(error_of("name a\nbase linux-7.0\nrule GFP_VMAP_STACK = GFP_KERNEL\nrule GFP_VMAP_STACK = 0\n")
                  .find("overridden twice"),
              std::string::npos);
    // a flag the base era does not define: __GFP_SKIP_KASAN_POISON is gone in v6.4
    EXPECT_NE(error_of("name a\nbase linux-6.4\nrule GFP_VMAP_STACK = GFP_KERNEL | __GFP_SKIP_KASAN_POISON\n")
                  .find("linux-6.4 defines no such GFP flag"),
              std::string::npos);
}

// C precedence and the kernel's spellings, evaluated concretely.
TEST(VariantFile, ExpressionsEvaluateOverTheDomain) {
    VariantFile f = parse_variant_file(
        "name a\nbase linux-7.0\n"
        "rule GFP_VMAP_STACK = kasan_hw_tags_enabled() ? GFP_KERNEL | __GFP_ZERO : GFP_KERNEL\n"
        "rule user_page_gfp(vm_mte) = GFP_HIGHUSER_MOVABLE | __GFP_ZERO | (vm_mte && !init_on_free ? __GFP_ZEROTAGS : 0)\n"
        "rule THREADINFO_GFP = (GFP_KERNEL_ACCOUNT | __GFP_ZERO) & ~__GFP_ACCOUNT\n",
        "t.variant");
    const Variant& base = find_variant("linux-7.0");
    CEnv hw = env_for(base, Mode::hw_tags), sw = env_for(base, Mode::sw_tags), hw_iof = env_for(base, Mode::hw_tags, "init_on_free=1");
    for (CEnv* e : {&hw, &sw, &hw_iof}) e->overrides = &f.overrides;
    auto word = [&](const char* rule, const CEnv& e, std::map<std::string, RuleVal<Concrete>> args = {}) {
        return as_word<Concrete>(eval_rule_expr<Concrete>(*f.overrides.find(rule), e, args));
    };
    EXPECT_EQ(word("GFP_VMAP_STACK", hw), hw.gfp.GFP_KERNEL | hw.gfp.ZERO);
    EXPECT_EQ(word("GFP_VMAP_STACK", sw), sw.gfp.GFP_KERNEL);
    RuleVal<Concrete> yes;
    yes.is_bool = true;
    yes.b = true;
    EXPECT_EQ(word("user_page_gfp", hw, {{"vm_mte", yes}}), hw.gfp.GFP_HIGHUSER_MOVABLE | hw.gfp.ZERO | hw.gfp.ZEROTAGS);
    EXPECT_EQ(word("user_page_gfp", hw_iof, {{"vm_mte", yes}}), hw.gfp.GFP_HIGHUSER_MOVABLE | hw.gfp.ZERO);
    EXPECT_EQ(word("THREADINFO_GFP", hw), hw.gfp.GFP_KERNEL | hw.gfp.ZERO);
}

// include/linux/math.h's round_up / round_down and mm/kasan/kasan.h's
// KASAN_GRANULE_SIZE (8 under Generic, 16 under the tag modes), as the
// redzone lifted from poison_kmalloc_redzone is written; printed back as
// written. The control: round_down differs from round_up on every size that
// is not a granule multiple, and agrees on those that are.
TEST(VariantFile, RoundingToTheGranule) {
    VariantFile f = parse_variant_file("name a\nbase linux-7.0\n"
                                       "rule kmalloc_redzone_start(size) = round_up(size, KASAN_GRANULE_SIZE)\n",
                                       "t.variant");
    VariantFile g = parse_variant_file("name b\nbase linux-7.0\n"
                                       "rule kmalloc_redzone_start(size) = round_down(size, KASAN_GRANULE_SIZE)\n",
                                       "t.variant");
    const Variant& base = find_variant("linux-7.0");
    CEnv hw = env_for(base, Mode::hw_tags), gen = env_for(base, Mode::generic);
    auto at = [](const VariantFile& v, const CEnv& e, std::uint64_t size) {
        RuleVal<Concrete> s;
        s.w = size;
        return as_word<Concrete>(eval_rule_expr<Concrete>(*v.overrides.find("kmalloc_redzone_start"), e, {{"size", s}}));
    };
    EXPECT_EQ(at(f, hw, 50), 64u);
    EXPECT_EQ(at(f, gen, 50), 56u);
    EXPECT_EQ(at(f, hw, 64), 64u);
    EXPECT_EQ(at(g, hw, 50), 48u);
    EXPECT_EQ(at(g, gen, 50), 48u);
    EXPECT_EQ(at(g, hw, 64), 64u);
    for (std::uint64_t size : {1u, 7u, 8u, 9u, 15u, 16u, 17u, 107u, 4096u})
        EXPECT_EQ(at(f, hw, size), hw.granule_up(size)) << size;
    EXPECT_EQ(print_rule_expr(*f.overrides.find("kmalloc_redzone_start")), "round_up(size, KASAN_GRANULE_SIZE)");
    EXPECT_NE(error_of("name a\nbase linux-7.0\nrule kmalloc_redzone_start(size) = round_up(size)\n")
                  .find("round_up(x, y) takes two arguments"),
              std::string::npos);
    EXPECT_NE(error_of("name a\nbase linux-7.0\nrule __GFP_BITS_SHIFT = KASAN_GRANULE_SIZE\n").find("t.variant:3:"),
              std::string::npos);
}

// A Long parameter (the sampling counter as this_cpu_dec_return() returns
// it) compares signed with a number, as C compares a long with an int; the
// same bits as a Word (a gfp, an order) compare unsigned, also as in C.
TEST(VariantFile, ALongComparesSignedAsC) {
    auto rule = [](const std::string& expr) {
        return parse_variant_file("name s\nbase linux-7.0\nrule sample_wrapped(left) = " + expr + "\n", "t.variant");
    };
    const CEnv e = env_for(find_variant("linux-7.0"), Mode::hw_tags);
    auto holds = [&](const VariantFile& f, std::int64_t left, bool is_signed) {
        RuleVal<Concrete> v;
        v.w = std::uint64_t(left);
        v.is_signed = is_signed;
        return as_bool<Concrete>(eval_rule_expr<Concrete>(*f.overrides.find("sample_wrapped"), e, {{"left", v}}));
    };
    const VariantFile lt = rule("left < 0"), le = rule("left <= 0"), plus = rule("left + 1 <= 0");
    EXPECT_TRUE(holds(lt, -1, true));
    EXPECT_FALSE(holds(lt, 0, true));
    EXPECT_TRUE(holds(le, 0, true));
    EXPECT_TRUE(holds(le, -1, true));
    EXPECT_FALSE(holds(le, 1, true));
    for (std::int64_t left : {-1, 0, 1, 5})
        EXPECT_EQ(holds(plus, left, true), holds(lt, left, true)) << left;
    // the control: the same bits unsigned, as a gfp_t or an order would be
    EXPECT_FALSE(holds(lt, -1, false));
    EXPECT_FALSE(holds(le, -1, false));
}

// The file form of control-pgtable-no-zero: the same verdict on every
// obligation, in every scope (GFP_PGTABLE_USER follows the override through
// the base's own definition).
TEST(VariantFile, SameVerdictsAsItsBuiltInTwin) {
    const Variant& v = load_variant_file(std::string(TAGPROOF_SOURCE_DIR) + "/tests/variants/pgtable_no_zero.variant");
    CEnv e = env_for(v, Mode::hw_tags);
    EXPECT_EQ(v.GFP_PGTABLE_KERNEL(e), e.gfp.GFP_KERNEL);
    EXPECT_EQ(v.GFP_PGTABLE_USER(e), e.gfp.GFP_KERNEL | e.gfp.ACCOUNT);
    auto verdicts = [](const std::string& name) {
        solver::ProveOptions po;
        po.variant = name;
        po.baseline = "linux-7.0";
        std::map<std::string, std::string> out;
        for (const auto& vd : solver::prove(po))
            for (const auto& sv : vd.scopes) out[vd.id + " / " + sv.scope] = sv.verdict;
        return out;
    };
    auto file = verdicts(v.name()), builtin = verdicts("control-pgtable-no-zero");
    EXPECT_EQ(file, builtin);
    EXPECT_EQ(file.at("zeroing/pgtable_kernel / all inputs"), "counterexample");
}

// Rule calls: another rule is the variant's own; the rule being defined names
// the base's. Arity and the base chain are checked when read.
TEST(VariantFile, RuleCallsAndBaseReferences) {
    VariantFile f = parse_variant_file(
        "name a\nbase linux-7.0\n"
        "rule GFP_VMALLOC_SUPPORTED = GFP_VMALLOC_SUPPORTED | __GFP_SKIP_KASAN\n"
        "rule GFP_PGTABLE_KERNEL = GFP_VMAP_STACK() & ~__GFP_ZERO\n"
        "rule vmalloc_prot_normal(gfp, gfp_mask) = !vmalloc_skip(gfp)\n",
        "t.variant");
    const Variant& v = register_variant_file(f);
    const Variant& base = find_variant("linux-7.0");
    CEnv e = env_for(v, Mode::hw_tags), be = env_for(base, Mode::hw_tags);
    EXPECT_EQ(v.vmalloc_fix_flags(e, e.gfp.SKIP_KASAN).gfp, e.gfp.SKIP_KASAN);
    EXPECT_EQ(base.vmalloc_fix_flags(be, be.gfp.SKIP_KASAN).gfp, 0u);
    EXPECT_EQ(v.GFP_PGTABLE_KERNEL(e), e.gfp.GFP_KERNEL);
    EXPECT_NE(error_of("name a\nbase linux-7.0\nrule vmalloc_skip(gfp) = vmalloc_meta_gfp()\n")
                  .find("t.variant:3:26: vmalloc_meta_gfp takes 1 argument (gfp), not 0"),
              std::string::npos);
    EXPECT_NE(error_of("name a\nbase linux-6.1\nrule sample_eligible(order, gfp) = 1\n").find("no page_alloc sampling"),
              std::string::npos);
    EXPECT_NE(error_of("name a\nbase nowhere.variant\n").find("t.variant:2:6: cannot read the base variant file"),
              std::string::npos);
}

// flag, __GFP_BITS_SHIFT and boot_param lines: what patch 1/2 of the sampling
// series changes in gfp_types.h and the boot parameters.
TEST(VariantFile, FlagsBitsAndBootParameters) {
    VariantFile f = parse_variant_file(
        "name b\nbase linux-6.3\nflag __GFP_KASAN_SAMPLE hw_tags_only\n"
        "rule __GFP_BITS_SHIFT = 28 + IS_ENABLED(CONFIG_LOCKDEP)\n"
        "boot_param kasan.page_alloc.sample.order unknown\n"
        "rule sample_eligible(order, gfp) = gfp & __GFP_KASAN_SAMPLE\n",
        "t.variant");
    const Variant& v = register_variant_file(f);
    BuildConfig hw, gen;
    gen.mode = Mode::generic;
    EXPECT_TRUE(v.gfp_layout(hw).defines("__GFP_KASAN_SAMPLE"));
    EXPECT_NE(v.gfp_layout(hw).mask("__GFP_KASAN_SAMPLE"), 0u);
    EXPECT_EQ(v.gfp_layout(gen).mask("__GFP_KASAN_SAMPLE"), 0u);
    GfpBits with_lockdep;
    with_lockdep.build.lockdep = true;
    EXPECT_EQ(v.GFP_BITS_SHIFT(with_lockdep), 29);
    EXPECT_FALSE(v.boot_syntax().page_alloc_sample_order);
    EXPECT_TRUE(v.boot_syntax().page_alloc_sample);
    EXPECT_NE(error_of("name a\nbase linux-7.0\nflag __GFP_ZERO\n").find("linux-7.0 defines __GFP_ZERO already"),
              std::string::npos);
    EXPECT_NE(error_of("name a\nbase linux-7.0\nboot_param kasan.stacktrace unknown\n").find("kasan.page_alloc.sample"),
              std::string::npos);
    // the flag is unknown before its flag line
    EXPECT_NE(error_of("name a\nbase linux-6.3\nrule sample_eligible(order, gfp) = gfp & __GFP_KASAN_SAMPLE\n")
                  .find("unknown name '__GFP_KASAN_SAMPLE': linux-6.3 defines no such GFP flag"),
              std::string::npos);
}

// feature lines: what a tree has of the entry points some eras lack (the
// huge zero folio's __GFP_ZEROTAGS, read from a tree by tagproof lift); a
// file based on another keeps its features; names and values are checked.
TEST(VariantFile, FeatureLines) {
    VariantFile f = parse_variant_file("name feat-a\nbase linux-7.0\nfeature huge_zero_folio_zerotags no\n", "t.variant");
    const Variant& v = register_variant_file(f);
    EXPECT_FALSE(v.features().huge_zero_folio_zerotags);
    EXPECT_TRUE(v.features().vrealloc);  // the release's
    EXPECT_TRUE(find_variant("linux-7.0").features().huge_zero_folio_zerotags);  // the control: the base has it
    EXPECT_NE(error_of("name a\nbase linux-7.0\nfeature huge_zero_folio yes\n").find("t.variant:3:9: feature 'huge_zero_folio'"),
              std::string::npos);
    EXPECT_NE(error_of("name a\nbase linux-7.0\nfeature vrealloc maybe\n").find("t.variant:3:9: feature NAME yes|no"),
              std::string::npos);
    EXPECT_NE(error_of("name a\nfeature vrealloc no\n").find("'base' must come before the first feature"), std::string::npos);
}

// The variant-file doc lists exactly the rules the reader accepts, with their
// parameters (issue 34 item 6: three were missing): one table, the reader's.
TEST(VariantFileDoc, ListsEveryRuleTheReaderAcceptsAndNoOther) {
    std::ifstream in(std::string(TAGPROOF_SOURCE_DIR) + "/scenario/variant-files.md");
    ASSERT_TRUE(in);
    std::string line;
    bool in_table = false;
    std::map<std::string, std::string> doc;  // rule -> its parameters column
    while (std::getline(in, line)) {
        if (line.rfind("## The rules a file may override", 0) == 0) in_table = true;
        else if (line.rfind("## ", 0) == 0) in_table = false;
        if (!in_table || line.rfind("| `", 0) != 0) continue;
        const auto e = line.find('`', 3);
        const std::string name = line.substr(3, e - 3);
        const auto c1 = line.find('|', e);
        const auto c2 = line.find('|', c1 + 1);
        doc[name] = line.substr(c1 + 1, c2 - c1 - 1);
    }
    std::set<std::string> reader;
    for (const auto& r : tagproof::kernel::overridable_rules()) {
        reader.insert(r.name);
        ASSERT_TRUE(doc.count(r.name)) << r.name << " is accepted by the reader but not in scenario/variant-files.md";
        for (const auto& p : r.params)
            EXPECT_NE(doc[r.name].find("`" + std::string(p) + "`"), std::string::npos) << r.name << "'s parameter " << p;
        if (r.params.empty()) {
            EXPECT_NE(doc[r.name].find("-"), std::string::npos) << r.name;
        }
    }
    for (const auto& [name, params] : doc) EXPECT_TRUE(reader.count(name)) << name << " is documented but not accepted";
}

// __GFP_BITS_SHIFT as the kernel writes it (issue 34 item 1): IS_ENABLED() of
// any build option, bound per build, and '*'; a runtime predicate refused at
// its column; a shift a gfp_t cannot hold refused; and moving only the shift
// leaves __GFP_NOLOCKDEP where the header puts it (v5.18's form then puts it
// outside the mask in a Generic build with LOCKDEP: the real failure).
TEST(VariantFileShift, TheKernelsOwnFormIsBoundPerBuild) {
    VariantFile f = parse_variant_file(
        "name shift-v518\nbase linux-6.1\n"
        "rule __GFP_BITS_SHIFT = 24 + 3 * IS_ENABLED(CONFIG_KASAN_HW_TAGS) + IS_ENABLED(CONFIG_LOCKDEP)\n",
        "t.variant");
    const Variant& v = register_variant_file(f);
    BuildConfig hw, gen, gen_lockdep;
    gen.mode = gen_lockdep.mode = Mode::generic;
    gen_lockdep.lockdep = true;
    EXPECT_EQ(v.gfp_layout(hw).bits_shift(), 27);
    EXPECT_EQ(v.gfp_layout(gen).bits_shift(), 24);
    EXPECT_EQ(v.gfp_layout(gen_lockdep).bits_shift(), 25);
    // NOLOCKDEP stays at linux-6.1's 0x8000000, now outside the 25-bit mask
    EXPECT_EQ(v.gfp_layout(gen_lockdep).mask("__GFP_NOLOCKDEP"), 0x8000000u);
    EXPECT_NE(v.gfp_layout(gen_lockdep).mask("__GFP_NOLOCKDEP") & ~v.gfp_layout(gen_lockdep).bits_mask(), 0u);
    // negative control: linux-6.1 itself keeps it inside (27 + LOCKDEP)
    const Variant& base = find_variant("linux-6.1");
    EXPECT_EQ(base.gfp_layout(gen_lockdep).mask("__GFP_NOLOCKDEP"), 0x8000000u);
    EXPECT_EQ(base.gfp_layout(gen_lockdep).mask("__GFP_NOLOCKDEP") & ~base.gfp_layout(gen_lockdep).bits_mask(), 0u);
}

TEST(VariantFileShift, RuntimeNamesAndImpossibleShiftsAreRefused) {
    EXPECT_NE(error_of("name a\nbase linux-6.1\nrule __GFP_BITS_SHIFT = kasan_hw_tags_enabled() ? 28 : 20\n")
                  .find("t.variant:3:25: kasan_hw_tags_enabled is decided at run time"),
              std::string::npos)
        << error_of("name a\nbase linux-6.1\nrule __GFP_BITS_SHIFT = kasan_hw_tags_enabled() ? 28 : 20\n");
    EXPECT_NE(error_of("name a\nbase linux-6.1\nrule __GFP_BITS_SHIFT = 99999\n").find("gfp_t is an unsigned int"),
              std::string::npos);
    EXPECT_NE(error_of("name a\nbase linux-6.1\nrule __GFP_BITS_SHIFT = IS_ENABLED(CONFIG_SMP) + 27\n")
                  .find("the configuration options known here are"),
              std::string::npos);
}

// A rule's parameters are the ones it declares (issue 33 item 7: `rule
// zero_tags(a, b, c) = 1` was taken); written right, the rule reads.
TEST(VariantFileRule, ParametersMustBeTheRulesOwn) {
    EXPECT_NE(error_of("name a\nbase linux-7.0\nrule zero_tags(a, b, c) = 1\n").find("rule zero_tags takes (gfp, init), not (a, b, c)"),
              std::string::npos)
        << error_of("name a\nbase linux-7.0\nrule zero_tags(a, b, c) = 1\n");
    EXPECT_NE(error_of("name a\nbase linux-7.0\nrule GFP_PGTABLE_KERNEL(gfp) = GFP_KERNEL\n").find("takes (), not (gfp)"),
              std::string::npos);
    EXPECT_EQ(error_of("name a\nbase linux-7.0\nrule zero_tags(gfp, init) = 0\n"), "");
    EXPECT_EQ(error_of("name a\nbase linux-7.0\nrule GFP_PGTABLE_KERNEL() = GFP_KERNEL\n"), "");
}
