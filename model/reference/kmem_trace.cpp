// kmem_trace.cpp — see kmem_trace.hpp.
#include "kmem_trace.hpp"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "error.hpp"

namespace tagproof::reference {

const char* kmem_event_name(KmemEvent::Kind k) {
    switch (k) {
        case KmemEvent::page_alloc: return "mm_page_alloc";
        case KmemEvent::page_free: return "mm_page_free";
        case KmemEvent::kmalloc: return "kmalloc";
        case KmemEvent::kfree: return "kfree";
    }
    return "?";
}

namespace {

using Tp = KmemEvent::Tp;

struct TpName {
    const char* name;
    Tp tp;
    KmemEvent::Kind kind;
};
// the tracepoints replayed, by the name they print
constexpr TpName kReplayed[] = {
    {"mm_page_alloc", Tp::mm_page_alloc, KmemEvent::page_alloc},
    {"mm_page_free", Tp::mm_page_free, KmemEvent::page_free},
    {"mm_page_free_direct", Tp::mm_page_free_direct, KmemEvent::page_free},
    {"mm_page_free_batched", Tp::mm_page_free_batched, KmemEvent::page_free},
    {"mm_pagevec_free", Tp::mm_pagevec_free, KmemEvent::page_free},
    {"mm_page_pcpu_drain", Tp::mm_page_pcpu_drain, KmemEvent::page_free},
    {"kmalloc", Tp::kmalloc, KmemEvent::kmalloc},
    {"kmalloc_node", Tp::kmalloc_node, KmemEvent::kmalloc},
    {"kfree", Tp::kfree, KmemEvent::kfree},
};
// kmem tracepoints counted by name and left out (kmem_trace.hpp says why)
constexpr const char* kKmemNotReplayed[] = {"kmem_cache_alloc", "kmem_cache_alloc_node", "kmem_cache_free",
                                            "mm_page_alloc_zone_locked", "mm_page_alloc_extfrag"};

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident(std::string_view s, bool lower_only) {
    if (s.empty() || is_digit(s[0])) return false;
    for (char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || c == '_' || is_digit(c) || (!lower_only && c >= 'A' && c <= 'Z');
        if (!ok) return false;
    }
    return true;
}
bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!is_digit(c)) return false;
    return true;
}
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "5312.123456:" (or a counter clock's "123456789:")
bool is_timestamp(std::string_view t) {
    if (t.size() < 2 || t.back() != ':') return false;
    t.remove_suffix(1);
    const std::size_t dot = t.find('.');
    if (dot == std::string_view::npos) return all_digits(t);
    return all_digits(t.substr(0, dot)) && all_digits(t.substr(dot + 1));
}
// "[001]"
bool is_cpu_column(std::string_view t) { return t.size() >= 3 && t.front() == '[' && t.back() == ']' && all_digits(t.substr(1, t.size() - 2)); }

// "mm_page_alloc:" or "kmem:mm_page_alloc:"; name is without the colon
bool is_event_token(std::string_view t, bool column0, std::string_view& system, std::string_view& name) {
    if (t.size() < 2 || t.size() > 129 || t.back() != ':') return false;
    t.remove_suffix(1);
    const std::size_t colon = t.find(':');
    system = colon == std::string_view::npos ? std::string_view() : t.substr(0, colon);
    name = colon == std::string_view::npos ? t : t.substr(colon + 1);
    if (colon != std::string_view::npos && !is_ident(system, column0)) return false;
    return is_ident(name, column0);
}

struct Token {
    std::string_view text;
    std::size_t at;
};

std::vector<Token> tokens(std::string_view s) {
    std::vector<Token> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        const std::size_t b = i;
        while (i < s.size() && !is_space(s[i])) ++i;
        if (i > b) out.push_back({s.substr(b, i - b), b});
    }
    return out;
}

struct EventLine {
    std::string_view system, name, head, fields;
    bool trace_line_without_event = false;  // "TASK-PID [CPU] TIMESTAMP: text" (function tracer, ...)
};

