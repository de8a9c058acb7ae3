// ktap.cpp — see ktap.hpp.
#include "ktap.hpp"

#include <map>
#include <regex>

#include "error.hpp"

namespace tagproof::oracle {

namespace {

// "[    1.234567] " and, with CONFIG_PRINTK_CALLER, "[    T1] " after it.
std::string strip_printk_prefix(const std::string& l) {
    static const std::regex ts(R"(^\[\s*\d+\.\d+\](\[\s*[TC]\d+\])? ?)");
    std::smatch m;
    if (std::regex_search(l, m, ts)) return l.substr(m.length(0));
    return l;
}

int hex_byte(const std::string& s) { return int(std::stoul(s, nullptr, 16) & 0xFF); }

void check_text(const std::string& l, const std::string& where) {
    if (const std::size_t i = error_text::first_control(l, true); i != std::string::npos)
        throw InputError(where, "not a console log: the control character " + std::string(1, l[i]) + " at column " +
                                    std::to_string(i + 1) + " (binary input?)");
}

}  // namespace

KernelLog read_kernel_log(std::istream& in, const std::string& file) {
    KernelLog log;
    log.file = file;
    static const std::regex result(R"(^(not ok|ok) (\d+)(?: -)? ?(.*?)\s*(?:#\s*(SKIP|skip|TODO)\b\s*(.*))?$)");
    static const std::regex subtest(R"(^#\s*Subtest:\s*(\S+))");
    // "BUG: KASAN: slab-out-of-bounds in f+0x84/0x2c4", "BUG: KFENCE: out-of-bounds read in f",
    // "BUG: KASAN: invalid-access" (an async fault: no place)
    static const std::regex kasan(R"(BUG: (KASAN|KFENCE): (.*?)(?: in (\S+))?\s*$)");
    static const std::regex access(R"(^(Read|Write)(?: of size \d+)? at addr )");
    static const std::regex tags(R"(Pointer tag: \[([0-9a-f]{2})\], memory tag: \[([0-9a-f]{2})\])");
    static const std::regex stmt(R"(^# tagproof: L(\d+) (.*): (report|no report)$)");
    static const std::regex data(R"(^# tagproof: L(\d+) (.*): data (zero|not zero at offset (\d+)|not read .*)$)");
    static const std::regex check(R"(^# tagproof: L(\d+) check (.*): (holds|fails)$)");
    static const std::regex probe(R"(^# tagproof: L(\d+) (.*): page_address read: (report|no report)$)");
    static const std::regex ptag(R"(^# tagproof: L(\d+) (.*): pointer tag ([0-9a-f]{2})$)");
    static const std::regex version(R"(Linux version (\S+))");
    std::map<std::size_t, std::string> subtests;  // indentation -> the suite whose results are there
    std::vector<KasanReport> pending;             // reports since the last result line
    std::size_t stmt_from = 0;                    // pending[stmt_from..] belong to the next statement line
    std::vector<StatementResult> stmts;           // statement lines since the last result line
    KasanReport* last = nullptr;
    // the first crash's place: its "pc : f+0x../0x.." line and the first
    // frames of its call trace, appended to it (where the kernel stopped)
    enum { no_crash, want_pc, want_trace, in_trace, crash_told } crash = no_crash;
    int frames = 0;
    std::string raw;
    while (std::getline(in, raw)) {
        ++log.lines;
        const std::string where = file + ":" + std::to_string(log.lines);
        if (!raw.empty() && raw.back() == '\r') raw.pop_back();
        check_text(raw, where);
        std::string l = strip_printk_prefix(raw);
        std::size_t indent = 0;
        while (indent < l.size() && (l[indent] == ' ' || l[indent] == '\t')) ++indent;
        const std::string body = l.substr(indent);
        std::smatch m;
        if (std::regex_search(body, m, version) && log.version.empty()) {
            log.version = m[1];
            log.version_line = body;
        }
        if (body.find("KernelAddressSanitizer initialized") != std::string::npos) log.kasan_line = body;
        if (body.find("CPU features: detected: Memory Tagging Extension") != std::string::npos) log.mte = true;
        if (body.find("reboot: Power down") != std::string::npos) log.powered_off = true;
        if (std::regex_search(body, m, kasan)) {
            KasanReport r;
            r.bug_type = m[1] == "KFENCE" ? "KFENCE: " + m[2].str() : m[2].str();
            r.function = m[3];
            r.line = log.lines;
            pending.push_back(r);
            last = &pending.back();
            continue;
        }
        if (body.rfind("BUG: ", 0) == 0 || body.find("Kernel panic") != std::string::npos ||
            body.find("Internal error:") != std::string::npos || body.find("Unable to handle kernel") != std::string::npos ||
            body.find("kernel BUG at") != std::string::npos) {
            log.crashes.push_back(where + ": " + body);
            if (crash == no_crash) crash = want_pc;
            continue;
        }
        if (crash == want_pc && body.rfind("pc : ", 0) == 0) {
            log.crashes.front() += " (pc " + body.substr(5);
            crash = want_trace;
            continue;
        }
        if ((crash == want_pc || crash == want_trace) && body == "Call trace:") {
            crash = in_trace;
            continue;
        }
        if (crash == in_trace) {
            // " f+0x../0x..": the caller chain, innermost first, up to 6 frames
            const std::string first = body.substr(0, body.find(' '));
            const bool frame = first.find("+0x") != std::string::npos;
            if (frame && frames < 6) {
                const std::string fn = first.substr(0, first.find('+'));
                log.crashes.front() += (frames ? " <- " : log.crashes.front().find(" (pc ") != std::string::npos ? "; " : " (") + fn;
                ++frames;
                continue;
            }
            if (frame) continue;
            crash = crash_told;
        }
        if (last && std::regex_search(body, m, access)) {
            last->access = m[1];
            continue;
        }
        if (last && std::regex_search(body, m, tags)) {
            last->ptr_tag = hex_byte(m[1]);
            last->mem_tag = hex_byte(m[2]);
            continue;
        }
        if (std::regex_search(body, m, check)) {
            // a check reports nothing: what is pending belongs to the next statement
            StatementResult c;
            c.scenario_line = std::stoi(m[1]);
            c.call = m[2];
            c.check = m[3] == "holds" ? StatementResult::Check::holds : StatementResult::Check::fails;
            stmts.push_back(c);
            continue;
        }
        if (std::regex_search(body, m, probe)) {
            // the probe's own report (if any) is pending: it is the probe's, not the next statement's
            const int line = std::stoi(m[1]);
            if (!stmts.empty() && stmts.back().scenario_line == line)
                stmts.back().page_probe =
                    m[3] == "report" ? StatementResult::Probe::report : StatementResult::Probe::no_report;
            stmt_from = pending.size();
            continue;
        }
        if (std::regex_search(body, m, ptag)) {
            // the pointer of the statement just printed (a line of its own: no report of its own)
            const int line = std::stoi(m[1]);
            if (!stmts.empty() && stmts.back().scenario_line == line) stmts.back().pointer_tag = hex_byte(m[3]);
            continue;
        }
        if (std::regex_search(body, m, data)) {
            // the data of the statement just printed (its report line came first)
            const int line = std::stoi(m[1]);
            if (!stmts.empty() && stmts.back().scenario_line == line) {
                auto& s = stmts.back();
                if (m[3] == "zero") s.data = StatementResult::Data::zero;
                else if (m[4].matched) {
                    s.data = StatementResult::Data::not_zero;
                    s.nonzero_offset = std::stoul(m[4]);
                }
            }
            continue;
        }
        if (std::regex_search(body, m, stmt)) {
            StatementResult s;
            s.scenario_line = std::stoi(m[1]);
            s.call = m[2];
            s.reported = m[3] == "report";
            s.reports.assign(pending.begin() + std::ptrdiff_t(stmt_from), pending.end());
            stmt_from = pending.size();
            stmts.push_back(s);
            continue;
        }
        if (std::regex_search(body, m, subtest)) {
            subtests[indent] = m[1];
            // what was reported before a suite began is the boot's (or the
            // previous suite's teardown), not its first case's
            for (auto& r : pending) log.reports_outside_cases.push_back(r);
            pending.clear();
            stmts.clear();
            stmt_from = 0;
            last = nullptr;
            continue;
        }
        if (std::regex_search(body, m, result)) {
            // the results at a deeper indentation belonged to subtests that end here
            subtests.erase(subtests.upper_bound(indent), subtests.end());
            auto s = subtests.find(indent);
            KtapCase c;
            c.suite = s == subtests.end() ? "" : s->second;
            c.name = m[3];
            // KTAP's directives (Documentation/dev-tools/ktap.rst): SKIP, a case
            // not run; TODO, a case expected to fail, which KUnit never
            // prints: counted as a failure so that it cannot pass for "agree"
            c.result = m[4].matched ? (m[4] == "TODO" ? KtapCase::not_ok : KtapCase::skip)
                       : m[1] == "ok" ? KtapCase::ok
                                      : KtapCase::not_ok;
            c.directive = m[5];
            c.line = log.lines;
            c.reports = std::move(pending);
            c.statements = std::move(stmts);
            pending.clear();
            stmts.clear();
            stmt_from = 0;
            last = nullptr;
            log.cases.push_back(std::move(c));
            continue;
        }
    }
    if (log.lines == 0) throw InputError(file, "empty: expected a kernel console log");
    if (crash == want_trace || crash == in_trace || crash == crash_told) log.crashes.front() += ")";
    // reports after the last result line: the boot's, or a case that never ended
    for (auto& r : pending) log.reports_outside_cases.push_back(r);
    return log;
}

std::vector<const KtapCase*> suite_cases(const KernelLog& log, const std::string& suite) {
    std::vector<const KtapCase*> out;
    for (const auto& c : log.cases)
        if (c.suite == suite) out.push_back(&c);
    return out;
}

}  // namespace tagproof::oracle
