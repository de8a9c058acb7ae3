// kmem_trace.cpp — see kmem_trace.hpp.
#include "kmem_trace.hpp"

#include <charconv>
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

// Finds `key=` among the space-separated fields; out is its value.
bool field(std::string_view fields, std::string_view key, std::string_view& out) {
    std::size_t pos = 0;
    while (pos < fields.size()) {
        while (pos < fields.size() && fields[pos] == ' ') ++pos;
        std::size_t end = fields.find(' ', pos);
        if (end == std::string_view::npos) end = fields.size();
        std::string_view tok = fields.substr(pos, end - pos);
        if (tok.size() > key.size() && tok.substr(0, key.size()) == key && tok[key.size()] == '=') {
            out = tok.substr(key.size() + 1);
            return true;
        }
        pos = end;
    }
    return false;
}

std::uint64_t number(std::string_view v, const std::string& where, std::string_view key, bool hex_only = false) {
    int base = 10;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
        v.remove_prefix(2);
        base = 16;
    } else if (hex_only) {
        base = 16;  // %p prints bare hex on some versions
    }
    std::uint64_t n = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n, base);
    if (ec != std::errc() || p != v.data() + v.size() || v.empty())
        throw InputError(where, std::string(key) + "=" + std::string(v) + ": expected a number");
    return n;
}

std::uint64_t need_number(std::string_view fields, std::string_view key, const std::string& where, bool hex = false) {
    std::string_view v;
    if (!field(fields, key, v)) throw InputError(where, "missing " + std::string(key) + "=");
    return number(v, where, key, hex);
}

gfp_t need_gfp(std::string_view fields, const GfpLayout& layout, const std::string& where) {
    std::string_view v;
    if (!field(fields, "gfp_flags", v)) throw InputError(where, "missing gfp_flags=");
    if (v == "none" || v.empty()) return 0;  // show_gfp_flags prints "none" for 0
    return layout.parse(std::string(v), where);
}

// "[001]" anywhere before the timestamp
std::int32_t cpu_of(std::string_view head) {
    std::size_t lb = head.find('[');
    if (lb == std::string_view::npos) return -1;
    std::size_t rb = head.find(']', lb);
    if (rb == std::string_view::npos) return -1;
    std::int32_t c = -1;
    auto [p, ec] = std::from_chars(head.data() + lb + 1, head.data() + rb, c);
    return ec == std::errc() && p == head.data() + rb ? c : -1;
}

}  // namespace

KmemTrace read_kmem_trace(std::istream& in, const std::string& file, const GfpLayout& layout, bool lenient) {
    KmemTrace t;
    std::string line;
    std::uint32_t n = 0;
    static const std::pair<const char*, KmemEvent::Kind> kNames[] = {{" mm_page_alloc: ", KmemEvent::page_alloc},
                                                                   {" mm_page_free: ", KmemEvent::page_free},
                                                                   {" kmalloc: ", KmemEvent::kmalloc},
                                                                   {" kfree: ", KmemEvent::kfree}};
    while (std::getline(in, line)) {
        ++n;
        std::string_view s = line;
        if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
        std::size_t first = s.find_first_not_of(' ');
        if (first == std::string_view::npos || s[first] == '#') {
            ++t.header_lines;
            continue;
        }
        const KmemEvent::Kind* kind = nullptr;
        std::size_t at = 0, len = 0;
        for (const auto& [name, k] : kNames) {
            std::size_t p = s.find(name);
            if (p != std::string_view::npos) {
                kind = &k;
                at = p;
                len = std::strlen(name);
                break;
            }
        }
        if (!kind) {
            ++t.other_events;
            continue;
        }
        std::string where = file + ":" + std::to_string(n);
        try {
            KmemEvent e;
            e.kind = *kind;
            e.line = n;
            e.cpu = cpu_of(s.substr(0, at));
            std::string_view f = s.substr(at + len);
            switch (e.kind) {
                case KmemEvent::page_alloc:
                case KmemEvent::page_free:
                    e.pfn = need_number(f, "pfn", where);
                    e.order = std::uint32_t(need_number(f, "order", where));
                    if (e.order > 10) throw InputError(where, "order=" + std::to_string(e.order) + ": above MAX_PAGE_ORDER (10 with 4K pages)");
                    if (e.kind == KmemEvent::page_alloc) e.gfp = need_gfp(f, layout, where);
                    break;
                case KmemEvent::kmalloc:
                    e.ptr = need_number(f, "ptr", where, true);
                    e.bytes_req = need_number(f, "bytes_req", where);
                    e.bytes_alloc = need_number(f, "bytes_alloc", where);
                    e.gfp = need_gfp(f, layout, where);
                    if (e.bytes_alloc < e.bytes_req)
                        throw InputError(where, "bytes_alloc=" + std::to_string(e.bytes_alloc) + " is below bytes_req=" +
                                                    std::to_string(e.bytes_req));
                    break;
                case KmemEvent::kfree: e.ptr = need_number(f, "ptr", where, true); break;
            }
            t.events.push_back(e);
        } catch (const InputError& err) {
            if (!lenient) throw;
            ++t.malformed;
            if (t.first_errors.size() < 5) t.first_errors.push_back(err.what());
        }
    }
    return t;
}

}  // namespace tagproof::reference