// The event of a line in any of the forms kmem_trace.hpp lists, or false.
bool split_event_line(std::string_view s, EventLine& out) {
    const std::vector<Token> tok = tokens(s);
    bool seen_cpu = false, seen_time = false;
    for (std::size_t i = 0; i < tok.size(); ++i) {
        const std::string_view t = tok[i].text;
        const bool after_time = i > 0 && (is_timestamp(tok[i - 1].text) || is_cpu_column(tok[i - 1].text));
        if ((i == 0 || after_time) && is_event_token(t, i == 0, out.system, out.name)) {
            out.head = s.substr(0, tok[i].at);
            out.fields = s.substr(tok[i].at + t.size());
            return true;
        }
        seen_cpu |= is_cpu_column(t);
        seen_time |= seen_cpu && is_timestamp(t);
    }
    out.trace_line_without_event = seen_time;
    return false;
}

// Finds `key=` among the space-separated fields; out is its value.
bool field(std::string_view fields, std::string_view key, std::string_view& out) {
    std::size_t pos = 0;
    while (pos < fields.size()) {
        while (pos < fields.size() && is_space(fields[pos])) ++pos;
        std::size_t end = pos;
        while (end < fields.size() && !is_space(fields[end])) ++end;
        std::string_view tok = fields.substr(pos, end - pos);
        if (tok.size() > key.size() && tok.substr(0, key.size()) == key && tok[key.size()] == '=') {
            out = tok.substr(key.size() + 1);
            return true;
        }
        pos = end;
    }
    return false;
}

std::string kv(std::string_view key, std::string_view v) { return quote_token(std::string(key) + "=" + std::string(v)); }

// A number as %lu / %zu / %u / 0x%lx print it, held to 0..max; `range` says
// what the range is in the error.
std::uint64_t number(std::string_view v, const std::string& where, std::string_view key, std::uint64_t max,
                     const char* range) {
    std::string_view d = v;
    int base = 10;
    if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
        d.remove_prefix(2);
        base = 16;
    }
    std::uint64_t n = 0;
    auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), n, base);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && p == d.data() + d.size() && n > max))
        throw InputError(where, kv(key, v) + ": out of range " + range);
    if (ec != std::errc() || p != d.data() + d.size() || d.empty())
        throw InputError(where, kv(key, v) + ": expected a number " + range);
    return n;
}

std::string_view need(std::string_view fields, std::string_view key, const std::string& where) {
    std::string_view v;
    if (!field(fields, key, v)) throw InputError(where, "missing " + std::string(key) + "=");
    return v;
}

// %p: bare hex (ftrace), 0x-hex (libtraceevent), "(null)" (NULL, older
// kernels), "(nil)" (NULL, glibc's %p in trace-cmd / perf). nullopt-like: ok=false
// for "(____ptrval____)", which names no pointer.
std::uint64_t pointer(std::string_view v, const std::string& where, std::string_view key, bool& is_null) {
    is_null = false;
    if (v == "(null)" || v == "(nil)") {
        is_null = true;
        return 0;
    }
    if (v == "(____ptrval____)" || v == "(ptrval)")
        throw InputError(where, kv(key, v) + ": the kernel printed no pointer (%p before its hash key was ready)");
    std::string_view d = v;
    if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) d.remove_prefix(2);
    std::uint64_t n = 0;
    auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), n, 16);
    if (ec == std::errc::result_out_of_range) throw InputError(where, kv(key, v) + ": out of range: a pointer has 64 bits");
    if (ec != std::errc() || p != d.data() + d.size() || d.empty())
        throw InputError(where, kv(key, v) + ": expected a pointer (hex digits, (null) or (nil))");
    is_null = n == 0;
    return n;
}

gfp_t need_gfp(std::string_view fields, const GfpLayout& layout, const std::string& where) {
    std::string_view v = need(fields, "gfp_flags", where);
    if (v == "none" || v.empty()) return 0;  // show_gfp_flags prints "none" for 0
    std::size_t b = 0;
    while (b <= v.size()) {  // a flag name longer than any the kernel has is not echoed whole
        std::size_t e = v.find('|', b);
        if (e == std::string_view::npos) e = v.size();
        if (e - b > 80)
            throw InputError(where, "gfp_flags=" + quote_token(std::string(v.substr(b, e - b))) + ": no GFP flag is that long");
        b = e + 1;
    }
    return layout.parse(std::string(v), where);
}

