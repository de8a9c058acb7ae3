// boot_params.cpp — see boot_params.hpp. Each handler below mirrors one
// kernel early_param/__setup handler; the comment names it.
#include "boot_params.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <sstream>

#include "error.hpp"

namespace tagproof {

const char* check_mode_name(TagCheckMode m) {
    switch (m) {
        case TagCheckMode::sync: return "sync";
        case TagCheckMode::async: return "async";
        case TagCheckMode::asymm: return "asymm";
    }
    return "?";
}

const char* fault_policy_name(FaultPolicy f) {
    switch (f) {
        case FaultPolicy::report: return "report";
        case FaultPolicy::panic: return "panic";
        case FaultPolicy::panic_on_write: return "panic_on_write";
    }
    return "?";
}

namespace {

// lib/kstrtox.c: kstrtoull with base 0 — optional "0x"/"0" prefix, digits,
// one optional trailing newline, nothing else; overflow is -ERANGE.
bool kstrtoull0(const std::string& s, unsigned long long& out) {
    if (s.empty()) return false;
    std::string t = s;
    if (!t.empty() && t.back() == '\n') t.pop_back();
    if (t.empty() || t[0] == '-' || t[0] == '+' || t[0] == ' ') return false;
    int base = 10;
    std::size_t i = 0;
    if (t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) { base = 16; i = 2; }
    else if (t.size() > 1 && t[0] == '0') { base = 8; i = 1; }
    if (i >= t.size()) return false;
    unsigned long long v = 0;
    for (; i < t.size(); ++i) {
        int d;
        char c = t[i];
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return false;
        if (d >= base) return false;
        if (v > (ULLONG_MAX - d) / base) return false;  // -ERANGE
        v = v * base + d;
    }
    out = v;
    return true;
}

// lib/kstrtox.c kstrtobool: first character decides y/Y/1/n/N/0, "on"/"off".
bool kstrtobool(const std::string& s, bool& out) {
    if (s.empty()) return false;
    switch (s[0]) {
        case 'y': case 'Y': case '1': out = true; return true;
        case 'n': case 'N': case '0': out = false; return true;
        case 'o': case 'O':
            if (s.size() > 1 && (s[1] == 'n' || s[1] == 'N')) { out = true; return true; }
            if (s.size() > 1 && (s[1] == 'f' || s[1] == 'F')) { out = false; return true; }
            return false;
        default: return false;
    }
}

struct Parser {
    BootParams p;
    const BootParamSyntax& syn;

    void bad(const std::string& param, const std::string& value, const std::string& msg) {
        p.diagnostics.push_back({param, value, msg});
    }

    void on_off(const std::string& param, const std::string& v, bool& dst) {
        if (v == "off") dst = false;
        else if (v == "on") dst = true;
        else bad(param, v, "expected 'on' or 'off'; the kernel prints \"Malformed early option '" +
                               param + "'\" and keeps the default");
    }

