// parser.cpp — scenario text to Scenario, with file:line errors.
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "error.hpp"
#include "scenario.hpp"

namespace tagproof::scenario {

namespace {

std::string trim(const std::string& s) {
    auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

const std::set<std::string> kCalls = {
    "alloc_pages", "free_pages", "page_address", "kmalloc", "kzalloc", "kfree", "krealloc", "ksize",
    "kmem_cache_create", "kmem_cache_alloc", "kmem_cache_free", "rcu_barrier", "vmalloc", "vzalloc", "vmalloc_exec", "vfree",
    "vrealloc", "vmalloc_to_page_address", "virt_to_page_address", "kfence_kmalloc", "vmalloc_huge", "vmap", "vm_map_ram", "vunmap", "vm_unmap_ram", "stack_alloc", "stack_free", "stack_poison_leftover", "pgtable_alloc",
    "pgtable_free", "user_fault", "huge_zero_folio", "user_set_tag", "munmap", "skb_alloc", "alloc_skb_with_frags",
    "skb_frag_page", "skb_nr_frags", "kfree_skb", "mempool_create",
    "mempool_alloc", "mempool_free", "set_tag", "reset_tag", "set_mem_tag", "read", "write", "rmw", "racing_read",
    "kasan_check_async"};

struct LineParser {
    std::string where;

    [[noreturn]] void fail(const std::string& msg) const { throw InputError(where, msg); }

    static bool parse_number(const std::string& s, std::uint64_t& out) {
        if (s.empty() || !std::isdigit((unsigned char)s[0])) return false;
        std::size_t used = 0;
        try {
            out = std::stoull(s, &used, 0);
        } catch (...) {
            return false;
        }
        return used == s.size();
    }

    std::vector<Mode> modes_list(const std::string& s) const {
        std::vector<Mode> out;
        std::string tok;
        std::istringstream in(s);
        while (std::getline(in, tok, ',')) {
            tok = trim(tok);
            for (char& c : tok)
                if (c == ' ') c = ',';
            std::istringstream in2(tok);
            std::string t2;
            while (std::getline(in2, t2, ','))
                if (!trim(t2).empty()) out.push_back(parse_mode(trim(t2), where));
        }
        if (out.empty()) fail("empty mode list");
        return out;
    }

    Arg arg(const std::string& raw) const {
        Arg a;
        a.text = trim(raw);
        std::string t = a.text;
        if (t.empty()) fail("empty argument");
        std::uint64_t n;
        if (parse_number(t, n)) {
            a.is_number = true;
            a.number = n;
            return a;
        }
        // NAME [+|- NUMBER]; '|' belongs to GFP strings, never an offset
        auto pos = t.find_first_of("+-", 1);
        if (pos != std::string::npos && t.find('|') == std::string::npos) {
            std::string name = trim(t.substr(0, pos)), num = trim(t.substr(pos + 1));
            if (!parse_number(num, n)) fail("bad offset '" + num + "' in '" + t + "' (expected a number)");
            a.name = name;
            a.offset = t[pos] == '+' ? std::int64_t(n) : -std::int64_t(n);
            return a;
        }
        a.name = t;
        return a;
    }

    Outcome outcome(const std::string& raw) const {
        Outcome o;
        std::string t = trim(raw);
        if (t == "ok") o.kind = Outcome::ok;
        else if (t == "any") o.kind = Outcome::any;
        else if (t == "report") o.kind = Outcome::report;
        else if (t == "fault") o.kind = Outcome::fault;
        else if (t.rfind("report(", 0) == 0 && t.back() == ')') {
            o.kind = Outcome::report;
            o.bug_type = t.substr(7, t.size() - 8);
        } else if (t.rfind("reports ", 0) == 0) {
            o.kind = Outcome::reports;
            if (!parse_number(trim(t.substr(8)), o.count)) fail("'reports' needs a number: '" + t + "'");
        } else {
            fail("unknown outcome '" + t + "': expected ok, report, report(TYPE), reports N, fault or any");
        }
        return o;
    }

    Term term(const std::string& raw) const {
        Term t;
        t.text = trim(raw);
        std::string s = t.text;
        std::uint64_t n;
        if (parse_number(s, n)) {
            t.kind = Term::number;
            t.value = n;
            return t;
        }
        if (s == "reports") { t.kind = Term::reports; return t; }
        if (s == "faults") { t.kind = Term::faults; return t; }
        if (s == "warnings") { t.kind = Term::warnings; return t; }
        if (s == "__GFP_BITS_SHIFT") { t.kind = Term::gfp_bits_shift; return t; }
        auto open = s.find('(');
        if (open != std::string::npos && s.back() == ')') {
            std::string fn = s.substr(0, open), inner = s.substr(open + 1, s.size() - open - 2);
            if (fn == "tag") t.kind = Term::tag;
            else if (fn == "memtag") t.kind = Term::memtag;
            else if (fn == "mtetag") t.kind = Term::mtetag;
            else if (fn == "pagetag") t.kind = Term::pagetag;
            else if (fn == "order") t.kind = Term::order;
            else if (fn == "zero") {
                t.kind = Term::zero;
                auto comma = inner.find(',');
                if (comma == std::string::npos) fail("zero(PTR, LEN) needs a length");
                if (!parse_number(trim(inner.substr(comma + 1)), t.len)) fail("zero(PTR, LEN): bad length");
                inner = inner.substr(0, comma);
            } else
                fail("unknown term '" + fn + "(...)': expected tag, memtag, mtetag, pagetag, order or zero");
            t.arg = arg(inner);
            return t;
        }
        if (std::isalpha((unsigned char)s[0]) || s[0] == '_') {
            t.kind = Term::var;
            t.arg = arg(s);
            return t;
        }
        fail("cannot read the term '" + s + "'");
    }

    Condition condition(const std::string& raw) const {
        Condition c;
        c.text = trim(raw);
        std::string s = c.text;
        auto in_pos = s.find(" in ");
        if (in_pos != std::string::npos) {
            c.lhs = term(s.substr(0, in_pos));
            c.op = "in";
            std::string range = s.substr(in_pos + 4);
            auto dots = range.find("..");
            if (dots == std::string::npos) fail("'in' needs a range A..B");
            c.rhs = term(range.substr(0, dots));
            c.rhs_hi = term(range.substr(dots + 2));
            return c;
        }
        for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
            auto p = s.find(op);
            if (p != std::string::npos) {
                c.lhs = term(s.substr(0, p));
                c.op = op;
                c.rhs = term(s.substr(p + std::string(op).size()));
                return c;
            }
        }
        fail("a condition needs ==, !=, <, <=, >, >= or 'in A..B': '" + s + "'");
    }

    Statement event(const std::string& body, const std::vector<Mode>& modes, int line) const {
        Statement st;
        st.kind = Statement::event;
        st.line = line;
        st.modes = modes;
        st.text = body;
        std::string s = body;
        auto arrow = s.find("=>");
        std::string out_text;
        if (arrow != std::string::npos) {
            out_text = trim(s.substr(arrow + 2));
            s = trim(s.substr(0, arrow));
        }
        auto eq = s.find('=');
        auto paren = s.find('(');
        if (eq != std::string::npos && (paren == std::string::npos || eq < paren)) {
            st.result = trim(s.substr(0, eq));
            s = trim(s.substr(eq + 1));
            if (st.result.empty() || !(std::isalpha((unsigned char)st.result[0]) || st.result[0] == '_'))
                fail("bad variable name '" + st.result + "'");
        }
        paren = s.find('(');
        auto close = s.rfind(')');
        if (paren == std::string::npos || close == std::string::npos || close < paren)
            fail("expected an event like 'p = kmalloc(107)', got '" + body + "'");
        st.call = trim(s.substr(0, paren));
        if (!kCalls.count(st.call)) {
            std::string known;
            for (const auto& c : kCalls) known += (known.empty() ? "" : ", ") + c;
            fail("unknown event '" + st.call + "'; events: " + known);
        }
        std::string inner = s.substr(paren + 1, close - paren - 1);
        if (!trim(inner).empty()) {
            int depth = 0;
            std::string cur;
            for (char ch : inner) {
                if (ch == '(') ++depth;
                if (ch == ')') --depth;
                if (ch == ',' && depth == 0) {
                    st.args.push_back(arg(cur));
                    cur.clear();
                } else {
                    cur += ch;
                }
            }
            st.args.push_back(arg(cur));
        }
        std::string rest = trim(s.substr(close + 1));
        if (!rest.empty()) {
            if (rest.rfind("cpu=", 0) != 0) fail("unexpected '" + rest + "' after the event (only cpu=N may follow)");
            std::uint64_t c;
            if (!parse_number(rest.substr(4), c)) fail("bad cpu '" + rest + "'");
            st.cpu = int(c);
        }
        if (!out_text.empty()) {
            // "report" or "hw_tags:report generic:ok"
            if (out_text.find(':') != std::string::npos &&
                out_text.rfind("report(", 0) != 0) {
                std::istringstream in(out_text);
                std::string tok;
                while (in >> tok) {
                    auto colon = tok.find(':');
                    if (colon == std::string::npos) fail("per-mode outcomes look like 'hw_tags:report generic:ok'");
                    st.outcome_by_mode[parse_mode(tok.substr(0, colon), where)] = outcome(tok.substr(colon + 1));
                }
            } else {
                st.outcome = outcome(out_text);
            }
        }
        return st;
    }
};

}  // namespace

Scenario parse_scenario(const std::string& text, const std::string& file) {
    Scenario sc;
    sc.file = file;
    {
        auto slash = file.find_last_of('/');
        std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
        auto dot = base.find('.');
        sc.name = dot == std::string::npos ? base : base.substr(0, dot);
    }
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    bool saw_modes = false;
    while (std::getline(in, raw)) {
        ++line;
        LineParser lp{file + ":" + std::to_string(line)};
        auto hash = raw.find('#');
        std::string s = trim(hash == std::string::npos ? raw : raw.substr(0, hash));
        if (s.empty()) continue;
        std::vector<Mode> modes;
        if (s[0] == '[') {
            auto close = s.find(']');
            if (close == std::string::npos) lp.fail("unclosed '[' of a mode filter");
            modes = lp.modes_list(s.substr(1, close - 1));
            s = trim(s.substr(close + 1));
        }
        std::string word = s.substr(0, s.find_first_of(" \t"));
        std::string rest = word.size() < s.size() ? trim(s.substr(word.size())) : "";
        if (word == "name") sc.name = rest;
        else if (word == "source") sc.source = rest;
        else if (word == "doc") sc.doc += (sc.doc.empty() ? "" : " ") + rest;
        else if (word == "variant") {
            if (rest.empty()) lp.fail("variant needs a name");
            sc.variant = rest;
        } else if (word == "baseline") {
            if (rest.empty()) lp.fail("baseline needs a variant name");
            sc.baseline = rest;
            sc.baseline_line = line;
        } else if (word == "modes") {
            sc.modes = lp.modes_list(rest);
            saw_modes = true;
        } else if (word == "config") {
            std::istringstream cin(rest);
            std::string kv;
            while (cin >> kv) {
                auto eq = kv.find('=');
                if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
                    lp.fail("config takes key=value pairs, got '" + kv + "'");
                sc.config[kv.substr(0, eq)] = kv.substr(eq + 1);
            }
            sc.config_line = line;
        } else if (word == "boot") {
            if (modes.empty()) sc.boot = rest;
            else
                for (Mode m : modes) sc.boot_by_mode[m] = rest;
            sc.boot_line = line;
        } else if (word == "harness") {
            if (rest == "kunit") sc.kunit_harness = true;
            else if (rest == "kernel") sc.kunit_harness = false;
            else lp.fail("harness is 'kunit' or 'kernel', got '" + rest + "'");
        } else if (word == "check" || word == "assume" || word == "observe") {
            Statement st;
            st.kind = word == "check" ? Statement::check : word == "assume" ? Statement::assume : Statement::observe;
            st.line = line;
            st.modes = modes;
            st.cond = lp.condition(rest);
            st.text = s;
            sc.statements.push_back(st);
        } else if (word == "expect") {
            Expect e;
            e.line = line;
            e.modes = modes;
            std::istringstream ein(rest);
            std::string k, v;
            ein >> k;
            std::getline(ein, v);
            v = trim(v);
            if (k == "Always" || k == "Sometimes" || k == "Never") {
                e.kind = Expect::verdict;
                e.value = k;
                if (!v.empty()) lp.fail("unexpected '" + v + "' after " + k);
            } else if (k == "probability") {
                e.kind = Expect::probability;
                if (v.find('/') == std::string::npos) lp.fail("probability is written as a fraction, e.g. 13/14");
                e.value = v;
            } else if (k == "violation") {
                static const std::set<std::string> inv = {
                    "match-all-never-faults", "mismatch-faults", "no-false-positive", "detection", "zeroing",
                    "page-tag-consistency", "tag-range", "sampling-accounting", "mode-isolation", "gfp-encoding"};
                if (!inv.count(v)) lp.fail("unknown invariant '" + v + "'");
                e.kind = Expect::violation;
                e.value = v;
            } else if (k == "reports") {
                e.kind = Expect::reports;
                std::uint64_t n;
                if (!LineParser::parse_number(v, n)) lp.fail("expect reports needs a number");
                e.value = v;
            } else {
                lp.fail("unknown expectation '" + k + "': expected Always, Sometimes, Never, probability P, "
                        "violation INVARIANT or reports N");
            }
            sc.expects.push_back(e);
        } else {
            sc.statements.push_back(lp.event(s, modes, line));
        }
    }
    (void)saw_modes;
    if (sc.statements.empty()) throw InputError(file, "the scenario has no events");
    return sc;
}

Statement parse_event_line(const std::string& text, const std::string& where) {
    LineParser lp{where};
    return lp.event(trim(text), {}, 0);
}

Scenario load_scenario(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw InputError(path, "cannot open the scenario file");
    std::stringstream ss;
    ss << f.rdbuf();
    return parse_scenario(ss.str(), path);
}

}  // namespace tagproof::scenario
