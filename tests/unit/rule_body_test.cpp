// Rule bodies (model/kernel/file/body_reader.hpp, rule_body.hpp): the C subset
// a function lifted from a tree is read into, its errors, its evaluation over
// the domain, and the drift check (solver/rule_drift.hpp) that sets a body
// beside an era's hand rule. The bodies here are written for the tests, in a
// reviewer's words: the kernel's own are lifted from a tree at run time
// (tests/CMakeLists.txt, the lift_functions_* tests).
#include <gtest/gtest.h>

#include <fstream>

#include "test_env.hpp"

#include "file/file_rules.hpp"
#include "file/primitives.hpp"
#include "file/variant_file.hpp"
#include "rule_drift.hpp"
#include "scratch_dir.hpp"

using namespace tagproof;
using namespace tagproof::kernel;

namespace {

std::string error_of(const std::string& text) {
    try {
        parse_variant_file(text, "b.variant");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// post_alloc_hook as linux-6.1's hand rule decides it (rules_6_1.hpp), written
// as a body: tags zeroed with the data when asked and initialising; otherwise
// unpoisoned (and initialised by KASAN where integrated), or the page tag reset.
const char* kAllocHook = R"(
rule post_alloc_hook(struct page *pg, unsigned int ord, gfp_t gfp) {
    bool zero_it = !want_init_on_free() && want_init_on_alloc(gfp) && !should_skip_init(gfp);
    bool clear_tags = zero_it && (gfp & __GFP_ZEROTAGS);
    int k;

    note_the_allocation(pg, ord);   /* no effect on tags or data */
    if (clear_tags) {
        for (k = 0; k != 1 << ord; ++k)
            tag_clear_highpage(pg + k);
        zero_it = false;
    }
    if (!should_skip_kasan_unpoison(gfp)) {
        kasan_unpoison_pages(pg, ord, zero_it);
        if (kasan_has_integrated_init())
            zero_it = false;
    } else {
        // RESET
        for (k = 0; k != 1 << ord; ++k)
            page_kasan_tag_reset(pg + k);
    }
    if (zero_it)
        kernel_init_pages(pg, 1 << ord);
    if (kasan_hw_tags_enabled() && (gfp & __GFP_SKIP_KASAN_POISON))
        SetPageSkipKASanPoison(pg);
}
)";

std::string file_with(const std::string& body, const std::string& base = "linux-6.1") {
    return "name body-test\nbase " + base + "\n" + body;
}

std::vector<solver::RuleDriftRow> drift_of(const std::string& text, const std::string& base = "linux-6.1") {
    VariantFile f = parse_variant_file(file_with(text, base), "b.variant");
    return solver::rule_drift(f.overrides, base);
}

}  // namespace

TEST(RuleBody, ReadsTheSubset) {
    VariantFile f = parse_variant_file(file_with(kAllocHook), "b.variant");
    const RuleBody* b = f.overrides.find_body("post_alloc_hook");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->params, (std::vector<std::string>{"pg", "ord", "gfp"}));
    EXPECT_EQ(b->locals, (std::vector<std::string>{"zero_it", "clear_tags", "k"}));
    // a call for no value that is neither a rule nor a primitive: kept, to be named
    EXPECT_EQ(b->unread_calls, (std::vector<std::string>{"note_the_allocation"}));
    EXPECT_EQ(b->where, "b.variant:4");  // kAllocHook opens with a blank line
}

