# Reviews of patches as mailed (issue 14), with the hand model and against the Debian kernel
# trees (issue 31): included by tests/CMakeLists.txt, whose functions (cli_test, ...) and
# variables (PD, PO, ...) it uses.
# tagproof review PATCH (issue 14): a patch as mailed, reviewed with default
# options; each case is what a reviewer brings.
set(PD ${CMAKE_CURRENT_SOURCE_DIR}/patches)
set(PO ${CMAKE_CURRENT_BINARY_DIR}/review-patch)
# a new user's git diff that drops __GFP_ZERO from GFP_PGTABLE_KERNEL: the zeroing finding, under the quoted hunk;
# every allocator that names the #define loses its zeroing, arm64's pgds with them (pgd_alloc() passes
# GFP_PGTABLE_USER): the control of cli.review_tree_pte_kernel_no_zero and _user_no_zero, whose
# calls alone change
cli_test(review_patch_pgtable_no_zero 1
         "> -#define GFP_PGTABLE_KERNEL.*> \\+#define GFP_PGTABLE_KERNEL\t\\(GFP_KERNEL\\).*Read as: GFP_PGTABLE_KERNEL loses __GFP_ZERO.*\\[Severity: high.*zeroing \\[hw_tags\\].*Reproduce.*pgtable_alloc\\(pgd_slab\\)( cpu=[0-9]+)?: memory its caller needs.*Verdict: [0-9]+ findings? the series introduces"
         review ${PD}/pgtable_no_zero.diff --out ${PO}/pgtable)
# seed 000 as mailed: every hunk mapped, no finding the series introduces
cli_test(review_patch_seed000 0 "Of its 8 hunks, 7 change code.*1 only comments, and 0 nothing.*Verdict: no finding the series introduces.*covers all 8 hunks"
         review ${PD}/seeds/000_anjum_v2.txt --out ${PO}/seed000)
# seed 003 without patch 1/2: its flag is undefined in the base, nothing is checked
cli_test(review_patch_seed003_no_base 4 "unknown name '__GFP_KASAN_SAMPLE': linux-[0-9.]+ defines no such GFP flag.*variants/sample-v2-1.variant is one.*Verdict: not reviewed"
         review ${PD}/seeds/003_sample_v2_2of2.txt --out ${PO}/seed003-nobase)
cli_test(review_patch_seed003 0 "Also in sample-v2-1, so not this series' doing.*Verdict: no finding the series introduces"
         review ${PD}/seeds/003_sample_v2_2of2.txt --base ${CMAKE_SOURCE_DIR}/variants/sample-v2-1.variant --out ${PO}/seed003)
# only unmodelled code: its own exit status, never "holds"
cli_test(review_patch_unmodelled 4 "calculate_order\\(\\) in mm/slub.c.*Verdict: not reviewed"
         review ${PD}/unmodelled.patch --out ${PO}/unmodelled)
cli_test(review_patch_partly 5 "Read as: GFP_VMAP_STACK gains __GFP_NOWARN.*alloc_thread_stack_node\\(\\) in.*kernel/fork.c.*covers the 1 hunk checked of 2 only"
         review ${PD}/partly_modelled.patch --out ${PO}/partly)
# Review against a kernel tree (issue 31): the Debian trees scripts/setup-trees.sh
# prepares. A machine without them skips these (the reply says no tree is installed).
function(tree_test name status want)
  tree_test_shun(${name} ${status} "${want}" "" ${ARGN})
endfunction()
# ... whose output must also not match SHUN (a finding the kernel would not show)
function(tree_test_shun name status want shun)
  add_test(NAME cli.${name}
           COMMAND ${CMAKE_COMMAND} -DTAGPROOF=$<TARGET_FILE:tagproof> "-DARGS=${ARGN}" -DWANT_STATUS=${status}
                   "-DWANT=${want}" "-DSHUN=${shun}" -DFLOW=1 -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_cli.cmake)
  set_tests_properties(cli.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "no kernel tree is installed" LABELS "unit;tree")
endfunction()
# seed 002 (the sampling patch as merged in 6.3) applies on 6.1 with GNU patch's offsets; the
# comment hunk is no semantic change, the two post_alloc_hook hunks are read from the tree and
# from the patched copy into rule bodies (issue 31 item 3)
tree_test(review_tree_seed002 0 "3 of 3 hunks checked on tree:6\\.1\\.[0-9]+.*taken: 3 of 3 hunks apply.*Tried tree:6\\.12[.0-9]*: refused: 0 of 3.*post_alloc_hook \\(mm/page_alloc.c:[0-9]+\\).*Assumed: the calls in them the model does not read leave tags and data alone:.*set_page_owner\\(\\).*applied at offset 22 lines.*no semantic change.*applied at offset 36 lines.*post_alloc_hook, read from the tree before and after the series"
          review ${PD}/seeds/002_sample_v3.txt --map-only --out ${PO}/tree-seed002)
# ... and reviewed: the kernel's own post_alloc_hook, as the patch leaves it, starts reset_tags
# from !zero_tags, so a __GFP_ZEROTAGS user page skipped by KASAN keeps a stale page tag (the
# bug "kasan: reset page tags properly with sampling" fixed); found against the tree's own code
tree_test(review_tree_seed002_lifted 1 "no-false-positive \\[hw_tags\\].*Variant: patch-002-sample-v3 \\(baseline tree-6\\.1\\.[0-9]+\\).*page-tag-consistency \\[hw_tags\\].*Verdict: 2 findings the series introduces"
          review ${PD}/seeds/002_sample_v3.txt --out ${PO}/tree-seed002-review)
# ... as patch 2/2 of a series whose 1/2 is the rest of its commit (kasan_unpoison_pages()
# returning whether it tagged, the sampling parameters; written for 6.1.192): the same two
# findings, the hunks in mm/kasan and include/linux/kasan.h counted and named as not checked
tree_test(review_tree_seed002_series 1 "3 of 9 hunks checked on tree:6\\.1\\.[0-9]+.*9 of 9 hunks apply.*no-false-positive \\[hw_tags\\].*page-tag-consistency \\[hw_tags\\].*Verdict: 2 findings the series introduces, in the 3 hunks checked of 9"
          review ${PD}/seeds/002_sample_v3_rest_6_1.patch ${PD}/seeds/002_sample_v3.txt --out ${PO}/tree-seed002-series)
