// primitives.hpp — the helpers whose effect on tags, data and page flags is
// stated by hand, once (DESIGN.md §9). A rule body (rule_body.hpp), lifted
// from a tree or written in a variant file, calls these; everything above them
// is read from the kernel's code. Each entry cites the kernel source it stands
// for; rule_body.hpp's apply_primitive() is the one place that gives the
// effect, beside this table's words.
//
// A call in a body that is neither a primitive, a rule the model lifts, nor a
// predicate of the environment is an *unread call*: it is assumed to have no
// effect on tags or data, and every reply that uses the body names it.
#pragma once
#include <string>
#include <vector>

namespace tagproof::kernel {

struct Primitive {
    const char* name;
    const char* args;    // as the kernel declares them
    const char* effect;  // what the model does
    const char* source;  // where the kernel does it
};

const std::vector<Primitive>& primitives();
const Primitive* find_primitive(const std::string& name);
bool is_primitive(const std::string& name);
// Those with an effect (post_alloc_hook's), and those that read the page being
// freed (should_skip_kasan_poison's).
bool is_effect_primitive(const std::string& name);
bool is_page_read(const std::string& name);

}  // namespace tagproof::kernel
