// trace_bmc.cpp — bounded model checking of whole event sequences: 2 pages,
// 2 CPUs, up to `depth` steps of alloc_pages / free_pages / an access
// through the newest pointer of a page (so use-after-free and reuse of a
// freed page are in scope). Every step runs the variant's own decisions;
// the checks are the oracle's, stated here. kasan.mode (sync, async, asymm)
// and kasan.write_only are inputs like the other boot parameters: how a fault
// is delivered is the architecture's (checks/hw_check.hpp: a synchronous one
// turns tag checking off on that CPU), which accesses are checked the
// variant's granule check.
#include "trace_bmc.hpp"

#include "checks/hw_check.hpp"
#include "effects.hpp"

#include <cstdio>

namespace tagproof::solver {

using kernel::FreeInput;
using kernel::TagCheckInput;
using S = Symbolic;

namespace {

constexpr int kPages = 2, kCpus = 2;

struct PageSt {
    z3::expr alloc, ptag, mem, flag, ptr, has_ptr, own, zero, promised, skipreq, mem_by_ptr;
};
struct CpuSt {
    z3::expr skip, tcf;
};

z3::expr sel(const std::vector<z3::expr>& xs, const z3::expr& i) {
    z3::expr r = xs.back();
    for (int k = int(xs.size()) - 2; k >= 0; --k) r = z3::ite(i == i.ctx().bv_val(k, i.get_sort().bv_size()), xs[k], r);
    return r;
}

}  // namespace

Query trace_query(Builder& b, const std::string& invariant) {
    Query q(b.c);
    q.entry = "alloc_pages / free_pages / access sequences on 2 pages and 2 CPUs";
    q.method = "bounded model checking, depth " + std::to_string(b.depth) +
               " (kasan.mode=sync, async or asymm; kasan.write_only where the era has it)";
    auto& c = b.c;
    auto bv = [&](std::uint64_t v) { return c.bv_val(v, 64); };
    const SEnv& e = b.e;
    z3::expr tagged_build = e.tag_based() && e.kasan_enabled;
    const z3::expr write_only = b.in.write_only && e.kasan_hw_tags_enabled();
    std::vector<PageSt> pg;
    for (int i = 0; i < kPages; ++i)
        pg.push_back({c.bool_val(false), bv(0xFF), z3::ite(e.hw_tags, bv(0xFE), bv(0xFF)), c.bool_val(false), bv(0xFF),
                      c.bool_val(false), c.bool_val(false), e.init_on_free, c.bool_val(false), c.bool_val(false),
                      c.bool_val(false)});
    std::vector<CpuSt> cpu(kCpus, CpuSt{bv(0), c.bool_val(true)});
    z3::expr bad = c.bool_val(false);
    std::vector<z3::expr> gfps, bad_at;  // bad_at[k]: the check fails at step k

    struct Step {
        z3::expr act, page, cpu, gfp, tag, wr;
    };
    std::vector<Step> steps;
    // A step's action, page and CPU are as wide as their values (2, 1 and 1
    // bits: 2 pages, 2 CPUs), and its random tag is 8 bits widened to the
    // variant's word: the solver bit-blasts no 64-bit compare for them, nor
    // a tag's 56 upper bits that its range would otherwise pin to 0. The GFP
    // is the variant's word.
    static_assert(kPages == 2 && kCpus == 2, "a step's page and CPU are one bit each");
    auto act_val = [&](unsigned v) { return c.bv_val(v, 2); };
    auto one_bit = [&](unsigned v) { return c.bv_val(v, 1); };
    for (unsigned k = 0; k < b.depth; ++k) {
        std::string n = "step" + std::to_string(k) + ".";
        Step st{c.bv_const((n + "action").c_str(), 2), c.bv_const((n + "page").c_str(), 1),
                c.bv_const((n + "cpu").c_str(), 1), b.word(n + "gfp"),
                z3::zext(c.bv_const((n + "random_tag").c_str(), 8), 56),
                c.bool_const((n + "write").c_str())};
        steps.push_back(st);
        q.assumptions.push_back(z3::ult(st.act, act_val(3)));
        q.assumptions.push_back(z3::uge(st.tag, b.v.random_tag_min(e)) && z3::ule(st.tag, b.v.random_tag_max(e)));
        gfps.push_back(st.gfp);
        q.minimise_bits.push_back(st.gfp);
        for (const auto& k2 : page_alloc_contracts(e, st.gfp, b.bits_mask)) {
            Contract cc = k2;
            cc.name = "step " + std::to_string(k) + ": " + k2.name;
            cc.step = int(k);
            cc.holds = z3::implies(st.act != act_val(0), c.bool_val(true)) && z3::implies(st.act == act_val(0), k2.holds);
            q.contracts.push_back(cc);
        }
        std::vector<z3::expr> v_alloc, v_has;
        for (auto& p : pg) {
            v_alloc.push_back(p.alloc);
            v_has.push_back(p.has_ptr);
        }
        z3::expr is_alloc = st.act == act_val(0), is_free = st.act == act_val(1), is_access = st.act == act_val(2);
        // preconditions: alloc takes the lowest free page (as the model's allocator does)
        z3::expr lowest_free = z3::ite(!pg[0].alloc, one_bit(0), one_bit(1));
        q.assumptions.push_back(z3::implies(is_alloc, st.page == lowest_free && !sel(v_alloc, st.page)));
        q.assumptions.push_back(z3::implies(is_free, sel(v_alloc, st.page)));
        q.assumptions.push_back(z3::implies(is_access, sel(v_has, st.page)));

        std::vector<z3::expr> skips, tcfs;
        for (auto& cs : cpu) {
            skips.push_back(cs.skip);
            tcfs.push_back(cs.tcf);
        }
        z3::expr skip = sel(skips, st.cpu), tcf = sel(tcfs, st.cpu);
        auto plan = b.v.post_alloc_hook(e, st.gfp, bv(0), skip);
        const kernel::BlockEffect<S> fx = kernel::post_alloc_effect<S>(e, plan, st.tag);  // effects.hpp
        // what the caller requires (requirements.hpp), not what the variant asks for
        kernel::CallerInput<S> caller;
        caller.gfp = st.gfp;
        caller.order = bv(0);
        z3::expr promised = kernel::required<S>(kernel::Caller::alloc_pages, e, caller).zero_data;
        z3::expr fault_any = c.bool_val(false), step_bad = c.bool_val(false);
        std::vector<PageSt> next = pg;
        for (int i = 0; i < kPages; ++i) {
            z3::expr here = st.page == one_bit(unsigned(i));
            PageSt& p = pg[i];
            PageSt& np = next[i];
            // alloc
            z3::expr a = is_alloc && here;
            kernel::BlockState<S> old;
            old.page_tag = p.ptag;
            old.mem_tag = old.mte_tag = p.mem;
            old.data_zero = p.zero;
            const kernel::BlockState<S> now = kernel::apply_effect<S>(fx, old);
            z3::expr ptag_a = now.page_tag, mem_a = now.mem_tag, zero_a = now.data_zero;
            // free
            z3::expr f = is_free && here;
            FreeInput<S> fin;
            fin.page_tag = z3::ite(tagged_build, p.ptag, bv(0xFF));
            fin.pg_skip_kasan_poison = p.flag;
            fin.fpi_skip_kasan_poison = S::boolean(false);
            auto fp = b.v.free_pages_prepare(e, fin);
            kernel::BlockState<S> held;  // the block as the free finds it
            held.page_tag = p.ptag;
            held.mem_tag = held.mte_tag = p.mem;
            held.data_zero = p.zero;
            const kernel::BlockState<S> freed = kernel::apply_effect<S>(kernel::free_pages_effect<S>(e, fp), held);
            // access
            z3::expr x = is_access && here;
            TagCheckInput<S> in;
            in.tcf_on = tcf;
            in.write_only = write_only;
            in.is_write = st.wr;
            in.tagged_mapping = S::boolean(true);
            in.ptr_tag = p.ptr;
            in.mem_tag = p.mem;
            z3::expr fault = b.v.granule_check_faults(e, in);
            fault_any = fault_any || (x && fault);
            z3::expr checking = oracle_checking(e, in);
            z3::expr mism = oracle_mismatch(e, p.ptr, p.mem);

            // the oracle's checks at this step
            z3::expr chk = c.bool_val(false);
            if (invariant == "match-all-never-faults") chk = x && p.ptr == bv(0xFF) && fault;
            if (invariant == "no-false-positive") chk = x && p.alloc && p.own && fault;
            if (invariant == "mismatch-faults") chk = x && checking && p.ptr != bv(0xFF) && mism && !fault;
            if (invariant == "detection") chk = x && !p.own && checking && p.ptr != bv(0xFF) && p.mem_by_ptr && !mism;
            if (invariant == "zeroing") chk = a && promised && !zero_a;
            if (invariant == "page-tag-consistency")
                chk = (a && tagged_build && ptag_a != bv(0xFF) &&
                       z3::ite(e.hw_tags, (ptag_a & bv(0xF)) != (mem_a & bv(0xF)), ptag_a != mem_a)) ||
                      (f && e.kasan_hw_tags_enabled() &&
                       ((p.skipreq && fin.page_tag == bv(0xFF) && fp.poison) || (fin.page_tag != bv(0xFF) && !fp.poison)));
            bad = bad || chk;
            step_bad = step_bad || chk;

            np.alloc = z3::ite(a, c.bool_val(true), z3::ite(f, c.bool_val(false), p.alloc));
            np.ptag = z3::ite(a, ptag_a, p.ptag);
            np.mem = z3::ite(a, mem_a, z3::ite(f, freed.mem_tag, p.mem));
            np.flag = z3::ite(a, plan.set_skip_poison_flag, z3::ite(f, c.bool_val(false), p.flag));
            np.ptr = z3::ite(a, z3::ite(tagged_build, ptag_a, bv(0xFF)), p.ptr);
            np.has_ptr = p.has_ptr || a;
            np.own = z3::ite(a, c.bool_val(true), z3::ite(f, c.bool_val(false), p.own));
            np.zero = z3::ite(a, zero_a, z3::ite(f, freed.data_zero, z3::ite(x && st.wr && p.own, c.bool_val(false), p.zero)));
            np.promised = z3::ite(a, promised, p.promised);
            np.skipreq = z3::ite(a, (e.kasan_hw_tags_enabled() && S::any(st.gfp, e.gfp.SKIP_KASAN_POISON | e.gfp.SKIP_KASAN)) ||
                                        plan.sampled_out,
                                 p.skipreq);
            np.mem_by_ptr = z3::ite(a, plan.unpoison, z3::ite(f && fp.poison, c.bool_val(false), p.mem_by_ptr));
        }
        // do_tag_recovery: a synchronous fault turns checking off on this CPU
        const auto delivery = kernel::checks::mte_fault_delivery<S>(b.in.tcf_async, b.in.tcf_asymm, st.wr);
        for (int j = 0; j < kCpus; ++j) {
            z3::expr here = st.cpu == one_bit(unsigned(j));
            cpu[j].skip = z3::ite(is_alloc && here, plan.sample_skip_next, cpu[j].skip);
            cpu[j].tcf = z3::ite(here && fault_any && e.hw_tags && delivery.checks_off_after, c.bool_val(false), cpu[j].tcf);
        }
        pg = next;
        bad_at.push_back(step_bad);
    }
    q.violation = bad;
    q.violation_at = bad_at;
    unsigned depth = b.depth;
    q.prefer.push_back(c.bool_val(true));
    q.prefer.push_back(!b.in.tcf_async && !b.in.tcf_asymm && !b.in.write_only);  // the default boot first
    q.prefer_step = {-1, -1};
    for (unsigned k = 0; k < depth; ++k) {
        q.prefer.push_back(steps[k].cpu == one_bit(0));
        q.prefer_step.push_back(int(k));
        q.minimise_step.push_back(int(k));  // minimise_bits[k] is step k's gfp
    }
    q.scenario = [&b, steps, invariant, bad_at](const z3::model& m) {
        auto num = [&](const z3::expr& x) { return m.eval(x, true).get_numeral_uint64(); };
        std::string s = "# written by tagproof prove: a counterexample trace replayed in the model\n";
        s += "name trace_" + invariant + "\ndoc the shortest event sequence the bounded model checker found\n";
        ConcreteConfig cc = read_config(m, b.in);
        s += "variant " + b.v.concrete().name() + "\nmodes " + std::string(mode_name(cc.mode)) + "\n";
        s += cc.config_line() + " cpus=2\n";
        if (!cc.boot_line().empty()) s += "boot " + cc.boot_line() + "\n";
        std::string alloc_var[kPages], ptr_var[kPages];
        BuildConfig bc;
        bc.mode = cc.mode;
        GfpLayout L = b.v.concrete().gfp_layout(bc);
        std::string last_alloc_ptr;
        const std::size_t shown = steps_shown(m, bad_at);  // up to the first violation
        for (unsigned k = 0; k < shown; ++k) {
            const auto& st = steps[k];
            unsigned act = unsigned(num(st.act)), page = unsigned(num(st.page)), cp = unsigned(num(st.cpu));
            std::string cpu_s = " cpu=" + std::to_string(cp);
            if (act == 0) {
                alloc_var[page] = "a" + std::to_string(k);
                ptr_var[page] = "p" + std::to_string(k);
                s += alloc_var[page] + " = alloc_pages(0, " + L.print(num(st.gfp)) + ")" + cpu_s + "\n";
                s += ptr_var[page] + " = page_address(" + alloc_var[page] + ")\n";
                last_alloc_ptr = ptr_var[page];
            } else if (act == 1) {
                s += "free_pages(" + alloc_var[page] + ")\n";
            } else {
                s += std::string(m.eval(st.wr, true).is_true() ? "write" : "read") + "(" + ptr_var[page] + ", 1)" +
                     cpu_s + "\n";
            }
        }
        // the model judges a zeroing promise when the new owner reads
        if (invariant == "zeroing" && !last_alloc_ptr.empty()) s += "read(" + last_alloc_ptr + ", 64)\n";
        return s + "expect violation " + invariant + "\n";
    };
    q.trace_from_scenario = true;
    return q;
}

}  // namespace tagproof::solver
