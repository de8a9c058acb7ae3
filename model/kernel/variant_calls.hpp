// variant_calls.hpp — the questions a run asks of a variant, and their
// answers, so that a run's result can be reused by another variant that
// answers every one of them the same (issue 33: work shared instead of
// repeated).
//
// Why this is sound: the model reads a variant only through the Variant
// interface (variant.hpp). A run is a function of the scenario, the options
// and those answers: no clock, no environment, sampling seeded by the
// scenario's name. RecordingVariant stands between a run and the variant and
// writes down every call — which method, its arguments (the decision inputs
// KasanEnv less its overrides pointer, which is the variant's own), and what
// came back (or what it threw). Another variant that gives the same answer to
// every recorded question makes the very same run, call for call: the first
// call on which the two could part is one of the recorded ones, and they agree
// there. So a result kept with its transcript is reused only where
// CallTranscript::same_answers() re-asks every question of the new variant and
// gets the recorded bytes back.
//
// Everything the model can see is among the questions: the rules, the GFP
// era, flags and __GFP_BITS_SHIFT (the layout is built from them), the boot
// syntax, features, claims, and name() — which error messages and the
// oracle's findings print, so a run that printed the name is reused by that
// name alone.
//
// Each method of Variant has a line in TAGPROOF_VARIANT_QUESTIONS and one in
// RecordingVariant; variant_calls_test.cpp holds the two to the interface (a
// method left out would be answered by the inner variant unrecorded) and every
// struct's fields to its serialiser.
#pragma once
#include <any>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "hash128.hpp"
#include "variant.hpp"

namespace tagproof::kernel {

// Every question a Variant answers, by its method's name.
#define TAGPROOF_VARIANT_QUESTIONS(X)                                                                             \
    X(name) X(baseline) X(summary) X(gfp_era) X(extra_gfp_flags) X(GFP_BITS_SHIFT) X(boot_syntax)               \
    X(THREADINFO_GFP) X(GFP_VMAP_STACK) X(GFP_PGTABLE_KERNEL) X(GFP_PGTABLE_USER) X(pte_alloc_one_kernel_gfp)    \
    X(pte_alloc_one_gfp) X(user_page_gfp) X(skb_frag_gfp) X(skb_frag_fallback_gfp) X(alloc_skb_frags_gfp)        \
    X(skb_frags_order_after_failure) X(skb_with_frags_fits) X(want_init_on_alloc) X(post_alloc_hook)             \
    X(kasan_unpoison_pages) X(free_pages_prepare) X(vmalloc_fix_flags) X(vmalloc_node_range)                     \
    X(kasan_unpoison_vmalloc) X(cached_stack_unpoison) X(stack_cache_serves) X(vmalloc_huge_order)               \
    X(vmap_unpoison_plan) X(stack_cache_takes) X(slab_tag_per_alloc) X(slab_memset_init) X(slab_alloc_kasan_init) X(kmalloc_redzone_start) \
    X(kmalloc_large_redzone_start)                                                                               \
    X(krealloc_zeroes_spare) X(vrealloc_shrink_zeroes) X(kasan_slab_free) X(mempool_hooks) X(vrealloc_hooks)     \
    X(mte_sync_tags_clears) X(kfence_enabled) X(boot_release_fpi_skip_kasan_poison) X(page_kasan_tag_field)      \
    X(page_kasan_tag) X(kmalloc_minalign) X(random_tag_min) X(random_tag_max) X(ptr_tag_match_all)               \
    X(tag_mismatch) X(granule_check_faults) X(is_mutant) X(features) X(claims) X(untag_claims) X(next_version)

enum class Question : std::uint8_t {
#define TAGPROOF_QUESTION_ENUM(n) n,
    TAGPROOF_VARIANT_QUESTIONS(TAGPROOF_QUESTION_ENUM)
#undef TAGPROOF_QUESTION_ENUM
        count
};

// The questions one run asked and the answers it got, each distinct question
// once (a model asks post_alloc_hook the same thing at every allocation).
class CallTranscript {
public:
    // Notes that `q` asked with `args` (serialised) was answered `answer`.
    void add(Question q, const std::string& args, const std::string& answer);
    // Whether `v` answers every recorded question with the recorded bytes
    // (a question that cannot be re-read is a difference).
    bool same_answers(const Variant& v) const;
    std::size_t size() const { return calls_.size(); }

