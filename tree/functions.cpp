// functions.cpp — see functions.hpp.
#include "functions.hpp"

#include "parse_cache.hpp"

#include <clang-c/Index.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tagproof::tree {

namespace {

std::string str(CXString s) {
    const char* c = clang_getCString(s);
    std::string r = c ? c : "";
    clang_disposeString(s);
    return r;
}

struct Visit {
    CXTranslationUnit tu;
    CXFile main;
    ParsedFile* out;
};

void line_of(CXSourceLocation l, CXFile* f, unsigned* line) {
    unsigned col = 0, off = 0;
    clang_getSpellingLocation(l, f, line, &col, &off);
}

// Every call in a function body (recursing into its statements), at the
// place its callee is written: a call a macro expands to (kmalloc() is
// alloc_hooks(kmalloc_noprof(...)) from 6.10) is at the macro's use, and its
// arguments are read from the tokens there (calls_from_tokens).
CXChildVisitResult visit_calls(CXCursor c, CXCursor, CXClientData d) {
    auto* v = static_cast<Visit*>(d);
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXFile f = nullptr;
        unsigned line = 0, col = 0, off = 0;
        clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, &line, &col, &off);
        if (f && clang_File_isEqual(f, v->main)) {
            Call call;
            call.callee = str(clang_getCursorSpelling(c));
            call.line = call.end_line = (int)line;
            call.offset = off;
            v->out->calls.push_back(std::move(call));
        }
    }
    return CXChildVisit_Recurse;
}

// Each call's written name and arguments, from the file's tokens at its place;
// one per place (a macro may expand to several calls).
void calls_from_tokens(ParsedFile& pf) {
    std::vector<Call> out;
    std::size_t t = 0;
    std::sort(pf.calls.begin(), pf.calls.end(), [](const Call& a, const Call& b) { return a.offset < b.offset; });
    for (auto& c : pf.calls) {
        if (!out.empty() && out.back().offset == c.offset) continue;
        while (t < pf.tokens.size() && pf.tokens[t].offset < c.offset) ++t;
        if (t + 1 >= pf.tokens.size() || pf.tokens[t].offset != c.offset || pf.tokens[t + 1].text != "(") continue;
        Call w = c;
        w.callee = pf.tokens[t].text;
        int depth = 0;
        std::string arg;
        std::size_t k = t + 1;
        for (; k < pf.tokens.size(); ++k) {
            const std::string& x = pf.tokens[k].text;
            if (x == "(" || x == "[" || x == "{") {
                if (depth++ == 0) continue;
            } else if (x == ")" || x == "]" || x == "}") {
                if (--depth == 0) break;
            } else if (x == "," && depth == 1) {
                w.args.push_back(arg);
                arg.clear();
                continue;
            }
            arg += (arg.empty() ? "" : " ") + x;
        }
        if (!arg.empty() || !w.args.empty()) w.args.push_back(arg);
        if (k < pf.tokens.size()) w.end_line = pf.tokens[k].line;
        out.push_back(std::move(w));
    }
    pf.calls = std::move(out);
}

CXChildVisitResult visit(CXCursor c, CXCursor, CXClientData d) {
    auto* v = static_cast<Visit*>(d);
    const CXCursorKind k = clang_getCursorKind(c);
    Definition def;
    switch (k) {
        case CXCursor_FunctionDecl:
            if (!clang_isCursorDefinition(c)) return CXChildVisit_Continue;
            def.kind = Definition::Kind::function;
            break;
        case CXCursor_MacroDefinition: def.kind = Definition::Kind::macro; break;
        case CXCursor_VarDecl: def.kind = Definition::Kind::variable; break;
        case CXCursor_StructDecl:
        case CXCursor_UnionDecl:
        case CXCursor_EnumDecl:
        case CXCursor_TypedefDecl:
            if (!clang_isCursorDefinition(c) && k != CXCursor_TypedefDecl) return CXChildVisit_Continue;
            def.kind = Definition::Kind::type;
            break;
        default: return CXChildVisit_Continue;
    }
    const CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = nullptr, f2 = nullptr;
    unsigned b = 0, e = 0;
    line_of(clang_getRangeStart(r), &f1, &b);
    line_of(clang_getRangeEnd(r), &f2, &e);
    if (!f1 || !clang_File_isEqual(f1, v->main)) return CXChildVisit_Continue;
    def.name = str(clang_getCursorSpelling(c));
    def.begin_line = (int)b;
    def.end_line = (int)e;
    v->out->defs.push_back(std::move(def));
    if (k == CXCursor_FunctionDecl) clang_visitChildren(c, visit_calls, d);
    return CXChildVisit_Continue;
}

bool configured(const std::string& root) {
    std::error_code ec;
    return std::filesystem::exists(root + "/include/generated/autoconf.h", ec);
}

}  // namespace

const Definition* ParsedFile::at(int first, int last) const {
    const Definition* best = nullptr;
    for (const auto& d : defs)
        if (d.begin_line <= first && last <= d.end_line &&
            (!best || d.end_line - d.begin_line < best->end_line - best->begin_line))
            best = &d;
    return best;
}

std::vector<std::string> ParsedFile::tokens_in(int first, int last) const {
    std::vector<std::string> v;
    for (const auto& t : tokens)
        if (t.line >= first && t.line <= last) v.push_back(t.text);
    return v;
}

