// libclang_lazy.cpp — libclang loaded when a tree is first read, not when
// tagproof starts.
//
// libclang-14 brings LLVM with it: linked in, the dynamic loader relocated
// and faulted in about 570 000 of its relocations at every start, about
// 80 ms of CPU for every `tagproof` and unit-test process, most of which
// never read a tree. Each libclang function tree/ calls is defined here
// under its own name, with the signature clang-c/Index.h declares for it
// (the compiler holds the two equal), and calls the real one, looked up on
// its first call in the library dlopen()ed on the first call of any.
#include <clang-c/Index.h>
#include <dlfcn.h>

#include <stdexcept>
#include <string>

#ifndef TAGPROOF_LIBCLANG
#error "TAGPROOF_LIBCLANG: the path of libclang's shared object (tree/CMakeLists.txt)"
#endif

namespace {

void* libclang() {
    static void* const handle = [] {
        void* h = dlopen(TAGPROOF_LIBCLANG, RTLD_NOW | RTLD_LOCAL);
        if (!h)
            throw std::runtime_error(std::string("cannot load libclang to read a kernel tree: ") + dlerror() +
                                     " (Debian: apt-get install libclang-14-dev; scripts/setup.sh)");
        return h;
    }();
    return handle;
}

template <class F>
F real(const char* name) {
    void* f = dlsym(libclang(), name);
    if (!f) throw std::runtime_error(std::string("libclang (") + TAGPROOF_LIBCLANG + ") has no " + name);
    return reinterpret_cast<F>(f);
}

}  // namespace

// FORWARD(return type, name, (parameters), (arguments))
#define FORWARD(R, name, params, args)                              \
    extern "C" R name params {                                      \
        static const auto real_fn = real<R(*) params>(#name);       \
        return real_fn args;                                        \
    }

FORWARD(CXIndex, clang_createIndex, (int a, int b), (a, b))
FORWARD(void, clang_disposeIndex, (CXIndex i), (i))
FORWARD(enum CXErrorCode, clang_parseTranslationUnit2,
        (CXIndex i, const char* f, const char* const* argv, int argc, struct CXUnsavedFile* u, unsigned nu,
         unsigned o, CXTranslationUnit* tu),
        (i, f, argv, argc, u, nu, o, tu))
FORWARD(void, clang_disposeTranslationUnit, (CXTranslationUnit tu), (tu))
FORWARD(unsigned, clang_getNumDiagnostics, (CXTranslationUnit tu), (tu))
FORWARD(CXDiagnostic, clang_getDiagnostic, (CXTranslationUnit tu, unsigned i), (tu, i))
FORWARD(enum CXDiagnosticSeverity, clang_getDiagnosticSeverity, (CXDiagnostic d), (d))
FORWARD(CXString, clang_formatDiagnostic, (CXDiagnostic d, unsigned o), (d, o))
FORWARD(void, clang_disposeDiagnostic, (CXDiagnostic d), (d))
FORWARD(const char*, clang_getCString, (CXString s), (s))
FORWARD(void, clang_disposeString, (CXString s), (s))
FORWARD(CXCursor, clang_getTranslationUnitCursor, (CXTranslationUnit tu), (tu))
FORWARD(unsigned, clang_visitChildren, (CXCursor c, CXCursorVisitor v, CXClientData d), (c, v, d))
FORWARD(CXString, clang_getCursorSpelling, (CXCursor c), (c))
FORWARD(enum CXCursorKind, clang_getCursorKind, (CXCursor c), (c))
FORWARD(unsigned, clang_isCursorDefinition, (CXCursor c), (c))
FORWARD(CXSourceRange, clang_getCursorExtent, (CXCursor c), (c))
FORWARD(CXSourceLocation, clang_getRangeStart, (CXSourceRange r), (r))
FORWARD(CXSourceLocation, clang_getRangeEnd, (CXSourceRange r), (r))
FORWARD(CXSourceRange, clang_getRange, (CXSourceLocation b, CXSourceLocation e), (b, e))
FORWARD(void, clang_getSpellingLocation, (CXSourceLocation l, CXFile* f, unsigned* line, unsigned* col, unsigned* off),
        (l, f, line, col, off))
FORWARD(void, clang_getExpansionLocation, (CXSourceLocation l, CXFile* f, unsigned* line, unsigned* col, unsigned* off),
        (l, f, line, col, off))
FORWARD(CXSourceLocation, clang_getLocationForOffset, (CXTranslationUnit tu, CXFile f, unsigned off), (tu, f, off))
FORWARD(CXFile, clang_getFile, (CXTranslationUnit tu, const char* name), (tu, name))
FORWARD(CXString, clang_getFileName, (CXFile f), (f))
FORWARD(int, clang_File_isEqual, (CXFile a, CXFile b), (a, b))
FORWARD(void, clang_getInclusions, (CXTranslationUnit tu, CXInclusionVisitor v, CXClientData d), (tu, v, d))
FORWARD(void, clang_tokenize, (CXTranslationUnit tu, CXSourceRange r, CXToken** t, unsigned* n), (tu, r, t, n))
FORWARD(void, clang_disposeTokens, (CXTranslationUnit tu, CXToken* t, unsigned n), (tu, t, n))
FORWARD(CXString, clang_getTokenSpelling, (CXTranslationUnit tu, CXToken t), (tu, t))
FORWARD(CXSourceLocation, clang_getTokenLocation, (CXTranslationUnit tu, CXToken t), (tu, t))
FORWARD(CXTokenKind, clang_getTokenKind, (CXToken t), (t))
FORWARD(CXEvalResult, clang_Cursor_Evaluate, (CXCursor c), (c))
FORWARD(CXEvalResultKind, clang_EvalResult_getKind, (CXEvalResult e), (e))
FORWARD(unsigned long long, clang_EvalResult_getAsUnsigned, (CXEvalResult e), (e))
FORWARD(void, clang_EvalResult_dispose, (CXEvalResult e), (e))