# a reviewer's broken krealloc patch on 6.12: __do_krealloc no longer zeroes the spare part in
# place; read from the tree in part (rule krealloc_zeroes_spare), the shrink-then-grow
# scenario shows the grown bytes holding the owner's data, under the hunk
tree_test(review_tree_krealloc_no_spare_zero 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*__do_krealloc \\(mm/slab_common.c:[0-9]+; in part.*in __do_krealloc: changes __do_krealloc.*zeroing \\[hw_tags\\].*grown in place by krealloc\\(\\) holds a secret.*Verdict: 1 finding the series introduces"
          review ${PD}/krealloc_no_spare_zero_6_12.patch --out ${PO}/tree-krealloc)
# a reviewer's broken patch on 6.12: should_skip_init() honours __GFP_SKIP_KASAN too, and
# GFP_HIGHUSER_MOVABLE carries __GFP_SKIP_KASAN since v6.4, so a user page's __GFP_ZERO is dropped
tree_test(review_tree_skip_init_on_skip_kasan 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in should_skip_init: changes.*zeroing \\[hw_tags\\].*alloc_pages\\(0, GFP_HIGHUSER_MOVABLE\\|__GFP_ZERO\\).*Kernel functions involved: post_alloc_hook\\(\\), should_skip_init\\(\\).*Verdict: 1 finding the series introduces"
          review ${PD}/skip_init_on_skip_kasan_6_12.patch --out ${PO}/tree-skip-init)
# a reviewer's broken patch on 6.12: should_skip_kasan_unpoison() skips __GFP_ZERO allocations too
# ("zeroed anyway"), so every zeroed page is handed out through a match-all pointer: the hunk read
# from the tree, the detection finding under it names alloc_pages and the function the series
# changes, and its Reproduce line, run as printed, PASSes; the control breaks the reproducer
function(tree_reproduce name status want patch)
  add_test(NAME cli.${name}
           COMMAND ${CMAKE_COMMAND} -DTAGPROOF=$<TARGET_FILE:tagproof> -DPATCH=${PD}/${patch} -DWANT_STATUS=${status}
                   "-DWANT=${want}" -DOUT=${PO}/${name} ${ARGN} -P ${CMAKE_CURRENT_SOURCE_DIR}/review_reproduce.cmake)
  set_tests_properties(cli.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "no kernel tree is installed" LABELS "unit;tree")
endfunction()
set(SKIP_UNPOISON_ZERO_WANT "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in should_skip_kasan_unpoison: changes should_skip_kasan_unpoison, read from the tree before and after the series.*detection \\[hw_tags\\] a0 = alloc_pages\\(0, GFP_KERNEL\\|__GFP_ZERO\\).*handed out through a match-all pointer.*page allocations \\(alloc_pages with the caller's gfp\\) are tagged here.*Kernel functions involved: post_alloc_hook\\(\\), should_skip_init\\(\\), should_skip_kasan_unpoison\\(\\).*Reproduce.*Verdict: 1 finding the series introduces, in the one hunk")
tree_reproduce(review_tree_skip_unpoison_on_zero 1 "${SKIP_UNPOISON_ZERO_WANT}" skip_unpoison_on_zero_6_12.patch)
tree_reproduce(review_tree_skip_unpoison_on_zero_broken_reproducer 1 "${SKIP_UNPOISON_ZERO_WANT}" skip_unpoison_on_zero_6_12.patch -DBREAK=1)
set_tests_properties(cli.review_tree_skip_unpoison_on_zero_broken_reproducer PROPERTIES WILL_FAIL TRUE)
# ... and its twin that only says !! (and "No functional change", wrapped across a line): no finding
tree_reproduce(review_tree_skip_unpoison_bool 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*the series says \"no functional change\".*in should_skip_kasan_unpoison: changes.*Verdict: no finding the series introduces" skip_unpoison_bool_6_12.patch)
# A reviewer's broken patch the tree review cannot check yet (twentieth session): it sets the page
# tag of the head page only in __kasan_unpoison_pages(), which the model has as a hand primitive
# (kasan_unpoison_pages) and does not read from the tree. Every hunk is read, and the reply says it
# is not checked, and why, with exit 5: never "no finding" for a change it did not read.
tree_test(review_tree_unpoison_pages_head_only 5 "0 of 2 hunks checked on tree:6\\.12\\.[0-9]+.*in __kasan_unpoison_pages: changes.*primitive kasan_unpoison_pages.*does not read from the tree yet.*the site table reads none from this file"
          review ${PD}/unpoison_pages_head_only_6_12.patch --map-only --out ${PO}/tree-unpoison-head-only)
# a reviewer's broken patch on 6.12 ("based on v6.12"): post_alloc_hook no longer resets the page
# tags when KASAN does not tag the pages; read from the tree before and after, the findings sit
# under the hunk and replay with their Reproduce line. The no-false-positive trace shown is the
# sampled-out page that keeps the tag of its last owner (what "kasan: reset page tags properly
# with sampling" fixed): as few events as the MTE user page the corpus finds, and no checks.
tree_test(review_tree_post_alloc_no_tag_reset 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*Tried tree:6\\.1\\.[0-9]+: not taken: 0 of 1.*in post_alloc_hook: changes post_alloc_hook, read from the tree before and after the series.*no-false-positive \\[hw_tags\\].*kasan.page_alloc.sample=.*free_pages\\(old\\).*Pointer tag: \\[f[0-9a-f]\\], memory tag: \\[fe\\].*Reproduce.*tagproof run --variant-file .*no-false-positive.hw_tags.litmus.*page-tag-consistency \\[hw_tags\\].*Verdict: 2 findings the series introduces, in the one hunk"
          review ${PD}/post_alloc_no_tag_reset_6_12.patch --out ${PO}/tree-post-alloc-no-reset)
# A reviewer's "no functional change" patch on 6.12's post_alloc_hook: kernel_init_pages()
# moved into the branch where kasan_unpoison_pages() ran, so a page KASAN skips
# (GFP_HIGHUSER_MOVABLE carries __GFP_SKIP_KASAN in 6.12: every user page without VM_MTE)
# is handed out unzeroed. Both hunks read from the tree; the explorer's one-event trace,
# its caller's rule and its Reproduce line (which the review replays).
tree_test(review_tree_post_alloc_init_with_unpoison 1 "2 of 2 hunks checked on tree:6\\.12\\.[0-9]+.*in post_alloc_hook: changes post_alloc_hook, read from the tree before and after the series.*zeroing \\[hw_tags\\].*a0 = alloc_pages\\(0, GFP_HIGHUSER_MOVABLE\\|__GFP_ZERO\\).*page[ \n]+allocations[ \n]+\\(alloc_pages[ \n]+with[ \n]+the[ \n]+caller's[ \n]+gfp\\)[ \n]+must[ \n]+be[ \n]+zeroed.*post_alloc_hook\\(\\),[ \n]+should_skip_init\\(\\).*Reproduce.*tagproof run --variant-file .*zeroing.hw_tags.litmus.*Verdict: 2 findings the series introduces"
          review ${PD}/post_alloc_init_with_unpoison_6_12.patch --out ${PO}/tree-post-alloc-init-with-unpoison)
# ... and its twin, which calls kernel_init_pages() in that branch and after it as well
# (zeroing twice, the same bytes): the same function read and checked, no finding
tree_test(review_tree_post_alloc_init_with_unpoison_kept 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in post_alloc_hook: changes post_alloc_hook.*Verdict: no finding the series introduces"
          review ${PD}/post_alloc_init_with_unpoison_kept_6_12.patch --out ${PO}/tree-post-alloc-init-kept)
# A reviewer's broken patch on 6.12's should_skip_kasan_poison(): "take either rule in every
# mode" skips poisoning of every freed page under Generic (every page's tag is the match-all
# one there). The function read from the tree before and after; the finding is KUnit's
# kmalloc_large_uaf under Generic, its path through the page allocator named (the large
# kmalloc's free reaches should_skip_kasan_poison()) and Generic's shadow check; Reproduce runs.
tree_test(review_tree_skip_poison_unified 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in should_skip_kasan_poison: changes[ \n]+should_skip_kasan_poison, read from the tree before and after the[ \n]+series.*detection \\[generic\\].*p = kmalloc\\(8202\\).*kfree\\(p\\).*read\\(p, 1\\).*Kernel functions involved:.*free_large_kmalloc\\(\\),.*should_skip_kasan_poison\\(\\),.*the shadow check.*Reproduce.*tagproof run --variant-file .*detection.generic.litmus.*Verdict: 1 finding the series introduces"
          review ${PD}/skip_poison_unified_6_12.patch --out ${PO}/tree-skip-poison-unified)
# ... and its twin, one conditional expression keeping each mode's rule: no finding
tree_test(review_tree_skip_poison_unified_kept 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in should_skip_kasan_poison: changes.*Verdict: no finding the series introduces"
          review ${PD}/skip_poison_unified_kept_6_12.patch --out ${PO}/tree-skip-poison-unified-kept)
# A reviewer's patches on 6.12's kasan_sample_page_alloc() counter, which the model reads from the
# tree (its test on what this_cpu_dec_return() returned, a long compared signed, and its reset
# value; tree/lift_kasan_parts.cpp): "tag when the counter reaches zero" (<= 0) tags every N-1th
# eligible allocation, a reset to the interval itself every N+1th; each is a sampling-accounting
# finding under its hunk. Their twin writes the same test as `+ 1 <= 0`: no finding.
tree_test(review_tree_sample_counter_off_by_one 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in[ \n]+kasan_sample_page_alloc: changes kasan_sample_page_alloc, read from[ \n]+the tree.*rule sample_wrapped\\(left\\) = left <= 0.*sampling-accounting[ \n]+\\[hw_tags\\].*eligible[ \n]+allocation #2 on CPU 0 was tagged.*Kernel functions involved:[^\n]*kasan_sample_page_alloc\\(\\).*Reproduce.*Verdict: 2 findings the series introduces"
          review ${PD}/sample_counter_off_by_one_6_12.patch --out ${PO}/tree-sample-counter-off-by-one)
tree_test(review_tree_sample_reset_interval 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*rule sample_reset = kasan_page_alloc_sample\\).*sampling-accounting[ \n]+\\[hw_tags\\].*Found by: +solver, obligation sampling-accounting/bmc.*was[ \n]+not[ \n]+tagged.*Verdict: 2 findings the series introduces"
          review ${PD}/sample_reset_interval_6_12.patch --out ${PO}/tree-sample-reset-interval)
