// observe.cpp — see observe.hpp.
#include "observe.hpp"

#include <cstdio>

namespace tagproof::scenario {

using spec::Ptr;

std::string observe_event(const spec::Model& m, const Statement& st, const Vars& vars, std::size_t reports_before,
                          std::uint64_t warnings_before) {
    std::uint64_t kasan = 0, faults = 0;
    std::string first_type;
    for (std::size_t i = reports_before; i < m.reports().size(); ++i) {
        const auto& r = m.reports()[i];
        if (r.kasan) {
            if (!kasan) first_type = r.bug_type;
            ++kasan;
        } else if (r.bug_type == "page-fault") {
            ++faults;
        }
    }
    std::string obs = st.call + ": " +
                      (kasan ? std::to_string(kasan) + " report(s), first " + first_type
                             : faults ? std::string("an MMU fault") : std::string("no report"));
    for (std::size_t i = reports_before; i < m.reports().size(); ++i) {
        const auto& r = m.reports()[i];
        char b[48];
        std::snprintf(b, sizeof b, " [%s ptr %02x mem %02x]", r.bug_type.c_str(), r.ptr_tag, r.mem_tag);
        obs += b;
    }
    auto found = st.result.empty() ? vars.end() : vars.find(st.result);
    if (found != vars.end()) {
        const Value& v = found->second;
        char b[64];
        auto mt = [&](const Ptr& p) { return v.p.null ? -1 : int(m.mem_tag(p).value_or(0)); };
        if (v.kind == Value::ptr)
            std::snprintf(b, sizeof b, ", returns tag %02x, memory tag %02x", v.p.tag, v.p.null ? 0 : mt(v.p));
        else if (v.kind == Value::page)
            std::snprintf(b, sizeof b, ", page tag %02x, memory tag %02x", m.page_address(v.id).tag,
                          mt(m.page_address(v.id)));
        else b[0] = 0;
        obs += b;
        // whether the caller got zeroed memory is visible too (the solver's
        // mode-isolation compares "data zeroed")
        int obj = v.kind == Value::ptr ? (v.p.null ? -1 : v.p.obj) : v.kind == Value::page ? v.id : -1;
        if (obj >= 0) {
            const auto& o = m.object(obj);
            obs += m.data_zero(Ptr{o.base, KASAN_TAG_KERNEL, obj}, o.size) ? ", data zero" : ", data not zero";
            // a PROT_MTE user page's tags are what user space sees (LDG),
            // in every KASAN mode (the solver compares them once mapped)
            if (o.vm_mte) {
                std::snprintf(b, sizeof b, ", MTE tag %02x", m.mte_tag_at(o.pfn, 0));
                obs += b;
            }
        }
    }
    // a WARN the kernel prints is visible too (vmalloc_fix_flags)
    if (m.warnings() > warnings_before) obs += ", WARNING";
    return obs;
}

std::string broken_difference(const std::string& a, const std::set<std::string>& a_broken, const std::string& b,
                              const std::set<std::string>& b_broken) {
    auto without = [](std::set<std::string> s) {
        s.erase("mode-isolation");
        return s;
    };
    const std::set<std::string> x = without(a_broken), y = without(b_broken);
    if (x == y) return "";
    auto words = [](const std::set<std::string>& s) {
        std::string w;
        for (const auto& i : s) w += (w.empty() ? "" : ", ") + i;
        return w.empty() ? std::string("no invariant") : w;
    };
    return a + " breaks " + words(x) + "; " + b + " breaks " + words(y);
}

}  // namespace tagproof::scenario
