// verb_accessinfo.cpp — `tagproof accessinfo`: what an outlined check symbol,
// an AccessInfo value or a KASAN BRK immediate means.
#include <cstdio>
#include <iostream>

#include "checks/accessinfo.hpp"
#include "error.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

namespace tagproof::cli {

int verb_accessinfo(const Args& args) {
    Options o = parse_verb_options("accessinfo", args);
    if (o.has("--help") || o.positional.empty()) {
        std::cout << "usage: tagproof accessinfo SYMBOL|VALUE...\n\n"
                     "Decodes an outlined SW_TAGS check symbol (__hwasan_check_x8_67043362), an AccessInfo\n"
                     "immediate (67043362 or 0x3ff0022) or a KASAN BRK immediate (0x922) the way the\n"
                     "compiler encodes it and the kernel reads it (arch/arm64/kernel/traps.c kasan_handler,\n"
                     "mm/kasan/sw_tags.c).\n";
        if (o.positional.empty() && !o.has("--help")) throw InputError("command line", "tagproof accessinfo needs a symbol or a value");
        return 0;
    }
    for (const auto& a : o.positional) {
        std::uint64_t info = 0;
        std::string reg;
        if (a.rfind("__hwasan_check_x", 0) == 0) {
            kernel::CheckSymbol c = kernel::parse_check_symbol(a);
            info = c.info;
            reg = " through x" + std::to_string(c.reg);
        } else {
            std::size_t used = 0;
            try {
                info = std::stoull(a, &used, 0);
            } catch (...) {
                used = 0;
            }
            if (used != a.size() || a.empty())
                throw InputError("accessinfo", "'" + a + "' is neither a check symbol nor a number");
            if ((info & ~kernel::kKasanBrkMask) == kernel::kKasanBrkImm) {
                kernel::AccessInfo k = kernel::decode(info & kernel::kKasanBrkMask);
                // only the runtime part is in the immediate: size, write, recover
                std::string d = kernel::describe(k);
                d = d.substr(0, d.find(", ", d.find(", ") + 1));
                std::printf("%s: KASAN BRK #%#llx: %s (runtime part %#llx)\n", a.c_str(), (unsigned long long)info,
                            d.c_str(), (unsigned long long)(info & kernel::kKasanBrkMask));
                continue;
            }
            if ((info & 0xF) > 4) throw InputError("accessinfo", "'" + a + "': access size log2 above 4");
        }
        kernel::AccessInfo k = kernel::decode(info);
        std::string d = kernel::describe(k);
        std::size_t sp = d.find(',');
        d.insert(sp, reg);
        std::printf("%s: %s (AccessInfo %#llx; runtime part %#llx; BRK #%#llx)\n", a.c_str(), d.c_str(),
                    (unsigned long long)info, (unsigned long long)(info & kernel::kAccessInfoRuntimeMask),
                    (unsigned long long)(kernel::kKasanBrkImm + (info & kernel::kAccessInfoRuntimeMask)));
    }
    return 0;
}

}  // namespace tagproof::cli