std::vector<const Call*> ParsedFile::calls_in(int first, int last) const {
    std::vector<const Call*> v;
    for (const auto& c : calls)
        if (c.line <= last && c.end_line >= first) v.push_back(&c);
    return v;
}

const Definition* ParsedFile::find(const std::string& name) const {
    for (const auto& d : defs)
        if (d.name == name) return &d;
    return nullptr;
}

std::vector<std::string> tree_flags(const std::string& root) {
    std::vector<std::string> f = {"-x", "c", "-std=gnu11", "--target=aarch64-linux-gnu", "-nostdinc", "-D__KERNEL__",
                                  "-ferror-limit=0", "-Wno-everything"};
    if (configured(root)) {
        // As an arm64 object's .o.cmd gives them (LINUXINCLUDE, scripts/Makefile.lib's c_flags).
        for (const char* d : {"arch/arm64/include", "arch/arm64/include/generated", "include", "arch/arm64/include/uapi",
                              "arch/arm64/include/generated/uapi", "include/uapi", "include/generated/uapi"})
            f.push_back("-I" + root + "/" + d);
        for (const char* h : {"include/linux/compiler-version.h", "include/linux/kconfig.h",
                              "include/linux/compiler_types.h"}) {
            f.push_back("-include");
            f.push_back(root + "/" + h);
        }
    }
    return f;
}

ParsedFile read_definitions(const std::string& root, const std::string& path, const std::string& text) {
    const auto t0 = std::chrono::steady_clock::now();
    ParsedFile pf;
    pf.configured = configured(root);
    const std::string full = root + "/" + path;
    std::vector<std::string> flags = tree_flags(root);
    // A header that is not self-contained, parsed as its includer sees it:
    // include/asm-generic/pgalloc.h uses struct mm_struct, pte_t and the
    // GFP names of linux/mm.h without including it (arch/arm64's
    // asm/pgalloc.h includes it after its own). Without them its functions
    // do not parse and are not found.
    static const std::vector<std::pair<const char*, const char*>> includer_sees = {
        {"include/asm-generic/pgalloc.h", "include/linux/mm.h"}};
    if (pf.configured)
        for (const auto& [h, pre] : includer_sees)
            if (path == h) {
                flags.push_back("-include");
                flags.push_back(root + "/" + pre);
            }
    // The tree's own file, or a patched text of it (a review parses the
    // series' copy): the parse cache holds either, the patched one by its text.
    const std::string text_id = [&] {
        std::ifstream f(full, std::ios::binary);
        std::stringstream ss;
        if (f) ss << f.rdbuf();
        return f && ss.str() == text ? std::string() : text_digest(text);
    }();
    if (auto cached = load_parsed(root, path, flags, text_id)) {
        cached->from_cache = true;
        cached->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return *cached;
    }
    std::vector<const char*> argv;
    for (const auto& s : flags) argv.push_back(s.c_str());
    CXUnsavedFile unsaved{full.c_str(), text.data(), (unsigned long)text.size()};
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = nullptr;
    const unsigned opts = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |
                          CXTranslationUnit_SkipFunctionBodies * 0 | CXTranslationUnit_Incomplete;
    const CXErrorCode err = clang_parseTranslationUnit2(idx, full.c_str(), argv.data(), (int)argv.size(), &unsaved, 1,
                                                        opts, &tu);
    if (err != CXError_Success || !tu) {
        clang_disposeIndex(idx);
        throw std::runtime_error(full + ": libclang could not parse it (error " + std::to_string((int)err) + ")");
    }
    const unsigned nd = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < nd; ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        const auto sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) {
            if (pf.errors++ == 0) pf.first_error = str(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                                                   CXDiagnostic_DisplayColumn));
        }
        clang_disposeDiagnostic(d);
    }
    Visit v{tu, clang_getFile(tu, full.c_str()), &pf};
    {
        // Every token of the file, with its line: a hunk's tokens are the ones on its lines.
        const CXSourceRange all = clang_getRange(clang_getLocationForOffset(tu, v.main, 0),
                                                 clang_getLocationForOffset(tu, v.main, (unsigned)text.size()));
        CXToken* toks = nullptr;
        unsigned n = 0;
        clang_tokenize(tu, all, &toks, &n);
        for (unsigned i = 0; i < n; ++i) {
            if (clang_getTokenKind(toks[i]) == CXToken_Comment) continue;
            CXFile f = nullptr;
            unsigned line = 0, col = 0, off = 0;
            clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), &f, &line, &col, &off);
            pf.tokens.push_back({(int)line, off, str(clang_getTokenSpelling(tu, toks[i]))});
        }
        clang_disposeTokens(tu, toks, n);
    }
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &v);
    calls_from_tokens(pf);
    std::vector<std::string> inputs;  // every file the parse read: what the cached entry depends on
    clang_getInclusions(
            tu,
            [](CXFile f, CXSourceLocation*, unsigned, CXClientData d) {
                static_cast<std::vector<std::string>*>(d)->push_back(str(clang_getFileName(f)));
            },
            &inputs);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    pf.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    save_parsed(root, path, flags, text_id, pf, inputs);
    return pf;
}

}  // namespace tagproof::tree
