// interpreter.cpp — see interpreter.hpp.
#include "interpreter.hpp"

#include <string_view>

#include "calls.hpp"
#include "error.hpp"

namespace tagproof::scenario {

using spec::Ptr;
using namespace std::string_view_literals;

void Interpreter::fail(const std::string& msg) const { throw InputError(where_, msg); }

const Value& Interpreter::var(const std::string& name) const {
    auto it = vars_.find(name);
    if (it == vars_.end()) fail("'" + name + "' is not defined (assign it first: " + name + " = ...)");
    return it->second;
}
Ptr Interpreter::ptr(const Arg& a) const {
    if (a.is_number) fail("expected a pointer, got the number " + a.text);
    const Value& v = var(a.name);
    Ptr p;
    if (v.kind == Value::ptr) p = v.p;
    else if (v.kind == Value::page) p = m_.page_address(v.id);
    else fail("'" + a.name + "' is not a pointer");
    if (p.null) fail("'" + a.name + "' is NULL");
    return m_.offset(p, a.offset);
}
int Interpreter::page(const Arg& a) const {
    const Value& v = var(a.name);
    if (v.kind == Value::page) return v.id;
    if (v.kind == Value::ptr) {
        int id = m_.page_object(m_.offset(v.p, a.offset));
        if (id < 0) fail("'" + a.text + "' does not point at the head of a page allocation");
        return id;
    }
    fail("'" + a.name + "' is not a page");
}
std::uint64_t Interpreter::num(const Arg& a) const {
    if (a.is_number) return a.number;
    const Value& v = var(a.name);
    if (v.kind != Value::number) fail("'" + a.name + "' is not a number");
    return v.n + std::uint64_t(a.offset);
}

std::uint64_t Interpreter::num(const Statement& st, std::size_t i) const {
    const std::uint64_t v = num(st.args.at(i));
    if (const CallSpec* c = find_call(st.call)) check_number(*c, i, v, st.args[i].text, where_);
    return v;
}

void Interpreter::call(const Statement& st) {
    // a string_view beside literals of known length: a name of another
    // length is told apart without reading it (the explorer dispatches every
    // transition through here)
    const std::string_view c = st.call;
    int cpu = st.cpu;
    gfp_t K = m_.gfp().mask("GFP_KERNEL");
    if (c == "alloc_pages"sv) {
        int id = m_.alloc_pages(unsigned(num(st, 0)), st.args.size() > 1 ? gfp(st.args[1]) : K, cpu);
        if (id < 0) fail("alloc_pages failed: the model ran out of pages (config pages=N)");
        set(st, PG(id));
    } else if (c == "free_pages"sv) {
        m_.free_pages(page(st.args[0]));
    } else if (c == "page_address"sv) {
        set(st, P(m_.page_address(page(st.args[0]))));
    } else if (c == "kmalloc"sv || c == "kzalloc"sv) {
        gfp_t g = st.args.size() > 1 ? gfp(st.args[1]) : K;
        if (c == "kzalloc"sv) g |= m_.gfp().mask("__GFP_ZERO");
        set(st, P(m_.kmalloc(num(st, 0), g, cpu)));
    } else if (c == "kfree"sv) {
        m_.kfree(ptr(st.args[0]));
    } else if (c == "krealloc"sv) {
        set(st, P(m_.krealloc(ptr(st.args[0]), num(st, 1), st.args.size() > 2 ? gfp(st.args[2]) : K, cpu)));
    } else if (c == "ksize"sv) {
        set(st, N(m_.ksize(ptr(st.args[0]))));
    } else if (c == "kmem_cache_create"sv) {
        // kmem_cache_create(SIZE[, ctor|rcu]): rcu is SLAB_TYPESAFE_BY_RCU
        const std::string flag = st.args.size() > 1 ? st.args[1].text : "";
        Value v;
        v.kind = Value::cache;
        v.id = m_.kmem_cache_create(st.result.empty() ? "cache" : st.result, num(st, 0), flag == "ctor",
                                    flag == "rcu");
        set(st, v);
    } else if (c == "kmem_cache_alloc"sv) {
        const Value& cv = var(st.args[0].name);
        if (cv.kind != Value::cache) fail("'" + st.args[0].name + "' is not a kmem_cache");
        set(st, P(m_.kmem_cache_alloc(cv.id, st.args.size() > 1 ? gfp(st.args[1]) : K, cpu)));
    } else if (c == "kmem_cache_free"sv) {
        const Value& cv = var(st.args[0].name);
        if (cv.kind != Value::cache) fail("'" + st.args[0].name + "' is not a kmem_cache");
        m_.kmem_cache_free(cv.id, ptr(st.args[1]));
    } else if (c == "rcu_barrier"sv) {
        m_.rcu_barrier();
    } else if (c == "vmalloc"sv || c == "vzalloc"sv || c == "vmalloc_exec"sv) {
        gfp_t g = st.args.size() > 1 ? gfp(st.args[1]) : K;
        if (c == "vzalloc"sv) g |= m_.gfp().mask("__GFP_ZERO");
        // vmalloc(SIZE, GFP) is __vmalloc(size, gfp): the caller's flags are filtered
        if (c == "vmalloc"sv && st.args.size() > 1)
            set(st, P(m_.vmalloc_gfp(num(st, 0), g, cpu)));
        else
            set(st, P(m_.vmalloc(num(st, 0), g, c != "vmalloc_exec"sv, cpu)));
    } else if (c == "vfree"sv) {
        m_.vfree(ptr(st.args[0]));
    } else if (c == "vrealloc"sv) {
        set(st, P(m_.vrealloc(ptr(st.args[0]), num(st, 1), st.args.size() > 2 ? gfp(st.args[2]) : K, cpu)));
    } else if (c == "vmalloc_huge"sv) {
        set(st, P(m_.vmalloc(num(st, 0), st.args.size() > 1 ? gfp(st.args[1]) : K, true, cpu, spec::ObjKind::vmalloc,
                             std::nullopt, true)));
    } else if (c == "vmap"sv || c == "vm_map_ram"sv) {
        set(st, P(m_.vmap(page(st.args[0]), c == "vm_map_ram"sv)));
    } else if (c == "vunmap"sv || c == "vm_unmap_ram"sv) {
        m_.vunmap(ptr(st.args[0]));
    } else if (c == "kfence_kmalloc"sv) {
        set(st, P(m_.kfence_kmalloc(num(st, 0), st.args.size() > 1 ? gfp(st.args[1]) : K, cpu)));
    } else if (c == "virt_to_page_address"sv) {
        set(st, P(m_.virt_to_page_address(ptr(st.args[0]))));
    } else if (c == "vmalloc_to_page_address"sv) {
        set(st, P(m_.vmalloc_to_page_address(ptr(st.args[0]))));
    } else if (c == "stack_alloc"sv) {
        std::optional<int> node;
        if (!st.args.empty()) node = int(num(st, 0));
        set(st, P(m_.stack_alloc(cpu, node)));
    } else if (c == "stack_free"sv) {
        m_.stack_free(ptr(st.args[0]), cpu);
    } else if (c == "stack_poison_leftover"sv) {
        m_.stack_poison_leftover(ptr(st.args[0]), num(st, 1), num(st, 2));
    } else if (c == "pgtable_alloc"sv) {
        const std::string& k = st.args[0].text;  // kernel, user or pgd_slab (calls.cpp)
        set(st, P(m_.pgtable_alloc(k != "kernel", k == "pgd_slab", cpu)));
    } else if (c == "pgtable_free"sv) {
        m_.pgtable_free(ptr(st.args[0]));
    } else if (c == "user_fault"sv) {
        bool mte = !st.args.empty();  // user_fault(mte)
        int id = m_.user_fault(mte, cpu);
        if (id < 0) fail("user_fault: out of model memory");
        set(st, PG(id));
    } else if (c == "huge_zero_folio"sv) {
        int id = m_.huge_zero_folio(unsigned(num(st, 0)), cpu);
        if (id < 0) fail("huge_zero_folio: out of model memory");
        set(st, PG(id));
    } else if (c == "user_set_tag"sv) {
        std::uint64_t nib = num(st, 2);
        m_.user_set_tag(page(st.args[0]), num(st, 1), std::uint8_t(nib));
    } else if (c == "munmap"sv) {
        m_.munmap(page(st.args[0]));
    } else if (c == "skb_alloc"sv) {
        int id = m_.skb_alloc(cpu);
        if (id < 0) fail("skb_alloc: out of model memory");
        set(st, PG(id));
    } else if (c == "alloc_skb_with_frags"sv) {
        // alloc_skb_with_frags(DATA_LEN, MAX_PAGE_ORDER[, GFP]): a failure (-EMSGSIZE,
        // -ENOBUFS: the model's notes say which) is a NULL skb, checked with null(SKB)
        Value v;
        v.kind = Value::skb;
        v.id = m_.alloc_skb_with_frags(num(st, 0), unsigned(num(st, 1)),
                                       st.args.size() > 2 ? gfp(st.args[2]) : K, cpu);
        set(st, v);
    } else if (c == "skb_frag_page"sv || c == "skb_nr_frags"sv || c == "kfree_skb"sv) {
        const Value& sv = var(st.args[0].name);
        if (sv.kind != Value::skb) fail("'" + st.args[0].name + "' is not an skb");
        if (sv.id < 0) {
            if (c == "kfree_skb"sv) return;  // kfree_skb(NULL) does nothing
            fail("'" + st.args[0].name + "' is NULL: alloc_skb_with_frags failed (the model's notes say why)");
        }
        const auto& frags = m_.skb(sv.id).frags;
        if (c == "kfree_skb"sv) {
            m_.kfree_skb(sv.id);
        } else if (c == "skb_nr_frags"sv) {
            set(st, N(frags.size()));
        } else {
            std::uint64_t i = num(st, 1);
            if (i >= frags.size())
                fail("skb_frag_page: frag " + std::to_string(i) + " of " + std::to_string(frags.size()));
            set(st, PG(frags[i]));
        }
    } else if (c == "mempool_create"sv) {
        const std::string& k = st.args[0].text;
        spec::Mempool::Kind kind = k == "kmalloc" ? spec::Mempool::kmalloc
                                   : k == "slab"  ? spec::Mempool::slab
                                   : k == "pages" ? spec::Mempool::pages
                                                  : (fail("mempool_create(kmalloc|slab|pages, ...)"), spec::Mempool::kmalloc);
        Value v;
        v.kind = Value::pool;
        v.id = m_.mempool_create(kind, num(st, 1), unsigned(num(st, 2)), cpu);
        set(st, v);
    } else if (c == "mempool_alloc"sv || c == "mempool_free"sv) {
        const Value& pv = var(st.args[0].name);
        if (pv.kind != Value::pool) fail("'" + st.args[0].name + "' is not a mempool");
        if (c == "mempool_alloc"sv) set(st, P(m_.mempool_alloc(pv.id, cpu)));
        else m_.mempool_free(pv.id, ptr(st.args[1]));
    } else if (c == "set_tag"sv) {
        std::uint64_t t = num(st, 1);
        set(st, P(m_.set_tag(ptr(st.args[0]), Tag(t))));
    } else if (c == "reset_tag"sv) {
        set(st, P(m_.reset_tag(ptr(st.args[0]))));
    } else if (c == "set_mem_tag"sv) {
        std::uint64_t t = num(st, 2);
        m_.set_mem_tag(ptr(st.args[0]), num(st, 1), Tag(t));
    } else if (c == "racing_read"sv) {
        // racing_read(PTR, LEN, TAG): another CPU retags PTR's granule to TAG during the check
        std::uint64_t t = num(st, 2);
        m_.access_racing_retag(ptr(st.args[0]), num(st, 1), spec::AccessKind::read, cpu, Tag(t));
    } else if (c == "read"sv || c == "write"sv || c == "rmw"sv) {
        bool insn = st.args.size() == 3;
        spec::AccessKind k = c == "read"sv ? spec::AccessKind::read
                             : c == "write"sv ? spec::AccessKind::write : spec::AccessKind::rmw;
        m_.access(ptr(st.args[0]), num(st, 1), k, cpu, insn);
    } else if (c == "kasan_check_async"sv) {
        m_.kasan_check_async(cpu);
    }
}


}  // namespace tagproof::scenario