    // One parameter as next_arg() hands it over: the name (quotes gone, '-'
    // read as '_' as parameq() does) and the value, if there is an '='.
    void token(const CmdlineArg& a) {
        const std::string tok = a.has_value ? a.param + "=" + a.value : a.param;
        std::string key = a.param;
        for (char& c : key)
            if (c == '-') c = '_';
        const bool has_value = a.has_value;
        const std::string& v = a.value;
        auto need_value = [&]() {
            if (!has_value) bad(key, "", "needs a value (the handler gets NULL and returns -EINVAL)");
            return has_value;
        };

        if (key == "kasan") {  // hw_tags.c early_kasan_flag
            if (!need_value()) return;
            if (v == "off") p.kasan = KasanArg::off;
            else if (v == "on") p.kasan = KasanArg::on;
            else bad(key, v, "expected 'on' or 'off'; KASAN stays at its default");
        } else if (key == "kasan.mode") {  // hw_tags.c early_kasan_mode
            if (!need_value()) return;
            if (v == "sync") p.mode = TagCheckMode::sync;
            else if (v == "async") p.mode = TagCheckMode::async;
            else if (v == "asymm") p.mode = TagCheckMode::asymm;
            else bad(key, v, "expected sync, async or asymm; the mode stays sync");
        } else if (key == "kasan.vmalloc") {  // hw_tags.c early_kasan_flag_vmalloc
            if (!need_value()) return;
            on_off(key, v, p.vmalloc);
        } else if (key == "kasan.stacktrace") {  // tags.c early_kasan_flag_stacktrace
            if (!need_value()) return;
            on_off(key, v, p.stacktrace);
        } else if (key == "kasan.fault") {  // report.c early_kasan_fault
            if (!need_value()) return;
            if (v == "report") p.fault = FaultPolicy::report;
            else if (v == "panic") p.fault = FaultPolicy::panic;
            else if (v == "panic_on_write" && syn.fault_panic_on_write) p.fault = FaultPolicy::panic_on_write;
            else bad(key, v, syn.fault_panic_on_write ? "expected report, panic or panic_on_write"
                                                      : "expected report or panic (this era has no panic_on_write)");
        } else if (key == "kasan.write_only") {  // hw_tags.c early_kasan_flag_write_only
            if (!syn.write_only) { bad(key, v, "this kernel era has no kasan.write_only"); return; }
            if (!need_value()) return;
            on_off(key, v, p.write_only);
        } else if (key == "kasan.page_alloc.sample") {  // hw_tags.c early_kasan_flag_page_alloc_sample
            if (!syn.page_alloc_sample) { bad(key, v, "this kernel era has no page_alloc sampling (v6.3+)"); return; }
            if (!need_value()) return;
            unsigned long long n;
            if (!kstrtoull0(v, n)) { bad(key, v, "not a number (kstrtoul fails); the value stays " +
                                                       std::to_string(p.page_alloc_sample)); return; }
            if (n == 0 || n > (unsigned long long)LONG_MAX) {
                p.page_alloc_sample = 1;
                bad(key, v, "must be 1..LONG_MAX; the kernel resets it to 1 (sampling off)");
                return;
            }
            p.page_alloc_sample = n;
        } else if (key == "kasan.page_alloc.sample.order") {  // early_kasan_flag_page_alloc_sample_order
            if (!syn.page_alloc_sample_order) { bad(key, v, "this kernel era has no page_alloc sampling (v6.3+)"); return; }
            if (!need_value()) return;
            unsigned long long n;
            if (!kstrtoull0(v, n) || n > UINT_MAX) {
                bad(key, v, "not an unsigned int (kstrtouint fails); the value stays " +
                                std::to_string(p.page_alloc_sample_order));
                return;
            }
            if (n > (unsigned long long)INT_MAX) {
                p.page_alloc_sample_order = 3;
                bad(key, v, "must be at most INT_MAX; the kernel resets it to 3");
                return;
            }
            p.page_alloc_sample_order = (std::uint32_t)n;
        } else if (key == "kasan_multi_shot") {
            // report.c kasan_set_multi_shot is a __setup handler: obsolete_checksetup()
            // hands it whatever follows the name ("=0" too) and it ignores it
            p.multi_shot = true;
        } else if (key == "init_on_alloc" || key == "init_on_free") {  // mm/mm_init.c early_init_on_*
            if (!need_value()) return;
            bool b;
            if (!kstrtobool(v, b)) { bad(key, v, "expected a boolean (kstrtobool: 1/0, y/n, on/off)"); return; }
            (key == "init_on_alloc" ? p.init_on_alloc : p.init_on_free) = b;
        } else if (key.rfind("kasan", 0) == 0) {
            bad(key, v, "unknown KASAN parameter; known: kasan, kasan.mode, kasan.vmalloc, "
                        "kasan.page_alloc.sample, kasan.page_alloc.sample.order, kasan.stacktrace, "
                        "kasan.fault, kasan.write_only, kasan_multi_shot");
        } else {
            p.not_modelled.push_back(tok);
        }
    }
};

}  // namespace

// lib/cmdline.c next_arg() as kernel/params.c parse_args() calls it: blanks
// (isspace) separate parameters except inside double quotes; a parameter that
// starts with '"' loses it and its closing quote; a value that starts with '"'
// loses it and the token's last character if that is '"' ("kasan.mode="async""
// is kasan.mode=async); the first '=' splits name from value; a bare "--"
// ends the kernel's parameters and the rest goes to init.
std::vector<CmdlineArg> split_cmdline(const std::string& s, std::string* to_init) {
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
    std::vector<CmdlineArg> out;
    std::size_t i = 0;
    while (i < s.size() && blank(s[i])) ++i;
    while (i < s.size()) {
        bool in_quote = false, quoted = false;
        if (s[i] == '"') {
            ++i;
            in_quote = quoted = true;
        }
        const std::size_t start = i;
        std::size_t eq = std::string::npos, j = start;
        for (; j < s.size(); ++j) {
            if (blank(s[j]) && !in_quote) break;
            if (eq == std::string::npos && s[j] == '=') eq = j;
            if (s[j] == '"') in_quote = !in_quote;
        }
        CmdlineArg a;
        bool last_quote_gone = false;
        const bool ends_in_quote = j > start && s[j - 1] == '"';
        if (eq == std::string::npos) {
            a.param = s.substr(start, j - start);
        } else {
            a.has_value = true;
            a.param = s.substr(start, eq - start);
            a.value = s.substr(eq + 1, j - eq - 1);
            if (!a.value.empty() && a.value[0] == '"') {
                a.value.erase(0, 1);
                if (ends_in_quote && !a.value.empty()) a.value.pop_back();
                last_quote_gone = ends_in_quote;
            }
        }
        if (quoted && ends_in_quote && !last_quote_gone) {
            std::string& tail = a.has_value ? a.value : a.param;
            if (!tail.empty()) tail.pop_back();
        }
        while (j < s.size() && blank(s[j])) ++j;
        if (!a.has_value && a.param == "--") {
            if (to_init) *to_init = s.substr(j);
            break;
        }
        out.push_back(a);
        i = j;
    }
    return out;
}

BootParams parse_boot_params(const std::string& cmdline, const BootParamSyntax& syntax) {
    Parser ps{BootParams{}, syntax};
    for (const CmdlineArg& a : split_cmdline(cmdline, &ps.p.init_args)) ps.token(a);
    return ps.p;
}

BootParams parse_boot_params_strict(const std::string& cmdline, const std::string& where,
                                    const BootParamSyntax& syntax) {
    BootParams p = parse_boot_params(cmdline, syntax);
    if (!p.diagnostics.empty()) {
        const auto& d = p.diagnostics.front();
        std::string tok = d.value.empty() ? d.param : d.param + "=" + d.value;
        throw InputError(where, "bad boot parameter '" + tok + "': " + d.message);
    }
    return p;
}

std::string BootParams::to_cmdline() const {
    BootParams d;
    std::string out;
    auto add = [&](const std::string& s) { out += (out.empty() ? "" : " ") + s; };
    if (kasan != d.kasan) add(std::string("kasan=") + (kasan == KasanArg::on ? "on" : "off"));
    if (mode != d.mode) add(std::string("kasan.mode=") + check_mode_name(mode));
    if (vmalloc != d.vmalloc) add(std::string("kasan.vmalloc=") + (vmalloc ? "on" : "off"));
    if (page_alloc_sample != d.page_alloc_sample) add("kasan.page_alloc.sample=" + std::to_string(page_alloc_sample));
    if (page_alloc_sample_order != d.page_alloc_sample_order)
        add("kasan.page_alloc.sample.order=" + std::to_string(page_alloc_sample_order));
    if (stacktrace != d.stacktrace) add(std::string("kasan.stacktrace=") + (stacktrace ? "on" : "off"));
    if (fault != d.fault) add(std::string("kasan.fault=") + fault_policy_name(fault));
    if (write_only != d.write_only) add(std::string("kasan.write_only=") + (write_only ? "on" : "off"));
    if (multi_shot) add("kasan_multi_shot");
    if (init_on_alloc) add("init_on_alloc=1");
    if (init_on_free) add("init_on_free=1");
    return out;
}

}  // namespace tagproof
