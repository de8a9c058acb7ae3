# input_tests.cmake — bad input (issue 16): each gets its exit status and the
# message it must give; cli_test is defined in CMakeLists.txt. Scenario files
# with bad content are in scenarios/bad/ (each names its message).

# numbers on the command line: parsed once, the range named
cli_test(input_prove_depth_negative 2 "--depth: '-3' is negative: expected a number of 0 or more" prove --depth -3)
cli_test(input_prove_depth_huge 2 "--depth: '4294967293' is out of range: expected 1..16" prove --depth 4294967293)
cli_test(input_prove_timeout_word 2 "--timeout: 'soon' is not a number" prove --timeout soon)
cli_test(input_run_max_runs_negative 2 "--max-runs: '-1' is negative" run --max-runs -1 ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/kunit/kmalloc_oob_right.litmus)
cli_test(input_run_max_runs_zero 2 "--max-runs: '0' is out of range: expected 1..1048576" run --max-runs 0 ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/kunit/kmalloc_oob_right.litmus)
cli_test(input_explore_depth_beyond_u64 2 "--depth: '99999999999999999999' is beyond 2\\^64-1" explore --depth 99999999999999999999)
cli_test(input_review_jobs_zero 2 "--jobs: '0' is out of range: expected 1..64" review --jobs 0)
cli_test(input_replay_dczid 2 "--dczid: '0xa': BS \\(bits 3:0\\) is 10, above 9" replay --dczid 0xa ${CMAKE_CURRENT_SOURCE_DIR}/traces/small.trace)
cli_test(input_option_empty_value 2 "--depth: needs a value \\(1..16\\)" prove --depth=)

# file-system errors: the path and the system's reason, exit 2, before any work
cli_test(input_review_out_proc 2 "^tagproof: error: --out /proc/nope: cannot create the directory: " review --out /proc/nope)
cli_test(input_run_directory_missing 2 "no-such-dir.litmus: cannot open the scenario file" run ${CMAKE_CURRENT_BINARY_DIR}/no-such-dir.litmus)

# messages: control characters shown escaped
string(ASCII 27 ESC)
string(ASCII 7 BEL)
cli_test(input_unknown_verb_escaped 2 "unknown verb 'rev\\\\x1b\\[2Jiew'" "rev${ESC}[2Jiew")
cli_test(input_gfp_control_char 2 "unknown GFP flag 'GFP_KERNEL\\\\x07'" gfp "GFP_KERNEL${BEL}")
cli_test(input_gfp_64bit 2 "'0x1ffffffff' does not fit gfp_t \\(unsigned int, 32 bits\\)" gfp 0x1ffffffff)
add_test(NAME cli.input_long_line COMMAND ${CMAKE_COMMAND} -DTAGPROOF=$<TARGET_FILE:tagproof>
         -DWORK=${CMAKE_CURRENT_BINARY_DIR} -P ${CMAKE_CURRENT_SOURCE_DIR}/input_long_line.cmake)

# a scenario file may start with a UTF-8 byte-order mark
cli_test(input_scenario_bom 0 "bom_accepted hw_tags linux-7.0 Always 1/1 .* PASS" run ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/input/bom_accepted.litmus)

# boot command lines as kernel/params.c parse_args() and lib/cmdline.c next_arg() read them
cli_test(input_boot_quoted_value 0 "mode=async" boot "kasan.mode=\"async\"")
cli_test(input_boot_quoted_param 0 "mode=asymm" boot "\"kasan.mode=asymm\"")
cli_test(input_boot_dashes 0 "sample=4 " boot "kasan.page-alloc.sample=4")
cli_test(input_boot_double_dash 0 "kasan_enabled=1 .*after \"--\", for init \\(not kernel parameters\\): kasan=off single"
         boot "kasan=on -- kasan=off single")
cli_test(input_boot_quoted_bad 2 "bad boot parameter 'kasan.mode=a sync': expected sync, async or asymm" boot "kasan.mode=\"a sync\"")

# variant files: nesting and numbers the reader refuses before they overflow
set(FS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz-seeds/variant_file)
cli_test(input_variant_deep_parens 2 "deep_parens.variant:6:91: brackets, '!', '~' or '\\?:' nested more than 64 deep"
         run --variant-file ${FS}/deep_parens.variant ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/kunit/kmalloc_oob_right.litmus)
cli_test(input_variant_number_overflow 2 "number_overflow.variant:6:40: the number '0x1f+' is beyond 2\\^64-1"
         run --variant-file ${FS}/number_overflow.variant ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/kunit/kmalloc_oob_right.litmus)
