# replay_tests.cmake — `tagproof replay` of kmem traces (cli_test from CMakeLists.txt).
# Issue 16: every form the kernel's tools print a kmem line in is replayed; every
# line is counted, replayed or not and why; input that is no trace is exit 2.
# The files in traces/ are also seeds of the ftrace fuzz target.
set(RT ${CMAKE_CURRENT_SOURCE_DIR}/traces)
set(RT_NO_GAPS "frees of memory allocated before the trace 0, allocations over unfreed memory 0, free order mismatches 0")

# each line form: alloc, free, kmalloc, kfree, each matched with its partner
cli_test(replay_form_column0 0
         "events replayed   4 \\(page allocations 1, page frees and drains 1, kmallocs 1, kfrees 1; 0 of them no-ops\\).*${RT_NO_GAPS}.*lines of the trace: 4 read = 4 replayed \\+ 0 not replayed"
         replay ${RT}/column0.trace)
cli_test(replay_form_ftrace 0
         "events replayed   7 .*lines of the trace: 14 read = 7 replayed \\+ 7 not replayed\n  replayed        7: mm_page_alloc 2, mm_page_free 2, kmalloc 1, kfree 2\n.*headers, comments and blank lines 6, other tracepoints 1\n    other tracepoints: sched_switch 1"
         replay ${RT}/small.trace)
cli_test(replay_form_trace_cmd 0
         "events replayed   4 \\(page allocations 1, page frees and drains 1, kmallocs 1, kfrees 1;.*${RT_NO_GAPS}.*2 CPUs.*not replayed    2: headers, comments and blank lines 1, other tracepoints 1"
         replay ${RT}/trace_cmd.trace)
cli_test(replay_form_perf_script 0
         "events replayed   4 \\(page allocations 1, page frees and drains 1, kmallocs 1, kfrees 1;.*${RT_NO_GAPS}.*other tracepoints: sched:sched_switch 1"
         replay ${RT}/perf_script.trace)

# the free tracepoints of every era: a batched free and a drain are never second frees
cli_test(replay_free_events 0
         "${RT_NO_GAPS}, kmalloc out of memory 0, pcp drains of pages whose free was lost 1.*detection: a read through the freed pointer faults in 4 of 4 frees.*replayed        14: mm_page_alloc 6, mm_page_free 2, mm_page_free_direct 1, mm_page_free_batched 2, mm_pagevec_free 1, mm_page_pcpu_drain 2\n    as no-ops     3: batched free of a page freed by its mm_page_free \\(one free, two events\\) 2, mm_page_pcpu_drain of a freed page"
         replay ${RT}/free_events.trace)
# kfree(NULL) in every print form, kmalloc(0) and kfree(ZERO_SIZE_PTR): no-ops, no trace gaps
cli_test(replay_kfree_null 0
         "frees of memory allocated before the trace 0.*as no-ops     7: kfree\\(NULL\\) 5, kfree\\(ZERO_SIZE_PTR\\) 1, kmalloc\\(0\\) 1\n"
         replay ${RT}/kfree_null.trace)
# every line counted by reason, in a file of all forms
cli_test(replay_line_counts 0
         "lost events       the ring buffer dropped 3 events.*lines of the trace: 23 read = 14 replayed \\+ 9 not replayed\n  replayed        14: mm_page_alloc 4, mm_page_free 2, mm_page_free_direct 1, mm_page_free_batched 1, mm_page_pcpu_drain 1, kmalloc 1, kfree 4\n    as no-ops     6: kfree\\(NULL\\) 3, mm_page_alloc that failed \\(page=NULL\\) 1, batched free of a page freed by its mm_page_free \\(one free, two events\\) 1, mm_page_pcpu_drain of a freed page \\(per-CPU list to buddy, not a free\\) 1\n  not replayed    9: headers, comments and blank lines 3, lost-events markers 1, other tracepoints 2, kmem tracepoints the reference does not model 2, text that is no event line 1\n    other tracepoints: sched:sched_wakeup 1, sched_switch 1\n    kmem tracepoints not replayed: kmem_cache_alloc 1, kmem_cache_free 1"
         replay ${RT}/mixed.trace)
cli_test(replay_lenient_counts 0 "not replayed    2: headers, comments and blank lines 1, malformed skipped 1\n    skipped: .*malformed.trace:3: order=zero"
         replay --lenient ${RT}/malformed.trace)
# a trace of other tracepoints only: a trace, 0 kmem events, said first
cli_test(replay_other_tracepoints_only 0 "note: 0 kmem events: .*events replayed   0 .*other tracepoints: sched_switch 2, sched_wakeup 1"
         replay ${RT}/other_only.trace)

# input that is no trace: exit 2, the file named
cli_test(replay_directory 2 "tagproof: error: .*traces: is a directory, not a trace file" replay ${RT})
cli_test(replay_empty 2 "tagproof: error: .*empty.trace: empty file: no trace lines" replay ${RT}/empty.trace)
cli_test(replay_headers_only 2 "headers_only.trace: no trace event lines: 6 lines \\(6 headers or blank, 0 other text\\), none of the form 'TASK-PID \\[CPU\\] TIMESTAMP: EVENT: FIELDS'"
         replay ${RT}/headers_only.trace)
cli_test(replay_random_bytes 2 "random.bin:1: not text: byte 0x02 at column 8 \\(file offset 7\\): a binary file, not a trace"
         replay ${RT}/random.bin)
cli_test(replay_random_bytes_lenient 2 "random.bin: not text: 22 of 25 lines are not text \\(first: line 1: byte 0x02 at column 8"
         replay --lenient ${RT}/random.bin)
# numbers held to what the kernel prints and the reference holds
cli_test(replay_bad_pfn 2 "bad_pfn.trace:2: pfn=0x10000000000: out of range 0..0xffffffffff \\(2\\^40 pages"
         replay ${RT}/bad_pfn.trace)
cli_test(replay_bad_bytes 2 "bad_bytes.trace:1: bytes_alloc=1099511627776: out of range 0..4194304 \\(KMALLOC_MAX_SIZE"
         replay ${RT}/bad_bytes.trace)
