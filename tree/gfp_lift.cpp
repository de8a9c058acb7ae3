// gfp_lift.cpp — see gfp_lift.hpp. The unit is text of our own (no kernel
// code is copied): the tree's headers included, then one constant per name,
//   #ifdef NAME
//   static const unsigned long long __tagproof_lift_NAME = (unsigned long long)(NAME);
//   #endif
// and each VarDecl's initializer evaluated with clang_Cursor_Evaluate.
#include "gfp_lift.hpp"

#include <clang-c/Index.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

#include "error.hpp"
#include "functions.hpp"

namespace tagproof::tree {

namespace {

const char* kPrefix = "__tagproof_lift_";

std::string str(CXString s) {
    const char* c = clang_getCString(s);
    std::string r = c ? c : "";
    clang_disposeString(s);
    return r;
}

struct Collect {
    GfpLift* out;
};

CXChildVisitResult visit(CXCursor c, CXCursor, CXClientData d) {
    auto* col = static_cast<Collect*>(d);
    if (clang_getCursorKind(c) != CXCursor_VarDecl) return CXChildVisit_Continue;
    const std::string n = str(clang_getCursorSpelling(c));
    if (n.rfind(kPrefix, 0) != 0) return CXChildVisit_Continue;
    const std::string name = n.substr(std::string(kPrefix).size());
    for (auto& k : col->out->constants) {
        if (k.name != name) continue;
        k.defined = true;
        CXEvalResult r = clang_Cursor_Evaluate(c);
        if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
            k.evaluated = true;
            k.value = clang_EvalResult_getAsUnsigned(r);
        }
        if (r) clang_EvalResult_dispose(r);
    }
    return CXChildVisit_Continue;
}

}  // namespace

const LiftedConstant* GfpLift::find(const std::string& name) const {
    for (const auto& k : constants)
        if (k.name == name) return &k;
    return nullptr;
}

GfpLift lift_gfp_constants(const std::string& root, const std::vector<std::string>& names,
                           const std::map<std::string, std::string>& files) {
    std::error_code ec;
    if (!std::filesystem::exists(root + "/include/generated/autoconf.h", ec))
        throw InputError(root, "the tree is not configured (no include/generated/autoconf.h): its GFP values depend on "
                               "the configuration; scripts/setup-trees.sh configures the Debian trees");
    GfpLift g;
    std::string text = "#include <linux/gfp.h>\n#include <linux/thread_info.h>\n#include <asm/pgalloc.h>\n";
    for (const auto& n : names) {
        g.constants.push_back({n});
        text += "#ifdef " + n + "\nstatic const unsigned long long " + kPrefix + n + " = (unsigned long long)(" + n +
                ");\n#endif\n";
    }
    const std::string path = root + "/mm/tagproof_gfp_lift.c";  // an unsaved file: nothing is written to the tree
    std::vector<std::string> flags = tree_flags(root);
    std::vector<const char*> argv;
    for (const auto& s : flags) argv.push_back(s.c_str());
    std::vector<std::string> paths;  // (kept alive for the unsaved files' names)
    for (const auto& [f, t] : files) paths.push_back(root + "/" + f);
    std::vector<CXUnsavedFile> unsaved{{path.c_str(), text.data(), (unsigned long)text.size()}};
    std::size_t i = 0;
    for (const auto& [f, t] : files) unsaved.push_back({paths[i++].c_str(), t.data(), (unsigned long)t.size()});
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = nullptr;
    const CXErrorCode err = clang_parseTranslationUnit2(idx, path.c_str(), argv.data(), (int)argv.size(), unsaved.data(),
                                                        (unsigned)unsaved.size(), CXTranslationUnit_KeepGoing, &tu);
    if (err != CXError_Success || !tu) {
        clang_disposeIndex(idx);
        throw std::runtime_error(root + ": libclang could not parse the GFP headers (error " + std::to_string((int)err) + ")");
    }
    for (unsigned i = 0, nd = clang_getNumDiagnostics(tu); i < nd; ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && g.errors++ == 0)
            g.first_error = str(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn));
        clang_disposeDiagnostic(d);
    }
    Collect col{&g};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &col);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return g;
}

}  // namespace tagproof::tree
