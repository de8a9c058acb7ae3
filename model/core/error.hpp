// error.hpp — the one error type for bad input.
//
// Every parser (boot command line, GFP string, scenario file, trace) throws
// InputError with the place ("file:line" or "cmdline") and what was expected,
// so the CLI can print one line and exit with status 2.
#pragma once
#include <stdexcept>
#include <string>

namespace tagproof {

class InputError : public std::runtime_error {
public:
    InputError(std::string where, const std::string& what)
        : std::runtime_error(where.empty() ? what : where + ": " + what), where_(std::move(where)) {}
    const std::string& where() const { return where_; }

private:
    std::string where_;
};

}  // namespace tagproof
