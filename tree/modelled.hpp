// modelled.hpp — the kernel functions and macros the model stands for, each
// with the file it lives in and what in the model stands for it (a hand rule
// of the era, or a rule a variant file may override). A hunk inside one of
// these changes what the model decides; a hunk anywhere else is outside the
// model. This is the list a tree is lifted against (DESIGN.md §9): until a
// function is lifted from the tree, a change to it is checked only where the
// site table (patch/sites.cpp) reads it into a rule.
#pragma once
#include <string>
#include <vector>

namespace tagproof::tree {

struct Modelled {
    const char* name;   // kernel function or macro (the _noprof spelling is matched too)
    const char* file;   // where it is defined (the newest tree's place)
    const char* model;  // what stands for it in the model
};

const std::vector<Modelled>& modelled_functions();

// An allocation or free interface the model has as an event (scenario/format.md):
// a call to it anywhere is a call site of the model, whose arguments a hunk may change.
struct EntryPoint {
    const char* name;   // as called (a trailing _noprof is matched too)
    const char* event;  // the model's event
    int gfp_arg;        // which argument is the gfp_t, -1 for none
};
const std::vector<EntryPoint>& entry_points();
const EntryPoint* find_entry_point(const std::string& callee);
// The entry for a definition's name (strips a trailing _noprof), or nullptr.
const Modelled* find_modelled(const std::string& name);

// NAME for NAME_noprof (6.10's allocation tagging renamed the allocators so).
std::string without_noprof(const std::string& name);

}  // namespace tagproof::tree
