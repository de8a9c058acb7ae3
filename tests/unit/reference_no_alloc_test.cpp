// The reference's hot path does not allocate: after two warm-up iterations of
// a workload (caches, slabs, vm-area records and freelists have their
// capacity), fifty more iterations call operator new at most once — for the
// workload driver's own table of handles. Counted by replacing the global
// operator new in this test binary.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "boot_params.hpp"
#include "ref_kernel.hpp"
#include "variant.hpp"
#include "workloads.hpp"

namespace {
std::atomic<std::uint64_t> g_news{0};
}

void* operator new(std::size_t n) {
    ++g_news;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
// The operator new above allocates with malloc, so free is its match; GCC
// pairs free with the library's operator new it assumes and warns.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

using namespace tagproof;
using namespace tagproof::reference;

namespace {

class NoAlloc : public ::testing::TestWithParam<const char*> {};

TEST_P(NoAlloc, AfterWarmUp) {
    const WorkloadInfo& w = find_workload(GetParam());
    const auto& v = kernel::find_variant(w.baseline);
    RefConfig c;
    c.pages = workload_pages(w);
    c.boot = parse_boot_params_strict(w.baseline_boot, "test", v.boot_syntax());
    XorshiftTags tags;
    RefKernel k(v, c, tags);
    run_workload(w, k, 2);  // both CPUs
    const std::uint64_t before = g_news.load();
    run_workload(w, k, 50);
    EXPECT_LE(g_news.load() - before, 1u) << GetParam();
    EXPECT_GT(k.cost().tag_instructions(), 0u);  // the loop did tag
}

INSTANTIATE_TEST_SUITE_P(Workloads, NoAlloc, ::testing::Values("thread-creation", "fork", "loopback"),
                         [](const auto& info) {
                             std::string n = info.param;
                             for (char& ch : n)
                                 if (ch == '-') ch = '_';
                             return n;
                         });

}  // namespace
