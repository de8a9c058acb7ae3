// boot.cpp — the release of boot memory to the page allocator.
//
// mm/mm_init.c memblock_free_pages() hands every free memblock range to
// __free_pages_core(), which frees it through free_pages_prepare() like any
// page: what KASAN does to it is the era's should_skip_kasan_poison() on a
// page whose flags were never written (page_kasan_tag() of a zero field: the
// variant's page_kasan_tag rule), with the era's FPI flags
// (boot_release_fpi_skip_kasan_poison). With CONFIG_DEFERRED_STRUCT_PAGE_INIT
// the upper half of RAM is released by deferred_init_memmap() while
// deferred_pages_enabled() is still true. The KFENCE pool is memblock memory
// never released. pfn 0 is released like the rest (the model only never hands
// it out), so an access just below the first page sees freed memory.
//
// free_pages_prepare() decides on its inputs alone (the era's rules are
// functions of the environment and the page's state), so each distinct input
// is decided once: a lifted should_skip_kasan_poison() is interpreted, and
// boot releases every page of RAM in every scenario.
#include <map>
#include <tuple>

#include "model.hpp"

namespace tagproof::spec {

void Model::release_boot_memory() {
    const std::uint64_t deferred_from = cfg_.build.deferred_struct_page_init ? pages_.size() / 2 : pages_.size();
    std::map<std::tuple<bool, std::uint64_t>, kernel::FreePlan<kernel::Concrete>> decided;
    for (std::uint64_t pfn = 0; pfn < pages_.size(); ++pfn) {
        if (pages_[pfn].kfence_pool) continue;
        const bool deferred = pfn >= deferred_from;
        const std::uint64_t tag = page_kasan_tag(pfn);
        auto it = decided.find({deferred, tag});
        if (it == decided.end()) {
            kernel::CEnv e = env_;
            e.deferred_pages = deferred;
            kernel::FreeInput<kernel::Concrete> in;
            in.page_tag = tag;
            in.pg_skip_kasan_poison = false;
            in.fpi_skip_kasan_poison = v_.boot_release_fpi_skip_kasan_poison(e);
            it = decided.emplace(std::tuple{deferred, tag}, v_.free_pages_prepare(e, in)).first;
        }
        const auto& plan = it->second;
        if (plan.poison) {
            kasan_poison(linear(pfn), PAGE_SIZE, shadow_poison(KASAN_PAGE_FREE_GENERIC), plan.poison_init);
            tag_by_.fill(gidx(pfn, 0), gidx(pfn + 1, 0), TAG_BY_BOOT);
        }
        if (plan.kernel_init || plan.poison_init) set_page_data_pfn(pfn, 1, DATA_ZERO);
    }
}

}  // namespace tagproof::spec
