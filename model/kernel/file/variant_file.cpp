// variant_file.cpp — what a variant file may name (the overridable rules, the
// boot parameters, the predicates) and the variants a read file makes:
// file_rules over the base era, with the file's name, claims and overrides,
// evaluated by the era's rules where the file does not override them. Reading
// the file is variant_file_read.cpp's.
#include "variant_file.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <sstream>

#include "error.hpp"
#include "expr_reader.hpp"
#include "body_reader.hpp"
#include "file_rules.hpp"

namespace tagproof::kernel {

using detail::ExprParser;
using detail::join;

namespace {
// Where the kernel decides what each overridable rule stands for.
const char* rule_site(const std::string& n) {
    static const std::map<std::string, const char*> w = {
        {"THREADINFO_GFP", "include/linux/thread_info.h"},
        {"GFP_VMAP_STACK", "kernel/fork.c"},
        {"GFP_PGTABLE_KERNEL", "include/asm-generic/pgalloc.h"},
        {"GFP_PGTABLE_USER", "include/asm-generic/pgalloc.h (GFP_PGTABLE_KERNEL | __GFP_ACCOUNT)"},
        {"pte_alloc_one_kernel_gfp", "include/asm-generic/pgalloc.h __pte_alloc_one_kernel (its page allocation's gfp)"},
        {"pte_alloc_one_gfp", "include/asm-generic/pgalloc.h pte_alloc_one (the gfp it gives __pte_alloc_one)"},
        {"GFP_VMALLOC_SUPPORTED", "mm/vmalloc.c"},
        {"skb_frag_gfp", "net/core/sock.c skb_page_frag_refill (the order-3 attempt)"},
        {"skb_frag_fallback_gfp", "net/core/sock.c skb_page_frag_refill (the order-0 fallback)"},
        {"vmalloc_page_skip_flags", "mm/vmalloc.c __vmalloc_node_range (the backing pages' skip flags)"},
        {"cached_stack_unpoison", "kernel/fork.c alloc_thread_stack_node: kasan_unpoison_range() on a cached stack"},
        {"kfence_enabled", "mm/kfence/core.c kfence_init: the KFENCE pool is kept at boot"},
        {"free_reads_skip_flag",
         "mm/page_alloc.c free_pages_prepare: should_skip_kasan_poison() is called before the page flags are cleared"},
        {"mempool_check_page_frees",
         "mm/kasan/common.c __kasan_mempool_poison_pages: check_page_allocation() reports an invalid or double free"},
        {"mempool_skip_untagged_pages",
         "mm/kasan/common.c __kasan_mempool_poison_pages: a page whose tag is KASAN_TAG_KERNEL is not poisoned"},
        {"mempool_keep_bad_element",
         "mm/mempool.c: add_element() whatever kasan_poison_element() found (no `if (kasan_poison_element(...))`)"},
        {"mempool_unpoison_whole_slot",
         "mm/mempool.c kasan_unpoison_element: kasan_unpoison_range(element, __ksize(element)), no redzone"},
        {"vrealloc_granule_aligned",
         "mm/kasan/common.c __kasan_vrealloc: the shrink poisons from round_up(new), the grow unpoisons from round_down(old)"},
        {"vrealloc_grow_vm_alloc", "vrealloc's grow in place passes KASAN_VMALLOC_VM_ALLOC"},
        {"vrealloc_grow_keep_tag", "vrealloc's grow in place passes KASAN_VMALLOC_KEEP_TAG"},
        {"user_page_gfp", "arch/arm64/mm/fault.c vma_alloc_zeroed_movable_folio"},
        {"slab_tag_per_alloc", "mm/kasan/common.c assign_tag: a new random tag at every allocation"},
        {"slab_free_poisons", "mm/kasan/common.c poison_slab_object (____kasan_slab_free to v6.9): kasan_poison(object, "
                              "KASAN_SLAB_FREE) unless still_accessible (SLAB_TYPESAFE_BY_RCU at the free)"},
        {"slab_free_still_accessible", "mm/slub.c slab_free_hook: (s->flags & SLAB_TYPESAFE_BY_RCU) && !after_rcu_delay"},
        {"slab_alloc_kasan_init", "mm/kasan/common.c unpoison_slab_object (__kasan_slab_alloc to v6.7): "
                                  "kasan_unpoison(object, cache->object_size, init)"},
        {"slab_memset_init", "mm/slub.c slab_post_alloc_hook: the memset(0) when init is not integrated into KASAN"},
        {"kmalloc_redzone_start", "mm/kasan/common.c poison_kmalloc_redzone: round_up(size, KASAN_GRANULE_SIZE)"},
        {"kmalloc_large_redzone_start", "mm/kasan/common.c poison_kmalloc_large_redzone (__kasan_kmalloc_large "
                                        "before v6.10): round_up(size, KASAN_GRANULE_SIZE)"},
        {"krealloc_zeroes_spare", "mm/slab_common.c __do_krealloc: in place, memset(p + new_size, 0, ks - new_size)"},
        {"vrealloc_shrink_zeroes", "mm/vmalloc.c vrealloc: a shrink, memset(p + size, 0, old_size - size)"},
        {"alloc_skb_frags_gfp", "net/core/skbuff.c alloc_skb_with_frags"},
        {"skb_frags_order_after_failure", "net/core/skbuff.c alloc_skb_with_frags: the order tried after a failed high-order frag"},
        {"skb_with_frags_fits", "net/core/skbuff.c alloc_skb_with_frags: its -EMSGSIZE test before anything is allocated"},
        {"vmalloc_meta_gfp", "mm/vmalloc.c: the vm_struct's gfp (__get_vm_area_node)"},
        {"vmalloc_skip", "mm/vmalloc.c __vmalloc_node_range: the Anjum series' skip_kasan (0 before it)"},
        {"vmalloc_tagged_prot", "mm/vmalloc.c __vmalloc_node_range: if (kasan_hw_tags_enabled()) in the PAGE_KERNEL branch"},
        {"vmalloc_prot_normal", "mm/vmalloc.c __vmalloc_node_range: kasan_flags |= KASAN_VMALLOC_PROT_NORMAL"},
        {"vmalloc_calls_unpoison", "mm/vmalloc.c __vmalloc_node_range: kasan_unpoison_vmalloc() called"},
        {"vmalloc_init", "mm/vmalloc.c __vmalloc_node_range: kasan_flags |= KASAN_VMALLOC_INIT"},
        {"vmalloc_vm_alloc", "mm/vmalloc.c __vmalloc_node_range: kasan_flags |= KASAN_VMALLOC_VM_ALLOC"},
        {"unpoison_vmalloc_off_init", "mm/kasan/hw_tags.c __kasan_unpoison_vmalloc: with kasan.vmalloc=off, "
                                      "init_vmalloc_pages() clears the pages, `init` being flags & KASAN_VMALLOC_INIT "
                                      "(every era: init)"},
        {"unpoison_vmalloc_tags", "mm/kasan/hw_tags.c __kasan_unpoison_vmalloc: no return before it tags, of "
                                  "flags & KASAN_VMALLOC_VM_ALLOC and flags & KASAN_VMALLOC_PROT_NORMAL (every era: "
                                  "vm_alloc && prot_normal)"},
        {"unpoison_vmalloc_init", "mm/kasan/hw_tags.c __kasan_unpoison_vmalloc: the init of its kasan_unpoison(start, "
                                  "size, ...) and of the redzone's kasan_poison() (every era: init)"},
        {"reset_tags_initially", "mm/page_alloc.c post_alloc_hook: reset_tags' first value"},
        {"zero_tags", "mm/page_alloc.c post_alloc_hook: zero_tags"},
        {"sample_eligible", "mm/kasan/kasan.h kasan_sample_page_alloc: the allocation is counted (v6.3+)"},
        {"free_poison_init", "mm/page_alloc.c free_pages_prepare: the init kasan_poison_pages() is given, "
                             "`init` being want_init_on_free() (every era: init)"},
        {"kasan_poison_pages_init", "mm/kasan/common.c __kasan_poison_pages: the init its kasan_poison(..., "
                                    "KASAN_PAGE_FREE, init) is given, `init` being kasan_poison_pages()'s (every "
                                    "era: init)"},
        {"free_init_after_poison", "mm/page_alloc.c free_pages_prepare: init after the poisoning block "
                                   "(every era: init && !kasan_has_integrated_init())"},
        {"free_kernel_init", "mm/page_alloc.c free_pages_prepare: kernel_init_pages() is called, `init` "
                             "being its value after the poisoning (every era: init)"},
        {"sample_wrapped", "mm/kasan/kasan.h kasan_sample_page_alloc: this_cpu_dec_return() gave `left`, and the "
                           "allocation is tagged and the counter reset (v6.3+: left < 0)"},
        {"sample_reset", "mm/kasan/kasan.h kasan_sample_page_alloc: what this_cpu_write() resets the counter to "
                         "(v6.3+: kasan_page_alloc_sample - 1)"},
        {"want_init_on_alloc", "include/linux/mm.h want_init_on_alloc"},
        {"should_skip_init", "mm/page_alloc.c should_skip_init"},
        {"should_skip_kasan_unpoison", "mm/page_alloc.c should_skip_kasan_unpoison"},
    };
    auto it = w.find(n);
    return it == w.end() ? "" : it->second;
}
}  // namespace

const std::vector<OverridableRule>& overridable_rules() {
    static const std::vector<OverridableRule> r = [] {
        std::vector<OverridableRule> v;
#define TAGPROOF_TABLE0(R, T) v.push_back({#R, {}, std::string(#T) == "Bool", rule_site(#R)});
#define TAGPROOF_TABLE1(R, T, P, PT) v.push_back({#R, {#P}, std::string(#T) == "Bool", rule_site(#R)});
#define TAGPROOF_TABLE2(R, T, P, PT, Q, QT) v.push_back({#R, {#P, #Q}, std::string(#T) == "Bool", rule_site(#R)});
        TAGPROOF_FILE_RULES(TAGPROOF_TABLE0, TAGPROOF_TABLE1, TAGPROOF_TABLE2)
#undef TAGPROOF_TABLE0
#undef TAGPROOF_TABLE1
#undef TAGPROOF_TABLE2
        return v;
    }();
    return r;
}


const std::vector<const char*>& boot_param_names() {
    static const std::vector<const char*> n = {"kasan.page_alloc.sample", "kasan.page_alloc.sample.order",
                                               "kasan.write_only", "kasan.fault=panic_on_write"};
    return n;
}

const std::vector<const char*>& rule_predicates() {
    // include/linux/mm.h want_init_on_free() (the init_on_free static key),
    // include/linux/kasan.h kasan_has_integrated_init() (HW_TAGS on) and
    // mm/page_alloc.c deferred_pages_enabled() (the deferred struct page init
    // static key, on while boot memory is still being released)
    // and mm/kasan/hw_tags.c's two sampling parameters, numbers (the boot's
    // kasan.page_alloc.sample and .order), as kasan_sample_page_alloc() reads them
    static const std::vector<const char*> p = {"kasan_hw_tags_enabled", "kasan_enabled", "kasan_vmalloc_enabled",
                                               "system_supports_mte",   "init_on_alloc", "init_on_free",
                                               "want_init_on_free",     "kasan_has_integrated_init",
                                               "deferred_pages_enabled", "kasan_page_alloc_sample",
                                               "kasan_page_alloc_sample_order"};
    return p;
}


namespace {

template <template <class> class Base>
class FileVariantOf final : public VariantOf<file_rules<Base>> {
public:
    explicit FileVariantOf(VariantFile f) : f_(std::move(f)) {}
    std::string name() const override { return f_.name; }
    std::string baseline() const override { return f_.baseline; }
    std::string summary() const override { return f_.summary; }
    Claims claims() const override { return f_.claims; }
    bool is_mutant() const override { return false; }
    std::string next_version() const override { return f_.next_version; }
    const RuleOverrides* overrides() const override { return &f_.overrides; }
    std::vector<GfpExtraFlag> extra_gfp_flags() const override {
        std::vector<GfpExtraFlag> x = VariantOf<file_rules<Base>>::extra_gfp_flags();
        x.insert(x.end(), f_.extra_flags.begin(), f_.extra_flags.end());
        return x;
    }
    int GFP_BITS_SHIFT(const GfpBits& b) const override {
        if (f_.bits_shift) return int(eval_gfp_bits_shift(*f_.bits_shift, b.build));
        return VariantOf<file_rules<Base>>::GFP_BITS_SHIFT(b);
    }
    BootParamSyntax boot_syntax() const override {
        return f_.boot ? *f_.boot : VariantOf<file_rules<Base>>::boot_syntax();
    }
    Features features() const override { return f_.features ? *f_.features : VariantOf<file_rules<Base>>::features(); }
    const VariantFile& file() const { return f_; }

private:
    VariantFile f_;
};

struct Loaded {
    std::string path;
    std::string base;
    std::string source;
    std::unique_ptr<Variant> v;
};
std::vector<Loaded>& loaded() {
    static std::vector<Loaded> l;
    return l;
}
std::mutex& loaded_lock() {
    static std::mutex m;
    return m;
}

}  // namespace

namespace {
// Called with loaded_lock() held.
const Variant& register_locked(VariantFile f) {
    for (const auto& l : loaded())
        if (l.v->name() == f.name) throw InputError(f.path, "a variant file named '" + f.name + "' is loaded already (" + l.path + ")");
    std::unique_ptr<Variant> v;
    const std::string path = f.path, release = f.release, source = f.source;
#define TAGPROOF_MAKE(N, R) \
    if (!v && release == N) v = std::make_unique<FileVariantOf<R>>(std::move(f));
    TAGPROOF_FILE_BASES(TAGPROOF_MAKE)
#undef TAGPROOF_MAKE
    loaded().push_back({path, release, source, std::move(v)});
    return *loaded().back().v;
}
}  // namespace

const Variant& load_variant_file(const std::string& path) {
    {
        std::lock_guard<std::mutex> g(loaded_lock());
        for (const auto& l : loaded())
            if (l.path == path) return *l.v;
    }
    VariantFile f = read_variant_file(path);
    // the base file is a variant too: the baseline, unless the file names another
    if (!f.base_path.empty()) (void)load_variant_file(f.base_path);
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.path == path) return *l.v;
    return register_locked(std::move(f));
}

