// sym_registry.cpp — the symbolic instances of every variant (variant_list.hpp).
#include "error.hpp"
#include "sym_variant.hpp"
#include "variant_list.hpp"
#include "file/file_rules.hpp"
#include "file/variant_file.hpp"

#include <map>
#include <memory>
#include <mutex>

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
    // a variant file: file_rules over its base, the concrete variant's overrides
    const std::string base = kernel::file_variant_base(name);
    static std::mutex lock;
    static std::map<std::string, std::unique_ptr<SymVariant>> files;
    std::lock_guard<std::mutex> g(lock);
    if (auto it = files.find(name); it != files.end()) return *it->second;
#define TAGPROOF_SYM_FILE(N, R) \
    if (base == N) return *(files[name] = std::make_unique<SymVariantOf<kernel::file_rules<kernel::R>>>(c));
    TAGPROOF_FILE_BASES(TAGPROOF_SYM_FILE)
#undef TAGPROOF_SYM_FILE
    throw InputError(where, "variant '" + name + "' has no symbolic instance");
}

}  // namespace tagproof::solver
