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
// The entry for a definition's name (strips a trailing _noprof), or nullptr.
const Modelled* find_modelled(const std::string& name);

}  // namespace tagproof::tree
