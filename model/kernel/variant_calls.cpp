// variant_calls.cpp — see variant_calls.hpp.
#include "variant_calls.hpp"

#include <cstring>
#include <exception>
#include <tuple>

#include "variant_calls_io.hpp"

namespace tagproof::kernel {

namespace {

using calls::In;
using calls::Out;

// An answer's bytes: a tag byte (0 returned, 1 threw) and the value or the
// message. A question that cannot be re-read answers with tag 2, which no
// recorded answer has.
template <class R>
std::string returned(const R& r) {
    Out o;
    o.s.push_back('\0');
    calls::io(o, r);
    return o.s;
}
std::string threw(const std::exception& e) { return std::string(1, '\1') + e.what(); }
std::string threw_other() { return std::string(1, '\1') + "(not a std::exception)"; }
const std::string kUnreadable(1, '\2');

template <class... A>
std::string args_of(const A&... a) {
    Out o;
    (calls::io(o, a), ...);
    return o.s;
}

// An env re-read from bytes gets the asked variant's own overrides.
template <class T>
void hand_own(const Variant& v, T& x) {
    if constexpr (std::is_same_v<T, CEnv>) x.overrides = v.overrides();
}

// Re-asks one recorded question of `v`: its arguments read back from their
// bytes (the env handed `v`'s own overrides), its answer written as recorded.
template <auto F>
struct Reask;
template <class R, class... A, R (Variant::*F)(A...) const>
struct Reask<F> {
    static std::string ask(const Variant& v, std::string_view bytes) {
        std::tuple<std::remove_cvref_t<A>...> args;
        In in{bytes};
        std::apply([&](auto&... x) { (calls::io(in, x), ...); }, args);
        if (!in.done()) return kUnreadable;
        std::apply([&](auto&... x) { (hand_own(v, x), ...); }, args);
        try {
            return returned(std::apply([&](const auto&... x) { return (v.*F)(x...); }, args));
        } catch (const std::exception& e) {
            return threw(e);
        } catch (...) {
            return threw_other();
        }
    }
};

using ReaskFn = std::string (*)(const Variant&, std::string_view);
const ReaskFn kReask[] = {
#define TAGPROOF_REASK(n) &Reask<&Variant::n>::ask,
    TAGPROOF_VARIANT_QUESTIONS(TAGPROOF_REASK)
#undef TAGPROOF_REASK
};
static_assert(sizeof kReask / sizeof kReask[0] == std::size_t(Question::count));

}  // namespace

void CallTranscript::add(Question q, const std::string& args, const std::string& answer) {
    std::string key(1, char(q));
    key += args;
    calls_.emplace(std::move(key), answer);
}

namespace {

// Whether `v` answers the question `key` (question byte + arguments) with `answer`.
bool answers_alike(const Variant& v, std::string_view key, std::string_view answer) {
    const auto q = std::uint8_t(key[0]);
    if (q >= std::uint8_t(Question::count)) return false;
    return kReask[q](v, key.substr(1)) == answer;
}

// Calls f(key, answer) on each call of a transcript's bytes until f says
// stop (false); false when the bytes are not a whole transcript or f stopped.
template <class F>
bool each_call(std::string_view bytes, F f) {
    In in{bytes};
    std::uint64_t n = 0;
    calls::io(in, n);
    if (!in.ok || n > bytes.size()) return false;
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string_view key, answer;
        calls::io(in, key);
        calls::io(in, answer);
        if (!in.ok || key.empty() || !f(key, answer)) return false;
    }
    return in.done();
}

}  // namespace

bool CallTranscript::same_answers(const Variant& v) const {
    for (const auto& [key, answer] : calls_)
        if (!answers_alike(v, key, answer)) return false;
    return true;
}

bool CallTranscript::well_formed(std::string_view bytes) {
    return each_call(bytes, [](std::string_view, std::string_view) { return true; });
}

bool CallTranscript::same_answers(std::string_view bytes, const Variant& v) {
    return each_call(bytes, [&](std::string_view key, std::string_view answer) { return answers_alike(v, key, answer); });
}

std::string CallTranscript::bytes() const {
    Out o;
    calls::io(o, std::uint64_t(calls_.size()));
    for (const auto& [key, answer] : calls_) {
        calls::io(o, key);
        calls::io(o, answer);
    }
    return o.s;
}

std::optional<CallTranscript> CallTranscript::parse(const std::string& bytes) {
    CallTranscript t;
    if (!each_call(bytes, [&](std::string_view key, std::string_view answer) {
            t.calls_.emplace(std::string(key), std::string(answer));
            return true;
        }))
        return std::nullopt;
    return t;
}

