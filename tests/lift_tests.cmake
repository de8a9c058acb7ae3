# `tagproof lift`: the GFP drift table and the functions read from each Debian tree (issue 31
# items 3 and 6): included by tests/CMakeLists.txt.
# The drift table of the GFP constants (tagproof lift, docs/drift-gfp.md): Debian's 6.1 gives
# every constant as linux-6.1 does; 6.12 differs from both bracketing eras only in
# __GFP_NO_OBJ_EXT (0 without CONFIG_SLAB_OBJ_EXT in 6.12, a bit in linux-7.0's layout,
# absent in linux-6.4); linux-7.0's layout against the 6.1 tree is the negative control.
if(DEFINED ENV{TAGPROOF_TREES})
  set(TREES $ENV{TAGPROOF_TREES})
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(TREES $ENV{XDG_CACHE_HOME}/tagproof/trees)
else()
  set(TREES $ENV{HOME}/.cache/tagproof/trees)
endif()
# libclang is loaded when a tree is first read (tree/libclang_lazy.cpp), not at every start:
# a command that reads no tree never loads it; reading one does (the control)
add_test(NAME start.no_libclang
         COMMAND sh -c "! LD_DEBUG=files '$<TARGET_FILE:tagproof>' variants 2>&1 >/dev/null | grep libclang")