// the last "[001]" before the event: the CPU; -1 when there is none
std::int32_t cpu_of(std::string_view head, const std::string& where) {
    std::int32_t cpu = -1;
    for (const Token& t : tokens(head)) {
        if (!is_cpu_column(t.text)) continue;
        std::uint64_t c = 0;
        const std::string_view d = t.text.substr(1, t.text.size() - 2);
        auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), c);
        if (ec != std::errc() || c > std::uint64_t(kMaxCpu))
            throw InputError(where, "CPU " + quote_token(std::string(t.text)) + ": out of range 0.." +
                                        std::to_string(kMaxCpu) + " (NR_CPUS)");
        cpu = std::int32_t(c);
    }
    return cpu;
}

void count_name(std::map<std::string, std::uint64_t>& m, std::string_view name) {
    auto it = m.find(std::string(name));
    if (it != m.end()) ++it->second;
    else if (m.size() < KmemTrace::kMaxNames) m.emplace(std::string(name), 1);
    else ++m["(more names)"];
}

// trace-cmd report's and perf's lines around the events
bool is_tool_header(std::string_view s) {
    if (starts_with(s, "cpus=") && all_digits(s.substr(5))) return true;       // trace-cmd report
    if (starts_with(s, "version = ")) return true;                             // trace-cmd report
    if (starts_with(s, "CPU ") && s.size() > 9 && s.substr(s.size() - 9) == " is empty") return true;
    if (starts_with(s, "CPU") && s.find(" data recorded at offset=") != std::string_view::npos) return true;
    return false;
}

// "CPU:1 [LOST 12 EVENTS]" (ftrace), "CPU:1 [12 EVENTS DROPPED]" (trace-cmd)
bool lost_marker(std::string_view s, std::uint64_t& lost) {
    if (!starts_with(s, "CPU:")) return false;
    const std::size_t lb = s.find('[');
    if (lb == std::string_view::npos) return false;
    std::string_view r = s.substr(lb + 1);
    const bool ftrace = starts_with(r, "LOST ");
    if (ftrace) r.remove_prefix(5);
    auto [p, ec] = std::from_chars(r.data(), r.data() + r.size(), lost);
    if (ec != std::errc()) return false;
    const std::string_view rest(p, std::size_t(r.data() + r.size() - p));
    return starts_with(rest, ftrace ? " EVENTS]" : " EVENTS DROPPED]");
}

// A binary file the user may have meant to convert first.
std::string binary_hint(std::string_view first_line) {
    if (starts_with(first_line, "\x17\x08\x44tracing")) return " (a trace-cmd trace.dat: replay the text of `trace-cmd report` on it)";
    if (starts_with(first_line, "PERFILE2")) return " (a perf.data file: replay the text of `perf script` on it)";
    return "";
}

}  // namespace

const char* kmem_tracepoint_name(KmemEvent::Tp tp) {
    for (const TpName& t : kReplayed)
        if (t.tp == tp) return t.name;
    return "?";
}

std::string quote_token(const std::string& tok) {
    if (tok.size() <= 80) return tok;
    return tok.substr(0, 80) + "... (" + std::to_string(tok.size()) + " bytes)";
}

namespace {

struct Reader {
    KmemTrace& t;
    const GfpLayout& layout;
    bool lenient;

    void skip(const InputError& err, std::uint64_t& counter) {
        if (!lenient) throw err;
        ++counter;
        if (t.first_errors.size() < 5) t.first_errors.push_back(err.what());
    }

