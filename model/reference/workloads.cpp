// workloads.cpp — see workloads.hpp.
#include "workloads.hpp"

#include "error.hpp"

namespace tagproof::reference {

namespace {
constexpr std::uint64_t kThreads = 2000;            // threads per iteration
constexpr std::uint64_t kMappedMB = 2048;           // pgtable mode
constexpr std::uint64_t kFragBytes = 32768;         // one order-3 frag page
constexpr std::uint64_t kHeadsPerFrag = 8;          // sk_buff heads per frag (4 KiB payload each)

void thread_creation(RefKernel& k, std::uint64_t iterations) {
    std::vector<std::uint64_t> stacks(kThreads);
    for (std::uint64_t it = 0; it < iterations; ++it) {
        for (std::uint64_t t = 0; t < kThreads; ++t) stacks[t] = k.stack_alloc(int(t % 2));
        for (std::uint64_t t = 0; t < kThreads; ++t)
            if (stacks[t]) k.stack_free(stacks[t], int(t % 2));
        k.rcu_barrier();  // the grace period: thread_stack_free_rcu() for all but the cached
    }
}

void fork_pgtables(RefKernel& k, std::uint64_t iterations) {
    // 4-level tables, 4 KiB pages: a PTE page maps 2 MiB, a PMD page 1 GiB
    const std::uint64_t ptes = kMappedMB / 2, pmds = (kMappedMB + 1023) / 1024;
    const std::uint64_t n = 2 + pmds + ptes;  // pgd + pud + pmds + ptes
    std::vector<std::uint64_t> tables(n);
    for (std::uint64_t it = 0; it < iterations; ++it) {
        const int cpu = int(it % 2);
        std::uint64_t stack = k.stack_alloc(cpu);  // copy_process: the child's stack
        for (std::uint64_t i = 0; i < n; ++i) tables[i] = k.pgtable_alloc(true, false, cpu);
        // the child exits at once: exit_mmap frees the tables, then the stack
        for (std::uint64_t i = 0; i < n; ++i)
            if (tables[i]) k.pgtable_free(tables[i]);
        if (stack) k.stack_free(stack, cpu);
        k.rcu_barrier();
    }
}

void loopback(RefKernel& k, std::uint64_t iterations) {
    std::uint64_t heads[kHeadsPerFrag];
    const gfp_t atomic = k.gfp_mask("GFP_ATOMIC");  // looked up by name once, not 8 M times
    for (std::uint64_t it = 0; it < iterations; ++it) {
        const int cpu = int(it % 2);
        std::int64_t pfn = k.skb_alloc(cpu);
        if (pfn < 0) continue;
        for (auto& h : heads) h = k.kmalloc(232, atomic, cpu);  // skbuff_head_cache
        const std::uint64_t p = k.page_address(std::uint64_t(pfn));
        k.access(p, kFragBytes, true, cpu);       // the sender copies the payload in
        k.access(p, kFragBytes, false, 1 - cpu);  // the receiver copies it out
        for (auto h : heads) k.kfree(h);
        k.free_pages(std::uint64_t(pfn));
    }
}
}  // namespace

const std::vector<WorkloadInfo>& workloads() {
    static const std::vector<WorkloadInfo> w = {
        {"thread-creation", "2000 threads created and exited, per iteration (kernel stacks)", 2000,
         "2.575 s -> 2.229 s (13.4 % faster), anjum series v4 cover letter", 2.575, 2.229, false, "anjum-v4", "",
         "linux-7.0", ""},
        {"fork", "fork + exit with 2048 MB mapped, per iteration (page tables)", 2000,
         "19.08 s -> 17.62 s (7.6 % faster), anjum series v4 cover letter", 19.08, 17.62, false, "anjum-v4", "",
         "linux-7.0", ""},
        {"loopback", "one order-3 skb frag page of loopback data, per iteration", 1000000,
         "HW_TAGS slowdown ~50 % (sample=1) -> ~20 % (sample=10), page_alloc sampling", 50, 20, true, "sample-v3",
         "kasan.page_alloc.sample=10", "sample-v3", "kasan.page_alloc.sample=1"},
        // The same pair on the tree seed 002 was posted on (v6.1's free path):
        // sampled-out frags are poisoned at free anyway.
        {"loopback-on-6.1", "loopback, seed 002 on its v6.1 base (sampled-out pages poisoned at free)", 1000000,
         "HW_TAGS slowdown ~50 % (sample=1) -> ~20 % (sample=10), page_alloc sampling", 50, 20, true,
         "sample-v3-as-posted", "kasan.page_alloc.sample=10", "sample-v3-as-posted", "kasan.page_alloc.sample=1"},
    };
    return w;
}

const WorkloadInfo& find_workload(const std::string& name) {
    std::string names;
    for (const auto& w : workloads()) {
        if (w.name == name) return w;
        names += (names.empty() ? "" : ", ") + w.name;
    }
    throw InputError("--workload", "unknown workload '" + name + "' (built in: " + names + ")");
}

std::uint64_t workload_pages(const WorkloadInfo& w) {
    if (w.name == "thread-creation") return (kThreads + 16) * 5 + 1024;  // 4 pages a stack
    if (w.name == "fork") return 4096;
    return 1024;
}

void run_workload(const WorkloadInfo& w, RefKernel& k, std::uint64_t iterations) {
    if (w.name == "thread-creation") return thread_creation(k, iterations);
    if (w.name == "fork") return fork_pgtables(k, iterations);
    if (w.name == "loopback" || w.name == "loopback-on-6.1") return loopback(k, iterations);
    throw InputError("--workload", "no driver for workload '" + w.name + "'");
}

}  // namespace tagproof::reference
