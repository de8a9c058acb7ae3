// variant_file.hpp — variants read at run time (scenario/variant-files.md): a
// base (a release, or another variant file), the patch's claims, GFP flags it
// adds, and rule overrides written as C expressions over the kernel's names.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "../variant.hpp"
#include "rule_expr.hpp"

namespace tagproof::kernel {

struct VariantFile {
    std::string path;
    std::string name;
    std::string base;      // as written: a release or a variant file's path
    std::string base_path; // that file's path, resolved ("" when the base is a release)
    std::string release;   // the release at the bottom of the chain (linux-7.0, ...)
    std::string baseline, summary;
    std::string next_version;  // the series' next revision, a variant's name ("" for none)
    Claims claims;
    bool claims_given = false;
    RuleOverrides overrides;
    std::vector<GfpExtraFlag> extra_flags;  // `flag` lines (include/linux/gfp_types.h)
    std::optional<RuleExpr> bits_shift;     // `rule __GFP_BITS_SHIFT = ...`
    std::optional<BootParamSyntax> boot;    // `boot_param` lines, over the release's syntax
    std::optional<Features> features;       // `feature` lines, over the release's
    // The texts it was read from, its own and then its base files' (each
    // after its length, not its path: a review writes the tree's era into
    // each --out, the same text at another path): all a file variant's
    // meaning depends on besides the binary (the corpus cache's key,
    // scenario/corpus_cache.hpp). The path is only in its messages.
    std::string source;
};

// Reads a variant file's text; errors name path:line:column (InputError). A
// `base FILE` is read relative to path's directory.
VariantFile parse_variant_file(const std::string& text, const std::string& path);
// The same, from a file.
VariantFile read_variant_file(const std::string& path);

// Reads, checks and registers a variant file: afterwards find_variant() (and
// the solver's find_sym_variant()) know its name. Loading the same path twice
// returns the same variant.
const Variant& load_variant_file(const std::string& path);
// Registers a variant file already read (the patch reader's, written out too).
const Variant& register_variant_file(VariantFile f);

// The release a loaded variant file builds on ("" for any other variant).
std::string file_variant_base(const std::string& name);
// Loaded variant files (find_variant looks here after the built-ins).
const Variant* find_file_variant(const std::string& name);
// The source (VariantFile::source) of a loaded variant file, "" for any
// other variant.
std::string variant_file_source(const std::string& name);
// What stands for a variant's code in a key of work kept across processes
// (with the binary's build-id beside it): "built-in" for a variant compiled
// in, "file" and the file's source (its base files' sources included) for a
// loaded variant file; "" when no text stands for it (a file registered from
// a struct) or the name is unknown: nothing is kept for it then.
std::string variant_identity(const std::string& name);
// The absolute path a loaded variant file was read from ("" for any other
// variant): what a Reproduce command passes as --variant-file.
std::string variant_file_path(const std::string& name);

// An expression as C, every operation in parentheses: it reads back as the
// same expression (the fuzz target's round trip), and names rules as written.
std::string print_rule_expr(const RuleExpr& x);
// The value of a `rule __GFP_BITS_SHIFT = ...` expression in one build (the
// reader checks its range, the variant evaluates it).
long eval_gfp_bits_shift(const RuleExpr& x, const BuildConfig& b);

// Whether a release is one a variant file (and a patch) may build on.
bool is_file_base_release(const std::string& release);

// The boot parameters a `boot_param` line may name.
const std::vector<const char*>& boot_param_names();

}  // namespace tagproof::kernel
