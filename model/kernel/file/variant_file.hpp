// variant_file.hpp — variants read at run time (scenario/variant-files.md): a
// base era, the patch's claims, and rule overrides written as C expressions
// over the kernel's names.
#pragma once
#include <string>

#include "../variant.hpp"
#include "rule_expr.hpp"

namespace tagproof::kernel {

struct VariantFile {
    std::string path;
    std::string name, base, baseline, summary;
    Claims claims;
    RuleOverrides overrides;
};

// Reads a variant file's text; errors name path:line:column (InputError).
VariantFile parse_variant_file(const std::string& text, const std::string& path);

// Reads, checks and registers a variant file: afterwards find_variant() (and
// the solver's find_sym_variant()) know its name. Loading the same path twice
// returns the same variant.
const Variant& load_variant_file(const std::string& path);

// The base a loaded variant file names ("" for any other variant).
std::string file_variant_base(const std::string& name);
// Loaded variant files (find_variant looks here after the built-ins).
const Variant* find_file_variant(const std::string& name);
// The absolute path a loaded variant file was read from ("" for any other
// variant): what a Reproduce command passes as --variant-file.
std::string variant_file_path(const std::string& name);

}  // namespace tagproof::kernel
