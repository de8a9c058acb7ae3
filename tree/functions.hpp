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

// A call in a function body, at the line it is written on (a call a macro
// expands to is at the macro's use).
struct Call {
    std::string callee;                 // as written ("kmalloc"; a macro's name, not what it expands to)
    int line = 0, end_line = 0;
    std::vector<std::string> args;      // each argument's tokens as written, joined by one blank
    unsigned offset = 0;                // where the callee's name is written
};

struct ParsedFile {
    std::vector<Definition> defs;  // in file order
    std::vector<Call> calls;       // in every function definition
    struct Token {
        int line;
        unsigned offset;
        std::string text;
    };
    std::vector<Token> tokens;  // the file's tokens as written, comments excluded
    // The calls written on lines [first, last].
    std::vector<const Call*> calls_in(int first, int last) const;
    // The tokens on lines [first, last].
    std::vector<std::string> tokens_in(int first, int last) const;
    bool configured = false;       // parsed with the configured tree's flags
    int errors = 0;                // clang's error diagnostics
    std::string first_error;       // "mm/page_alloc.c:12:3: ..." for the reader
    double seconds = 0;
    bool from_cache = false;       // read back from the parse cache (parse_cache.hpp), not parsed
    // The innermost definition spanning [first, last], or nullptr.
    const Definition* at(int first, int last) const;
    const Definition* find(const std::string& name) const;
};

// Parses `text` as `path` of the tree at `root` (an unsaved file: the tree is
// only read). Throws std::runtime_error if libclang cannot parse at all.
// Where `text` is the file as it is on disk, the parse is kept in the parse
// cache (parse_cache.hpp) and read back while nothing it read has changed.
ParsedFile read_definitions(const std::string& root, const std::string& path, const std::string& text);

// The flags read_definitions passes for `root` (for the reply's "what ran").
std::vector<std::string> tree_flags(const std::string& root);

}  // namespace tagproof::tree
