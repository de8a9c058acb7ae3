// kunit_writer.cpp — see kunit_writer.hpp. The C written here is this
// project's own: a case per scenario, each statement between tp_begin() and
// tp_end(), which follow the protocol mm/kasan/kasan_test_c.c documents for
// KUNIT_EXPECT_KASAN_FAIL (a console tracepoint probe sees "BUG: KASAN: ";
// with HW_TAGS in sync mode a report turns tag checking off on that CPU, so
// the case stays on its CPU and turns it back on).
#include "kunit_writer.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "error.hpp"
#include "model.hpp"

namespace tagproof::oracle {

namespace {

using scenario::Arg;
using scenario::Outcome;
using scenario::Scenario;
using scenario::Statement;

// A mempool's kind matters to its calls: a page pool's elements are struct
// pages (the scenario holds their page_address()), the others' objects.
enum class VarKind { pointer, page, cache, size, pgtable_kernel, pgtable_user, mempool_pages, mempool_objects, skb };

// The calls the kernel C can make, and the kind of what each returns.
const std::map<std::string, VarKind>& kernel_calls() {
    static const std::map<std::string, VarKind> m = {
        {"alloc_pages", VarKind::page},   {"free_pages", VarKind::pointer},   {"page_address", VarKind::pointer},
        {"kmalloc", VarKind::pointer},    {"kzalloc", VarKind::pointer},      {"kfree", VarKind::pointer},
        {"krealloc", VarKind::pointer},   {"ksize", VarKind::size},        {"kmem_cache_create", VarKind::cache},
        {"kmem_cache_alloc", VarKind::pointer}, {"kmem_cache_free", VarKind::pointer},
        {"rcu_barrier", VarKind::pointer}, {"vmalloc", VarKind::pointer},     {"vzalloc", VarKind::pointer},
        {"vfree", VarKind::pointer},      {"vrealloc", VarKind::pointer},     {"vmalloc_huge", VarKind::pointer},
        {"vmalloc_to_page_address", VarKind::pointer}, {"virt_to_page_address", VarKind::pointer},
        // an executable area, as module and BPF JIT memory is mapped
        {"vmalloc_exec", VarKind::pointer},
        {"set_tag", VarKind::pointer},    {"reset_tag", VarKind::pointer},    {"read", VarKind::pointer},
        {"write", VarKind::pointer},      {"rmw", VarKind::pointer},
        // a page table: the kernel's (pte_alloc_one_kernel) or a user one
        // (pte_alloc_one); which, the statement's argument says
        {"pgtable_alloc", VarKind::pgtable_kernel}, {"pgtable_free", VarKind::pointer},
        // a user page of a (VM_MTE) vma, as the fault path allocates it
        {"user_fault", VarKind::page},
        // a mempool (pages, kmalloc or slab) and its reserve: mempool_alloc is
        // mempool_alloc_preallocated(), as the model's and kasan_test_c.c's
        {"mempool_create", VarKind::mempool_objects}, {"mempool_alloc", VarKind::pointer},
        {"mempool_free", VarKind::pointer},
        // an skb with page frags (net/core/skbuff.c), no head data: NULL when refused
        {"alloc_skb_with_frags", VarKind::skb}, {"skb_nr_frags", VarKind::size},
        {"skb_frag_page", VarKind::page}, {"kfree_skb", VarKind::pointer},
    };
    return m;
}

// The kind of what a statement returns (a page table's, by its argument).
VarKind var_kind(const Statement& st) {
    if (st.call == "pgtable_alloc" && !st.args.empty() && st.args[0].text == "user") return VarKind::pgtable_user;
    if (st.call == "mempool_create" && !st.args.empty() && st.args[0].text == "pages") return VarKind::mempool_pages;
    return kernel_calls().at(st.call);
}

bool allocates(const std::string& call) {
    static const std::set<std::string> a = {"alloc_pages", "kmalloc", "kzalloc", "krealloc", "kmem_cache_create",
                                            "kmem_cache_alloc", "vmalloc", "vzalloc", "vmalloc_huge", "vrealloc", "vmalloc_exec",
                                            "pgtable_alloc", "user_fault", "mempool_create", "mempool_alloc"};
    // (alloc_skb_with_frags is not here: NULL is one of its answers, which null(SKB) checks)
    return a.count(call) > 0;
}

// Config keys the one kernel boots as the model's defaults have them.
bool harmless_config(const std::string& k, const std::string& v) {
    if (k == "pages" || k == "cpus" || k == "nodes") return true;
    static const std::set<std::pair<std::string, std::string>> same = {
        {"kfence", "n"}, {"lockdep", "n"}, {"vmap_stack", "y"}, {"kasan_vmalloc", "y"}, {"mte", "y"},
        {"deferred_struct_page_init", "n"}, {"slub_rcu_debug", "n"}};
    return same.count({k, v}) > 0;
}

// A boot line that only says what the oracle kernel boots with: HW_TAGS's
// defaults (kasan=on, kasan.mode=sync, kasan.vmalloc=on), and multi-shot,
// which the suite turns on itself (kasan_save_enable_multi_shot()).
bool default_boot(const std::string& line) {
    static const std::set<std::string> same = {"kasan=on", "kasan.mode=sync", "kasan.vmalloc=on", "kasan_multi_shot"};
    std::istringstream in(line);
    std::string tok;
    while (in >> tok)
        if (!same.count(tok)) return false;
    return true;
}

bool in_hw_tags(const Statement& st) {
    return st.modes.empty() || std::find(st.modes.begin(), st.modes.end(), Mode::hw_tags) != st.modes.end();
}

const Outcome& hw_outcome(const Statement& st) {
    auto it = st.outcome_by_mode.find(Mode::hw_tags);
    return it == st.outcome_by_mode.end() ? st.outcome : it->second;
}

std::string c_identifier(const std::string& name, const std::string& file) {
    std::string id;
    for (char ch : name) id += std::isalnum((unsigned char)ch) ? ch : '_';
    if (id.empty() || std::isdigit((unsigned char)id[0]))
        throw InputError(file, "the scenario's name '" + name + "' cannot name a KUnit case");
    return id;
}

std::string c_string(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\';
        out += ch;
    }
    return out + "\"";
}

// A pointer argument, with its offset: (char *)p + 112
std::string ptr(const Arg& a) {
    if (a.offset == 0) return a.name;
    return "((char *)" + a.name + (a.offset > 0 ? " + " : " - ") + std::to_string(a.offset > 0 ? a.offset : -a.offset) +
           ")";
}

std::string num(const Arg& a) { return a.is_number ? std::to_string(a.number) + "UL" : a.name; }

std::string gfp(const Statement& st, std::size_t i) {
    if (st.args.size() <= i || st.args[i].text.empty()) return "GFP_KERNEL";
    // the scenario's (and the GFP printer's) name for no flag at all is no C:
    // a counterexample of the solver's may allocate with gfp 0
    static const std::regex none("\\bnone\\b");
    return std::regex_replace(st.args[i].text, none, "0");
}

// One term of a check as C: "" where the kernel cannot say it.
std::string c_term(const scenario::Term& t) {
    using scenario::Term;
    switch (t.kind) {
        case Term::number: return std::to_string(t.value) + "UL";
        case Term::var: return t.arg.is_number ? "" : "(unsigned long)" + t.arg.name;
        case Term::null: return "(unsigned long)(" + t.arg.name + " == NULL)";
        // the order the allocation was made at: a compound page's (skb frags are __GFP_COMP)
        case Term::order: return "(unsigned long)(" + t.arg.name + " ? compound_order(" + t.arg.name + ") : 0)";
        case Term::pagetag: return "(unsigned long)(" + t.arg.name + " ? page_kasan_tag(" + t.arg.name + ") : 0)";
        default: return "";
    }
}

}  // namespace