    // The transcript as bytes for a cache entry, and back (nullopt for bytes
    // that are not a whole transcript).
    std::string bytes() const;
    static std::optional<CallTranscript> parse(const std::string& bytes);
    // The same two questions of a transcript's bytes as they are, without
    // building it: a cache reads every entry's transcript of a directory and
    // asks most of them only once, so the map parse() builds was most of
    // the reading (a fifth of a tree review's time, perf). same_answers() is
    // false for bytes that are not a whole transcript.
    static bool well_formed(std::string_view bytes);
    static bool same_answers(std::string_view bytes, const Variant& v);

private:
    std::unordered_map<std::string, std::string> calls_;  // question byte + arguments -> answer
};

// Answers as `inner` does and writes every question and answer into its
// transcript; a question asked again is answered from what it kept. It
// lives no longer than `inner`, and one run on one thread asks it (the
// corpus makes one for each file's runs).
class RecordingVariant : public Variant {
public:
    explicit RecordingVariant(const Variant& inner) : inner_(inner) {}
    // What was asked so far.
    const CallTranscript& transcript() const { return log_; }

    std::string name() const override;
    std::string baseline() const override;
    std::string summary() const override;
    GfpEra gfp_era() const override;
    std::vector<GfpExtraFlag> extra_gfp_flags() const override;
    int GFP_BITS_SHIFT(const GfpBits& b) const override;
    BootParamSyntax boot_syntax() const override;
    gfp_t THREADINFO_GFP(const CEnv& e) const override;
    gfp_t GFP_VMAP_STACK(const CEnv& e) const override;
    gfp_t GFP_PGTABLE_KERNEL(const CEnv& e) const override;
    gfp_t GFP_PGTABLE_USER(const CEnv& e) const override;
    gfp_t pte_alloc_one_kernel_gfp(const CEnv& e) const override;
    gfp_t pte_alloc_one_gfp(const CEnv& e) const override;
    gfp_t user_page_gfp(const CEnv& e, bool vm_mte) const override;
    gfp_t skb_frag_gfp(const CEnv& e) const override;
    gfp_t skb_frag_fallback_gfp(const CEnv& e) const override;
    gfp_t alloc_skb_frags_gfp(const CEnv& e, gfp_t gfp) const override;
    unsigned skb_frags_order_after_failure(const CEnv& e, unsigned order) const override;
    bool skb_with_frags_fits(const CEnv& e, std::uint64_t data_len, unsigned order) const override;
    bool want_init_on_alloc(const CEnv& e, gfp_t gfp) const override;
    PostAllocPlan<Concrete> post_alloc_hook(const CEnv& e, gfp_t gfp, unsigned order,
                                            std::int64_t sample_skip) const override;
    SampleDecision<Concrete> kasan_unpoison_pages(const CEnv& e, unsigned order, std::int64_t skip) const override;
    FreePlan<Concrete> free_pages_prepare(const CEnv& e, const FreeInput<Concrete>& in) const override;
    VmallocFixFlags<Concrete> vmalloc_fix_flags(const CEnv& e, gfp_t gfp) const override;
    VmallocPlan<Concrete> vmalloc_node_range(const CEnv& e, gfp_t gfp, bool prot_kernel) const override;
    VmallocUnpoison<Concrete> kasan_unpoison_vmalloc(const CEnv& e, const VmallocPlan<Concrete>& p) const override;
    bool cached_stack_unpoison(const CEnv& e) const override;
    bool stack_cache_serves(const CEnv& e, bool other_node_asked) const override;
    unsigned vmalloc_huge_order(const CEnv& e, std::uint64_t size) const override;
    VmallocPlan<Concrete> vmap_unpoison_plan(const CEnv& e) const override;
    bool stack_cache_takes(const CEnv& e, bool remote_pages) const override;
    bool slab_tag_per_alloc(const CEnv& e, bool ctor_or_rcu) const override;
    bool slab_memset_init(const CEnv& e, bool init) const override;
    bool slab_alloc_kasan_init(const CEnv& e, bool init) const override;
    std::uint64_t kmalloc_redzone_start(const CEnv& e, std::uint64_t size) const override;
    std::uint64_t kmalloc_large_redzone_start(const CEnv& e, std::uint64_t size) const override;
    bool krealloc_zeroes_spare(const CEnv& e, gfp_t gfp) const override;
    bool vrealloc_shrink_zeroes(const CEnv& e, gfp_t gfp) const override;
    SlabFreePlan<Concrete> kasan_slab_free(const CEnv& e, bool typesafe_by_rcu) const override;
    MempoolHooks<Concrete> mempool_hooks(const CEnv& e) const override;
    VreallocHooks<Concrete> vrealloc_hooks(const CEnv& e) const override;
    bool mte_sync_tags_clears(const CEnv& e, bool pg_mte_tagged) const override;
    bool kfence_enabled(const CEnv& e) const override;
    bool boot_release_fpi_skip_kasan_poison(const CEnv& e) const override;
    std::uint64_t page_kasan_tag_field(const CEnv& e, Tag tag) const override;
    Tag page_kasan_tag(const CEnv& e, std::uint64_t field) const override;
    std::uint64_t kmalloc_minalign(const CEnv& e) const override;
    Tag random_tag_min(const CEnv& e) const override;
    Tag random_tag_max(const CEnv& e) const override;
    bool ptr_tag_match_all(const CEnv& e, Tag ptr) const override;
    bool tag_mismatch(const CEnv& e, Tag ptr, Tag mem) const override;
    bool granule_check_faults(const CEnv& e, const TagCheckInput<Concrete>& in) const override;
    bool is_mutant() const override;
    Features features() const override;
    Claims claims() const override;
    std::vector<UntagClaim> untag_claims() const override;
    std::string next_version() const override;
    // Not a question: the rules of a variant file read it from the env they
    // are handed, and what they answer is recorded.
    const RuleOverrides* overrides() const override { return inner_.overrides(); }

private:
    template <auto F, class... A>
    auto ask(Question q, const A&... a) const;