std::uint32_t RecordingVariant::env_number(const CEnv& e) const {
    // byte for byte, padding too: equal bytes are equal fields (a copy that
    // left its padding different is only a slower path)
    if (have_last_ && std::memcmp(&e, &last_env_, sizeof e) == 0) return last_number_;
    Out o;
    calls::io(o, e);
    auto [it, fresh] = envs_.try_emplace(std::move(o.s), std::uint32_t(envs_.size()));
    std::memcpy(static_cast<void*>(&last_env_), &e, sizeof e);
    last_number_ = it->second;
    have_last_ = true;
    return last_number_;
}

// Keys are compared as whole words, zero-padded (a length apart, equal words
// are equal keys: the length is compared too).
bool RecordingVariant::Recent::has(const char* k, std::size_t len, std::uint32_t& number_out) const {
    if (len == 0 || len > kBytes) return false;
    std::uint64_t x[kWords] = {};
    std::memcpy(x, k, len);
    for (std::size_t w = 0; w < kWays; ++w) {
        if (n[w] != len) continue;
        std::uint64_t d = 0;
        for (std::size_t i = 0; i < kWords; ++i) d |= x[i] ^ b[w][i];
        if (d == 0) {
            number_out = number[w];
            return true;
        }
    }
    return false;
}

void RecordingVariant::Recent::add(const char* k, std::size_t len, std::uint32_t number_in) {
    if (len == 0 || len > kBytes) return;
    n[next] = std::uint8_t(len);
    std::fill(std::begin(b[next]), std::end(b[next]), 0);
    std::memcpy(b[next], k, len);
    number[next] = number_in;
    next = (next + 1) % kWays;
}

template <auto F, class... A>
auto RecordingVariant::ask(Question q, const A&... a) const {
    // A question asked before (its env by number) is answered the same again:
    // only the first is written down.
    calls::Key k;
    calls::io(k, std::uint8_t(q));
    auto key_of = [&](const auto& x) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(x)>, CEnv>)
            calls::io(k, env_number(x));
        else
            calls::io(k, x);
    };
    (key_of(a), ...);
    (void)key_of;  // a question without arguments
    using R = std::remove_cvref_t<decltype((inner_.*F)(a...))>;
    std::uint32_t at = 0;
    bool again = false;
    if (!k.overflow) {
        Recent& recent = recent_[std::size_t(q)];
        if (recent.has(k.b, k.n, at)) {
            again = true;
        } else {
            auto [it, fresh] = asked_.try_emplace(hash128(std::string_view(k.b, k.n)), std::uint32_t(answers_.size()));
            if (fresh) answers_.emplace_back();
            again = !fresh;
            at = it->second;
            recent.add(k.b, k.n, at);
        }
    }
    if (again) {
        if (const R* kept = std::any_cast<R>(&answers_[at])) return *kept;
        return (inner_.*F)(a...);  // it threw: it throws again
    }
    std::string args = args_of(a...);
    try {
        auto r = (inner_.*F)(a...);
        log_.add(q, args, returned(r));
        if (!k.overflow) answers_[at] = r;
        return r;
    } catch (const std::exception& e) {
        log_.add(q, args, threw(e));
        throw;
    } catch (...) {
        log_.add(q, args, threw_other());
        throw;
    }
}

// One line a question: its method, its arguments as the interface has them.
#define TAGPROOF_ASK(n, ...) ask<&Variant::n>(Question::n __VA_OPT__(, ) __VA_ARGS__)