std::string kernel_check(const Scenario& sc, const Statement& st) {
    if (st.kind != Statement::check || !in_hw_tags(st)) return "";
    // a file that gives the model less memory than its default (64 pages) makes
    // allocations fail on purpose (a fragmented buddy): what follows from that
    // is the model's memory, not the kernel's, which has plenty
    if (auto p = sc.config.find("pages");
        p != sc.config.end() && std::strtoull(p->second.c_str(), nullptr, 0) < spec::ModelConfig{}.pages)
        return "";
    const auto& c = st.cond;
    for (const scenario::Term* t : {&c.lhs, &c.rhs, &c.rhs_hi}) {
        if (t->arg.is_number || t->arg.name.empty()) continue;
        bool set = false;
        for (const auto& e : sc.statements)
            if (e.kind == Statement::event && in_hw_tags(e) && e.result == t->arg.name) set = true;
        if (!set) return "";
    }
    const std::string l = c_term(c.lhs), r = c_term(c.rhs);
    if (l.empty() || r.empty()) return "";
    if (c.op == "in") {
        const std::string h = c_term(c.rhs_hi);
        return h.empty() ? "" : "(" + l + " >= " + r + " && " + l + " <= " + h + ")";
    }
    static const std::set<std::string> ops = {"==", "!=", "<", "<=", ">", ">="};
    return ops.count(c.op) ? "(" + l + " " + c.op + " " + r + ")" : "";
}

std::string statement_text(const Statement& st) {
    std::string s = st.result.empty() ? "" : st.result + " = ";
    s += st.call + "(";
    for (std::size_t i = 0; i < st.args.size(); ++i) s += (i ? ", " : "") + st.args[i].text;
    return s + ")";
}

