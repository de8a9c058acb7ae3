# The libFuzzer targets of fuzz/, built with clang++ as an external project
# of their own (the main build may use g++). Enabled when clang++ can link a
# -fsanitize=fuzzer,address,undefined program (Debian: clang and
# libclang-rt-14-dev, installed by scripts/setup.sh); otherwise the fuzz
# smoke tests report why they are skipped.
option(TAGPROOF_FUZZ "build the libFuzzer targets with clang++" ON)
set(TAGPROOF_FUZZ_OK OFF)
set(TAGPROOF_FUZZ_WHY "TAGPROOF_FUZZ is OFF")
if(TAGPROOF_FUZZ)
  find_program(TAGPROOF_CLANGXX NAMES clang++ clang++-14)
  if(NOT TAGPROOF_CLANGXX)
    set(TAGPROOF_FUZZ_WHY "clang++ was not found (apt-get install clang libclang-rt-14-dev)")
  else()
    set(probe ${CMAKE_BINARY_DIR}/fuzz-probe.cpp)
    file(WRITE ${probe} "extern \"C\" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n")
    execute_process(COMMAND ${TAGPROOF_CLANGXX} -fsanitize=fuzzer,address,undefined ${probe} -o ${CMAKE_BINARY_DIR}/fuzz-probe
                    RESULT_VARIABLE probe_rc OUTPUT_QUIET ERROR_QUIET)
    if(probe_rc EQUAL 0)
      set(TAGPROOF_FUZZ_OK ON)
    else()
      set(TAGPROOF_FUZZ_WHY "${TAGPROOF_CLANGXX} cannot link -fsanitize=fuzzer (apt-get install libclang-rt-14-dev)")
    endif()
  endif()
endif()
if(TAGPROOF_FUZZ_OK)
  include(ExternalProject)
  ExternalProject_Add(tagproof_fuzz_targets
    SOURCE_DIR ${CMAKE_SOURCE_DIR}/fuzz
    BINARY_DIR ${CMAKE_BINARY_DIR}/fuzz
    CMAKE_ARGS -DCMAKE_CXX_COMPILER=${TAGPROOF_CLANGXX} -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON)
  message(STATUS "tagproof: libFuzzer targets with ${TAGPROOF_CLANGXX}")
else()
  message(STATUS "tagproof: no libFuzzer targets: ${TAGPROOF_FUZZ_WHY}")
endif()