TEST(RuleBody, ErrorsNameLineAndColumn) {
    // line 3 is the rule line; the statement is on line 4, column 5
    EXPECT_NE(error_of(file_with("rule should_skip_init(gfp_t f) {\n    while (f) return 1;\n}\n"))
                  .find("b.variant:4:5: 'while' is outside the C a rule body reads"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule should_skip_init(gfp_t f) {\n    return page_is_odd(f);\n}\n"))
                  .find("b.variant:4:12: the value of page_is_odd() is used"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule should_skip_init(gfp_t f) {\n    page_kasan_tag_reset(0);\n    return 0;\n}\n"))
                  .find("only post_alloc_hook's body may call a primitive"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule should_skip_init(gfp_t f, int x) {\n    return 0;\n}\n"))
                  .find("should_skip_init takes 1 parameter, not 2"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule should_skip_init(gfp_t f) {\n    return 0;\n")).find("never closed"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule should_skip_init(gfp_t f) {\n#ifdef CONFIG_X\n    return 0;\n}\n"))
                  .find("b.variant:4:1: a preprocessor line inside a rule body"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule kasan_poison_everything(gfp_t f) {\n    return 0;\n}\n"))
                  .find("is no rule a body may define"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule should_skip_init(gfp_t f) {\n    if (static_branch_unlikely(&no_such_key))\n"
                                 "        return 1;\n    return 0;\n}\n"))
                  .find("the static key 'no_such_key' is none the model has"),
              std::string::npos);
}

// The hand rule written as a body is proved equal to it, field by field: the
// drift check's positive control.
TEST(RuleBody, FaithfulBodyIsProvedEqual) {
    const auto rows = drift_of(kAllocHook);
    ASSERT_EQ(rows.size(), 9u);  // every PostAllocPlan field
    for (const auto& r : rows) EXPECT_TRUE(r.equal) << r.field << ": " << r.witness;
}

// Its negative control: the same body without the page-tag reset differs in
// reset_page_tag, and only there, with a configuration where it matters.
TEST(RuleBody, BodyWithoutTheResetDiffers) {
    std::string broken = kAllocHook;
    const std::size_t at = broken.find("        // RESET");
    broken.replace(at, broken.find("pg + k);", broken.find("page_kasan_tag_reset")) + 8 - at, "        ;");
    const auto rows = drift_of(broken);
    for (const auto& r : rows) {
        if (r.field == "reset_page_tag") {
            EXPECT_FALSE(r.equal);
            EXPECT_EQ(r.lifted_value, "false");
            EXPECT_EQ(r.hand_value, "true");
            EXPECT_NE(r.witness.find("gfp "), std::string::npos) << r.witness;
        } else {
            EXPECT_TRUE(r.equal) << r.field << ": " << r.witness;
        }
    }
}

// C's short circuit: a primitive on the right of && takes effect only where
// the left is true (the 6.12 form of the unpoisoning), and an early return
// ends the body on its path only.
TEST(RuleBody, ShortCircuitAndEarlyReturn) {
    const auto rows = drift_of(R"(
rule post_alloc_hook(struct page *page, unsigned int order, gfp_t gfp) {
    bool init = !want_init_on_free() && want_init_on_alloc(gfp) && !should_skip_init(gfp);
    if (init && (gfp & __GFP_ZEROTAGS)) {
        tag_clear_highpage(page);
        init = false;
    }
    if (!should_skip_kasan_unpoison(gfp) && kasan_unpoison_pages(page, order, init)) {
        if (kasan_has_integrated_init())
            init = false;
    } else {
        page_kasan_tag_reset(page);
    }
    if (kasan_hw_tags_enabled() && (gfp & __GFP_SKIP_KASAN_POISON))
        SetPageSkipKASanPoison(page);
    if (!init)
        return;
    kernel_init_pages(page, 1 << order);
}
)");
    for (const auto& r : rows) EXPECT_TRUE(r.equal) << r.field << ": " << r.witness;
}

// A value rule's body, evaluated concretely through the variant it defines,
// beside the hand rule it replaces; and C's bool: `return flags & X` is 0 or 1.
TEST(RuleBody, ValueRuleRunsInTheModel) {
    VariantFile f = parse_variant_file(file_with(R"(
rule should_skip_init(gfp_t flags) {
    if (!kasan_hw_tags_enabled())
        return false;
    return flags & __GFP_SKIP_ZERO;
}
rule should_skip_kasan_unpoison(gfp_t flags) {
    return true;  /* a reviewer's broken patch: never unpoison */
}
)"),
                                         "b.variant");
    const auto rows = solver::rule_drift(f.overrides, "linux-6.1");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(rows[0].equal || rows[1].equal);
    for (const auto& r : rows) EXPECT_EQ(r.equal, r.rule == "should_skip_init") << r.rule << ": " << r.witness;
    // the hand post_alloc_hook calls the file's should_skip_kasan_unpoison: no unpoisoning, the page tag reset
    CEnv hand = test::env_for(find_variant("linux-6.1"), Mode::hw_tags), file = hand;
    file.overrides = &f.overrides;
    const gfp_t gfp = hand.gfp.GFP_KERNEL;
    const auto h = file_rules<rules_6_1>::post_alloc_hook<Concrete>(hand, gfp, 0, 0);
    const auto v = file_rules<rules_6_1>::post_alloc_hook<Concrete>(file, gfp, 0, 0);
    EXPECT_TRUE(h.unpoison && !h.reset_page_tag);
    EXPECT_TRUE(!v.unpoison && v.reset_page_tag);
}

TEST(RuleBody, EveryPrimitiveCitesItsSource) {
    ASSERT_FALSE(primitives().empty());
    for (const auto& p : primitives()) {
        EXPECT_NE(std::string(p.source).find('/'), std::string::npos) << p.name;  // a kernel file
        EXPECT_FALSE(std::string(p.effect).empty()) << p.name;
    }
}

// A file based on another takes its bodies, where it writes neither an
// expression nor a body of its own (a patch's file on a tree's lifted file).
TEST(RuleBody, BodiesAreInheritedFromTheBaseFile) {
    const std::string dir = test::scratch_dir("rule-body");
    {
        std::ofstream(dir + "/tree.variant") << "name tree-x\nbase linux-6.1\n"
                                                "rule should_skip_init(gfp_t f) {\n    return false;\n}\n"
                                                "rule should_skip_kasan_unpoison(gfp_t f) {\n    return false;\n}\n";
    }
    VariantFile f = parse_variant_file("name patch-x\nbase tree.variant\n"
                                       "rule should_skip_kasan_unpoison = __GFP_ZERO & 0\n",
                                       dir + "/patch.variant");
    EXPECT_NE(f.overrides.find_body("should_skip_init"), nullptr);
    EXPECT_EQ(f.overrides.find_body("should_skip_kasan_unpoison"), nullptr);  // its own expression wins
    EXPECT_NE(f.overrides.find("should_skip_kasan_unpoison"), nullptr);
    // a body naming itself means the base era's rule, past the base file's body: refused
    EXPECT_NE(error_of("name patch-y\nbase " + dir + "/tree.variant\n"
                       "rule should_skip_init(gfp_t f) {\n    return should_skip_init(f);\n}\n")
                  .find("write the base's out"),
              std::string::npos);
}

// should_skip_kasan_poison as a body: v6.1's words (fpi_flags, the page flag)
// and v6.4's (the page tag alone), each proved equal to its era's hand rule
// over every state of the freed page; a body that forgets the page flag
// differs where the flag is set and seen (free_reads_skip_flag: v6.3's order).
namespace {
const char* kSkipPoison61 = R"(
rule should_skip_kasan_poison(struct page *page, fpi_t fpi_flags) {
    return deferred_pages_enabled() ||
           (!IS_ENABLED(CONFIG_KASAN_GENERIC) && (fpi_flags & FPI_SKIP_KASAN_POISON)) ||
           PageSkipKASanPoison(page);
}
)";
const char* kSkipPoison64 = R"(
rule should_skip_kasan_poison(struct page *page) {
    if (IS_ENABLED(CONFIG_KASAN_GENERIC))
        return deferred_pages_enabled();
    return page_kasan_tag(page) == KASAN_TAG_KERNEL;
}
)";
bool all_equal(const std::vector<solver::RuleDriftRow>& rows, const std::string& rule) {
    bool any = false;
    for (const auto& r : rows)
        if (r.rule == rule) {
            any = true;
            if (!r.equal) return false;
        }
    return any;
}
}  // namespace

TEST(RuleBody, FreePathBodiesAreProvedEqual) {
    EXPECT_TRUE(all_equal(drift_of(kSkipPoison61, "linux-6.1"), "free_pages_prepare"));
    EXPECT_TRUE(all_equal(drift_of(kSkipPoison61, "linux-6.3"), "free_pages_prepare"));
    EXPECT_TRUE(all_equal(drift_of(kSkipPoison64, "linux-6.4"), "free_pages_prepare"));
    EXPECT_TRUE(all_equal(drift_of(kSkipPoison64, "linux-7.0"), "free_pages_prepare"));
}

TEST(RuleBody, FreePathBodyWithoutTheFlagDiffers) {
    const std::string broken = R"(
rule should_skip_kasan_poison(struct page *page, fpi_t fpi_flags) {
    return deferred_pages_enabled() ||
           (!IS_ENABLED(CONFIG_KASAN_GENERIC) && (fpi_flags & FPI_SKIP_KASAN_POISON));
}
)";
    // v6.1.0 never sees the flag (487a32ec24be): the same there; v6.3 sees it
    EXPECT_TRUE(all_equal(drift_of(broken, "linux-6.1"), "free_pages_prepare"));
    bool skip_differs = false;
    for (const auto& r : drift_of(broken, "linux-6.3"))
        if (r.rule == "free_pages_prepare" && r.field == "skip_poison") {
            skip_differs = !r.equal;
            EXPECT_NE(r.witness.find("PG_skip_kasan_poison true"), std::string::npos) << r.witness;
        }
    EXPECT_TRUE(skip_differs);
    // and the order read from free_pages_prepare decides whether the flag counts
    const auto rows = drift_of(std::string(kSkipPoison61) + "rule free_reads_skip_flag = true\n", "linux-6.1");
    bool poison_differs = false;
    for (const auto& r : rows)
        if (r.rule == "free_pages_prepare" && r.field == "poison") poison_differs = !r.equal;
    EXPECT_TRUE(poison_differs);
}

TEST(RuleBody, FreedPageIsReadInTheFreePathOnly) {
    EXPECT_NE(error_of(file_with("rule should_skip_init(gfp_t f) {\n    return page_kasan_tag(0) == 0;\n}\n"))
                  .find("b.variant:4:12: the value of page_kasan_tag() is used"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule should_skip_kasan_poison(struct page *p) {\n    page_kasan_tag_reset(p);\n"
                                 "    return 0;\n}\n"))
                  .find("only post_alloc_hook's body may call a primitive"),
              std::string::npos);
    EXPECT_NE(error_of(file_with("rule should_skip_kasan_poison(struct page *p, fpi_t f, int x) {\n    return 0;\n}\n"))
                  .find("should_skip_kasan_poison takes 1 to 2 parameters, not 3"),
              std::string::npos);
}
