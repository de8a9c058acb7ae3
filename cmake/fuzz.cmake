# The libFuzzer targets of fuzz/, built with clang++ by fuzz/build.sh, the
# script OSS-Fuzz runs (the main build may use g++): one compile of the
# library for fuzzing, which the fuzz.build-sh test then finds up to date.
# Enabled when clang++ can link a -fsanitize=fuzzer,address,undefined program
# (Debian: clang and libclang-rt-14-dev, installed by scripts/setup.sh);
# otherwise the fuzz smoke tests report why they are skipped.
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
  # OSS-Fuzz's flags for an AddressSanitizer build (infra/base-images/base-builder:
  # -O1, frame pointers, line tables, the fuzzing-build define, use-after-scope,
  # fuzzer-no-link), with UndefinedBehaviorSanitizer beside it, fatal
  set(TAGPROOF_FUZZ_CXXFLAGS "-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link -fsanitize=undefined -fno-sanitize-recover=undefined")
  # the objects, where the fuzz.build-sh test finds them up to date (with these flags)
  set(TAGPROOF_FUZZ_WORK ${CMAKE_BINARY_DIR}/fuzz-work)
  # always run: the script itself decides what is out of date
  add_custom_target(tagproof_fuzz_targets ALL
    COMMAND ${CMAKE_COMMAND} -E env CXX=${TAGPROOF_CLANGXX} "CXXFLAGS=${TAGPROOF_FUZZ_CXXFLAGS}"
            LIB_FUZZING_ENGINE=-fsanitize=fuzzer WORK=${TAGPROOF_FUZZ_WORK} JOBS=2 OUT=${CMAKE_BINARY_DIR}/fuzz
            ${CMAKE_SOURCE_DIR}/fuzz/build.sh
    COMMENT "fuzz/build.sh: the libFuzzer targets in build/fuzz/"
    VERBATIM)
  message(STATUS "tagproof: libFuzzer targets with ${TAGPROOF_CLANGXX}")
else()
  message(STATUS "tagproof: no libFuzzer targets: ${TAGPROOF_FUZZ_WHY}")
endif()
