// workloads.hpp — the seeds' benchmarks as event streams for the reference,
// so `tagproof cost` can put the tagging work a patch removes beside the time
// its commit message measured (issue 5):
//
//   thread-creation  anjum series: a process creates N threads, 2000 x 2000
//                    (alloc_thread_stack_node / free_thread_stack with the
//                    per-CPU stack cache). Measured: 2.575 s -> 2.229 s (13.4 %).
//   fork             anjum series, pgtable mode: 2048 MB mapped and faulted,
//                    then fork + exit 2000 times; each fork copies the page
//                    tables (pgd, pud, pmd and one PTE page per 2 MB, from
//                    GFP_PGTABLE_USER) and gives the child a stack.
//                    Measured: 19.08 s -> 17.62 s (7.6 %).
//   loopback         page_alloc sampling: data over loopback, each 32 KiB of
//                    it in an order-3 skb frag page (SKB_FRAG_PAGE_ORDER),
//                    written by the sender and read by the receiver through
//                    page_address(), with eight sk_buff heads (kmalloc-256)
//                    a frag. Measured: HW_TAGS slowdown ~50 % with sample=1,
//                    ~20 % with sample=10.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ref_kernel.hpp"

namespace tagproof::reference {

struct WorkloadInfo {
    std::string name;
    std::string what;         // one line
    std::uint64_t iterations; // the seed benchmark's count
    std::string measured;     // what the seed's commit message reports
    // ... as numbers: seconds before / after (a speed-up), or the KASAN
    // slowdown in per cent before / after (slowdown == true)
    double seed_before = 0, seed_after = 0;
    bool slowdown = false;
    // The seed's pair: variant / boot, baseline / boot.
    std::string variant, variant_boot, baseline, baseline_boot;
};
const std::vector<WorkloadInfo>& workloads();
const WorkloadInfo& find_workload(const std::string& name);  // InputError naming the choices

// Runs `iterations` iterations of the workload on k (a fresh kernel with
// enough pages: workload_pages()).
void run_workload(const WorkloadInfo& w, RefKernel& k, std::uint64_t iterations);
std::uint64_t workload_pages(const WorkloadInfo& w);

}  // namespace tagproof::reference
