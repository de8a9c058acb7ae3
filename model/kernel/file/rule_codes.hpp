// rule_codes.hpp — the operators, predicates and rules an expression names,
// as numbers fixed when the expression is read (resolve_codes), so that the
// evaluators (rule_expr.hpp, rule_body.hpp) switch on a number where they
// compared strings. A lifted post_alloc_hook runs at every page allocation and
// should_skip_kasan_poison at every free, boot memory included: the corpus
// spent a third of its time comparing operator and predicate names.
//
// The names stay in RuleExpr::name: the printer and the error messages use
// them, and an expression built by hand (no code) is resolved from them.
#pragma once
#include <cstdint>
#include <string>

#include "rule_list.hpp"

namespace tagproof::kernel {

// C's operators as the reader admits them, and include/linux/math.h's two roundings.
enum class Op : std::int16_t {
    none = -1,
    land, lor, eq, ne, lt, gt, le, ge, bor, band, bxor, add, sub, mul, shl, shr, round_up, round_down,
    lnot, bnot
};

inline Op op_code(const std::string& s) {
    static const struct { const char* n; Op op; } ops[] = {
        {"&&", Op::land}, {"||", Op::lor},  {"==", Op::eq},   {"!=", Op::ne},   {"<", Op::lt},
        {">", Op::gt},    {"<=", Op::le},   {">=", Op::ge},   {"|", Op::bor},   {"&", Op::band},
        {"^", Op::bxor},  {"+", Op::add},   {"-", Op::sub},   {"*", Op::mul},   {"<<", Op::shl},
        {">>", Op::shr},  {"round_up", Op::round_up}, {"round_down", Op::round_down},
        {"!", Op::lnot},  {"~", Op::bnot}};
    for (const auto& o : ops)
        if (s == o.n) return o.op;
    return Op::none;
}

// The runtime predicates and build options an expression reads (rule_expr.hpp
// pred_value says what each is bound to).
enum class Pred : std::int16_t {
    none = -1,
    kasan_hw_tags_enabled, kasan_enabled, kasan_vmalloc_enabled, system_supports_mte, init_on_alloc,
    init_on_free, want_init_on_free, kasan_has_integrated_init, deferred_pages_enabled,
    CONFIG_KASAN_HW_TAGS, CONFIG_KASAN_SW_TAGS, CONFIG_KASAN_GENERIC, CONFIG_KASAN_VMALLOC, CONFIG_KFENCE,
    CONFIG_LOCKDEP, KASAN_GRANULE_SIZE, kasan_page_alloc_sample, kasan_page_alloc_sample_order
};

inline Pred pred_code(const std::string& s) {
#define TAGPROOF_PRED(P) {#P, Pred::P}
    static const struct { const char* n; Pred p; } preds[] = {
        TAGPROOF_PRED(kasan_hw_tags_enabled), TAGPROOF_PRED(kasan_enabled), TAGPROOF_PRED(kasan_vmalloc_enabled),
        TAGPROOF_PRED(system_supports_mte), TAGPROOF_PRED(init_on_alloc), TAGPROOF_PRED(init_on_free),
        TAGPROOF_PRED(want_init_on_free), TAGPROOF_PRED(kasan_has_integrated_init),
        TAGPROOF_PRED(deferred_pages_enabled), TAGPROOF_PRED(CONFIG_KASAN_HW_TAGS),
        TAGPROOF_PRED(CONFIG_KASAN_SW_TAGS), TAGPROOF_PRED(CONFIG_KASAN_GENERIC), TAGPROOF_PRED(CONFIG_KASAN_VMALLOC),
        TAGPROOF_PRED(CONFIG_KFENCE), TAGPROOF_PRED(CONFIG_LOCKDEP), TAGPROOF_PRED(KASAN_GRANULE_SIZE),
        TAGPROOF_PRED(kasan_page_alloc_sample), TAGPROOF_PRED(kasan_page_alloc_sample_order)};
#undef TAGPROOF_PRED
    for (const auto& p : preds)
        if (s == p.n) return p.p;
    return Pred::none;
}

// The overridable rules (rule_list.hpp), in the list's order: overridable_rules()[i] is FileRule(i).
enum class FileRule : std::int16_t {
    none = -1,
#define TAGPROOF_ENUM0(R, T) R,
#define TAGPROOF_ENUM1(R, T, P, PT) R,
#define TAGPROOF_ENUM2(R, T, P, PT, Q, QT) R,
    TAGPROOF_FILE_RULES(TAGPROOF_ENUM0, TAGPROOF_ENUM1, TAGPROOF_ENUM2)
#undef TAGPROOF_ENUM0
#undef TAGPROOF_ENUM1
#undef TAGPROOF_ENUM2
};

inline FileRule file_rule_code(const std::string& s) {
#define TAGPROOF_NAME0(R, T) if (s == #R) return FileRule::R;
#define TAGPROOF_NAME1(R, T, P, PT) if (s == #R) return FileRule::R;
#define TAGPROOF_NAME2(R, T, P, PT, Q, QT) if (s == #R) return FileRule::R;
    TAGPROOF_FILE_RULES(TAGPROOF_NAME0, TAGPROOF_NAME1, TAGPROOF_NAME2)
#undef TAGPROOF_NAME0
#undef TAGPROOF_NAME1
#undef TAGPROOF_NAME2
    return FileRule::none;
}

}  // namespace tagproof::kernel