namespace {

std::string shown(const Statement& st) { return statement_text(st); }

// The C expression of one event (its result assigned where it has one).
std::string c_event(const Statement& st, const std::string& cache_name, const std::map<std::string, VarKind>& vars) {
    const auto& a = st.args;
    const std::string& c = st.call;
    auto assign = [&](const std::string& e) { return st.result.empty() ? e : st.result + " = " + e; };
    if (c == "alloc_pages") return assign("alloc_pages(" + gfp(st, 1) + ", " + num(a[0]) + ")");
    if (c == "free_pages") {
        // the model takes the page or its address, and the order (0 when not given,
        // calls.cpp); the kernel has a call for each
        const std::string order = a.size() > 1 ? num(a[1]) : "0";
        auto v = vars.find(a[0].name);
        if (v != vars.end() && v->second == VarKind::page) return "__free_pages(" + a[0].name + ", " + order + ")";
        return "free_pages((unsigned long)" + ptr(a[0]) + ", " + order + ")";
    }
    if (c == "page_address") return assign("page_address(" + a[0].name + ")");
    if (c == "kmalloc" || c == "kzalloc") return assign(c + "(" + num(a[0]) + ", " + gfp(st, 1) + ")");
    if (c == "kfree") return "kfree(" + ptr(a[0]) + ")";
    if (c == "krealloc") return assign("krealloc(" + ptr(a[0]) + ", " + num(a[1]) + ", " + gfp(st, 2) + ")");
    if (c == "ksize") return (st.result.empty() ? std::string("tp_size") : st.result) + " = ksize(" + ptr(a[0]) + ")";
    if (c == "kmem_cache_create") {
        const std::string flag = a.size() > 1 ? a[1].text : "";
        return assign("kmem_cache_create(" + c_string(cache_name) + ", " + num(a[0]) + ", 0, " +
                      (flag == "rcu" ? "SLAB_TYPESAFE_BY_RCU" : "0") + ", " + (flag == "ctor" ? "tp_ctor" : "NULL") + ")");
    }
    if (c == "kmem_cache_alloc") return assign("kmem_cache_alloc(" + a[0].name + ", " + gfp(st, 1) + ")");
    if (c == "kmem_cache_free") return "kmem_cache_free(" + a[0].name + ", " + ptr(a[1]) + ")";
    if (c == "rcu_barrier") return "rcu_barrier()";
    if (c == "vmalloc") return assign(a.size() > 1 ? "__vmalloc(" + num(a[0]) + ", " + gfp(st, 1) + ")" : "vmalloc(" + num(a[0]) + ")");
    if (c == "vzalloc")
        return assign(a.size() > 1 ? "__vmalloc(" + num(a[0]) + ", " + gfp(st, 1) + " | __GFP_ZERO)" : "vzalloc(" + num(a[0]) + ")");
    if (c == "vmalloc_huge") return assign("vmalloc_huge(" + num(a[0]) + ", " + gfp(st, 1) + ")");
    // <linux/vmalloc.h>: a prot other than PAGE_KERNEL (arm64's PAGE_KERNEL_EXEC), no VM_ flags
    if (c == "vmalloc_exec")
        return assign("__vmalloc_node_range(" + num(a[0]) + ", 1, VMALLOC_START, VMALLOC_END, " + gfp(st, 1) +
                      ", PAGE_KERNEL_EXEC, 0, NUMA_NO_NODE, __builtin_return_address(0))");
    if (c == "vfree") return "vfree(" + ptr(a[0]) + ")";
    if (c == "vrealloc") return assign("vrealloc(" + ptr(a[0]) + ", " + num(a[1]) + ", " + gfp(st, 2) + ")");
    if (c == "vmalloc_to_page_address") return assign("page_address(vmalloc_to_page(" + ptr(a[0]) + "))");
    if (c == "virt_to_page_address") return assign("page_address(virt_to_page(" + ptr(a[0]) + "))");
    if (c == "set_tag") return assign("(char *)__tag_set(" + ptr(a[0]) + ", " + num(a[1]) + ")");
    if (c == "reset_tag") return assign("(char *)kasan_reset_tag(" + ptr(a[0]) + ")");
    if (c == "pgtable_alloc") {
        // <asm-generic/pgalloc.h>: GFP_PGTABLE_KERNEL / GFP_PGTABLE_USER, order 0
        if (a[0].text == "kernel") return assign("(char *)pte_alloc_one_kernel(&init_mm)");
        return assign("(char *)page_address(pte_alloc_one(&init_mm))");
    }
    if (c == "user_fault") return assign(std::string("tp_user_fault(") + (a.empty() ? "false" : "true") + ")");
    if (c == "mempool_create") {
        // mempool_create(kind, size or order, min_nr): <linux/mempool.h>'s pools
        const std::string min_nr = a.size() > 2 ? num(a[2]) : "1";
        if (a[0].text == "pages") return assign("mempool_create_page_pool(" + min_nr + ", " + num(a[1]) + ")");
        if (a[0].text == "kmalloc") return assign("mempool_create_kmalloc_pool(" + min_nr + ", " + num(a[1]) + ")");
        return assign("mempool_create_slab_pool(" + min_nr + ", kmem_cache_create(" + c_string(cache_name) + ", " +
                      num(a[1]) + ", 0, 0, NULL))");
    }
    if (c == "mempool_alloc" || c == "mempool_free") {
        auto v = vars.find(a[0].name);
        const bool pages = v != vars.end() && v->second == VarKind::mempool_pages;
        if (c == "mempool_alloc")
            return assign(pages ? "tp_page_address(tp_mempool_take(" + a[0].name + "))"
                                : "(char *)tp_mempool_take(" + a[0].name + ")");
        return "mempool_free(" + (pages ? "virt_to_page(" + ptr(a[1]) + ")" : ptr(a[1])) + ", " + a[0].name + ")";
    }
    if (c == "pgtable_free") {
        auto v = vars.find(a[0].name);
        if (v != vars.end() && v->second == VarKind::pgtable_user)
            return "pte_free(&init_mm, virt_to_page(" + a[0].name + "))";
        return "pte_free_kernel(&init_mm, (pte_t *)" + a[0].name + ")";
    }
    if (c == "alloc_skb_with_frags")
        return assign("tp_alloc_skb_with_frags(" + num(a[0]) + ", " + num(a[1]) + ", " + gfp(st, 2) + ")");
    if (c == "skb_nr_frags") return assign("(" + a[0].name + " ? skb_shinfo(" + a[0].name + ")->nr_frags : 0)");
    if (c == "skb_frag_page")
        return assign("(" + a[0].name + " && skb_shinfo(" + a[0].name + ")->nr_frags > " + num(a[1]) + " ? skb_frag_page(&skb_shinfo(" +
                      a[0].name + ")->frags[" + num(a[1]) + "]) : NULL)");
    if (c == "kfree_skb") return "kfree_skb(" + a[0].name + ")";
    if (c == "read" || c == "write" || c == "rmw")
        return std::string("tp_access(") + ptr(a[0]) + ", " + num(a[1]) + ", " +
               (c == "read" ? "TP_READ" : c == "write" ? "TP_WRITE" : "TP_RMW") + ")";
    return "";
}

// The bytes an allocation hands its caller, as C, for tp_data() ("" when the
// call allocates nothing whose data the case reads).
std::string data_len(const Statement& st) {
    const auto& a = st.args;
    const std::string& c = st.call;
    if (c == "alloc_pages") return "(PAGE_SIZE << " + num(a[0]) + ")";
    if (c == "user_fault") return "PAGE_SIZE";
    if (c == "kmalloc" || c == "kzalloc" || c == "vmalloc" || c == "vzalloc" || c == "vmalloc_huge" || c == "vmalloc_exec")
        return num(a[0]);
    if (c == "krealloc" || c == "vrealloc") return num(a[1]);
    if (c == "kmem_cache_alloc") return "kmem_cache_size(" + a[0].name + ")";
    if (c == "pgtable_alloc") return "PAGE_SIZE";
    return "";
}

// The address whose data tp_data() reads: a page's page_address().
std::string data_ptr(const Statement& st) {
    return st.call == "alloc_pages" || st.call == "user_fault" ? "(" + st.result + " ? page_address(" + st.result + ") : NULL)" : st.result;
}

// What a previous owner leaves for this allocation: a block of its kind,
// filled and freed before the case runs ("" when the case cannot make one:
// a cache the case itself creates).
std::string dirty_call(const Statement& st) {
    const auto& a = st.args;
    const std::string& c = st.call;
    // a previous owner on the same free list (the migratetype is the list), given a tag
    if (c == "alloc_pages")
        return "tp_dirty_pages(GFP_KERNEL | ((" + gfp(st, 1) + ") & (__GFP_RECLAIMABLE | __GFP_MOVABLE)), " + num(a[0]) + ", 1)";
    if (c == "user_fault") return "tp_dirty_pages(GFP_KERNEL | __GFP_MOVABLE, 0, 1)";
    if (c == "pgtable_alloc") return "tp_dirty_pages(GFP_KERNEL, 0, 1)";
    if (c == "kmalloc" || c == "kzalloc") return "tp_dirty_kmalloc(" + num(a[0]) + ")";
    if (c == "krealloc") return "tp_dirty_kmalloc(" + num(a[1]) + ")";
    // vmalloc's pages come one by one from the page allocator
    if (c == "vmalloc" || c == "vzalloc" || c == "vmalloc_huge" || c == "vmalloc_exec")
        return "tp_dirty_vmalloc(" + num(a[0]) + ", " + (c == "vmalloc_huge" ? "true" : "false") + ")";
    if (c == "vrealloc") return "tp_dirty_pages(GFP_KERNEL, 0, DIV_ROUND_UP(" + num(a[1]) + ", PAGE_SIZE))";
    return "";
}

const char* kPrologue = R"(// SPDX-License-Identifier: GPL-2.0
/*
 * Written by `tagproof kernel kunit`: each case is one tagproof scenario
 * file's HW_TAGS events. Around each statement the console is watched for
 * "BUG: KASAN: " (a tracepoint probe, as mm/kasan/kasan_test_c.c does); the
 * case prints what it saw,
 *	# tagproof: L<line> <statement>: report|no report
 * and fails where that is not what the scenario says the model does.
 * Built into the kernel from mm/kasan/ (it uses mm/kasan/kasan.h).
 */
#define pr_fmt(fmt) fmt

#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/kasan.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <asm/pgalloc.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/version.h>
#include <linux/vmalloc.h>
#include <trace/events/printk.h>

#include "kasan.h"

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
/* Before 6.2 (Debian's 6.1.y): KASAN re-enables tag checks with
 * kasan_enable_tagging(), and a report in a KUnit case marks the case failed
 * unless the case holds a "kasan_status" resource (mm/kasan/report.c), which
 * tp_case_init() adds; the console probe sees the report either way. */
#define kasan_enable_hw_tags() kasan_enable_tagging()
#define kasan_kunit_test_suite_start() do { } while (0)
#define kasan_kunit_test_suite_end() do { } while (0)
static struct kunit_kasan_status tp_kasan_status;
static struct kunit_resource tp_kasan_resource;

static int tp_case_init(struct kunit *test)
{
	tp_kasan_status.report_found = false;
	tp_kasan_status.sync_fault = false;
	kunit_add_named_resource(test, NULL, NULL, &tp_kasan_resource, "kasan_status", &tp_kasan_status);
	return 0;
}
#else
static int tp_case_init(struct kunit *test)
{
	return 0;
}
#endif

enum tp_access_kind { TP_READ, TP_WRITE, TP_RMW };
enum tp_expect { TP_ANY, TP_REPORT, TP_NO_REPORT };

static struct {
	bool report_found;
	bool async_fault;
} tp_status;
static bool tp_multishot;
static size_t tp_size __maybe_unused;  /* ksize()'s result */

static void tp_probe_console(void *ignore, const char *buf, size_t len)
{
	if (strnstr(buf, "BUG: KASAN: ", len))
		WRITE_ONCE(tp_status.report_found, true);
	else if (strnstr(buf, "Asynchronous fault: ", len))
		WRITE_ONCE(tp_status.async_fault, true);
}

static void tp_ctor(void *object) { }

/* Byte by byte, stopping at the first report: past it, with tag checks off,
 * the bytes are not the scenario's to touch. A write stores 0x5a, the
 * owner's data (not zero, as the model's owner's bytes are not). */
static noinline void tp_access(char *p, size_t len, enum tp_access_kind kind)
{
	volatile char *v = p;
	size_t i;

	for (i = 0; i < len && !READ_ONCE(tp_status.report_found); i++) {
		char c = 0x5a;

		if (kind != TP_WRITE)
			c = v[i];
		if (kind != TP_READ)
			v[i] = c;
	}
}

/* A scenario starts on a fresh CPU: kasan.page_alloc.sample's per-CPU
 * counter at 0, as the model's is (mm/kasan/kasan.h kasan_sample_page_alloc:
 * the next allocation of a sampled order is tagged). What ran before the case
 * (its kthread, the previous cases) moved the kernel's; 6.3 brought it. */
static void tp_sampling_start(void)
{
#if defined(CONFIG_KASAN_HW_TAGS) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	this_cpu_write(kasan_page_alloc_skip, 0);
#endif
}

/* An element of a mempool's reserve, as kasan_test_c.c takes it: from 6.8
 * mempool_alloc_preallocated(); before, mempool_alloc() calls the pool's
 * allocator first and the reserve only when it fails, so the case is skipped. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define tp_mempool_take(pool) mempool_alloc_preallocated(pool)
#else
#define tp_mempool_take(pool) \
	({ kunit_skip(test, "mempool_alloc_preallocated() is 6.8's"); NULL; })
#endif

/* An skb of DATA_LEN bytes in page frags of at most order ORDER and no
 * head data; NULL when refused (-EMSGSIZE) or out of pages (-ENOBUFS). */
static struct sk_buff * __maybe_unused tp_alloc_skb_with_frags(unsigned long data_len, int order, gfp_t gfp)
{
	int err;

