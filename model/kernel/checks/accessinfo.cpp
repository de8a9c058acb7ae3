// accessinfo.cpp — see accessinfo.hpp.
#include "accessinfo.hpp"

#include <cctype>

#include "domain.hpp"
#include "error.hpp"

namespace tagproof::kernel {

std::uint64_t encode(const AccessInfo& a) {
    return accessinfo_encode<Concrete>(a.size_log2, a.is_write, a.recover, a.match_all, a.has_match_all,
                                       a.compile_kernel);
}

AccessInfo decode(std::uint64_t v) {
    AccessInfo a;
    a.size_log2 = unsigned(v & 0xF);
    a.is_write = v >> kIsWriteShift & 1;
    a.recover = v >> kRecoverShift & 1;
    a.match_all = std::uint8_t(v >> kMatchAllShift);
    a.has_match_all = v >> kHasMatchAllShift & 1;
    a.compile_kernel = v >> kCompileKernelShift & 1;
    return a;
}

std::string describe(const AccessInfo& a) {
    std::string s = std::to_string(1u << a.size_log2) + "-byte " + (a.is_write ? "store" : "load");
    s += a.recover ? ", recover" : ", no recover (abort)";
    if (a.has_match_all) {
        char b[8];
        std::snprintf(b, sizeof b, "0x%02x", a.match_all);
        s += std::string(", match-all ") + b;
    } else {
        s += ", no match-all";
    }
    s += a.compile_kernel ? ", kernel" : ", user space";
    return s;
}

CheckSymbol parse_check_symbol(const std::string& sym) {
    const std::string prefix = "__hwasan_check_x";
    if (sym.rfind(prefix, 0) != 0)
        throw InputError("accessinfo", "'" + sym + "' is not an outlined check symbol (__hwasan_check_x<reg>_<accessinfo>)");
    std::size_t us = sym.find('_', prefix.size());
    if (us == std::string::npos) throw InputError("accessinfo", "'" + sym + "': missing _<accessinfo> after the register");
    std::string reg = sym.substr(prefix.size(), us - prefix.size()), info = sym.substr(us + 1);
    auto digits = [](const std::string& x) {
        if (x.empty()) return false;
        for (char c : x)
            if (!std::isdigit((unsigned char)c)) return false;
        return true;
    };
    if (!digits(reg) || reg.size() > 2 || std::stoul(reg) > 30)
        throw InputError("accessinfo", "'" + sym + "': register 'x" + reg + "' is not x0..x30");
    if (!digits(info) || info.size() > 10)
        throw InputError("accessinfo", "'" + sym + "': AccessInfo '" + info + "' is not a decimal number");
    CheckSymbol c;
    c.reg = unsigned(std::stoul(reg));
    c.info = std::stoull(info);
    if ((c.info & 0xF) > 4) throw InputError("accessinfo", "'" + sym + "': access size log2 " + std::to_string(c.info & 0xF) + " is above 4");
    return c;
}

}  // namespace tagproof::kernel
