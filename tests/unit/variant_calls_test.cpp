// variant_calls_test.cpp — the questions a run asks of a variant
// (model/kernel/variant_calls.hpp) and the corpus's reuse of one file's runs
// by a variant that answers them all alike (scenario/corpus_file_cache.hpp).
//
// What is held: every virtual method of Variant is a question (else a method
// would be answered unrecorded); every struct's serialiser writes each of its
// fields; a transcript re-asked of its own variant agrees, through its bytes
// too; a corpus with reuse gives, file by file, what it gives run afresh, for
// mutants of linux-7.0 and for variants of other eras after linux-7.0 kept its
// runs. Negative controls: a mutant that answers one recorded question
// differently is told apart; a tampered answer is a difference; a struct with
// a field left out of its serialiser is caught by the count.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "corpus.hpp"
#include "corpus_file_cache.hpp"
#include "runtime.hpp"
#include "scratch_dir.hpp"
#include "variant_calls.hpp"
#include "variant_calls_io.hpp"

using namespace tagproof;
using namespace tagproof::kernel;

namespace {

// The names of the virtual methods a header declares (a destructor and
// overrides() aside: the latter is the variant's own pointer, not a question).
std::set<std::string> virtual_methods(const std::string& text) {
    std::set<std::string> out;
    static const std::regex decl(R"(virtual\s+[^;{(]*?\b(\w+)\s*\()");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), decl); it != std::sregex_iterator(); ++it) {
        const std::string n = (*it)[1];
        if (n != "overrides" && n != "Variant") out.insert(n);  // ~Variant()
    }
    return out;
}

std::set<std::string> questions() {
    return {
#define TAGPROOF_NAME(n) #n,
        TAGPROOF_VARIANT_QUESTIONS(TAGPROOF_NAME)
#undef TAGPROOF_NAME
    };
}

// A struct's field count, by the aggregate initialisers it takes.
struct AnyField {
    template <class T>
    operator T() const;
};
template <class T, class... A>
constexpr std::size_t arity() {
    if constexpr (requires { T{A{}..., AnyField{}}; })
        return arity<T, A..., AnyField>();
    else
        return sizeof...(A);
}

template <class T>
int written(const T& x) {
    calls::Out o;
    calls::io(o, x);
    return o.fields;
}

CEnv env_of(const Variant& v, Mode m) {
    BuildConfig b;
    b.mode = m;
    Machine mc;
    BootParams p;
    return v.make_env(b, mc, p, derive_runtime(b, mc, p));
}

}  // namespace

TEST(VariantCalls, EveryVirtualMethodIsAQuestion) {
    std::ifstream in(std::string(TAGPROOF_SOURCE_DIR) + "/model/kernel/variant.hpp");
    std::stringstream text;
    text << in.rdbuf();
    const auto declared = virtual_methods(text.str());
    ASSERT_GT(declared.size(), 50u);
    EXPECT_EQ(declared, questions());
    // the control: a method added to the interface and not to the list is seen
    auto more = virtual_methods(text.str() + "\n    virtual bool kasan_new_rule(const CEnv&) const = 0;\n");
    EXPECT_NE(more, questions());
}