	return alloc_skb_with_frags(0, data_len, order, &err, gfp);
}

static char * __maybe_unused tp_page_address(void *page)
{
	return page ? page_address((struct page *)page) : NULL;
}

/* A page a user fault maps into a vma (VM_MTE or not): the arch's zeroed
 * movable allocation for it (__GFP_ZEROTAGS under VM_MTE), not mapped. */
static struct page * __maybe_unused tp_user_fault(bool mte)
{
	struct vm_area_struct vma;

	memset(&vma, 0, sizeof(vma));
	vma.vm_mm = &init_mm;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_init(&vma, mte ? VM_MTE : 0);
#else
	vma.vm_flags = mte ? VM_MTE : 0;
#endif
#ifdef vma_alloc_zeroed_movable_folio
	{
		struct folio *folio = vma_alloc_zeroed_movable_folio(&vma, 0);

		return folio ? &folio->page : NULL;
	}
#else
	return alloc_zeroed_user_highpage_movable(&vma, 0);
#endif
}

/* What a previous owner leaves (review --confirm, a zeroing finding): blocks
 * like the case's allocations, filled with 0xaa and freed last-first, so
 * that the page allocator's per-CPU lists and the slab freelists (both
 * last-in, first-out) hand them to the case's allocations in order. */
#define TP_DIRTY_MAX 64
static struct {
	struct page *page;
	unsigned int order;
	void *object;
} tp_dirty[TP_DIRTY_MAX];
static int tp_ndirty;

static void __maybe_unused tp_dirty_pages(gfp_t gfp, unsigned int order, unsigned long n)
{
	while (n-- && tp_ndirty < TP_DIRTY_MAX) {
		struct page *page = alloc_pages(gfp & ~__GFP_ZERO, order);

		if (!page)
			return;
		memset(kasan_reset_tag(page_address(page)), 0xaa, PAGE_SIZE << order);
		tp_dirty[tp_ndirty].page = page;
		tp_dirty[tp_ndirty].order = order;
		tp_dirty[tp_ndirty++].object = NULL;
	}
}

/* A vmalloc area's pages come one by one from the page allocator, a huge
 * one's in PMD-sized blocks from the buddy lists, where a freed block merges
 * with its buddy and the next request may take another: as many dirty
 * blocks as the table holds make the stale bytes likely, not certain. */
static void __maybe_unused tp_dirty_vmalloc(unsigned long size, bool huge)
{
	if (huge && size >= PMD_SIZE)
		tp_dirty_pages(GFP_KERNEL, PMD_SHIFT - PAGE_SHIFT, TP_DIRTY_MAX);
	else
		tp_dirty_pages(GFP_KERNEL, 0, DIV_ROUND_UP(size, PAGE_SIZE));
}

static void __maybe_unused tp_dirty_kmalloc(size_t size)
{
	void *p;

	if (tp_ndirty >= TP_DIRTY_MAX)
		return;
	p = kmalloc(size, GFP_KERNEL);
	if (!p)
		return;
	memset(kasan_reset_tag(p), 0xaa, size);
	tp_dirty[tp_ndirty].page = NULL;
	tp_dirty[tp_ndirty++].object = p;
}

static void __maybe_unused tp_dirty_release(void)
{
	while (tp_ndirty > 0) {
		tp_ndirty--;
		if (tp_dirty[tp_ndirty].page)
			__free_pages(tp_dirty[tp_ndirty].page, tp_dirty[tp_ndirty].order);
		else
			kfree(tp_dirty[tp_ndirty].object);
	}
}

/* Whether an allocation's bytes read as zero, through a match-all pointer
 * (no tag check: the data is asked, not the tags). */
static void __maybe_unused tp_data(int line, const char *what, const void *p, size_t len)
{
	const unsigned char *b;
	size_t i;

	if (IS_ERR_OR_NULL(p)) {
		pr_info("# tagproof: L%d %s: data not read (no memory)\n", line, what);
		return;
	}
	b = kasan_reset_tag(p);
	for (i = 0; i < len; i++)
		if (b[i])
			break;
	if (i == len)
		pr_info("# tagproof: L%d %s: data zero\n", line, what);
	else
		pr_info("# tagproof: L%d %s: data not zero at offset %zu\n", line, what, i);
}

static void tp_begin(void)
{
	if (IS_ENABLED(CONFIG_KASAN_HW_TAGS) && kasan_sync_fault_possible())
		migrate_disable();
	WRITE_ONCE(tp_status.report_found, false);
	WRITE_ONCE(tp_status.async_fault, false);
	barrier();
}

/* Whether KASAN reported since tp_begin(); tag checks back on after a sync report. */
static bool tp_finish(void)
{
	bool seen;

	barrier();
	if (kasan_async_fault_possible())
		kasan_force_async_fault();
	seen = READ_ONCE(tp_status.report_found);
	if (IS_ENABLED(CONFIG_KASAN_HW_TAGS) && kasan_sync_fault_possible()) {
		if (seen && !READ_ONCE(tp_status.async_fault))
			kasan_enable_hw_tags();
		migrate_enable();
	}
	return seen;
}

static void tp_end(struct kunit *test, int line, const char *what, enum tp_expect expect)
{
	bool seen = tp_finish();

	pr_info("# tagproof: L%d %s: %s\n", line, what, seen ? "report" : "no report");
	if (expect == TP_REPORT && !seen)
		KUNIT_FAIL(test, "L%d %s: the model reports, the kernel did not", line, what);
	if (expect == TP_NO_REPORT && seen)
		KUNIT_FAIL(test, "L%d %s: the kernel reported, the model does not", line, what);
	WRITE_ONCE(tp_status.report_found, false);
}

/* A check of the scenario, evaluated by the kernel: the model asserts it in
 * every run, so the kernel is held to it. */
static void __maybe_unused tp_check(struct kunit *test, int line, const char *what, bool holds)
{
	pr_info("# tagproof: L%d check %s: %s\n", line, what, holds ? "holds" : "fails");
	if (!holds)
		KUNIT_FAIL(test, "L%d check %s: the model's check, the kernel's answer differs", line, what);
}

/* The tag of the pointer an allocation handed out: KASAN_TAG_KERNEL (ff)
 * where the caller must get a match-all one (review --confirm, executable
 * memory: no-false-positive). */
static void __maybe_unused tp_pointer_tag(int line, const char *what, const void *p)
{
	if (!IS_ERR_OR_NULL(p))
		pr_info("# tagproof: L%d %s: pointer tag %02x\n", line, what, (unsigned int)get_tag(p));
}

/* Whether page_address() of a page the case was handed can be read: its
 * page tag against the memory's tags (review --confirm, page-tag-consistency). */
static void __maybe_unused tp_page_probe(int line, const char *what, struct page *page)
{
	if (IS_ERR_OR_NULL(page))
		return;
	tp_begin();
	tp_access(page_address(page), 1, TP_READ);
	pr_info("# tagproof: L%d %s: page_address read: %s\n", line, what, tp_finish() ? "report" : "no report");
	WRITE_ONCE(tp_status.report_found, false);
}

static int tp_suite_init(struct kunit_suite *suite)
{
	if (!kasan_enabled()) {
		pr_err("tagproof: KASAN is off\n");
		return -1;
	}
	kasan_kunit_test_suite_start();
	tp_multishot = kasan_save_enable_multi_shot();
	register_trace_console(tp_probe_console, NULL);
	return 0;
}

static void tp_suite_exit(struct kunit_suite *suite)
{
	kasan_kunit_test_suite_end();
	kasan_restore_multi_shot(tp_multishot);
	unregister_trace_console(tp_probe_console, NULL);
	tracepoint_synchronize_unregister();
}
)";

}  // namespace