std::string RecordingVariant::name() const { return TAGPROOF_ASK(name); }
std::string RecordingVariant::baseline() const { return TAGPROOF_ASK(baseline); }
std::string RecordingVariant::summary() const { return TAGPROOF_ASK(summary); }
GfpEra RecordingVariant::gfp_era() const { return TAGPROOF_ASK(gfp_era); }
std::vector<GfpExtraFlag> RecordingVariant::extra_gfp_flags() const { return TAGPROOF_ASK(extra_gfp_flags); }
int RecordingVariant::GFP_BITS_SHIFT(const GfpBits& b) const { return TAGPROOF_ASK(GFP_BITS_SHIFT, b); }
BootParamSyntax RecordingVariant::boot_syntax() const { return TAGPROOF_ASK(boot_syntax); }
gfp_t RecordingVariant::THREADINFO_GFP(const CEnv& e) const { return TAGPROOF_ASK(THREADINFO_GFP, e); }
gfp_t RecordingVariant::GFP_VMAP_STACK(const CEnv& e) const { return TAGPROOF_ASK(GFP_VMAP_STACK, e); }
gfp_t RecordingVariant::GFP_PGTABLE_KERNEL(const CEnv& e) const { return TAGPROOF_ASK(GFP_PGTABLE_KERNEL, e); }
gfp_t RecordingVariant::GFP_PGTABLE_USER(const CEnv& e) const { return TAGPROOF_ASK(GFP_PGTABLE_USER, e); }
gfp_t RecordingVariant::pte_alloc_one_kernel_gfp(const CEnv& e) const {
    return TAGPROOF_ASK(pte_alloc_one_kernel_gfp, e);
}
gfp_t RecordingVariant::pte_alloc_one_gfp(const CEnv& e) const { return TAGPROOF_ASK(pte_alloc_one_gfp, e); }
gfp_t RecordingVariant::user_page_gfp(const CEnv& e, bool vm_mte) const {
    return TAGPROOF_ASK(user_page_gfp, e, vm_mte);
}
gfp_t RecordingVariant::skb_frag_gfp(const CEnv& e) const { return TAGPROOF_ASK(skb_frag_gfp, e); }
gfp_t RecordingVariant::skb_frag_fallback_gfp(const CEnv& e) const { return TAGPROOF_ASK(skb_frag_fallback_gfp, e); }
gfp_t RecordingVariant::alloc_skb_frags_gfp(const CEnv& e, gfp_t gfp) const {
    return TAGPROOF_ASK(alloc_skb_frags_gfp, e, gfp);
}
unsigned RecordingVariant::skb_frags_order_after_failure(const CEnv& e, unsigned order) const {
    return TAGPROOF_ASK(skb_frags_order_after_failure, e, order);
}
bool RecordingVariant::skb_with_frags_fits(const CEnv& e, std::uint64_t data_len, unsigned order) const {
    return TAGPROOF_ASK(skb_with_frags_fits, e, data_len, order);
}
bool RecordingVariant::want_init_on_alloc(const CEnv& e, gfp_t gfp) const {
    return TAGPROOF_ASK(want_init_on_alloc, e, gfp);
}
PostAllocPlan<Concrete> RecordingVariant::post_alloc_hook(const CEnv& e, gfp_t gfp, unsigned order,
                                                          std::int64_t sample_skip) const {
    return TAGPROOF_ASK(post_alloc_hook, e, gfp, order, sample_skip);
}
SampleDecision<Concrete> RecordingVariant::kasan_unpoison_pages(const CEnv& e, unsigned order,
                                                                std::int64_t skip) const {
    return TAGPROOF_ASK(kasan_unpoison_pages, e, order, skip);
}
FreePlan<Concrete> RecordingVariant::free_pages_prepare(const CEnv& e, const FreeInput<Concrete>& in) const {
    return TAGPROOF_ASK(free_pages_prepare, e, in);
}
VmallocFixFlags<Concrete> RecordingVariant::vmalloc_fix_flags(const CEnv& e, gfp_t gfp) const {
    return TAGPROOF_ASK(vmalloc_fix_flags, e, gfp);
}
VmallocPlan<Concrete> RecordingVariant::vmalloc_node_range(const CEnv& e, gfp_t gfp, bool prot_kernel) const {
    return TAGPROOF_ASK(vmalloc_node_range, e, gfp, prot_kernel);
}
VmallocUnpoison<Concrete> RecordingVariant::kasan_unpoison_vmalloc(const CEnv& e,
                                                                   const VmallocPlan<Concrete>& p) const {
    return TAGPROOF_ASK(kasan_unpoison_vmalloc, e, p);
}
bool RecordingVariant::cached_stack_unpoison(const CEnv& e) const { return TAGPROOF_ASK(cached_stack_unpoison, e); }
bool RecordingVariant::stack_cache_serves(const CEnv& e, bool other_node_asked) const {
    return TAGPROOF_ASK(stack_cache_serves, e, other_node_asked);
}
unsigned RecordingVariant::vmalloc_huge_order(const CEnv& e, std::uint64_t size) const {
    return TAGPROOF_ASK(vmalloc_huge_order, e, size);
}
VmallocPlan<Concrete> RecordingVariant::vmap_unpoison_plan(const CEnv& e) const {
    return TAGPROOF_ASK(vmap_unpoison_plan, e);
}
bool RecordingVariant::stack_cache_takes(const CEnv& e, bool remote_pages) const {
    return TAGPROOF_ASK(stack_cache_takes, e, remote_pages);
}
bool RecordingVariant::slab_tag_per_alloc(const CEnv& e, bool ctor_or_rcu) const {
    return TAGPROOF_ASK(slab_tag_per_alloc, e, ctor_or_rcu);
}
bool RecordingVariant::slab_memset_init(const CEnv& e, bool init) const {
    return TAGPROOF_ASK(slab_memset_init, e, init);
}
bool RecordingVariant::slab_alloc_kasan_init(const CEnv& e, bool init) const {
    return TAGPROOF_ASK(slab_alloc_kasan_init, e, init);
}
std::uint64_t RecordingVariant::kmalloc_redzone_start(const CEnv& e, std::uint64_t size) const {
    return TAGPROOF_ASK(kmalloc_redzone_start, e, size);
}
std::uint64_t RecordingVariant::kmalloc_large_redzone_start(const CEnv& e, std::uint64_t size) const {
    return TAGPROOF_ASK(kmalloc_large_redzone_start, e, size);
}
bool RecordingVariant::krealloc_zeroes_spare(const CEnv& e, gfp_t gfp) const {
    return TAGPROOF_ASK(krealloc_zeroes_spare, e, gfp);
}
bool RecordingVariant::vrealloc_shrink_zeroes(const CEnv& e, gfp_t gfp) const {
    return TAGPROOF_ASK(vrealloc_shrink_zeroes, e, gfp);
}
SlabFreePlan<Concrete> RecordingVariant::kasan_slab_free(const CEnv& e, bool typesafe_by_rcu) const {
    return TAGPROOF_ASK(kasan_slab_free, e, typesafe_by_rcu);
}
MempoolHooks<Concrete> RecordingVariant::mempool_hooks(const CEnv& e) const { return TAGPROOF_ASK(mempool_hooks, e); }
VreallocHooks<Concrete> RecordingVariant::vrealloc_hooks(const CEnv& e) const {
    return TAGPROOF_ASK(vrealloc_hooks, e);
}
bool RecordingVariant::mte_sync_tags_clears(const CEnv& e, bool pg_mte_tagged) const {
    return TAGPROOF_ASK(mte_sync_tags_clears, e, pg_mte_tagged);
}
bool RecordingVariant::kfence_enabled(const CEnv& e) const { return TAGPROOF_ASK(kfence_enabled, e); }
bool RecordingVariant::boot_release_fpi_skip_kasan_poison(const CEnv& e) const {
    return TAGPROOF_ASK(boot_release_fpi_skip_kasan_poison, e);
}
std::uint64_t RecordingVariant::page_kasan_tag_field(const CEnv& e, Tag tag) const {
    return TAGPROOF_ASK(page_kasan_tag_field, e, tag);
}
Tag RecordingVariant::page_kasan_tag(const CEnv& e, std::uint64_t field) const {
    return TAGPROOF_ASK(page_kasan_tag, e, field);
}
std::uint64_t RecordingVariant::kmalloc_minalign(const CEnv& e) const { return TAGPROOF_ASK(kmalloc_minalign, e); }
Tag RecordingVariant::random_tag_min(const CEnv& e) const { return TAGPROOF_ASK(random_tag_min, e); }
Tag RecordingVariant::random_tag_max(const CEnv& e) const { return TAGPROOF_ASK(random_tag_max, e); }
bool RecordingVariant::ptr_tag_match_all(const CEnv& e, Tag ptr) const {
    return TAGPROOF_ASK(ptr_tag_match_all, e, ptr);
}
bool RecordingVariant::tag_mismatch(const CEnv& e, Tag ptr, Tag mem) const {
    return TAGPROOF_ASK(tag_mismatch, e, ptr, mem);
}
bool RecordingVariant::granule_check_faults(const CEnv& e, const TagCheckInput<Concrete>& in) const {
    return TAGPROOF_ASK(granule_check_faults, e, in);
}
bool RecordingVariant::is_mutant() const { return TAGPROOF_ASK(is_mutant); }
Features RecordingVariant::features() const { return TAGPROOF_ASK(features); }
Claims RecordingVariant::claims() const { return TAGPROOF_ASK(claims); }
std::vector<UntagClaim> RecordingVariant::untag_claims() const { return TAGPROOF_ASK(untag_claims); }
std::string RecordingVariant::next_version() const { return TAGPROOF_ASK(next_version); }

#undef TAGPROOF_ASK

}  // namespace tagproof::kernel
