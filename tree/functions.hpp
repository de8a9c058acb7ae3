// functions.hpp — a C file of the tree read with libclang (Debian's
// libclang-14, its C API): its top-level definitions (functions, macros,
// global variables) with their line spans, and the file's tokens by line. A review uses
// it to say which function each hunk changes, and whether a hunk changes any
// token at all (a comment or whitespace change leaves the stream equal).
//
// The flags: a tree the set-up configured (include/generated/autoconf.h
// present) is parsed with the kernel's include paths for arm64, as its
// .o.cmd files give them; an unconfigured tree with none, every #include
// failing and parsing going on (CXTranslationUnit_KeepGoing): definitions
// and their tokens are still read, types are not, and the result says so.
#pragma once
#include <string>
#include <vector>

namespace tagproof::tree {

struct Definition {
    enum class Kind { function, macro, variable, type } kind = Kind::function;
    std::string name;
    int begin_line = 0, end_line = 0;  // 1-based, inclusive (its tokens: ParsedFile::tokens_in)
};

struct ParsedFile {
    std::vector<Definition> defs;  // in file order
    std::vector<std::pair<int, std::string>> tokens;  // the file's tokens with their lines, comments excluded
    // The tokens on lines [first, last].
    std::vector<std::string> tokens_in(int first, int last) const;
    bool configured = false;       // parsed with the configured tree's flags
    int errors = 0;                // clang's error diagnostics
    std::string first_error;       // "mm/page_alloc.c:12:3: ..." for the reader
    double seconds = 0;
    // The innermost definition spanning [first, last], or nullptr.
    const Definition* at(int first, int last) const;
    const Definition* find(const std::string& name) const;
};

// Parses `text` as `path` of the tree at `root` (an unsaved file: the tree is
// only read). Throws std::runtime_error if libclang cannot parse at all.
ParsedFile read_definitions(const std::string& root, const std::string& path, const std::string& text);

// The flags read_definitions passes for `root` (for the reply's "what ran").
std::vector<std::string> tree_flags(const std::string& root);

}  // namespace tagproof::tree