std::string kunit_case_name(const Scenario& sc) { return c_identifier(sc.name, sc.file); }

std::string hw_boot_line(const Scenario& sc) {
    std::string b = sc.boot;
    if (auto it = sc.boot_by_mode.find(Mode::hw_tags); it != sc.boot_by_mode.end())
        b += (b.empty() || it->second.empty() ? "" : " ") + it->second;
    return b;
}

std::string expected_outcome(const Scenario& sc, const Statement& st) {
    Outcome o = hw_outcome(st);
    // as the runner reads it: under `harness kunit` an event with no outcome expects none
    if (o.kind == Outcome::none && sc.kunit_harness) o.kind = Outcome::ok;
    switch (o.kind) {
        case Outcome::report: return o.bug_type.empty() ? "report" : "report(" + o.bug_type + ")";
        case Outcome::reports: return o.count ? "report" : "no report";
        case Outcome::ok: return "no report";
        default: return "";
    }
}

std::map<std::string, std::string> read_exclusions(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path, "cannot open the exclusion file");
    std::map<std::string, std::string> out;
    std::string l;
    for (int n = 1; std::getline(in, l); ++n) {
        if (l.empty() || l[0] == '#') continue;
        std::istringstream ls(l);
        std::string name, reason;
        ls >> name;
        std::getline(ls >> std::ws, reason);
        if (reason.empty()) throw InputError(path + ":" + std::to_string(n), "'" + name + "' needs a reason");
        out[name] = reason;
    }
    return out;
}

