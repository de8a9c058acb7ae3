// kept_fields.cpp — see kept_fields.hpp.
#include "kept_fields.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace tagproof::kept {

void put(std::ostream& o, const std::string& s) { o << s.size() << ':' << s << '\n'; }
void put(std::ostream& o, std::uint64_t n) { put(o, std::to_string(n)); }
void put_list(std::ostream& o, const std::vector<std::string>& v) {
    put(o, std::uint64_t(v.size()));
    for (const auto& s : v) put(o, s);
}

bool get(std::istream& in, std::string& s) {
    std::size_t n = 0;
    char colon = 0;
    if (!(in >> n) || !in.get(colon) || colon != ':' || n > (std::size_t(1) << 30)) return false;
    s.resize(n);
    if (!in.read(s.data(), std::streamsize(n))) return false;
    return in.get() == '\n';
}
bool get(std::istream& in, std::uint64_t& x) {
    std::string s;
    if (!get(in, s) || s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    x = std::strtoull(s.c_str(), nullptr, 10);
    return true;
}
bool get_list(std::istream& in, std::vector<std::string>& v) {
    std::uint64_t n = 0;
    if (!get(in, n) || n > 1000000) return false;
    v.resize(n);
    for (auto& s : v)
        if (!get(in, s)) return false;
    return true;
}

bool write_whole(const std::string& path, const std::string& text) {
    namespace fs = std::filesystem;
    std::error_code ec;
    // the process and a count: two threads of one review may keep the same entry at once
    static std::atomic<unsigned> n{0};
    const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n++);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!(out << text)) {
            fs::remove(tmp, ec);
            return false;
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) fs::remove(tmp, ec);
    return !ec;
}

}  // namespace tagproof::kept
