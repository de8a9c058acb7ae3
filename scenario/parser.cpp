// parser.cpp — scenario text to Scenario, with file:line errors.
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include <numeric>

#include "bug_types.hpp"
#include "calls.hpp"
#include "config_keys.hpp"
#include "error.hpp"
#include "model.hpp"
#include "number.hpp"
#include "scenario.hpp"

namespace tagproof::scenario {

namespace {

std::string trim(const std::string& s) {
    auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

struct LineParser {
    std::string where;

    [[noreturn]] void fail(const std::string& msg) const { throw InputError(where, msg); }

    static bool parse_number(const std::string& s, std::uint64_t& out) { return read_number(s, out) == NumberRead::ok; }

    // "P/Q" with 0 <= P <= Q, Q > 0, in lowest terms as the runner prints it.
    std::string probability(const std::string& v) const {
        const auto slash = v.find('/');
        std::uint64_t p = 0, q = 0;
        if (slash == std::string::npos || !parse_number(trim(v.substr(0, slash)), p) ||
            !parse_number(trim(v.substr(slash + 1)), q))
            fail("probability is a fraction P/Q of whole numbers, e.g. 13/14, got '" + v + "'");
        if (q == 0) fail("probability '" + v + "' divides by zero");
        if (p > q) fail("probability '" + v + "' is above 1");
        const std::uint64_t g = std::gcd(p, q);
        return std::to_string(p / g) + "/" + std::to_string(q / g);
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
            if (n > kMaxOffset)
                fail("offset '" + num + "' in '" + t + "' is beyond 2^56-1: an offset moves the address bits under "
                     "the pointer's tag, and a larger one only wraps");
            if (name.empty() || !(std::isalpha((unsigned char)name[0]) || name[0] == '_'))
                fail("'" + t + "': an offset follows a variable name (p + 8, p - 1)");
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
            o.bug_type = trim(t.substr(7, t.size() - 8));
            if (!spec::known_bug_type(o.bug_type))
                fail("unknown bug type '" + o.bug_type + "' in '" + t + "'; the model reports: " + spec::bug_type_list());
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
            if (fn == "gfp") {  // the build's mask of GFP flags: a layout, not a pointer
                t.kind = Term::gfp_mask;
                t.gfp = trim(inner);
                if (t.gfp.empty()) fail("gfp(FLAGS) needs flags, e.g. gfp(__GFP_NOLOCKDEP)");
                return t;
            }
            if (fn == "tag") t.kind = Term::tag;
            else if (fn == "memtag") t.kind = Term::memtag;
            else if (fn == "mtetag") t.kind = Term::mtetag;
            else if (fn == "pagetag") t.kind = Term::pagetag;
            else if (fn == "order") t.kind = Term::order;
            else if (fn == "null") t.kind = Term::null;
            else if (fn == "zero") {
                t.kind = Term::zero;
                auto comma = inner.find(',');
                if (comma == std::string::npos) fail("zero(PTR, LEN) needs a length");
                if (!parse_number(trim(inner.substr(comma + 1)), t.len)) fail("zero(PTR, LEN): bad length");
                inner = inner.substr(0, comma);
            } else
                fail("unknown term '" + fn + "(...)': expected tag, memtag, mtetag, pagetag, order, zero, null or gfp");
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
            if (c.rhs.kind == Term::number && c.rhs_hi.kind == Term::number && c.rhs.value > c.rhs_hi.value)
                fail("the range '" + trim(range) + "' is empty: its low end is above its high end");
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
            if (out_text.empty())
                fail("nothing after '=>': expected ok, report, report(TYPE), reports N, fault or any");
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
        const CallSpec* spec = find_call(st.call);
        if (!spec) fail("unknown event '" + st.call + "'; events: " + call_names());
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
            if (depth != 0) fail("unbalanced parentheses in '" + inner + "'");
            st.args.push_back(arg(cur));
        }
        if (st.args.size() < spec->required || st.args.size() > spec->args.size())
            fail(st.call + " takes " +
                 (spec->required == spec->args.size()
                      ? std::to_string(spec->required)
                      : std::to_string(spec->required) + ".." + std::to_string(spec->args.size())) +
                 " argument(s), got " + std::to_string(st.args.size()));
        for (std::size_t i = 0; i < st.args.size(); ++i) check_arg(*spec, i, st.args[i], where);
        std::string rest = trim(s.substr(close + 1));
        if (!rest.empty()) {
            if (rest.rfind("cpu=", 0) != 0) fail("unexpected '" + rest + "' after the event (only cpu=N may follow)");
            std::uint64_t c;
            if (!parse_number(rest.substr(4), c) || c >= std::uint64_t(spec::ModelConfig::kMaxCpus))
                fail("bad cpu '" + rest + "': expected cpu=0.." + std::to_string(spec::ModelConfig::kMaxCpus - 1));
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
    // A UTF-8 byte-order mark (some editors write one) is not part of the text.
    const std::size_t bom = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    std::istringstream in(text.substr(bom));
    std::string raw;
    int line = 0;
    bool saw_modes = false;
    int name_line = 0;
    while (std::getline(in, raw)) {
        ++line;
        LineParser lp{file + ":" + std::to_string(line)};
        // text only: a NUL or a control character is not part of any statement
        // (the message shows it escaped, error.hpp); tabs and a final CR are blanks
        const std::string_view text = !raw.empty() && raw.back() == '\r' ? std::string_view(raw).substr(0, raw.size() - 1)
                                                                           : std::string_view(raw);
        if (const std::size_t i = error_text::first_control(text); i != std::string_view::npos) {
            const unsigned char ch = (unsigned char)raw[i];
            lp.fail("column " + std::to_string(i + 1) + ": " +
                        (ch == 0 ? std::string("a NUL byte: this is not a scenario text file")
                                 : "the control character " + std::string(1, char(ch)) + " (0x" +
                                       "0123456789abcdef"[ch >> 4] + "0123456789abcdef"[ch & 15] + ")"));
        }
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
        if (word == "name") {
            if (rest.empty()) lp.fail("name needs a name");
            if (name_line) lp.fail("a second 'name' (the first is at line " + std::to_string(name_line) + ")");
            sc.name = rest;
            name_line = line;
        }
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
                const std::string key = kv.substr(0, eq);
                if (sc.config_lines.count(key))
                    lp.fail("config " + key + " is set twice (first at line " + std::to_string(sc.config_lines[key]) + ")");
                check_config(key, kv.substr(eq + 1), lp.where);
                sc.config[key] = kv.substr(eq + 1);
                sc.config_lines[key] = line;
            }
            if (rest.empty()) lp.fail("config needs key=value pairs");
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
                e.value = lp.probability(v);
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
                e.count = n;
            } else {
                lp.fail("unknown expectation '" + k + "': expected Always, Sometimes, Never, probability P, "
                        "violation INVARIANT or reports N");
            }
            for (const Expect& o : sc.expects) {
                bool overlap = o.modes.empty() || e.modes.empty();
                for (Mode m : e.modes)
                    for (Mode n : o.modes) overlap |= m == n;
                if (overlap && o.kind == e.kind && (e.kind != Expect::violation || o.value == e.value))
                    lp.fail("a second expectation of the same kind for the same modes (the first is at line " +
                            std::to_string(o.line) + "); put a [mode] filter on each");
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
