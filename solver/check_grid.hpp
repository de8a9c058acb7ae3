// check_grid.hpp — every tag-check style against the access properties a
// reviewer asks about (issue 8 item 5): one Z3 query per cell over the
// decision code of model/kernel/checks and the variant's granule check.
#pragma once
#include <string>
#include <vector>

namespace tagproof::solver {

struct GridCell {
    std::string expected;  // proved / counterexample / n/a, as recorded in check_grid.cpp
    std::string verdict;   // proved / counterexample / unknown / n/a
    std::string witness;   // the input the solver found, for a counterexample
};

struct GridRow {
    std::string style;  // "SW_TAGS outlined (__hwasan_check_x<R>_<AI>)"
    bool mutant = false;  // a negative control, not a kernel build
    std::vector<GridCell> cells;
};

struct Grid {
    std::vector<std::string> properties;  // column titles
    std::vector<std::string> premises;    // what every cell assumes
    std::vector<GridRow> rows;
};

// `variant`: whose HW_TAGS granule check fills the hardware rows.
// The timeout is per query and generous: the slowest cell (Generic, misaligned) takes
// seconds alone and can take several times that on a loaded 2-core machine.
Grid prove_check_grid(const std::string& variant = "linux-7.0", unsigned timeout_ms = 180000);

}  // namespace tagproof::solver