const Variant& register_variant_file(VariantFile f) {
    // a struct given as it is may have been changed after it was read: its
    // text is no longer what it means, so nothing is keyed by it
    f.source.clear();
    if (!f.base_path.empty()) (void)load_variant_file(f.base_path);
    std::lock_guard<std::mutex> g(loaded_lock());
    return register_locked(std::move(f));
}

std::string file_variant_base(const std::string& name) {
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.v->name() == name) return l.base;
    return "";
}

std::string variant_file_source(const std::string& name) {
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.v->name() == name) return l.source;
    return "";
}

std::string variant_identity(const std::string& name) {
    try {
        const Variant& v = find_variant(name);
        if (find_file_variant(name) != &v) return "built-in";  // its code is the binary's
        const std::string src = variant_file_source(name);
        return src.empty() ? "" : "file\n" + src;
    } catch (const InputError&) {
        return "";
    }
}

std::string variant_file_path(const std::string& name) {
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.v->name() == name) return std::filesystem::absolute(l.path).lexically_normal().string();
    return "";
}

const Variant* find_file_variant(const std::string& name) {
    std::lock_guard<std::mutex> g(loaded_lock());
    for (const auto& l : loaded())
        if (l.v->name() == name) return l.v.get();
    return nullptr;
}

}  // namespace tagproof::kernel
