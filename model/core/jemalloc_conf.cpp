// jemalloc_conf.cpp — jemalloc's options, compiled into each executable that
// links jemalloc (CMakeLists.txt tagproof_use_jemalloc; jemalloc reads the
// global `malloc_conf` of the program at its first allocation).
//
// Why jemalloc: the explorer copies and frees a Model per transition and the
// corpus builds one per run; glibc's malloc, free and consolidation were a
// quarter of a review's explorer time (perf, fifteenth session), and with
// Debian's jemalloc a mutant review takes 0.85x the user time.
//
// Why these options: Z3 builds and frees hundreds of MB of terms per
// obligation. With jemalloc's default decay, freed pages went back to the
// kernel and every obligation faulted them in again (`tagproof prove` 0.40 s
// of system time against 0.04 s); cli/main.cpp's mallopt() calls do the
// same for glibc's heap when jemalloc is not linked. Never purging keeps the
// peak resident, as that mallopt() does.
//
// Why thp: a review's heap is touched fresh a page at a time (the explorer's
// states, the corpus's runs), and on a virtual machine each first touch is a
// costly fault: 30,800 minor faults in a tree review, a fifth of its time
// (perf: exc_page_fault under memmove and Model::Model). With jemalloc's
// arenas and metadata madvised for transparent huge pages (the kernel's
// "madvise" mode, Debian's default, is enough) the same review takes 2,300
// faults and 0.86x the wall time, a mutant's review 0.70x, for 10 % more
// resident memory (twenty-fifth session, 8 alternate runs of each with the
// suite's caches full, `/usr/bin/time -f "%e %U %S %R" tagproof review
// tests/patches/slab_free_poison_rcu_6_12.patch` and `... review --variant
// mutant-skip-drops-zero`, against MALLOC_CONF=thp:default,
// metadata_thp:disabled). Where the kernel has THP off the option is a no-op.
extern "C" {
// NOLINTNEXTLINE: the name is jemalloc's
const char* malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1,thp:always,metadata_thp:always";
}
