// ftrace_fuzz.cpp — libFuzzer target: the kmem tracepoint reader
// (model/reference/kmem_trace.cpp). Strict: events or an InputError naming
// file:line (or the file, for input that is no trace at all). Lenient: never
// an error, and every line is accounted for (KmemTrace::accounted(): replayed,
// a no-op, or not replayed for a counted reason).
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "error.hpp"
#include "fuzz_env.hpp"
#include "kmem_trace.hpp"
#include "variant.hpp"

using namespace tagproof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    BuildConfig b;
    const GfpLayout L = kernel::find_variant("linux-7.0").gfp_layout(b);
    try {
        std::istringstream in(text);
        reference::read_kmem_trace(in, "fuzz.trace", L, false);
    } catch (const InputError& e) {
        // must name file:line, or the file for input that is no trace at all (empty, binary, no event line)
        if (std::string(e.where()).rfind("fuzz.trace:", 0) != 0 && e.where() != "fuzz.trace") std::abort();
    }
    std::istringstream in(text);
    reference::KmemTrace t = reference::read_kmem_trace(in, "fuzz.trace", L, true);
    std::size_t lines = 0;
    for (char c : text) lines += c == '\n';
    if (!text.empty() && text.back() != '\n') ++lines;
    // planted: the reader forgets to count a header line
    const std::size_t headers = fuzz::planted() && t.header_lines ? t.header_lines - 1 : t.header_lines;
    if (t.lines != lines || t.accounted() - t.header_lines + headers != lines) std::abort();
    return 0;
}