Expressible expressible(const Scenario& sc, const KernelTarget& target) {
    const auto& eras = target.eras;
    auto no = [](const std::string& why) { return Expressible{false, why}; };
    if (std::find(sc.modes.begin(), sc.modes.end(), Mode::hw_tags) == sc.modes.end()) return no("no hw_tags mode");
    if (auto x = target.excluded.find(sc.name); x != target.excluded.end()) return no("excluded: " + x->second);
    if (!target.confirm && sc.variant.rfind("linux-", 0) != 0)
        return no("it is about variant " + sc.variant + ", not a released kernel");
    if (!target.confirm && !eras.empty() && std::find(eras.begin(), eras.end(), sc.variant) == eras.end()) {
        std::string list;
        for (const auto& e : eras) list += (list.empty() ? "" : " or ") + e;
        return no("it is about " + sc.variant + ", the kernel's era is " + list);
    }
    if (!sc.baseline.empty()) return no("a mode-isolation scenario (baseline " + sc.baseline + ")");
    // a confirmation boots the kernel with the scenario's boot line
    if (!target.confirm)
        for (const std::string* b : {&sc.boot, sc.boot_by_mode.count(Mode::hw_tags) ? &sc.boot_by_mode.at(Mode::hw_tags) : nullptr})
            if (b && !default_boot(*b)) return no("boot line '" + *b + "': the kernel boots with HW_TAGS's defaults");
    for (const auto& kv : sc.config)
        if (!harmless_config(kv.first, kv.second)) return no("config " + kv.first + "=" + kv.second);
    for (const auto& e : sc.expects)
        if (!target.confirm && (e.kind != scenario::Expect::verdict || e.value != "Always"))
            return no("expect " + e.value + ": a verdict over tag choices, one kernel run is one of them");
    std::map<std::string, VarKind> vars;
    for (const auto& st : sc.statements) {
        if (!in_hw_tags(st)) continue;
        if (st.kind == Statement::assume) return no("line " + std::to_string(st.line) + ": an assumption on the model's tags");
        if (st.kind != Statement::event) continue;  // checks of the model's state stay the model's
        auto k = kernel_calls().find(st.call);
        if (k == kernel_calls().end()) return no("line " + std::to_string(st.line) + ": " + st.call + "() is not written as kernel C yet");
        if (st.cpu != 0) return no("line " + std::to_string(st.line) + ": cpu=" + std::to_string(st.cpu));
        if (st.call == "pgtable_alloc" && (st.args.empty() || st.args[0].text == "pgd_slab"))
            return no("line " + std::to_string(st.line) + ": a pgd from its slab cache is not written as kernel C yet");
        if (hw_outcome(st).kind == Outcome::fault) return no("line " + std::to_string(st.line) + ": a fault, which stops the kernel");
        if (!st.result.empty()) vars[st.result] = k->second;
    }
    return {true, ""};
}