TEST(VariantCalls, EveryFieldIsWritten) {
    EXPECT_EQ(written(PostAllocPlan<Concrete>{}), int(arity<PostAllocPlan<Concrete>>()));
    EXPECT_EQ(written(SampleDecision<Concrete>{}), int(arity<SampleDecision<Concrete>>()));
    EXPECT_EQ(written(FreePlan<Concrete>{}), int(arity<FreePlan<Concrete>>()));
    EXPECT_EQ(written(FreeInput<Concrete>{}), int(arity<FreeInput<Concrete>>()));
    EXPECT_EQ(written(VmallocFixFlags<Concrete>{}), int(arity<VmallocFixFlags<Concrete>>()));
    EXPECT_EQ(written(VmallocPlan<Concrete>{}), int(arity<VmallocPlan<Concrete>>()));
    EXPECT_EQ(written(VmallocUnpoison<Concrete>{}), int(arity<VmallocUnpoison<Concrete>>()));
    EXPECT_EQ(written(SlabFreePlan<Concrete>{}), int(arity<SlabFreePlan<Concrete>>()));
    EXPECT_EQ(written(MempoolHooks<Concrete>{}), int(arity<MempoolHooks<Concrete>>()));
    EXPECT_EQ(written(VreallocHooks<Concrete>{}), int(arity<VreallocHooks<Concrete>>()));
    EXPECT_EQ(written(TagCheckInput<Concrete>{}), int(arity<TagCheckInput<Concrete>>()));
    EXPECT_EQ(written(GfpMasks<Concrete>{}), int(arity<GfpMasks<Concrete>>()));
    EXPECT_EQ(written(BootParamSyntax{}), int(arity<BootParamSyntax>()));
    EXPECT_EQ(written(Features{}), int(arity<Features>()));
    EXPECT_EQ(written(GfpExtraFlag{}), int(arity<GfpExtraFlag>()));
    // an empty list is its length alone
    EXPECT_EQ(written(Claims{}), int(arity<Claims>()));
    EXPECT_EQ(written(UntagClaim{}), int(arity<UntagClaim>()));
    // nested: the env's masks are their fields, its overrides pointer is not written
    EXPECT_EQ(written(CEnv{}), int(arity<CEnv>()) - 2 + int(arity<GfpMasks<Concrete>>()));
    // an optional is written as two (whether it is set, its value)
    EXPECT_EQ(written(BuildConfig{}), int(arity<BuildConfig>()) + 1);
    EXPECT_EQ(written(GfpBits{}), int(arity<BuildConfig>()) + 1 + 1);
    // the control: a struct one field longer than its serialiser counts differently
    struct Longer {
        bool tag_clear, tag_clear_data, unpoison, unpoison_init, sampled_out;
        std::uint64_t sample_skip_next;
        bool reset_page_tag, kernel_init, set_skip_poison_flag, one_more;
    };
    EXPECT_NE(written(PostAllocPlan<Concrete>{}), int(arity<Longer>()));
}

TEST(VariantCalls, ATranscriptAgreesWithItsOwnVariantOnly) {
    const Variant& base = find_variant("linux-7.0");
    RecordingVariant rec(base);
    const CEnv e = env_of(rec, Mode::hw_tags);
    const gfp_t kernel = e.gfp.GFP_KERNEL;
    rec.post_alloc_hook(e, kernel | e.gfp.ZERO, 0, 0);
    rec.post_alloc_hook(e, kernel | e.gfp.ZERO, 0, 0);  // asked twice, kept once
    rec.free_pages_prepare(e, FreeInput<Concrete>{0x3, false, false});
    rec.ptr_tag_match_all(e, 0xFF);
    const CallTranscript t = rec.transcript();
    EXPECT_GE(t.size(), 4u);  // the three above and the layout's questions (era, flags, shift)
    EXPECT_TRUE(t.same_answers(base));
    auto back = CallTranscript::parse(t.bytes());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->size(), t.size());
    EXPECT_TRUE(back->same_answers(base));
    // the controls: a mutant whose match-all test differs, and one that drops
    // __GFP_ZERO's init on the skip path (not asked here: it agrees)
    EXPECT_FALSE(t.same_answers(find_variant("mutant-no-tcma")));
    EXPECT_FALSE(CallTranscript::parse(t.bytes() + "x"));
    std::string bytes = t.bytes();
    bytes[bytes.size() - 1] ^= 1;  // the last answer's last byte
    auto tampered = CallTranscript::parse(bytes);
    ASSERT_TRUE(tampered);
    EXPECT_FALSE(tampered->same_answers(base));
    // the same questions of the bytes as they are (a cache's read path), with the same controls
    EXPECT_TRUE(CallTranscript::well_formed(t.bytes()));
    EXPECT_TRUE(CallTranscript::same_answers(t.bytes(), base));
    EXPECT_FALSE(CallTranscript::same_answers(t.bytes(), find_variant("mutant-no-tcma")));
    EXPECT_TRUE(CallTranscript::well_formed(bytes));
    EXPECT_FALSE(CallTranscript::same_answers(bytes, base));
    for (const std::string& bad : {t.bytes() + "x", t.bytes().substr(0, t.bytes().size() - 1), std::string()}) {
        EXPECT_FALSE(CallTranscript::well_formed(bad));
        EXPECT_FALSE(CallTranscript::same_answers(bad, base));  // not a transcript: never "the same"
    }
}

