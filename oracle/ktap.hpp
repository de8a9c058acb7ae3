// ktap.hpp — a kernel's console log read for what the kernel oracle needs:
// the KUnit results (KTAP, Documentation/dev-tools/ktap.rst: "# Subtest:",
// "ok N name", "not ok N name", "# SKIP reason"), the KASAN reports printed
// while each case ran ("BUG: KASAN: TYPE in FUNCTION", "Read/Write at addr
// ...", "Pointer tag: [f2], memory tag: [fe]"), the lines a KUnit suite
// written by `tagproof kernel kunit` prints for each statement, and the
// kernel's version and KASAN mode. printk timestamps ("[    1.234567] ") and
// KTAP's indentation are read as such, from serial consoles as QEMU gives them.
#pragma once
#include <istream>
#include <string>
#include <vector>

namespace tagproof::oracle {

// One "BUG: KASAN: ..." report (or KFENCE's), with what the lines after it say.
struct KasanReport {
    std::string bug_type;   // slab-out-of-bounds, invalid-access, double-free, ...
    std::string function;   // where: "kmalloc_oob_right+0x68/0x1b0"
    std::string access;     // "Read" / "Write" (empty: a free, or async)
    int ptr_tag = -1, mem_tag = -1;  // HW_TAGS / SW_TAGS: the tags printed
    int line = 0;
};

// One statement of a tagproof-written case: "# tagproof: L<line> <call>: report|no report".
struct StatementResult {
    int scenario_line = 0;
    std::string call;
    bool reported = false;
    std::vector<KasanReport> reports;
    // "# tagproof: L<line> <call>: data zero|data not zero at offset N", printed
    // after an allocation in a confirmation's case (kunit_writer.hpp)
    enum class Data { not_read, zero, not_zero } data = Data::not_read;
    std::size_t nonzero_offset = 0;
    // "# tagproof: L<line> <call>: page_address read: report|no report": a
    // byte read through page_address() of the page the statement returned
    enum class Probe { none, report, no_report } page_probe = Probe::none;
    // "# tagproof: L<line> <call>: pointer tag XX": the tag of the pointer
    // the statement's allocation returned (-1: not printed)
    int pointer_tag = -1;
    // "# tagproof: L<line> check <text>: holds|fails": a check of the file
    // the kernel evaluated (kernel_check(); `call` is the check's text)
    enum class Check { none, holds, fails } check = Check::none;
};

struct KtapCase {
    std::string suite, name;
    enum Result { ok, not_ok, skip } result = ok;
    std::string directive;  // the SKIP reason
    std::vector<KasanReport> reports;  // printed since the previous result line
    std::vector<StatementResult> statements;
    int line = 0;
};

struct KernelLog {
    std::string file;
    std::string version;  // "6.12.117" from "Linux version 6.12.117 ..."
    std::string version_line;
    std::string kasan_line;  // "kasan: KernelAddressSanitizer initialized (hw-tags, mode=sync, ...)"
    bool mte = false;        // "CPU features: detected: Memory Tagging Extension"
    std::vector<KtapCase> cases;
    std::vector<KasanReport> reports_outside_cases;  // e.g. at boot, before KUnit ran
    std::vector<std::string> crashes;  // "Kernel panic", "Internal error", "BUG: " lines not KASAN's
    bool powered_off = false;          // "reboot: Power down" (kunit_shutdown=poweroff)
    int lines = 0;
};

// Throws InputError(file:line) for input that is not a console log (binary,
// empty); a log with no KTAP line is read (its crashes tell why).
KernelLog read_kernel_log(std::istream& in, const std::string& file);

// The cases of one suite ("kasan"), in order.
std::vector<const KtapCase*> suite_cases(const KernelLog& log, const std::string& suite);

}  // namespace tagproof::oracle