add_test(NAME start.no_libclang_control
         COMMAND sh -c "[ -d '${TREES}/linux-source-6.12' ] || { echo 'no kernel tree is installed'; exit 0; }
                        LD_DEBUG=files '$<TARGET_FILE:tagproof>' lift --tree '${TREES}/linux-source-6.12' 2>&1 >/dev/null |
                        grep 'libclang.*dynamically loaded'")
set_tests_properties(start.no_libclang start.no_libclang_control PROPERTIES LABELS unit)
set_tests_properties(start.no_libclang_control PROPERTIES SKIP_REGULAR_EXPRESSION "no kernel tree is installed" LABELS "unit;tree")
# `tagproof lift --tree T` of each tree runs once (cli.lift_tree_T, a fixture, its output and exit
# status kept); the lift tests of that plain command read it, each checking its own rows
foreach(t 6.1 6.12)
  add_test(NAME cli.lift_tree_${t}
           COMMAND ${CMAKE_COMMAND} -DTAGPROOF=$<TARGET_FILE:tagproof> "-DARGS=lift;--tree;${TREES}/linux-source-${t}"
                   -DWANT_STATUS=any -DKEEP=${CMAKE_CURRENT_BINARY_DIR}/lift-${t} -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_cli.cmake)
  set_tests_properties(cli.lift_tree_${t} PROPERTIES FIXTURES_SETUP lift_${t} LABELS "unit;tree")
endforeach()
function(lift_test name status want)
  foreach(t 6.1 6.12)
    if("${ARGN}" STREQUAL "lift;--tree;${TREES}/linux-source-${t}")
      add_test(NAME cli.${name}
               COMMAND ${CMAKE_COMMAND} -DTAGPROOF=$<TARGET_FILE:tagproof> "-DARGS=${ARGN}" -DWANT_STATUS=${status}
                       "-DWANT=${want}" -DKEPT=${CMAKE_CURRENT_BINARY_DIR}/lift-${t} -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_cli.cmake)
      set_tests_properties(cli.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "not a directory: --tree" LABELS "unit;tree"
                           FIXTURES_REQUIRED lift_${t})
      return()
    endif()
  endforeach()
  cli_test(${name} ${status} "${want}" ${ARGN})
  set_tests_properties(cli.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "not a directory: --tree" LABELS "unit;tree")
endfunction()
# (exit 1: one function row drifts, krealloc's spare zeroing, a 6.1.y backport: docs/decisions.md)
lift_test(lift_gfp_6_1 1 "__GFP_SKIP_KASAN_UNPOISON +0x2000000 +0x2000000 +0x2000000  as linux-6.1, linux-6.3.*0 of 47 constants differ"
          lift --tree ${TREES}/linux-source-6.1)
lift_test(lift_gfp_6_1_against_7_0 1 "__GFP_SKIP_KASAN +- +0x2000000  DRIFT"
          lift --tree ${TREES}/linux-source-6.1 --variant linux-7.0)
lift_test(lift_gfp_6_12 1 "__GFP_BITS_SHIFT +0x1a +0x1a +0x1b  as linux-6.4.*__GFP_NO_OBJ_EXT +0 +- +0x4000000  DRIFT.*1 of 46 constants differ"
          lift --tree ${TREES}/linux-source-6.12)
# The functions (issue 31 items 3 and 6): post_alloc_hook and the helpers it calls, lifted from
# each tree into rule bodies and proved equal (Z3) to the hand rule of the era; 6.12's
# post_alloc_hook is linux-6.4's, and differs from linux-7.0's where v7.0's tag_clear_highpages()
# needs MTE (the negative control: the same lifted code against an era that decides otherwise)
# 6.1.192's __do_krealloc zeroes the spare part (the v6.11 fix backported to 6.1.y), neither
# linux-6.1 (v6.1.0) nor linux-6.3 does: the one row that drifts (docs/decisions.md)
lift_test(lift_functions_6_1 1 "post_alloc_hook +mm/page_alloc.c:[0-9]+ lifted; unread calls.*set_page_owner.*should_skip_kasan_poison +mm/page_alloc.c:[0-9]+ lifted.*free_pages_prepare +mm/page_alloc.c:[0-9]+ read in part.*__do_krealloc +mm/slab_common.c:[0-9]+ read in part.*free_reads_skip_flag +as linux-6.3; differs from linux-6.1.*krealloc_zeroes_spare +DRIFT; differs from linux-6.1: [^;]*init_on_alloc=1[^;]*lifted true, hand false.*post_alloc_hook.reset_page_tag +as linux-6.1.*post_alloc_hook.set_skip_poison_flag +as linux-6.1.*free_pages_prepare.poison +as linux-6.3; differs from linux-6.1: hw_tags[^:]*PG_skip_kasan_poison true.*1 function rows differ"
          lift --tree ${TREES}/linux-source-6.1)
lift_test(lift_functions_6_12 1 "should_skip_kasan_unpoison +as linux-6.4, linux-7.0.*post_alloc_hook.tag_clear +as linux-6.4; differs from linux-7.0: [^;]*no MTE[^;]*__GFP_ZEROTAGS[^;]*lifted true, hand false.*post_alloc_hook.kernel_init +as linux-6.4; differs from linux-7.0.*0 function rows differ"
          lift --tree ${TREES}/linux-source-6.12)
# __vmalloc_node_range's KASAN part read in part (tree/lift_parts.cpp), each row proved equal
# to both eras of its tree (LiftParts.VmallocRowsAreDecidedBesideTheEra is the control: seed
# 000's shape differs); a patch variant is no era to compare functions with, and says so
lift_test(lift_vmalloc_6_1 1 "__vmalloc_node_range( as [a-z_]+)? +mm/vmalloc.c:[0-9]+ read in part: the KASAN part.*vmalloc_page_skip_flags +as linux-6.1, linux-6.3.*vmalloc_meta_gfp +as linux-6.1, linux-6.3.*vmalloc_tagged_prot +as linux-6.1, linux-6.3.*vmalloc_prot_normal +as linux-6.1, linux-6.3.*vmalloc_calls_unpoison +as linux-6.1, linux-6.3.*vmalloc_init +as linux-6.1, linux-6.3"
          lift --tree ${TREES}/linux-source-6.1)
lift_test(lift_vmalloc_6_12 1 "__vmalloc_node_range( as [a-z_]+)? +mm/vmalloc.c:[0-9]+ read in part: the KASAN part.*vmalloc_page_skip_flags +as linux-6.4, linux-7.0.*vmalloc_meta_gfp +as linux-6.4, linux-7.0.*vmalloc_tagged_prot +as linux-6.4, linux-7.0.*vmalloc_prot_normal +as linux-6.4, linux-7.0.*vmalloc_calls_unpoison +as linux-6.4, linux-7.0.*vmalloc_init +as linux-6.4, linux-7.0"
          lift --tree ${TREES}/linux-source-6.12)
# arm64's user page gfp (a local folded over two statements) and the huge zero folio's flag
lift_test(lift_user_page_6_1 1 "vma_alloc_zeroed_movable_folio( as [a-z_]+)? +arch/arm64/mm/fault.c:[0-9]+ read in part.*get_huge_zero_folio( as [a-z_]+)? +mm/huge_memory.c:[0-9]+ read in part.*user_page_gfp +as linux-6.1, linux-6.3"
          lift --tree ${TREES}/linux-source-6.1)
# vrealloc()'s KASAN calls and the mempool's hooks read in part (tree/lift_kasan_parts.cpp):
# 6.12.118 has v6.19's __kasan_vrealloc and v6.8's mempool API backported, so each row is
# linux-7.0's and differs from linux-6.4's (the control beside it); 6.1.192 has no vrealloc,
# which is read as `feature vrealloc no`, and the pre-v6.8 mempool (linux-6.1's rows)
lift_test(lift_kasan_hooks_6_12 1 "vrealloc_node_align as vrealloc_noprof +mm/vmalloc.c:[0-9]+ read in part.*__kasan_vrealloc +mm/kasan/common.c:[0-9]+ read in part.*__kasan_mempool_poison_pages +mm/kasan/common.c:[0-9]+ read in part.*add_element +mm/mempool.c:[0-9]+ read in part.*kasan_unpoison_element +mm/mempool.c:[0-9]+ read in part.*feature vrealloc +as linux-7.0; differs from linux-6.4: lifted yes, hand no.*mempool_check_page_frees +as linux-7.0; differs from linux-6.4.*mempool_skip_untagged_pages +as linux-7.0; differs.*mempool_keep_bad_element +as linux-7.0; differs.*mempool_unpoison_whole_slot +as linux-7.0; differs.*vrealloc_granule_aligned +as linux-7.0; differs.*vrealloc_grow_vm_alloc +as linux-7.0; differs.*vrealloc_grow_keep_tag +as linux-7.0; differs"
          lift --tree ${TREES}/linux-source-6.12)
lift_test(lift_kasan_hooks_6_1 1 "vrealloc_node_align( as [a-z_]+)? +mm/vmalloc.c not defined, which is read: feature vrealloc no.*__kasan_mempool_poison_pages +mm/kasan/common.c NOT LIFTED: not defined.*add_element +mm/mempool.c:[0-9]+ read in part.*feature vrealloc +as linux-6.1, linux-6.3.*mempool_keep_bad_element +as linux-6.1, linux-6.3.*mempool_unpoison_whole_slot +as linux-6.1, linux-6.3"
          lift --tree ${TREES}/linux-source-6.1)
# kasan_sample_page_alloc's tests before its counter (rule sample_eligible): 6.12.118's order
# test is linux-6.4's and linux-7.0's (LiftKasanParts.SampleEligibleFromTheTestsBeforeTheCounter
# is the control: every order counted differs); 6.1.192 has no sampling
lift_test(lift_sampling_6_12 1 "kasan_sample_page_alloc +mm/kasan/kasan.h:[0-9]+ read in part.*sample_eligible +as linux-6.4, linux-7.0"
          lift --tree ${TREES}/linux-source-6.12)
# where a kmalloc object's redzone starts (poison_kmalloc_redzone; ____kasan_kmalloc before
# v6.2): round_up(size, KASAN_GRANULE_SIZE) in both trees, the hand eras' granule_up, proved
# equal (LiftKasanParts.KmallocRedzoneFromItsRounding is the control: round_down differs)
lift_test(lift_kmalloc_redzone_6_12 1 "poison_kmalloc_redzone( as [a-z_]+)? +mm/kasan/common.c:[0-9]+ read in part: where a kmalloc object's redzone starts.*kmalloc_redzone_start +as linux-6.4, linux-7.0"
          lift --tree ${TREES}/linux-source-6.12)
lift_test(lift_kmalloc_redzone_6_1 1 "poison_kmalloc_redzone( as [a-z_]+)? +mm/kasan/common.c:[0-9]+ read in part: where a kmalloc object's redzone starts.*kmalloc_redzone_start +as linux-6.1, linux-6.3"
          lift --tree ${TREES}/linux-source-6.1)
# the page-table allocators (include/asm-generic/pgalloc.h, as arm64 includes it), each tree's
# GFP_PGTABLE_KERNEL and _USER read from the allocation calls with the file's macros expanded
lift_test(lift_pgtable_6_1 1 "__pte_alloc_one_kernel( as [a-z_]+)? +include/asm-generic/pgalloc.h:[0-9]+ read in part.*pte_alloc_one( as [a-z_]+)? +include/asm-generic/pgalloc.h:[0-9]+ read in part.*GFP_PGTABLE_KERNEL +as linux-6.1, linux-6.3.*GFP_PGTABLE_USER +as linux-6.1, linux-6.3"
          lift --tree ${TREES}/linux-source-6.1)
lift_test(lift_pgtable_6_12 1 "__pte_alloc_one_kernel( as [a-z_]+)? +include/asm-generic/pgalloc.h:[0-9]+ read in part.*pte_alloc_one( as [a-z_]+)? +include/asm-generic/pgalloc.h:[0-9]+ read in part.*GFP_PGTABLE_KERNEL +as linux-6.4, linux-7.0.*GFP_PGTABLE_USER +as linux-6.4, linux-7.0"
          lift --tree ${TREES}/linux-source-6.12)
lift_test(lift_functions_patch_variant_not_compared 1 "not compared: anjum-v2 \\(not a release.*no function row compared"
          lift --tree ${TREES}/linux-source-6.12 --variant anjum-v2)
cli_test(lift_primitives 0 "kasan_unpoison_pages\\(struct page \\*page, unsigned int order, bool init\\).*source: mm/kasan/common.c.*page_kasan_tag_reset.*source: include/linux/mm.h" lift --primitives)
cli_test(lift_not_a_tree 2 "no Makefile: not a kernel source tree" lift --tree ${CMAKE_CURRENT_SOURCE_DIR})
