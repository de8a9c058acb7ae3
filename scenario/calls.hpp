// calls.hpp — the events a scenario file may write, each with its
// arguments: what kind of value each one is and, for numbers, the range the
// kernel (or the model's memory) gives it. The parser holds every literal to
// this table with file:line; the interpreter holds a variable's value
// (`n = ksize(p)`, then `read(p, n)`) to the same entry when the event runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace tagproof::scenario {

struct ArgSpec {
    enum Kind : std::uint8_t {
        pointer,  // NAME[+-OFFSET]: a pointer (or a page's address)
        page,     // NAME: a page allocation (or a pointer at its head)
        handle,   // NAME: a kmem_cache, skb or mempool variable
        number,   // a number in lo..hi, or a variable holding one
        gfp,      // GFP names joined by '|', or a number (gfp_t is 32 bits)
        word,     // one of `words`
    } kind;
    const char* what;  // "size", "order", ... (for messages)
    std::uint64_t lo = 0, hi = 0;
    std::vector<std::string> words = {};
};

struct CallSpec {
    const char* name;
    std::size_t required;  // the rest of `args` are optional
    std::vector<ArgSpec> args;
};

// nullptr for an unknown event.
const CallSpec* find_call(const std::string& name);
// "alloc_pages, free_pages, ..." for the unknown-event message.
std::string call_names();
// Offsets written after a pointer (p + N, p - N) stay below 2^56: the address
// bits under the pointer's tag byte. The check-style scenarios reach the top
// of the address space this way (p + 0xffffffffeff8); 2^64-1 would only wrap
// to "p - 1" unseen.
inline constexpr std::uint64_t kMaxOffset = (std::uint64_t(1) << 56) - 1;

// The parse-time check of one argument as written (throws InputError(where)).
void check_arg(const CallSpec& c, std::size_t i, const Arg& a, const std::string& where);
// The run-time check of a number argument's value (a variable's).
void check_number(const CallSpec& c, std::size_t i, std::uint64_t v, const std::string& text, const std::string& where);

}  // namespace tagproof::scenario
