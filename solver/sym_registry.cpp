// sym_registry.cpp — the symbolic instances of every variant (variant_list.hpp).
#include "error.hpp"
#include "sym_variant.hpp"
#include "variant_list.hpp"

namespace tagproof::solver {

const SymVariant& find_sym_variant(const std::string& name, const std::string& where) {
    const kernel::Variant& c = kernel::find_variant(name, where);  // throws with the known names
#define TAGPROOF_SYM(T)                                                \
    if (c.name() == kernel::T::name) {                                 \
        static const SymVariantOf<kernel::T> s(kernel::find_variant(kernel::T::name)); \
        return s;                                                      \
    }
    TAGPROOF_BUILTIN_VARIANTS(TAGPROOF_SYM)
    TAGPROOF_MUTANTS(TAGPROOF_SYM)
#undef TAGPROOF_SYM
    throw InputError(where, "variant '" + name + "' has no symbolic instance");
}

}  // namespace tagproof::solver
