# z3_move_assign.cmake — Z3's C++ header as shipped by Debian 12 (libz3-dev
# 4.8.12), with its one reference-counting bug mended, in the build tree.
#
# z3++.h's `ast & ast::operator=(ast && s)` takes s's reference without
# releasing the one it held, so every move-assignment into an expr that held
# an ast (`e = e && x`, `v = ite(...)`: the obligations and the builders do
# it throughout) leaks that ast, and with it everything it refers to. A
# leaked ast outlives every handle, so deleting the context takes
# ast_manager's slow path for leaks: rounds of scans over its whole ast table
# (half a million cells). That was 81 s of the suite's CPU at 12,463 context
# deletions (2026-12-07, an LD_PRELOAD timer around Z3_del_context), and it
# kept every leaked ast alive for as long as the context lived (20,000
# move-assigned numerals: 29.6 MB; mended: none).
# Later Z3 releases release the old ast first, as the copy-assignment always
# did; the copy here does the same. The header is read from the system at
# configure time, never kept in this repository; a header without the bug
# (another Z3) is used as it is. tests/unit/z3_move_assign_test.cpp holds
# the behaviour (no ast kept by a move-assignment) whichever header is used.
find_file(TAGPROOF_Z3PP_HEADER z3++.h HINTS ${Z3_INCLUDE_DIRS} PATHS /usr/include NO_CACHE)
set(TAGPROOF_Z3_FIX_DIR ${CMAKE_BINARY_DIR}/z3-move-assign)
if(TAGPROOF_Z3PP_HEADER)
  file(READ ${TAGPROOF_Z3PP_HEADER} z3pp)
  set(leaky "ast & operator=(ast && s) noexcept {\n            if (this != &s) {\n                object::operator=(std::forward<object>(s));")
  set(mended "ast & operator=(ast && s) noexcept {\n            if (this != &s) {\n                if (m_ast)\n                    Z3_dec_ref(ctx(), m_ast);  // (mended in the build tree: cmake/z3_move_assign.cmake)\n                object::operator=(std::forward<object>(s));")
  string(FIND "${z3pp}" "${leaky}" at)
  if(at GREATER -1)
    string(REPLACE "${leaky}" "${mended}" z3pp "${z3pp}")
    file(WRITE ${TAGPROOF_Z3_FIX_DIR}/z3++.h.new "${z3pp}")
    # copied only when it differs, so a reconfigure rebuilds nothing
    configure_file(${TAGPROOF_Z3_FIX_DIR}/z3++.h.new ${TAGPROOF_Z3_FIX_DIR}/z3++.h COPYONLY)
    message(STATUS "z3++.h: ${TAGPROOF_Z3PP_HEADER} move-assigns without releasing; the build uses a mended copy in ${TAGPROOF_Z3_FIX_DIR}")
  else()
    file(REMOVE ${TAGPROOF_Z3_FIX_DIR}/z3++.h)
    message(STATUS "z3++.h: ${TAGPROOF_Z3PP_HEADER} used as it is (no leaking move-assignment found)")
  endif()
endif()