tree_test(review_tree_sample_counter_kept 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*rule sample_wrapped\\(left\\) = left \\+ 1 <= 0.*Verdict: no finding the series introduces"
          review ${PD}/sample_counter_kept_6_12.patch --out ${PO}/tree-sample-counter-kept)
# free_pages_prepare()'s KASAN part read from the tree (tree/lift_free_parts.cpp): a reviewer's
# patch that drops `if (kasan_has_integrated_init())` before `init = false` leaves Generic and
# SW_TAGS pages unzeroed at free under init_on_free=1 (a zeroing finding); its twin passes init to
# kernel_init_pages() instead of kasan_poison_pages() (slower, the same pages zeroed): no finding.
tree_test(review_tree_free_init_dropped 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in[ \n]+free_pages_prepare: changes free_pages_prepare, read from the tree.*rule[ \n]+free_init_after_poison\\(init\\) = false.*zeroing \\[sw_tags\\].*init_on_free=1.*free_pages\\(.*Kernel functions involved:.*kasan_poison_pages\\(\\).*The same finding in generic.*Verdict: 1 finding the series introduces"
          review ${PD}/free_init_dropped_6_12.patch --out ${PO}/tree-free-init-dropped)
tree_test(review_tree_free_init_moved 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*rule[ \n]+free_poison_init\\(init\\) = false.*Verdict: no finding the series introduces"
          review ${PD}/free_init_moved_6_12.patch --out ${PO}/tree-free-init-moved)
# __kasan_poison_pages()'s init read from the tree (tree/lift_free_parts.cpp): a reviewer's patch
# that poisons freed pages without init ("free_pages_prepare() clears them anyway", which it does
# not where KASAN initialises memory itself) leaves HW_TAGS pages unzeroed at free under
# init_on_free=1 (a zeroing finding); its twin returns early for highmem instead (the call moves,
# its init does not): no finding.
tree_test(review_tree_poison_pages_no_init 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in[ \n]+__kasan_poison_pages: changes __kasan_poison_pages, read from the tree.*rule[ \n]+kasan_poison_pages_init\\(init\\) = false.*zeroing \\[hw_tags\\].*init_on_free=1.*Verdict: 1 finding the series introduces"
          review ${PD}/poison_pages_no_init_6_12.patch --out ${PO}/tree-poison-pages-no-init)
tree_test(review_tree_poison_pages_early_return 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in[ \n]+__kasan_poison_pages: changes.*rule[ \n]+kasan_poison_pages_init, which reads the same after the[ \n]+series.*Verdict: no finding the series introduces"
          review ${PD}/poison_pages_early_return_6_12.patch --out ${PO}/tree-poison-pages-early-return)
# HW_TAGS' __kasan_unpoison_vmalloc read from the tree (tree/lift_vmalloc_unpoison.cpp): a reviewer's
# patch that stops clearing the area with kasan.vmalloc=off ("the page allocator has initialised it":
# it has not, its pages were allocated with __GFP_SKIP_ZERO) and deletes init_vmalloc_pages() leaves
# vzalloc() memory stale (a zeroing finding under kasan.vmalloc=off); one that clears it always: no
# finding; one that tags without init (object and redzone) leaves a vmapped stack stale (zeroing).
tree_reproduce(review_tree_unpoison_vmalloc_off_no_init 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*rule[ \n]+unpoison_vmalloc_off_init\\(init\\) = false.*deletes[ \n]+init_vmalloc_pages.*zeroing \\[hw_tags\\].*kasan\\.vmalloc=off.*vzalloc.*Verdict: 1 finding the series introduces" unpoison_vmalloc_off_no_init_6_12.patch)
# the same bug as v6.1.0 had it before 6c2f761dad78 ("kasan: fix zeroing vmalloc memory with
# HW_TAGS"): early returns "simplified" back to that shape, the return outside vmalloc space set
# aside (every area of the model is inside it): both hunks read, the same finding
tree_reproduce(review_tree_unpoison_vmalloc_early_returns 1 "2 of 2 hunks checked on tree:6\\.12\\.[0-9]+.*rule[ \n]+unpoison_vmalloc_off_init\\(init\\) = false.*zeroing \\[hw_tags\\].*vzalloc.*kasan\\.vmalloc=off.*Verdict: 1 finding the series introduces, in both hunks" unpoison_vmalloc_early_returns_6_12.patch)
tree_test(review_tree_unpoison_vmalloc_off_always_clear 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*rule[ \n]+unpoison_vmalloc_off_init\\(init\\) = true.*Verdict: no finding the series introduces"
          review ${PD}/unpoison_vmalloc_off_always_clear_6_12.patch --out ${PO}/tree-unpoison-vmalloc-off-always-clear)
tree_reproduce(review_tree_unpoison_vmalloc_no_init 1 "2 of 2 hunks checked on tree:6\\.12\\.[0-9]+.*rule[ \n]+unpoison_vmalloc_init\\(init\\) = false.*zeroing \\[hw_tags\\].*Verdict: 1 finding the series introduces" unpoison_vmalloc_no_init_6_12.patch)
# ... and one that drops the "don't tag executable memory" return ("MTE checks data accesses only"):
# module text and JIT images get a tagged pointer, a tagged PC (requirements.hpp match_all_required,
# the corpus's vmalloc_exec_untagged): a no-false-positive finding at the allocation
tree_reproduce(review_tree_unpoison_vmalloc_tag_exec 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*rule[ \n]+unpoison_vmalloc_tags\\(vm_alloc, prot_normal\\) = !\\(! vm_alloc\\).*no-false-positive \\[hw_tags\\] x = vmalloc_exec\\([0-9]+(, GFP_KERNEL)?\\): executable memory handed out through a tagged pointer.*Found by: (solver|corpus).*does not tolerate a tagged PC.*Verdict: 1 finding the series introduces, in the one hunk" unpoison_vmalloc_tag_exec_6_12.patch)
# (its rule as a variant file: review.file.unpoison_vmalloc_merge_returns, tests/CMakeLists.txt)
# ... and one that folds the two early returns into one test with && ("both do the same"): read as
# !(! vm_alloc && ! prot_normal), executable VM_ALLOC areas are tagged (and vmap aliases too:
# vmap()'s faults before it is mapped; vm_map_ram()'s page tags change, its memory tags do not)
tree_reproduce(review_tree_unpoison_vmalloc_merge_returns 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*unpoison_vmalloc_tags\\(vm_alloc, prot_normal\\) = !\\(! vm_alloc && ! prot_normal\\).*no-false-positive \\[hw_tags\\] x = vmalloc_exec\\([0-9]+(, GFP_KERNEL)?\\): executable memory handed out through a tagged pointer.*Also broken by the series: a0 = vmap\\(g\\): the kernel faults tagging an[ \n]+area not mapped yet.*Verdict: 2 findings the series introduces, in the one hunk" unpoison_vmalloc_merge_returns_6_12.patch)
# assign_tag() read from the tree (tree/lift_slab_parts.cpp): a reviewer's patch that reuses the
# object's tag for plain caches leaves kmalloc objects KASAN_TAG_KERNEL (a detection finding); one
# that draws a fresh tag for SLAB_TYPESAFE_BY_RCU caches too faults an RCU reader's stale pointer
# after the slot is reused (a no-false-positive finding, the reason the kernel keeps their tags).
tree_test(review_tree_assign_tag_reuse 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in assign_tag: changes assign_tag, read[ \n]+from the tree.*detection \\[hw_tags\\].*match-all pointer.*Verdict: 1 finding the series introduces"
          review ${PD}/assign_tag_reuse_6_12.patch --out ${PO}/tree-assign-tag-reuse)
tree_test(review_tree_assign_tag_fresh_ctor 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*no-false-positive.*kmem_cache_create\\([0-9]+, rcu\\).*kmem_cache_free.*RCU-readable.*Verdict: 1 finding the series introduces"
          review ${PD}/assign_tag_fresh_ctor_6_12.patch --out ${PO}/tree-assign-tag-fresh-ctor)
# whether a freed slab object is poisoned, read from the tree (poison_slab_object,
# tree/lift_slab_parts.cpp): a reviewer's patch that poisons SLAB_TYPESAFE_BY_RCU objects at
# kmem_cache_free() too is a no-false-positive finding (an RCU reader's access faults within
# the grace period); the same test moved onto the kasan_poison() call is none (its control)
tree_test(review_tree_slab_free_poison_rcu 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in poison_slab_object: changes[ \n]+poison_slab_object.*slab_free_poisons\\(still_accessible\\) =[ \n]+kasan_enabled\\).*no-false-positive.*kmem_cache_create\\([0-9]+, rcu\\).*kmem_cache_free\\(c, o\\).*Verdict: 1 finding the series introduces"
          review ${PD}/slab_free_poison_rcu_6_12.patch --out ${PO}/tree-slab-free-poison-rcu)
tree_test(review_tree_slab_free_poison_guarded 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in poison_slab_object: changes.*Verdict: no finding the series introduces"
          review ${PD}/slab_free_poison_guarded_6_12.patch --out ${PO}/tree-slab-free-poison-guarded)
# slab_free_hook()'s still_accessible, read from the tree: without `&& !after_rcu_delay` the free
# made after the grace period (CONFIG_SLUB_RCU_DEBUG) finds the object still accessible and never
# poisons it: a detection finding, KUnit's kmem_cache_rcu_uaf no longer caught; the conjuncts
# swapped are none (the control)
tree_test(review_tree_slab_free_rcu_delay_dropped 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*slab_free_still_accessible\\(typesafe_by_rcu, after_rcu_delay\\) =[ \n]+typesafe_by_rcu.*detection \\[hw_tags\\].*kmem_cache_create\\([0-9]+, rcu\\).*free deferred to after the RCU grace period.*kmem_cache_rcu_uaf: Always 1/1 reports=1 -> Never.*Verdict: 1 finding the series introduces"
          review ${PD}/slab_free_rcu_delay_dropped_6_12.patch --out ${PO}/tree-slab-free-rcu-delay-dropped)
tree_test(review_tree_slab_free_rcu_delay_swapped 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in slab_free_hook: changes.*Verdict: no finding the series introduces"
          review ${PD}/slab_free_rcu_delay_swapped_6_12.patch --out ${PO}/tree-slab-free-rcu-delay-swapped)
# the init of an allocated object's kasan_unpoison(), read from the tree (unpoison_slab_object):
# unpoisoning with init false is a zeroing finding under HW_TAGS (slab_post_alloc_hook leaves the
# zeroing to KASAN there); `init && kasan_enabled()` is none (the control)
tree_test(review_tree_slab_alloc_no_kasan_init 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*slab_alloc_kasan_init\\(init\\) = false.*zeroing \\[hw_tags\\].*kmalloc\\(128, GFP_KERNEL\\|__GFP_ZERO\\).*stale data.*Verdict: 1 finding the series introduces"
          review ${PD}/slab_alloc_no_kasan_init_6_12.patch --out ${PO}/tree-slab-alloc-no-kasan-init)
tree_test(review_tree_slab_alloc_kasan_init_enabled 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in unpoison_slab_object: changes.*Verdict: no finding the series introduces"
          review ${PD}/slab_alloc_kasan_init_enabled_6_12.patch --out ${PO}/tree-slab-alloc-kasan-init-enabled)
# slab_post_alloc_hook()'s memset read from 6.12's mm/slub.c: a reviewer's patch that skips it
# whenever KASAN was asked to initialise leaves kzalloc() objects unzeroed where KASAN cannot
# initialise them (SW_TAGS, Generic, HW_TAGS off at boot): zeroing findings; its De Morgan twin
# (the same condition) no finding.
tree_test(review_tree_slab_memset_kasan_init 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in[ \n]+slab_post_alloc_hook: changes slab_post_alloc_hook, read from the tree.*zeroing \\[sw_tags\\].*kmalloc\\([0-9]+, GFP_KERNEL\\|__GFP_ZERO\\).*stale data.*Verdict: 2 findings the series introduces"
          review ${PD}/slab_memset_kasan_init_6_12.patch --out ${PO}/tree-slab-memset-kasan-init)
tree_test(review_tree_slab_memset_same 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*slab_memset_init\\(init\\) = true[ \n]+&& init.*Verdict: no finding the series introduces"
          review ${PD}/slab_memset_same_6_12.patch --out ${PO}/tree-slab-memset-same)
# ... and from 6.1's mm/slab.h, where slab_post_alloc_hook was to v6.7 (LiftTarget::old_file):
# the memset skipped whenever KASAN is enabled is a zeroing finding under SW_TAGS and Generic
# (kasan_enabled() there, init not integrated); the same test reordered is none (its control)
tree_test(review_tree_slab_memset_kasan_enabled_6_1 1 "1 of 1 hunk checked on tree:6\\.1\\.[0-9]+.*Tree: mm/slab.h:[0-9]+, in slab_post_alloc_hook: changes.*slab_memset_init\\(init\\) = true && init && ! kasan_enabled.*zeroing \\[sw_tags\\].*kmalloc\\([0-9]+, GFP_KERNEL\\|__GFP_ZERO\\).*Verdict: 1 finding the series introduces"
          review ${PD}/slab_memset_kasan_enabled_6_1.patch --out ${PO}/tree-slab-memset-kasan-enabled-6-1)
tree_test(review_tree_slab_memset_reordered_6_1 0 "1 of 1 hunk checked on tree:6\\.1\\.[0-9]+.*Tree: mm/slab.h:[0-9]+, in slab_post_alloc_hook: changes.*Verdict: no finding the series introduces"
          review ${PD}/slab_memset_reordered_6_1.patch --out ${PO}/tree-slab-memset-reordered-6-1)
# The free path read from the tree: a "no functional change" patch that moves
# should_skip_kasan_poison() after the page flags are cleared (what 487a32ec24be
# did to v6.1) changes the order read from free_pages_prepare, so PG_skip_kasan_poison
# is never seen; both hunks are checked and the findings are the ones v6.1.0 had.
# Its twin renames the variable: the order read is the same, nothing is checked (exit 4).
tree_test(review_tree_free_skip_poison_late 1 "2 of 2 hunks checked on tree:6\\.1\\.[0-9]+.*of free_pages_prepare the model reads whether it calls should_skip_kasan_poison\\(\\) before.*which the series changes.*page-tag-consistency \\[hw_tags\\].*poisoned at free.*mode-isolation \\[hw_tags\\].*linux63_skip_poison_honoured.*Verdict: 2 findings the series introduces"
          review ${PD}/free_skip_poison_late_6_1.patch --out ${PO}/tree-free-skip-late)
tree_test(review_tree_free_skip_poison_rename 4 "0 of 2 hunks checked on tree:6\\.1\\.[0-9]+.*free_pages_prepare, which the model reads from the tree, but only whether it calls should_skip_kasan_poison"
          review ${PD}/free_skip_poison_rename_6_1.patch --out ${PO}/tree-free-skip-rename)
# its verdicts, cell by cell, are sample-v3's as posted (issue 31's acceptance); the zeroing
# cells differ in the baselines alone: 6.1.192's __do_krealloc zeroes the spare part (the v6.11
# fix, in 6.1.y; read from the tree), linux-6.3's does not (a recorded defect), and neither side
# introduces it
add_test(NAME cli.review_tree_seed002_as_sample_v3
         COMMAND ${CMAKE_COMMAND} -DTAGPROOF=$<TARGET_FILE:tagproof> -DPATCH=${PD}/seeds/002_sample_v3.txt
                 -DVARIANT=sample-v3 -DBASELINE_DIFFERS=zeroing -DOUT=${PO}/tree-seed002-cells
                 -DALL=${CMAKE_CURRENT_BINARY_DIR}/review-all -DPATCH_JSON=${PO}/tree-seed002.json
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/compare_cells.cmake)
# sample-v3's cells are review.all's (its fixture); the patch review is kept for the control below
set_tests_properties(cli.review_tree_seed002_as_sample_v3 PROPERTIES SKIP_REGULAR_EXPRESSION "no kernel tree is installed"
                     PASS_REGULAR_EXPRESSION "30 cells agree with sample-v3" LABELS "unit;tree"
                     FIXTURES_REQUIRED review_all_out)
# the comparison's negative control: the same review against linux-6.1, which lacks the defect
add_test(NAME cli.review_tree_seed002_not_as_linux61
         COMMAND ${CMAKE_COMMAND} -DTAGPROOF=$<TARGET_FILE:tagproof> -DPATCH=${PD}/seeds/002_sample_v3.txt
                 -DVARIANT=linux-6.1 -DEXPECT_DIFFER=1 -DOUT=${PO}/tree-seed002-cells-61
                 -DALL=${CMAKE_CURRENT_BINARY_DIR}/review-all -DPATCH_JSON=${PO}/tree-seed002.json
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/compare_cells.cmake)
set_tests_properties(cli.review_tree_seed002_not_as_linux61 PROPERTIES SKIP_REGULAR_EXPRESSION "no kernel tree is installed"
                     PASS_REGULAR_EXPRESSION "no-false-positive\\[hw_tags\\]: the patch violated=ON introduced=ON, linux-6.1 violated=OFF"
                     LABELS "unit;tree" FIXTURES_REQUIRED review_all_out DEPENDS cli.review_tree_seed002_as_sample_v3)
# seed 000 was written on v7.0-rc1: both trees lack code it changes, so the hand era linux-7.0 is used
tree_test(review_tree_seed000_refused 0 "Tree: none taken.*Tried tree:6\\.1\\.[0-9]+: refused: 4 of 8 hunks.*lacks the code.*mm/vmalloc.c hunk 1.*Tried tree:6\\.12[.0-9]*: refused.*on linux-7.0"
          review ${PD}/seeds/000_anjum_v2.txt --map-only --out ${PO}/tree-seed000)
# seed 003 alone: taken on 6.1 (its Date, November 2022), where __GFP_KASAN_SAMPLE is not defined
tree_test(review_tree_seed003_alone 4 "0 of 2 hunks checked on tree:6\\.1\\.[0-9]+.*mail dated 2022-11-26.*linux-6.1 defines no such GFP flag.*sample-v2-1.variant is one"
          review ${PD}/seeds/003_sample_v2_2of2.txt --map-only --out ${PO}/tree-seed003)
# a reviewer's broken patch on 6.1 (dated December 2022, the lines the real sampling series
# changes): the high-order frag refill skips unpoisoning, so skb frag pages lose their tags
tree_test(review_tree_skb_skip_unpoison 1 "1 of 1 hunk checked on tree:6\\.1\\.[0-9]+.*mail dated 2022-12-06.*in skb_page_frag_refill: changes skb_page_frag_refill, read from the tree before and after the series.*rules skb_frag_gfp, skb_frag_fallback_gfp[ \n]+\\(after the[ \n]+series: rule skb_frag_gfp = .*__GFP_SKIP_KASAN_UNPOISON\\), which[ \n]+the series changes.*detection \\[hw_tags\\].*skb frag pages \\(skb_page_frag_refill, alloc_skb_with_frags\\) are tagged here.*Reproduce.*tagproof run --variant-file.*detection.hw_tags.litmus.*Verdict: 1 finding the series introduces, in the one hunk"
          review ${PD}/skb_frag_skip_unpoison_6_1.patch --out ${PO}/tree-skb-skip-unpoison)
# A developer drops __GFP_ZERO from the vmap stack's __vmalloc_node_range() call ("a fresh
# vmalloc area is never read before it is written"; written for this review, fifteenth session):
# the gfp is read from the patched kernel/fork.c into GFP_VMAP_STACK and every mode's stack is
# left holding stale data. The solver's counterexample (zeroing/vmap_stack) is never a kept proof.
tree_test(review_tree_vmap_stack_no_zero 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in alloc_thread_stack_node: changes.*rule[ \n]+GFP_VMAP_STACK[ \n]+=[ \n]+THREADINFO_GFP[ \n]+&[ \n]+~[ \n]+\\([ \n]+__GFP_ACCOUNT[ \n]+\\|[ \n]+__GFP_ZERO[ \n]+\\).*zeroing \\[hw_tags\\].*stack_alloc\\(\\): memory its caller needs zeroed is not zeroed.*alloc_thread_stack_node\\(\\).*Reproduce.*zeroing\\.hw_tags\\.litmus.*zeroing \\[sw_tags\\].*zeroing \\[generic\\].*Verdict: 3 findings the series introduces, in the one hunk"
          review ${PD}/vmap_stack_no_zero_6_12.patch --out ${PO}/tree-vmap-stack-no-zero)
# alloc_thread_stack_node read from the tree in part (tree/lift_parts.cpp): a cached stack
# unpoisoned only without HW tags (seed 000's 2/3, written for 6.12) is checked and clean: HW tags
# never check the stack, which goes through a match-all pointer; the same line gated on
# kasan_enabled() (broken on purpose) leaves Generic's stack shadow poisoned: its control
tree_test(review_tree_cached_stack_hw_tags 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*alloc_thread_stack_node \\(kernel/fork.c:[0-9]+; in part.*in alloc_thread_stack_node: changes.*rules GFP_VMAP_STACK, cached_stack_unpoison[ \n]+\\(after the[ \n]+series: rule cached_stack_unpoison = [^)]*\\)*, which[ \n]+the series changes.*Verdict: no finding the series introduces"
          review ${PD}/cached_stack_hw_tags_no_unpoison_6_12.patch --out ${PO}/tree-cached-stack-hw)
tree_test(review_tree_cached_stack_kasan_enabled 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*no-false-positive \\[generic\\].*live thread stack.*Verdict: 1 finding the series introduces, in the one hunk"
          review ${PD}/cached_stack_no_reset_with_kasan_6_12.patch --out ${PO}/tree-cached-stack-kasan)
# (and the tree's baseline has no zeroing [generic] / [sw_tags] of linux-7.0's huge zero folio:
# 6.12.118 allocates it without __GFP_ZEROTAGS, read from the tree as a feature line)
# __vmalloc_node_range's KASAN part read from the tree (tree/lift_parts.cpp read_vmalloc_kasan):
# seed 000's 1/3 carried to 6.12 (a local skip_kasan, read as its initializer) is checked and
# clean: no 6.12 caller passes __GFP_SKIP_KASAN to vmalloc; KASAN_VMALLOC_INIT made to test
# __GFP_ZERO instead of want_init_on_alloc() (broken on purpose) leaves a plain vmalloc() with
# init_on_alloc=1 unzeroed under HW tags (its pages are allocated __GFP_SKIP_ZERO): its control
tree_test(review_tree_vmalloc_skip_kasan_local 0 "2 of 2 hunks checked on tree:6\\.12\\.[0-9]+.*__vmalloc_node_range \\(mm/vmalloc.c:[0-9]+; in part.*in __vmalloc_node_range_noprof: changes.*vmalloc_tagged_prot, vmalloc_page_skip_flags.*which the series changes.*so not this series' doing:[^.]*zeroing \\[hw_tags\\],[ \n]+page-tag-consistency.*Verdict: no finding the series introduces"
          review ${PD}/vmalloc_skip_kasan_local_6_12.patch --out ${PO}/tree-vmalloc-skip-local)
tree_test(review_tree_vmalloc_init_only_vzalloc 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*KASAN_VMALLOC_INIT.*\\(after the[ \n]+series: rule vmalloc_init\\(gfp, gfp_mask\\) = [^)]*want_init_on_free[ \n]+\\([ \n]+\\)[ \n]+&&[ \n]+\\([ \n]+gfp_mask[ \n]+&[ \n]+__GFP_ZERO[ \n]+\\).*zeroing \\[hw_tags\\][ \n]+[a-z0-9]+ = vmalloc\\(.*init_on_alloc=1.*Verdict: 1 finding the series introduces, in the one hunk"
          review ${PD}/vmalloc_init_only_vzalloc_6_12.patch --out ${PO}/tree-vmalloc-init)
# __kasan_vrealloc read in part (tree/lift_kasan_parts.cpp): dropping KASAN_VMALLOC_KEEP_TAG from
# the grow in place (undoing 007f5da43b3d, broken on purpose) gives the grown part a tag the
# returned pointer does not carry: the caller's own access faults under HW_TAGS and SW_TAGS,
# found from the code; its twin lists the same flags in another order, which reads the same
# KASAN_VMALLOC_VM_ALLOC dropped from __vmalloc_node_range ("redundant"): HW_TAGS'
# __kasan_unpoison_vmalloc() then returns before tagging or zeroing, so vmalloc
# areas go out match-all and vmap stacks unzeroed; the read flag is the rule.
# Its twin moves the statement: the same rule, no finding.
tree_test(review_tree_vmalloc_no_vm_alloc_flag 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in __vmalloc_node_range_noprof: changes.*\\(after the[ \n]+series: rule vmalloc_vm_alloc\\(gfp, gfp_mask\\) = false\\).*detection \\[hw_tags\\].*vmalloc\\(8192\\): handed out through a match-all pointer.*zeroing \\[hw_tags\\].*stack_alloc\\(\\).*alloc_thread_stack_node\\(\\).*Reproduce.*tagproof run --variant-file .*zeroing.hw_tags.litmus.*Verdict: 3 findings the series introduces, in the one hunk"
          review ${PD}/vmalloc_no_vm_alloc_flag_6_12.patch --out ${PO}/tree-vmalloc-no-vm-alloc)
tree_test(review_tree_vmalloc_vm_alloc_flag_moved 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in __vmalloc_node_range_noprof: changes.*which reads the same[ \n]+after the series \\(its text changes, no rule of it does\\).*Verdict: no finding the series introduces"
          review ${PD}/vmalloc_vm_alloc_flag_moved_6_12.patch --out ${PO}/tree-vmalloc-vm-alloc-moved)
tree_test(review_tree_vrealloc_grow_new_tag 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in __kasan_vrealloc: changes.*\\(after the series: rule[ \n]+vrealloc_grow_keep_tag = false\\).*no-false-positive[ \n]+\\[hw_tags\\][ \n]+read\\(v2 \\+ [0-9]+, 1\\): the owner's own access faults.*no-false-positive[ \n]+\\[sw_tags\\].*Verdict: 2 findings the series introduces, in the one hunk"
          review ${PD}/vrealloc_grow_new_tag_6_12.patch --out ${PO}/tree-vrealloc-new-tag)
tree_test(review_tree_vrealloc_grow_flags_reordered 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in __kasan_vrealloc: changes.*which reads the same[ \n]+after the series \\(its text changes, no rule of it does\\).*Verdict: no finding the series introduces"
          review ${PD}/vrealloc_grow_flags_reordered_6_12.patch --out ${PO}/tree-vrealloc-reordered)
# poison_kmalloc_redzone read in part: a "no functional change" patch that starts the redzone at
# round_down(object + size, KASAN_GRANULE_SIZE) poisons the object's own last bytes: a valid read
# faults in every mode, found under the hunk's rule; its twin folds the same rounding onto one
# line and reads the same
tree_test(review_tree_kmalloc_redzone_round_down 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in poison_kmalloc_redzone: changes.*after[ \n]+the[ \n]+series:[ \n]+rule[ \n]+kmalloc_redzone_start\\(size\\)[ \n]+=[ \n]+round_down\\(size,[ \n]+KASAN_GRANULE_SIZE\\).*no-false-positive[ \n]+\\[hw_tags\\].*the owner's own access faults.*no-false-positive[ \n]+\\[generic\\].*Verdict: [0-9]+ findings the series introduces, in the one hunk"
          review ${PD}/kmalloc_redzone_round_down_6_12.patch --out ${PO}/tree-kmalloc-redzone-down)
# the same rounding in a large kmalloc's redzone (poison_kmalloc_large_redzone, rule
# kmalloc_large_redzone_start): krealloc() of a large object to 8393 bytes, its last byte written
# by its owner, faults in every mode (a no-false-positive finding)
tree_reproduce(review_tree_kmalloc_large_redzone_round_down 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in poison_kmalloc_large_redzone: changes.*rule[ \n]+kmalloc_large_redzone_start\\(size\\)[ \n]+=[ \n]+round_down\\(size,[ \n]+KASAN_GRANULE_SIZE\\).*no-false-positive[ \n]+\\[hw_tags\\].*the owner's own access faults.*Verdict: 1 finding the series introduces" kmalloc_large_redzone_round_down_6_12.patch)
tree_test(review_tree_kmalloc_redzone_one_line 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in poison_kmalloc_redzone: changes.*rule[ \n]+kmalloc_redzone_start,[ \n]+which[ \n]+reads[ \n]+the[ \n]+same[ \n]+after[ \n]+the[ \n]+series.*Verdict: no finding the series introduces"
          review ${PD}/kmalloc_redzone_one_line_6_12.patch --out ${PO}/tree-kmalloc-redzone-one-line)
# vrealloc()'s shrink zeroing read in part (rule vrealloc_shrink_zeroes, the `if`s around its
# memset): a patch that zeroes the shrunk tail only for init_on_free hands a __GFP_ZERO caller's
# grow the owner's bytes (found by the solver's zeroing/vrealloc_shrink, tied to the hunk by the
# rule its replay ran, not under "Findings not tied to one hunk"; the corpus's
# vrealloc_shrink_grow_zeroed and the solver's zeroing/vrealloc_shrink both break); so does
# dropping the memset;
# the twin tests the same two conditions in the other order, proved the same
tree_test(review_tree_vrealloc_shrink_init_on_free_only 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in vrealloc_noprof: changes.*\\(after the series: rule[ \n]+vrealloc_shrink_zeroes\\(gfp\\)[ \n]+=[ \n]+\\(want_init_on_free[ \n]+\\([ \n]+\\)\\)\\).*the[ \n]+rest[ \n]+of[ \n]+vrealloc_noprof[ \n]+is[ \n]+not[ \n]+read\\. \\[Severity: high.*zeroing \\[hw_tags\\].*grown in place by vrealloc\\(\\)[ \n]+holds a secret.*Verdict: 1 finding the series introduces \\(3 counting each KASAN mode\\),[ \n]+in the one hunk"
          review ${PD}/vrealloc_shrink_init_on_free_only_6_12.patch --out ${PO}/tree-vrealloc-shrink-free-only)
tree_test(review_tree_vrealloc_shrink_no_zero 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*\\(after the series: rule[ \n]+vrealloc_shrink_zeroes\\(gfp\\)[ \n]+=[ \n]+false\\).*zeroing \\[hw_tags\\].*Verdict: 1 finding the series introduces.*in the one hunk"
          review ${PD}/vrealloc_shrink_no_zero_6_12.patch --out ${PO}/tree-vrealloc-shrink-no-zero)
tree_test(review_tree_vrealloc_shrink_zero_reordered 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*\\(after the series: rule[ \n]+vrealloc_shrink_zeroes\\(gfp\\)[ \n]+=[ \n]+\\(want_init_on_alloc.*Verdict: no finding the series introduces"
          review ${PD}/vrealloc_shrink_zero_reordered_6_12.patch --out ${PO}/tree-vrealloc-shrink-reordered)
# add_element read in part: a reserve refilled whatever kasan_poison_element() found (pre-v6.8)
# breaks no invariant (the bad free is reported either way), and the reply shows what moved, the
# corpus file that tells the two apart, within the claim of a mail that says what it does; the
# same change in a mail that claims no functional change is a mode-isolation finding (the control)
tree_test(review_tree_mempool_keep_bad_element 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in add_element: changes.*\\(after the series: rule mempool_keep_bad_element = true\\).*What the series changes against tree-6\\.12\\.[0-9]+, within what it is taken[ \n]+to claim \\(above\\), so no finding:[ \n]+corpus \\[hw_tags\\] linux64_mempool_kmalloc_bad_free_kept.*Verdict: no finding the series introduces"
          review ${PD}/mempool_keep_bad_element_6_12.patch --out ${PO}/tree-mempool-keep)
tree_test(review_tree_mempool_no_change_claimed 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*mode-isolation \\[hw_tags\\].*linux64_mempool_kmalloc_bad_free_kept.*mempool_free: the element is added to the reserve anyway.*Verdict: 2 findings the series introduces"
          review ${PD}/mempool_add_element_no_change_claimed_6_12.patch --out ${PO}/tree-mempool-no-change)
# the page-table allocators read in part (include/asm-generic/pgalloc.h, parsed as its includer
# sees it): __pte_alloc_one_kernel's own allocation losing __GFP_ZERO leaves kernel page tables
# stale, found from the code and tied to the hunk, and no other table: user PTE tables and
# arm64's pgds (pgd_alloc() names GFP_PGTABLE_USER, which the call does not change) stay zeroed;
# its twin rewrites GFP_PGTABLE_KERNEL in another order, read by the site table and the code
# alike, no finding
tree_test_shun(review_tree_pte_kernel_no_zero 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in[ \n]+__pte_alloc_one_kernel_noprof: changes.*\\(after the series: rule[ \n]+pte_alloc_one_kernel_gfp = .*__GFP_ZERO \\)\\).*zeroing \\[hw_tags\\][ \n]+t[0-9]+ = pgtable_alloc\\(kernel\\).*Verdict: [0-9]+ findings the series introduces, in the one hunk"
          "pgtable_alloc\\((user|pgd_slab)\\)( cpu=[0-9]+)?: memory its caller needs"
          review ${PD}/pte_kernel_no_zero_6_12.patch --out ${PO}/tree-pte-no-zero)
# its twin for user PTE tables (pte_alloc_one_noprof's argument without __GFP_ZERO): the finding
# under the hunk names the caller and the rule, and its Reproduce line replays it; no finding on
# kernel page tables or pgds, which the call does not reach
tree_test_shun(review_tree_pte_user_no_zero 1 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in[ \n]+pte_alloc_one_noprof: changes.*\\(after the series: rule[ \n]+pte_alloc_one_gfp = .*__GFP_ZERO\\).*zeroing \\[hw_tags\\][ \n]+w[0-9]+ = pgtable_alloc\\(user\\).*user page tables[ \n]+\\(pagetable_alloc,[ \n]+GFP_PGTABLE_USER\\)[ \n]+must[ \n]+be[ \n]+zeroed.*Reproduce.*tagproof run --variant-file .*zeroing.hw_tags.litmus.*Verdict: [0-9]+ findings the series introduces, in the one hunk"
          "pgtable_alloc\\((kernel|pgd_slab)\\)( cpu=[0-9]+)?: memory its caller needs"
          review ${PD}/pte_user_no_zero_6_12.patch --out ${PO}/tree-pte-user-no-zero)
tree_test(review_tree_pgtable_kernel_reordered 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*Verdict: no finding the series introduces"
          review ${PD}/pgtable_kernel_reordered_6_12.patch --out ${PO}/tree-pgtable-reordered)
# a changed #define evaluated by the tree's preprocessor before and after (issue 31 item 4): the
# same value is no semantic change, checked; a new value of a constant the model has by hand (the
# GFP layout) is named, not checked (the control)
tree_test(review_tree_gfp_kernel_reordered 0 "1 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*in GFP_KERNEL: no semantic change:[ \n]+the tree's preprocessor gives GFP_KERNEL = 0xcc0 before and after.*Verdict: no semantic change: the one hunk reads the same"
          review ${PD}/gfp_kernel_reordered_6_12.patch --out ${PO}/tree-gfp-reordered)
tree_test(review_tree_gfp_kernel_zero 4 "0 of 1 hunk checked on tree:6\\.12\\.[0-9]+.*the tree's preprocessor: GFP_KERNEL 0xcc0 -> 0xdc0"
          review ${PD}/gfp_kernel_zero_6_12.patch --map-only --out ${PO}/tree-gfp-zero)
# issue 31 item 2: a hunk that finds no place is merged 3-way from the blob its index line names,
# where the tree is a git checkout holding it (a made-up tree and file); its control, the same
# tree without .git, fails the hunk and says why
find_program(GIT_EXE git)
if(GIT_EXE)
  add_test(NAME cli.review_tree_three_way COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/three_way_apply.sh $<TARGET_FILE:tagproof>
                                                  ${CMAKE_CURRENT_BINARY_DIR}/three-way)
  set_tests_properties(cli.review_tree_three_way PROPERTIES LABELS unit)
endif()
