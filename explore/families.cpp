// families.cpp — see families.hpp.
#include "families.hpp"

#include "boot_params.hpp"

namespace tagproof::explore {

namespace {
// A kind that returns a page (one slot).
AllocKind page_kind(const char* stem, const char* alloc, const char* free, std::uint64_t size, bool per_cpu) {
    AllocKind k{stem, alloc, free, size, 1, per_cpu};
    k.page = true;
    return k;
}
}  // namespace

std::vector<Family> families(const kernel::Variant& v) {
    BuildConfig hw;
    const GfpLayout L = v.gfp_layout(hw);
    const kernel::Features& f = v.features();
    std::vector<Family> out;

    {
        // the page allocator beyond the BMC's instance: orders, zeroing and
        // the skip flag, split and compound blocks share the free lists
        Family p{"pages", "alloc_pages of order 0 and 1, with and without __GFP_ZERO / __GFP_SKIP_KASAN; kmalloc "
                           "above the largest slab (kmalloc_large)",
                 12};
        p.kinds.push_back(page_kind("p", "alloc_pages(0, GFP_KERNEL)", "free_pages(%)", 4096, true));
        p.kinds.push_back(page_kind("q", "alloc_pages(1, GFP_KERNEL|__GFP_ZERO)", "free_pages(%)", 8192, true));
        if (L.defines("__GFP_SKIP_KASAN"))
            p.kinds.push_back(
                page_kind("s", "alloc_pages(0, GFP_KERNEL|__GFP_ZERO|__GFP_SKIP_KASAN)", "free_pages(%)", 4096, true));
        // kmalloc above KMALLOC_MAX_CACHE_SIZE: straight from the page allocator
        p.kinds.push_back({"l", "kmalloc(12288)", "kfree(%)", 12288, 1, false, true});
        out.push_back(p);
    }
    {
        Family s{"slab", "kmalloc / kzalloc / krealloc / kfree (double frees too)", 16};
        // 24 bytes: the object ends inside a granule, whose last bytes are read too
        AllocKind k{"k", "kmalloc(24)", "kfree(%)", 24, 2, false, true};
        k.realloc = "krealloc(%, 96)";
        k.realloc_size = 96;
        s.kinds.push_back(k);
        s.kinds.push_back({"z", "kzalloc(48)", "kfree(%)", 48, 1, false, true});
        s.review_depth = 3;
        out.push_back(s);
    }
    {
        // One object resized in place both ways with __GFP_ZERO, its bytes
        // written whole: krealloc's promise for the bytes a grow gives back
        // (before v6.11 a shrink kept the owner's bytes past the new size). A
        // family of its own: beside the slab family's kinds it would be
        // millions of states before the four events that matter.
        Family r{"krealloc", "kzalloc / krealloc in place, shrunk then grown, with __GFP_ZERO", 16};
        AllocKind k{"r", "kzalloc(64)", "kfree(%)", 64, 1, false, false, false};
        k.touch = "write(%, 64)";
        k.shrink = "krealloc(%, 32, GFP_KERNEL|__GFP_ZERO)";
        k.shrink_size = 32;
        k.realloc = "krealloc(%, 64, GFP_KERNEL|__GFP_ZERO)";
        k.realloc_size = 64;
        r.kinds.push_back(k);
        r.review_depth = 4;
        out.push_back(r);
    }
    // One cache a family: the tags a cache fixes at slab creation are a choice
    // per object (four 1024-byte objects to a slab), and two such slabs side by
    // side are thousands of states before the first event that matters.
    {
        Family c{"kmem_cache", "kmem_cache_alloc / kmem_cache_free of a cache with a constructor (tags fixed per slot)",
                 16};
        c.setup = {"c = kmem_cache_create(1024, ctor)"};
        c.kinds.push_back({"o", "kmem_cache_alloc(c)", "kmem_cache_free(c, %)", 1024, 2});
        out.push_back(c);
    }
    {
        Family c{"kmem_cache_rcu", "kmem_cache_alloc / kmem_cache_free of a SLAB_TYPESAFE_BY_RCU cache (tags fixed "
                                   "per slot, the free deferred to a grace period), rcu_barrier()",
                 16};
        if (f.slub_rcu_debug) c.config.push_back("slub_rcu_debug=y");
        c.setup = {"r = kmem_cache_create(1024, rcu)"};
        c.kinds.push_back({"t", "kmem_cache_alloc(r)", "kmem_cache_free(r, %)", 1024, 2});
        c.globals = {"rcu_barrier()"};
        out.push_back(c);
        // Where the era has CONFIG_SLUB_RCU_DEBUG the family above runs with it; HW_TAGS
        // defaults it off (mm/Kconfig.debug), and then a freed slot is handed out again at
        // once while an RCU reader may still read it through its old pointer, type-safe and
        // legal: the path a change to the slab tags of these caches must keep (issue 34 item 2)
        if (f.slub_rcu_debug) {
            Family n{"kmem_cache_rcu_reuse", "the same SLAB_TYPESAFE_BY_RCU cache without CONFIG_SLUB_RCU_DEBUG: a "
                                             "freed slot reused at once, its old pointer still read",
                     16};
            n.config.push_back("slub_rcu_debug=n");
            n.setup = c.setup;
            n.kinds = c.kinds;
            out.push_back(n);
        }
    }
    {
        Family m{"vmalloc", "vmalloc / vzalloc / __vmalloc(size, gfp) / vrealloc / vfree, vmalloc_huge, vmap / vunmap "
                            "of a page allocation",
                 40};
        m.setup = {"g = alloc_pages(1, GFP_KERNEL)", "gp = page_address(g)"};
        // 3000-odd bytes: the page's tail past the object is poisoned, so an access
        // past it is a tag check (a page multiple would reach the guard page)
        AllocKind k{"v", "vmalloc(3004)", "vfree(%)", 3004, 2};
        // grown within its page: vrealloc in place, where its KASAN calls are
        // (3004 is a multiple of no granule, Generic's 8 bytes nor the tag
        // modes' 16: the call before v6.19 WARNs in every mode, the corpus's
        // vrealloc_v615_unaligned_warns)
        if (f.vrealloc) {
            k.realloc = "vrealloc(%, 3500)";
            k.realloc_size = 3500;
        }
        m.kinds.push_back(k);
        m.kinds.push_back({"z", "vzalloc(3000)", "vfree(%)", 3000, 1});
        // __vmalloc(size, gfp): the caller's flags through vmalloc_fix_flags()
        m.kinds.push_back({"w", "vmalloc(3000, GFP_KERNEL|__GFP_ZERO)", "vfree(%)", 3000, 1});
        m.kinds.push_back({"h", "vmalloc_huge(65536)", "vfree(%)", 65536, 1});
        m.kinds.push_back({"a", "vmap(g)", "vunmap(%)", 8192, 1});
        m.globals = {"read(gp, 1)", "write(gp, 1)"};  // the mapped pages' owner, through its own pointer
        m.review_depth = 3;
        out.push_back(m);
    }
    if (f.vrealloc) {
        // Two pages resized in place: shrunk into the first page, grown back
        // within it, then read in the second page. HW_TAGS poisons nothing at
        // a shrink (__kasan_poison_vmalloc is empty there) and a grow only to
        // the new size's page end (__kasan_unpoison_vmalloc's in-page
        // redzone), so the second page keeps the area's tag. A family of its
        // own for the same reason as krealloc's: the three resizes come
        // before the read that matters.
        Family r{"vrealloc", "vmalloc of two pages / vrealloc in place, shrunk into its first page, grown, "
                             "its second page read",
                 40};
        AllocKind k{"v", "vmalloc(8192)", "vfree(%)", 8192, 1};
        k.shrink = "vrealloc(%, 100)";
        k.shrink_size = 100;
        k.realloc = "vrealloc(%, 200)";
        k.realloc_size = 200;
        k.touch = "read(% + 5000, 1)";
        r.kinds.push_back(k);
        r.review_depth = 4;
        out.push_back(r);
    }
    if (f.vrealloc) {
        // A zeroed area its owner fills, shrunk then grown in place with
        // __GFP_ZERO on every call: the bytes the grow hands back are the ones
        // the shrink gave up, zero only if the shrink zeroed them (the
        // variant's vrealloc_shrink_zeroes; the corpus's
        // vrealloc_shrink_grow_zeroed). A family of its own, as krealloc's: the
        // four events that matter come before any access.
        Family z{"vrealloc_zero", "vzalloc / write / vrealloc in place, shrunk then grown, with __GFP_ZERO", 16};
        AllocKind k{"z", "vzalloc(8192)", "vfree(%)", 8192, 1, false, false, false};
        k.touch = "write(%, 8192)";
        k.shrink = "vrealloc(%, 100, GFP_KERNEL|__GFP_ZERO)";
        k.shrink_size = 100;
        k.realloc = "vrealloc(%, 200, GFP_KERNEL|__GFP_ZERO)";
        k.realloc_size = 200;
        z.kinds.push_back(k);
        z.review_depth = 4;
        out.push_back(z);
    }
    if (f.vrealloc) {
        // A huge area (2 MiB blocks on arm64) grown in place by vrealloc():
        // past the pages that held the requested bytes, the last block is what
        // its previous owner left unless something zeroes it (the corpus's
        // vmalloc_huge_vrealloc_grow_stale and _in_page, both run in 6.12.118
        // under QEMU MTE). 1600 pages: two 2 MiB-aligned blocks (pfn 0 is never
        // handed out, so they are pfns 512..1535) and a few for the rest.
        Family h{"vmalloc_huge", "vmalloc_huge of just over 2 MiB with __GFP_ZERO, grown in place by vrealloc",
                 1600};
        AllocKind k{"h", "vmalloc_huge(2167152, GFP_KERNEL|__GFP_ZERO)", "vfree(%)", 2167152, 1};
        k.realloc = "vrealloc(%, 2197152, GFP_KERNEL|__GFP_ZERO)";
        k.realloc_size = 2197152;
        h.kinds.push_back(k);
        h.review_depth = 2;
        h.review_other_boots = false;  // init_on_free zeroes the block at free; the rest add nothing here
        h.walked = false;
        out.push_back(h);
    }
    {
        Family t{"stacks", "alloc_thread_stack_node / free on either CPU: the per-CPU cache (hit and miss) and "
                           "the RCU-delayed free",
                 48};
        t.kinds.push_back({"s", "stack_alloc()", "stack_free(%)", 16384, 2, true});
        t.globals = {"rcu_barrier()"};
        out.push_back(t);
        // without CONFIG_VMAP_STACK: THREADINFO_GFP pages from the page allocator
        Family n = t;
        n.name = "stacks_novmap";
        n.doc = "alloc_thread_stack_node / free without CONFIG_VMAP_STACK: THREADINFO_GFP pages";
        n.config = {"vmap_stack=n"};
        out.push_back(n);
    }
    {
        Family u{"user", "page tables (kernel, user, pgd_cache), user pages with and without VM_MTE and their "
                         "tags, munmap, the huge zero folio",
                 16};
        u.kinds.push_back({"t", "pgtable_alloc(kernel)", "pgtable_free(%)", 4096, 1});
        u.kinds.push_back({"w", "pgtable_alloc(user)", "pgtable_free(%)", 4096, 1});
        u.kinds.push_back({"d", "pgtable_alloc(pgd_slab)", "pgtable_free(%)", 512, 1});
        AllocKind m = page_kind("u", "user_fault(mte)", "munmap(%)", 4096, false);
        m.touch = "user_set_tag(%, 0, 3)";
        u.kinds.push_back(m);
        u.kinds.push_back(page_kind("n", "user_fault()", "munmap(%)", 4096, false));
        u.kinds.push_back(page_kind("f", "huge_zero_folio(1)", "", 8192, false));
        u.review_depth = 3;
        out.push_back(u);
    }
    {
        // A page the kernel frees and user space faults in next: what it
        // inherits (page tag, memory tags, data) is the kernel allocation's
        // (the corpus's linux63_zerotags_page_tag_reset, sample_v3_zerotags_
        // stale_page_tag). The user family has kernel page tables for it, at
        // one more event than its depth; two kinds here reach it at depth 4.
        Family r{"page_reuse", "a kernel page freed, then faulted in by user space with and without VM_MTE", 8};
        r.kinds.push_back(page_kind("k", "alloc_pages(0, GFP_KERNEL)", "free_pages(%)", 4096, false));
        AllocKind m = page_kind("u", "user_fault(mte)", "munmap(%)", 4096, false);
        m.touch = "user_set_tag(%, 0, 3)";
        r.kinds.push_back(m);
        r.kinds.push_back(page_kind("n", "user_fault()", "munmap(%)", 4096, false));
        r.review_depth = 4;
        out.push_back(r);
    }
    {
        // 40-byte elements: a kmalloc-64 slot and a cache slot wider than the
        // element, so an overflow inside the slot is an access the hooks must catch
        Family p{"mempool", "mempools of kmalloc, kmem_cache and page elements: the reserve and the allocator behind it",
                 16};
        p.setup = {"mk = mempool_create(kmalloc, 40, 1)", "ms = mempool_create(slab, 40, 1)",
                   "mp = mempool_create(pages, 1, 1)"};  // order 1: the sample.order=1 boot samples it
        p.kinds.push_back({"e", "mempool_alloc(mk)", "mempool_free(mk, %)", 40, 1});
        p.kinds.push_back({"c", "mempool_alloc(ms)", "mempool_free(ms, %)", 40, 1});
        p.kinds.push_back({"p", "mempool_alloc(mp)", "mempool_free(mp, %)", 8192, 1});
        p.review_depth = 3;
        out.push_back(p);
    }
    {
        Family k{"skb", "skb_page_frag_refill (order 3, else 0) and alloc_skb_with_frags, freed by put_page", 40};
        k.kinds.push_back(page_kind("f", "skb_alloc()", "free_pages(%)", 32768, true));
        k.kinds.push_back({"b", "alloc_skb_with_frags(8192, 1)", "kfree_skb(%)", 0, 1, true, false, false});
        // a caller that asks for zeroed frags: the promise is the caller's gfp
        k.kinds.push_back({"c", "alloc_skb_with_frags(8192, 1, GFP_KERNEL|__GFP_ZERO)", "kfree_skb(%)", 0, 1, true, false, false});
        out.push_back(k);
        // seven pages: no order-3 block exists, so skb_page_frag_refill always
        // takes its order-0 fallback
        Family b{"skb_fallback", "skb_page_frag_refill when no order-3 block is free: the order-0 fallback", 8};
        b.kinds.push_back(page_kind("f", "skb_alloc()", "free_pages(%)", 4096, true));
        out.push_back(b);
    }
    {
        Family k{"kfence", "kmalloc through kfence_alloc (the KFENCE pool of 2 objects) next to plain kmalloc", 16};
        k.config.push_back("kfence=y");
        k.kinds.push_back({"f", "kfence_kmalloc(32)", "kfree(%)", 32, 2, false, true});
        k.kinds.push_back({"k", "kmalloc(32)", "kfree(%)", 32, 1});
        out.push_back(k);
    }
    return out;
}

std::string BootConfig::name() const {
    if (!mte) return boot.empty() ? "no MTE" : boot + ", no MTE";
    return boot.empty() ? "default boot" : boot;
}

std::vector<BootConfig> boot_product(const kernel::Variant& v, bool check_modes, Mode mode) {
    if (mode != Mode::hw_tags) {
        std::vector<BootConfig> out;
        for (bool mte : {true, false})
            for (const char* b : {"", "init_on_alloc=1", "init_on_free=1"}) out.push_back({b, mte});
        return out;
    }
    const BootParamSyntax syn = v.boot_syntax();
    std::vector<std::string> boots = {"", "init_on_alloc=1", "init_on_free=1", "kasan.vmalloc=off", "kasan=off"};
    if (syn.page_alloc_sample) boots.push_back("kasan.page_alloc.sample=2");
    if (syn.page_alloc_sample && syn.page_alloc_sample_order)
        boots.push_back("kasan.page_alloc.sample=2 kasan.page_alloc.sample.order=1");
    if (syn.write_only) boots.push_back("kasan.write_only=on");
    if (check_modes) {
        boots.push_back("kasan.mode=async");
        boots.push_back("kasan.mode=asymm");
    }
    std::vector<BootConfig> out;
    for (const auto& b : boots) out.push_back({b, true});
    out.push_back({"", false});
    return out;
}

}  // namespace tagproof::explore