    // one line, without its '\n'; `offset` is the file offset of its first byte
    void line(std::string_view s, std::uint32_t n, std::uint64_t offset, std::uint64_t full_size) {
        ++t.lines;
        const std::string where = t.file + ":" + std::to_string(n);
        if (full_size > kMaxLineBytes) {
            const std::string what = "line of " + std::to_string(full_size) + " bytes, longer than any trace line";
            if (t.first_binary.empty()) t.first_binary = "line " + std::to_string(n) + " is " + std::to_string(full_size) + " bytes long";
            return skip(InputError(where, what), t.binary_lines);
        }
        if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
        if (n == 1 && starts_with(s, "\xEF\xBB\xBF")) s.remove_prefix(3);  // a UTF-8 byte-order mark (an editor's)
        if (const std::size_t i = error_text::first_control(s); i != std::string_view::npos) {
            char b[160];
            std::snprintf(b, sizeof b, "byte 0x%02x at column %zu (file offset %llu)", (unsigned char)s[i], i + 1,
                          (unsigned long long)(offset + i));
            if (t.first_binary.empty()) t.first_binary = "line " + std::to_string(n) + ": " + b;
            return skip(InputError(where, std::string("not text: ") + b + ": a binary file, not a trace" +
                                              (n == 1 ? binary_hint(s) : "")),
                        t.binary_lines);
        }
        std::size_t first = 0;
        while (first < s.size() && is_space(s[first])) ++first;
        const std::string_view trimmed = s.substr(first);
        if (trimmed.empty() || trimmed[0] == '#' || is_tool_header(trimmed)) {
            ++t.header_lines;
            return;
        }
        if (std::uint64_t lost = 0; lost_marker(trimmed, lost)) {
            ++t.lost_markers;
            t.lost_events += lost;
            return;
        }
        EventLine ev;
        if (!split_event_line(trimmed, ev)) {
            if (ev.trace_line_without_event) {
                ++t.other_events;
                count_name(t.other_by_name, "(trace lines of no event: function tracer, ...)");
            } else {
                ++t.non_event_lines;
            }
            return;
        }
        if (!ev.system.empty() && ev.system != "kmem") {
            ++t.other_events;
            count_name(t.other_by_name, std::string(ev.system) + ":" + std::string(ev.name));
            return;
        }
        const TpName* tp = nullptr;
        for (const TpName& r : kReplayed)
            if (ev.name == r.name) tp = &r;
        if (!tp) {
            for (const char* k : kKmemNotReplayed)
                if (ev.name == k) {
                    ++t.kmem_not_replayed;
                    count_name(t.kmem_not_replayed_by_name, ev.name);
                    return;
                }
            ++t.other_events;
            count_name(t.other_by_name, ev.system.empty() ? std::string(ev.name) : std::string(ev.system) + ":" + std::string(ev.name));
            return;
        }
        try {
            kmem_line(*tp, ev, n, where);
        } catch (const InputError& err) {
            skip(err, t.malformed);
        }
    }

    void kmem_line(const TpName& tp, const EventLine& ev, std::uint32_t n, const std::string& where) {
        KmemEvent e;
        e.kind = tp.kind;
        e.tp = tp.tp;
        e.line = n;
        e.cpu = cpu_of(ev.head, where);
        const std::string_view f = ev.fields;
        static constexpr char kOrderRange[] = "0..10 (MAX_PAGE_ORDER, 4K pages)";
        static constexpr char kPfnRange[] = "0..0xffffffffff (2^40 pages: 52-bit physical addresses, 4K pages)";
        static constexpr char kSizeRange[] = "0..4194304 (KMALLOC_MAX_SIZE: 4 MiB with 4K pages)";
        static constexpr char kSizeTRange[] = "0..2^64-1 (size_t)";
        auto page_block = [&] {
            e.pfn = number(need(f, "pfn", where), where, "pfn", kMaxPfn, kPfnRange);
            if (tp.tp == Tp::mm_page_free_batched || tp.tp == Tp::mm_pagevec_free) {
                std::string_view o;  // printed as a constant "order=0"
                if (field(f, "order", o) && o != "0")
                    throw InputError(where, kv("order", o) + ": " + tp.name + " always prints order=0");
                e.order = 0;
            } else {
                e.order = std::uint32_t(number(need(f, "order", where), where, "order", kMaxPageOrder, kOrderRange));
            }
            const std::uint64_t size = std::uint64_t(1) << e.order;
            if (e.pfn % size)
                throw InputError(where, kv("pfn", need(f, "pfn", where)) + " order=" + std::to_string(e.order) +
                                            ": not the head of an order-" + std::to_string(e.order) +
                                            " block (buddy blocks start at a multiple of " + std::to_string(size) +
                                            " pages)");
            // aligned, a block ends below kMaxPfn + 1, a multiple of every block size
        };
        switch (e.kind) {
            case KmemEvent::page_alloc: {
                e.gfp = need_gfp(f, layout, where);
                std::string_view page;
                bool null_page = false;
                if (field(f, "page", page)) {  // "(null)" / 0: __alloc_pages() failed; pfn is printed 0
                    null_page = page == "(null)" || page == "(nil)";
                    if (!null_page && !page.empty()) {
                        std::string_view d = page;
                        if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) d.remove_prefix(2);
                        null_page = !d.empty() && d.find_first_not_of('0') == std::string_view::npos;
                    }
                }
                if (null_page) {
                    number(need(f, "order", where), where, "order", kMaxPageOrder, kOrderRange);
                    ++t.failed_page_allocs;
                    return;
                }
                page_block();
                break;
            }
            case KmemEvent::page_free: page_block(); break;
            case KmemEvent::kmalloc: {
                bool null_ptr = false;
                e.ptr = pointer(need(f, "ptr", where), where, "ptr", null_ptr);
                // a kmalloc that failed (ptr=NULL) may have asked for any size
                const std::uint64_t max = null_ptr ? ~std::uint64_t(0) : kMaxKmallocSize;
                const char* range = null_ptr ? kSizeTRange : kSizeRange;
                e.bytes_req = number(need(f, "bytes_req", where), where, "bytes_req", max, range);
                e.bytes_alloc = number(need(f, "bytes_alloc", where), where, "bytes_alloc", max, range);
                e.gfp = need_gfp(f, layout, where);
                if (null_ptr) {
                    ++t.failed_kmallocs;
                    return;
                }
                if (e.bytes_alloc < e.bytes_req)
                    throw InputError(where, "bytes_alloc=" + std::to_string(e.bytes_alloc) + " is below bytes_req=" +
                                                std::to_string(e.bytes_req));
                break;
            }
            case KmemEvent::kfree: {
                bool null_ptr = false;
                e.ptr = pointer(need(f, "ptr", where), where, "ptr", null_ptr);
                if (null_ptr) {  // kfree(NULL): traced, then ZERO_OR_NULL_PTR() returns
                    ++t.kfree_null;
                    return;
                }
                if (e.ptr <= 16) {  // kfree(ZERO_SIZE_PTR), what kmalloc(0) returned
                    ++t.kfree_zero_size;
                    return;
                }
                break;
            }
        }
        t.events.push_back(e);
    }
};

}  // namespace