    // The env's number among those this run passed (a question asked again
    // is known by its env's number and its other arguments, without writing
    // the env out at every tag check).
    std::uint32_t env_number(const CEnv& e) const;

    const Variant& inner_;
    mutable CallTranscript log_;
    // Each distinct question (its method, env number and other arguments)
    // and its answer, by number. A question asked again is answered from
    // here: a variant answers alike whenever asked alike (the premise of the
    // transcript itself), and a lifted tree's rules are an interpreter run
    // (post_alloc_hook at every allocation was a fifth of a tree patch's
    // review). An answer that threw is not kept: the inner variant is asked
    // again, and throws again.
    mutable std::unordered_map<Hash128, std::uint32_t, Hash128Hasher> asked_;
    mutable std::vector<std::any> answers_;
    // The last few keys of each question, byte for byte, with their numbers:
    // a model asks the same few questions over and over (page_kasan_tag of
    // each page at every state key), and a compare is cheaper than a hash and
    // a probe.
    struct Recent {
        static constexpr std::size_t kWays = 4, kWords = 5, kBytes = 8 * kWords;
        std::uint8_t n[kWays] = {};  // 0: empty
        std::uint64_t b[kWays][kWords];
        std::uint32_t number[kWays];
        unsigned next = 0;
        bool has(const char* k, std::size_t len, std::uint32_t& number_out) const;
        void add(const char* k, std::size_t len, std::uint32_t number_in);
    };
    mutable Recent recent_[std::size_t(Question::count)];
    mutable std::unordered_map<std::string, std::uint32_t> envs_;
    mutable CEnv last_env_{};  // the env passed last, byte for byte, and its number
    mutable std::uint32_t last_number_ = 0;
    mutable bool have_last_ = false;
};

}  // namespace tagproof::kernel
