// variant_calls_io.hpp — the bytes of a question's arguments and of its
// answer (variant_calls.hpp). Each struct's fields are listed once, in one
// io() that both writes (Out, a const struct) and reads (In) it; the test
// holds each list to the struct's field count, so a field added to a plan is
// not silently left out of the comparison.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "variant.hpp"

namespace tagproof::kernel::calls {

struct Out {
    std::string s;
    int fields = 0;  // how many values were written (the test's field count)
};
struct In {
    std::string_view s;
    std::size_t at = 0;
    bool ok = true;
    int fields = 0;
    bool done() const { return ok && at == s.size(); }
};

// A question's arguments as a fixed buffer, for telling a question asked
// before from a new one without allocating (RecordingVariant's fast path).
struct Key {
    char b[256];
    std::size_t n = 0;
    bool overflow = false;  // too long for the buffer: treated as new every time
    int fields = 0;
};

template <class S, class T>
concept is = std::is_same_v<std::remove_const_t<S>, T>;

// A number, bool or enum: eight bytes, little end first (bools and small
// enums too: the length never depends on the value).
template <class T>
    requires(std::is_arithmetic_v<T> || std::is_enum_v<T>)
void io(Out& o, const T& v) {
    std::uint64_t x;
    if constexpr (std::is_enum_v<T>)
        x = std::uint64_t(static_cast<std::underlying_type_t<T>>(v));
    else
        x = std::uint64_t(v);
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = char(x >> (8 * i));
    o.s.append(b, 8);
    ++o.fields;
}
template <class T>
    requires(std::is_arithmetic_v<T> || std::is_enum_v<T>)
void io(In& in, T& v) {
    ++in.fields;
    if (!in.ok || in.s.size() - in.at < 8) {
        in.ok = false;
        return;
    }
    std::uint64_t x = 0;
    for (int i = 0; i < 8; ++i) x |= std::uint64_t(std::uint8_t(in.s[in.at + i])) << (8 * i);
    in.at += 8;
    if constexpr (std::is_same_v<T, bool>) {
        if (x > 1) in.ok = false;
        v = x != 0;
    } else if constexpr (std::is_enum_v<T>) {
        v = static_cast<T>(static_cast<std::underlying_type_t<T>>(x));
    } else {
        v = static_cast<T>(x);
    }
}

template <class T>
    requires(std::is_arithmetic_v<T> || std::is_enum_v<T>)
void io(Key& k, const T& v) {
    std::uint64_t x;
    if constexpr (std::is_enum_v<T>)
        x = std::uint64_t(static_cast<std::underlying_type_t<T>>(v));
    else
        x = std::uint64_t(v);
    ++k.fields;
    if (k.n + 8 > sizeof k.b) {
        k.overflow = true;
        return;
    }
    std::memcpy(k.b + k.n, &x, 8);
    k.n += 8;
}

inline void io(Out& o, const std::string& v) {
    std::uint64_t n = v.size();
    io(o, n);
    o.s += v;
}
// A string's bytes, not copied: a view into what `in` reads.
inline void io(In& in, std::string_view& v) {
    std::uint64_t n = 0;
    io(in, n);
    if (!in.ok || in.s.size() - in.at < n) {
        in.ok = false;
        return;
    }
    v = in.s.substr(in.at, n);
    in.at += n;
}
inline void io(In& in, std::string& v) {
    std::string_view x;
    io(in, x);
    if (in.ok) v.assign(x);
}

template <class A, class S>
    requires(is<S, std::optional<bool>>)
void io(A& a, S& v) {
    bool has = v.has_value();
    io(a, has);
    bool x = v.value_or(false);
    io(a, x);
    if constexpr (!std::is_const_v<S>) v = has ? std::optional<bool>(x) : std::nullopt;
}

template <class T>
void io(Out& o, const std::vector<T>& v) {
    std::uint64_t n = v.size();
    io(o, n);
    for (const auto& x : v) io(o, x);
}
template <class T>
void io(In& in, std::vector<T>& v) {
    std::uint64_t n = 0;
    io(in, n);
    if (!in.ok || n > in.s.size()) {  // every element takes a byte at least
        in.ok = false;
        return;
    }
    v.resize(n);
    for (auto& x : v) io(in, x);
}

// The structs, field by field.

template <class A, class S>
    requires(is<S, GfpMasks<Concrete>>)
void io(A& a, S& g) {
    io(a, g.ZERO), io(a, g.ZEROTAGS), io(a, g.COMP), io(a, g.ACCOUNT), io(a, g.MOVABLE), io(a, g.HIGHMEM);
    io(a, g.SKIP_ZERO), io(a, g.SKIP_KASAN_UNPOISON), io(a, g.SKIP_KASAN_POISON), io(a, g.SKIP_KASAN);
    io(a, g.KASAN_SAMPLE), io(a, g.GFP_KERNEL), io(a, g.GFP_KERNEL_ACCOUNT), io(a, g.GFP_HIGHUSER_MOVABLE);
    io(a, g.GFP_ATOMIC), io(a, g.GFP_NOWAIT), io(a, g.NOWARN), io(a, g.NORETRY), io(a, g.DIRECT_RECLAIM);
    io(a, g.NOFAIL), io(a, g.RETRY_MAYFAIL), io(a, g.NOLOCKDEP), io(a, g.GFP_NOFS), io(a, g.GFP_NOIO);
    io(a, g.GFP_USER);
}

// The decision inputs but their overrides pointer: that is the variant's own
// (make_env), and a question re-asked of another variant is handed that one's.
template <class A, class S>
    requires(is<S, CEnv>)
void io(A& a, S& e) {
    io(a, e.generic), io(a, e.sw_tags), io(a, e.hw_tags), io(a, e.config_kasan_vmalloc), io(a, e.mte);
    io(a, e.kasan_enabled), io(a, e.vmalloc_on), io(a, e.init_on_alloc), io(a, e.init_on_free);
    io(a, e.deferred_pages), io(a, e.slub_rcu_debug), io(a, e.kfence), io(a, e.sample), io(a, e.sample_order);
    io(a, e.gfp);
}

template <class A, class S>
    requires(is<S, PostAllocPlan<Concrete>>)
void io(A& a, S& p) {
    io(a, p.tag_clear), io(a, p.tag_clear_data), io(a, p.unpoison), io(a, p.unpoison_init), io(a, p.sampled_out);
    io(a, p.sample_skip_next), io(a, p.reset_page_tag), io(a, p.kernel_init), io(a, p.set_skip_poison_flag);
}

template <class A, class S>
    requires(is<S, SampleDecision<Concrete>>)
void io(A& a, S& d) {
    io(a, d.tag), io(a, d.skip_next);
}

template <class A, class S>
    requires(is<S, FreePlan<Concrete>>)
void io(A& a, S& p) {
    io(a, p.skip_poison), io(a, p.poison), io(a, p.poison_init), io(a, p.kernel_init);
}

template <class A, class S>
    requires(is<S, FreeInput<Concrete>>)
void io(A& a, S& in) {
    io(a, in.page_tag), io(a, in.pg_skip_kasan_poison), io(a, in.fpi_skip_kasan_poison);
}

template <class A, class S>
    requires(is<S, VmallocFixFlags<Concrete>>)
void io(A& a, S& f) {
    io(a, f.gfp), io(a, f.warned);
}

template <class A, class S>
    requires(is<S, VmallocPlan<Concrete>>)
void io(A& a, S& p) {
    io(a, p.page_gfp), io(a, p.meta_gfp), io(a, p.tagged_mapping), io(a, p.call_unpoison);
    io(a, p.flag_init), io(a, p.flag_vm_alloc), io(a, p.flag_prot_normal);
}

template <class A, class S>
    requires(is<S, VmallocUnpoison<Concrete>>)
void io(A& a, S& u) {
    io(a, u.retag), io(a, u.retag_init), io(a, u.random_tag), io(a, u.clear_pages);
}

template <class A, class S>
    requires(is<S, SlabFreePlan<Concrete>>)
void io(A& a, S& p) {
    io(a, p.poison), io(a, p.defer_to_rcu), io(a, p.poison_after_gp);
}

template <class A, class S>
    requires(is<S, MempoolHooks<Concrete>>)
void io(A& a, S& h) {
    io(a, h.check_page_frees), io(a, h.skip_untagged_pages), io(a, h.keep_bad_element), io(a, h.unpoison_whole_slot);
}

template <class A, class S>
    requires(is<S, VreallocHooks<Concrete>>)
void io(A& a, S& h) {
    io(a, h.granule_aligned), io(a, h.grow_vm_alloc), io(a, h.grow_keep_tag);
}

template <class A, class S>
    requires(is<S, TagCheckInput<Concrete>>)
void io(A& a, S& in) {
    io(a, in.tcf_on), io(a, in.write_only), io(a, in.is_write), io(a, in.tagged_mapping), io(a, in.ptr_tag);
    io(a, in.mem_tag);
}

template <class A, class S>
    requires(is<S, BuildConfig>)
void io(A& a, S& b) {
    io(a, b.mode), io(a, b.check_style), io(a, b.kasan_vmalloc), io(a, b.vmap_stack), io(a, b.lockdep);
    io(a, b.slub_rcu_debug), io(a, b.kfence), io(a, b.deferred_struct_page_init);
}

template <class A, class S>
    requires(is<S, GfpBits>)
void io(A& a, S& b) {
    io(a, b.build), io(a, b.last_bit);
}

template <class A, class S>
    requires(is<S, GfpExtraFlag>)
void io(A& a, S& f) {
    io(a, f.name), io(a, f.hw_tags_only);
}

template <class A, class S>
    requires(is<S, BootParamSyntax>)
void io(A& a, S& s) {
    io(a, s.page_alloc_sample), io(a, s.page_alloc_sample_order), io(a, s.write_only), io(a, s.fault_panic_on_write);
    io(a, s.vmalloc_needs_config);
}

template <class A, class S>
    requires(is<S, Features>)
void io(A& a, S& f) {
    io(a, f.vrealloc), io(a, f.huge_zero_folio_zerotags), io(a, f.slub_rcu_debug);
}

template <class A, class S>
    requires(is<S, UntagClaim>)
void io(A& a, S& u) {
    io(a, u.caller), io(a, u.when_gfp), io(a, u.when_sampled), io(a, u.why);
}

template <class A, class S>
    requires(is<S, Claims>)
void io(A& a, S& c) {
    io(a, c.changes), io(a, c.untags), io(a, c.text);
}

}  // namespace tagproof::kernel::calls