KmemTrace read_kmem_trace(std::istream& in, const std::string& file, const GfpLayout& layout, bool lenient) {
    KmemTrace t;
    t.file = file;
    Reader r{t, layout, lenient};
    std::string line;
    std::uint64_t line_size = 0, line_offset = 0, offset = 0;  // line_size counts past kMaxLineBytes
    std::uint32_t n = 0;
    bool pending = false;
    static constexpr std::size_t kBuf = 1 << 16;
    std::vector<char> buf(kBuf);
    while (in) {
        in.read(buf.data(), std::streamsize(kBuf));
        const std::size_t got = std::size_t(in.gcount());
        if (got == 0) break;
        std::size_t b = 0;
        while (b < got) {
            const char* nl = static_cast<const char*>(std::memchr(buf.data() + b, '\n', got - b));
            const std::size_t e = nl ? std::size_t(nl - buf.data()) : got;
            const std::size_t len = e - b;
            if (line_size + len <= kMaxLineBytes) line.append(buf.data() + b, len);
            line_size += len;
            pending = true;
            offset += len;
            b = e;
            if (nl) {
                if (n == UINT32_MAX) throw InputError(file, "more than 2^32 lines");
                r.line(line, ++n, line_offset, line_size);
                line.clear();
                line_size = 0;
                pending = false;
                ++b;
                ++offset;
                line_offset = offset;
            }
        }
    }
    if (in.bad()) throw InputError(file, "read error after " + std::to_string(offset) + " bytes");
    if (pending) r.line(line, ++n, line_offset, line_size);
    if (!lenient) check_is_trace(t);
    return t;
}

void check_is_trace(const KmemTrace& t) {
    if (t.lines == 0) throw InputError(t.file, "empty file: no trace lines");
    if (t.event_lines() > 0) return;
    if (t.binary_lines)
        throw InputError(t.file, "not text: " + std::to_string(t.binary_lines) + " of " + std::to_string(t.lines) +
                                     " lines are not text (first: " + t.first_binary + "), and no line is a trace event");
    throw InputError(t.file, "no trace event lines: " + std::to_string(t.lines) + " lines (" +
                                 std::to_string(t.header_lines) + " headers or blank, " +
                                 std::to_string(t.non_event_lines) +
                                 " other text), none of the form 'TASK-PID [CPU] TIMESTAMP: EVENT: FIELDS' (ftrace, "
                                 "trace-cmd report), 'COMM PID [CPU] TIMESTAMP: kmem:EVENT: FIELDS' (perf script) "
                                 "or 'EVENT: FIELDS'");
}

}  // namespace tagproof::reference
