# The kernel oracle (issue 17), the part that needs no kernel: a real 6.12
# HW_TAGS console log (tests/kernel-logs/, from QEMU 10 with MTE) read and set
# beside the model's verdicts, its doctored copy as the negative control, and
# the corpus written as a KUnit suite. (Building and booting the kernel is the
# opt-in label `kernel`, kernel/CMakeLists.txt.)
set(KL ${CMAKE_CURRENT_SOURCE_DIR}/kernel-logs)
cli_test(kernel_compare_real_log 0
         "Linux version 6.12.118.*hw-tags, mode=sync.*linux-6.4 and linux-7.0.*kmalloc_oob_right \\| ok \\| 2: slab-out-of-bounds, invalid-access.*mempool_kmalloc_oob_right.*agrees under linux-7.0 only.*2 agree, 1 agree under one of the bracketing eras only, 0 disagree, 1 skipped by the kernel"
         kernel compare ${KL}/linux-6.12-hw-tags-qemu-excerpt.log)
cli_test(kernel_compare_negative_control 1
         "kmalloc_oob_left \\| not ok .*\\*\\*disagree\\*\\* \\| the kernel fails the case, the model's port passes"
         kernel compare ${KL}/negative-kmalloc-oob-left-fails.log)
cli_test(kernel_compare_one_variant 0 "model, linux-7.0 \\(hw_tags\\) \\| agreement.*3 agree, 0 agree under"
         kernel compare ${KL}/linux-6.12-hw-tags-qemu-excerpt.log --variant linux-7.0)
cli_test(kernel_compare_binary 2 "not a console log" kernel compare ${CMAKE_CURRENT_SOURCE_DIR}/traces/random.bin)
cli_test(kernel_compare_directory 2 "is a directory" kernel compare ${KL})
cli_test(kernel_unknown_command 2 "unknown 'tagproof kernel' command 'comapre'" kernel comapre x.log)
cli_test(kernel_kunit_needs_out 2 "needs --out FILE" kernel kunit ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/kunit)
cli_test(kernel_kunit_corpus 0
         "[0-9]+ case\\(s\\) written, 3 file\\(s\\) left out.*left out .*kmem_cache_rcu_uaf.litmus: config slub_rcu_debug=y"
         kernel kunit --out ${CMAKE_CURRENT_BINARY_DIR}/tagproof_kunit.c ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/kunit)
# a case the kernel never finished (its report printer Oopsed): not run, exit 1, the crash named
cli_test(kernel_scenarios_oops 1
         "Crash: .*Internal error: Oops.*vmalloc_fix_flags_skip_kasan.litmus \\| not run .*1 written but not run"
         kernel scenarios ${KL}/linux-6.12-vmalloc-report-oops.log
         ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/eras/vmalloc_fix_flags_skip_kasan.litmus)
# the same scenario excluded, with its reason: not written, nothing to hold the kernel to
cli_test(kernel_scenarios_excluded 0 "not written: excluded: its correct report"
         kernel scenarios ${KL}/linux-6.12-vmalloc-report-oops.log
         ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/eras/vmalloc_fix_flags_skip_kasan.litmus
         --exclude ${CMAKE_SOURCE_DIR}/kernel/kunit-exclude.txt)
# --era: the files about one modelled release (the tree oracle's lifted era's base)
cli_test(kernel_kunit_era 0 "case\\(s\\) written.*left out .*linux64_kmalloc_min_128.litmus: it is about linux-6.4, the kernel's era is linux-7.0"
         kernel kunit --era linux-7.0 --out ${CMAKE_CURRENT_BINARY_DIR}/tagproof_kunit_era.c ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/eras)
cli_test(kernel_kunit_era_and_version 2 "takes --kernel-version or --era, not both"
         kernel kunit --era linux-7.0 --kernel-version 6.12 --out ${CMAKE_CURRENT_BINARY_DIR}/x.c ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/eras)
cli_test(kernel_kunit_era_not_release 2 "--era mm-2026: not a modelled release"
         kernel kunit --era mm-2026 --out ${CMAKE_CURRENT_BINARY_DIR}/x.c ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/eras)