KunitSuite write_kunit_suite(const std::vector<Scenario>& scenarios, const std::string& suite,
                             const KernelTarget& target) {
    KunitSuite out;
    std::ostringstream c;
    c << kPrologue;
    std::set<std::string> ids;
    for (const auto& sc : scenarios) {
        const Expressible e = expressible(sc, target);
        if (!e.ok) {
            out.left_out.push_back({sc.file, e.why});
            continue;
        }
        const std::string id = c_identifier(sc.name, sc.file);
        if (!ids.insert(id).second) throw InputError(sc.file, "a second scenario named '" + sc.name + "'");
        // the variables, declared first (the kernel builds with -Wdeclaration-after-statement)
        std::map<std::string, VarKind> vars;
        for (const auto& st : sc.statements)
            if (st.kind == Statement::event && in_hw_tags(st) && !st.result.empty()) vars[st.result] = var_kind(st);
        c << "\n/* " << sc.file << (sc.doc.empty() ? "" : ": " + sc.doc) << " */\n";
        c << "static void " << id << "(struct kunit *test)\n{\n";
        for (const auto& [name, kind] : vars)
            c << "\t"
              << (kind == VarKind::page    ? "struct page *"
                  : kind == VarKind::cache ? "struct kmem_cache *"
                  : kind == VarKind::mempool_pages || kind == VarKind::mempool_objects ? "mempool_t *"
                  : kind == VarKind::skb   ? "struct sk_buff *"
                  : kind == VarKind::size  ? "size_t "
                                           : "char *")
              << name << (kind == VarKind::size ? " = 0;\n" : " = NULL;\n");
        if (!vars.empty()) c << "\n";
        if (target.confirm) {
            // the stale data of previous owners, for each allocation in order
            std::size_t dirty = 0;
            for (const auto& st : sc.statements)
                if (st.kind == Statement::event && in_hw_tags(st) && !dirty_call(st).empty()) {
                    c << "\t" << dirty_call(st) << ";\n";
                    ++dirty;
                }
            if (dirty) c << "\ttp_dirty_release();\n\n";
        }
        c << "\ttp_sampling_start();\n";
        // the bytes each pointer's allocation holds, where the file gives a
        // number: a resize in place promises zero only for the bytes it grows
        // by (the ones below the old size are the owner's)
        std::map<std::string, std::uint64_t> held;
        for (const auto& st : sc.statements) {
            if (st.kind == Statement::check) {
                const std::string cond = kernel_check(sc, st);
                if (!cond.empty())
                    c << "\ttp_check(test, " << st.line << ", " << c_string(st.cond.text) << ", " << cond << ");\n";
                continue;
            }
            if (st.kind != Statement::event || !in_hw_tags(st)) continue;
            const std::string exp = expected_outcome(sc, st);
            // a confirmation compares what the kernel did with the model outside the kernel
            const char* ex = exp.empty() || target.confirm ? "TP_ANY" : exp == "no report" ? "TP_NO_REPORT" : "TP_REPORT";
            c << "\ttp_begin();\n\t" << c_event(st, "tp_" + id + "_" + std::to_string(st.line), vars) << ";\n";
            c << "\ttp_end(test, " << st.line << ", " << c_string(shown(st)) << ", " << ex << ");\n";
            const bool resize = st.call == "krealloc" || st.call == "vrealloc";
            if (target.confirm && !st.result.empty() && resize && held.count(st.args[0].name) && st.args[1].is_number) {
                const std::uint64_t was = held.at(st.args[0].name), now = st.args[1].number;
                if (now > was)
                    c << "\ttp_data(" << st.line << ", " << c_string(shown(st)) << ", " << st.result << " ? " << st.result
                      << " + " << was << "UL : NULL, " << (now - was) << "UL);\n";
            } else if (target.confirm && !st.result.empty() && !data_len(st).empty()) {
                c << "\ttp_data(" << st.line << ", " << c_string(shown(st)) << ", " << data_ptr(st) << ", "
                  << data_len(st) << ");\n";
            }
            if (!st.result.empty()) {
                held.erase(st.result);
                const std::size_t size_arg = resize ? 1 : 0;
                const bool sized = st.call == "kmalloc" || st.call == "kzalloc" || st.call == "vmalloc" ||
                                   st.call == "vzalloc" || st.call == "vmalloc_huge" || resize;
                if (sized && st.args.size() > size_arg && st.args[size_arg].is_number)
                    held[st.result] = st.args[size_arg].number;
            }
            if (target.confirm && !st.result.empty() && allocates(st.call) && var_kind(st) == VarKind::pointer)
                c << "\ttp_pointer_tag(" << st.line << ", " << c_string(shown(st)) << ", " << st.result << ");\n";
            if (target.confirm && !st.result.empty() && allocates(st.call) && var_kind(st) == VarKind::page)
                c << "\ttp_page_probe(" << st.line << ", " << c_string(shown(st)) << ", " << st.result << ");\n";
            // a page mempool's element: the scenario holds its page_address()
            if (target.confirm && !st.result.empty() && st.call == "mempool_alloc" && !st.args.empty() &&
                vars.count(st.args[0].name) && vars.at(st.args[0].name) == VarKind::mempool_pages)
                c << "\ttp_page_probe(" << st.line << ", " << c_string(shown(st)) << ", " << st.result
                  << " ? virt_to_page(" << st.result << ") : NULL);\n";
            // an allocation the model hands out must exist to go on; a call the
            // model reports on (krealloc of a freed object) may return NULL
            if (!st.result.empty() && allocates(st.call) && exp.rfind("report", 0) != 0)
                c << "\tKUNIT_ASSERT_NOT_ERR_OR_NULL(test, " << st.result << ");\n";
        }
        c << "}\n";
        out.cases.push_back(id);
    }
    c << "\nstatic struct kunit_case tp_cases[] = {\n";
    for (const auto& id : out.cases) c << "\tKUNIT_CASE(" << id << "),\n";
    c << "\t{}\n};\n\nstatic struct kunit_suite tp_suite = {\n\t.name = " << c_string(suite)
      << ",\n\t.suite_init = tp_suite_init,\n\t.suite_exit = tp_suite_exit,\n\t.init = tp_case_init,\n"
      << "\t.test_cases = tp_cases,\n};\n\n"
      << "kunit_test_suite(tp_suite);\n\nMODULE_DESCRIPTION(\"tagproof scenarios as KUnit cases\");\n"
      << "MODULE_LICENSE(\"GPL\");\n";
    out.c_source = c.str();
    return out;
}

}  // namespace tagproof::oracle