TEST(VariantCalls, ANameAskedIsAnAnswerToo) {
    RecordingVariant rec(find_variant("linux-7.0"));
    EXPECT_EQ(rec.name(), "linux-7.0");
    const CallTranscript t = rec.transcript();
    EXPECT_TRUE(t.same_answers(find_variant("linux-7.0")));
    EXPECT_FALSE(t.same_answers(find_variant("linux-6.4")));
}

// The recent keys a question remembers (four, compared byte for byte) only
// answer "asked before" for what was recorded: asked in turn over more
// distinct arguments than it remembers, and again, every one is in the
// transcript once and answered as the inner variant answers; one never asked
// is recorded when it comes.
TEST(VariantCalls, EveryDistinctQuestionIsRecordedPastTheRecentOnes) {
    const Variant& base = find_variant("linux-7.0");
    RecordingVariant rec(base);
    const CEnv e = env_of(rec, Mode::hw_tags);
    const std::size_t before = rec.transcript().size();
    // asked again, a question is answered from what was kept: the inner variant's answer
    for (int round = 0; round < 3; ++round)
        for (std::uint64_t field = 0; field < 6; ++field) EXPECT_EQ(rec.page_kasan_tag(e, field), base.page_kasan_tag(e, field));
    // the six answers differ, so a memo that served one key's answer for another would be caught above
    std::set<Tag> answers;
    for (std::uint64_t field = 0; field < 6; ++field) answers.insert(base.page_kasan_tag(e, field));
    EXPECT_EQ(answers.size(), 6u);
    EXPECT_EQ(rec.transcript().size(), before + 6);
    rec.page_kasan_tag(e, 6);  // new: past every remembered key
    EXPECT_EQ(rec.transcript().size(), before + 7);
    CEnv other = e;
    other.deferred_pages = !e.deferred_pages;  // the same argument under another env is another question
    rec.page_kasan_tag(other, 6);
    EXPECT_EQ(rec.transcript().size(), before + 8);
    EXPECT_TRUE(rec.transcript().same_answers(base));
}

// The corpus with reuse is the corpus run afresh, file by file.
TEST(CorpusFileRuns, ReusedRunsAreTheRunsAfresh) {
    const std::string dir = test::scratch_dir("corpus-file-runs");
    const auto files = scenario::corpus_files({std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/kunit",
                                               std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/eras"});
    auto corpus = [&](const std::string& variant, const std::string& cache) {
        ::setenv("TAGPROOF_CORPUS_CACHE", cache.c_str(), 1);
        // not run_corpus: it keeps a corpus per variant in the process
        auto r = scenario::run_corpus_files(files, find_variant(variant));
        ::unsetenv("TAGPROOF_CORPUS_CACHE");
        return r;
    };
    auto same = [](const scenario::CorpusResult& a, const scenario::CorpusResult& b) {
        EXPECT_EQ(a.runs, b.runs);
        EXPECT_EQ(a.not_applicable, b.not_applicable);
        EXPECT_EQ(a.counterexamples, b.counterexamples);
        ASSERT_EQ(a.entries.size(), b.entries.size());
        for (std::size_t i = 0; i < a.entries.size(); ++i) {
            EXPECT_EQ(a.entries[i].file, b.entries[i].file);
            EXPECT_EQ(a.entries[i].mode, b.entries[i].mode);
            EXPECT_EQ(a.entries[i].outcome, b.entries[i].outcome) << a.entries[i].file;
            EXPECT_EQ(a.entries[i].violations, b.entries[i].violations) << a.entries[i].file;
        }
    };
    const auto base = corpus("linux-7.0", dir + "/kept");
    EXPECT_EQ(base.files_reused, 0u);
    EXPECT_EQ(base.files, files.size());
    // mutants of linux-7.0 (one rule each) and releases of other eras
    for (const std::string v : {"mutant-no-tcma", "mutant-skip-drops-zero", "mutant-no-free-poison", "vrealloc-v6.15",
                                "linux-6.1", "sample-v3"}) {
        SCOPED_TRACE(v);
        const auto afresh = corpus(v, "off");
        const auto reused = corpus(v, dir + "/kept");
        same(reused, afresh);
        if (v.rfind("mutant-", 0) == 0) {
            EXPECT_GT(reused.files_reused, 0u);  // most files never ask the changed rule
        }
        EXPECT_LT(reused.files_reused, reused.files);  // and some do: those ran
    }
}
