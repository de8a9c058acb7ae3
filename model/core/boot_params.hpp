// boot_params.hpp — the KASAN-relevant kernel command line, parsed the way
// the kernel's early_param handlers parse it.
//
// Kernel behaviour on a bad value (mm/kasan/hw_tags.c, report.c, mm_init.c):
// the handler returns -EINVAL, init/main.c prints "Malformed early option
// '<param>'" and boot continues with the variable at its default (or, for
// kasan.page_alloc.sample[.order], reset to the default). parse_boot_params()
// reproduces that exactly and records each such event as a diagnostic;
// parse_boot_params_strict() turns any diagnostic into an InputError, which is
// what the CLI and scenario files use unless told to be lenient.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tagproof {

enum class KasanArg { deflt, off, on };                  // kasan=
enum class TagCheckMode { sync, async, asymm };           // kasan.mode=
enum class FaultPolicy { report, panic, panic_on_write };  // kasan.fault=

const char* check_mode_name(TagCheckMode m);
const char* fault_policy_name(FaultPolicy f);

// Which parameters a kernel era knows. An option a kernel does not know is
// not a KASAN option there (the kernel hands it to init as an environment
// variable), so we report it rather than pretend it took effect.
struct BootParamSyntax {
    bool page_alloc_sample = true;  // v6.3+
    bool page_alloc_sample_order = true;  // v6.3+ (sample-v2 had none)
    bool write_only = true;         // 2025+
    bool fault_panic_on_write = true;
    bool vmalloc_needs_config = true;  // current: ignored without CONFIG_KASAN_VMALLOC
};

struct BootDiagnostic {
    std::string param;    // "kasan.mode"
    std::string value;    // "fast"
    std::string message;  // what the kernel does about it
};

struct BootParams {
    KasanArg kasan = KasanArg::deflt;
    TagCheckMode mode = TagCheckMode::sync;
    bool vmalloc = true;  // kasan.vmalloc (key default; see derive_runtime for CONFIG gating)
    std::uint64_t page_alloc_sample = 1;        // kasan.page_alloc.sample
    std::uint32_t page_alloc_sample_order = 3;  // kasan.page_alloc.sample.order
    bool stacktrace = true;
    FaultPolicy fault = FaultPolicy::report;
    bool write_only = false;
    bool multi_shot = false;  // kasan_multi_shot
    bool init_on_alloc = false;  // CONFIG_INIT_ON_ALLOC_DEFAULT_ON=n
    bool init_on_free = false;
    std::vector<std::string> not_modelled;  // tokens that are no KASAN concern ("quiet", "root=")
    std::string init_args;                  // what follows "--": init's, not the kernel's
    std::vector<BootDiagnostic> diagnostics;

    // The command line that reproduces these values ("kasan=on kasan.mode=async ...");
    // only non-default values are printed.
    std::string to_cmdline() const;
};

// One kernel parameter as lib/cmdline.c next_arg() splits it (quotes removed).
struct CmdlineArg {
    std::string param;
    bool has_value = false;  // "param=..." (the handler gets NULL without one)
    std::string value;
};
// The parameters of a command line, as kernel/params.c parse_args() reads them:
// quoting, and a bare "--" ending the kernel's part (the rest in *to_init).
std::vector<CmdlineArg> split_cmdline(const std::string& cmdline, std::string* to_init = nullptr);

BootParams parse_boot_params(const std::string& cmdline, const BootParamSyntax& syntax = {});
// Throws InputError("<where>", "kasan.mode=fast: expected sync, async or asymm ...").
BootParams parse_boot_params_strict(const std::string& cmdline, const std::string& where,
                                    const BootParamSyntax& syntax = {});

}  // namespace tagproof
