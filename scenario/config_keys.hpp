// config_keys.hpp — the keys of a scenario's `config` line, each with the
// values it takes. The parser holds every key=value to this table with
// file:line (a typo, pages=0 or pages=99999999999 never reaches the model);
// the runner reads the values through the same table.
#pragma once
#include <cstdint>
#include <string>

namespace tagproof::scenario {

// Throws InputError(where) for an unknown key or a value the key does not take.
void check_config(const std::string& key, const std::string& value, const std::string& where);
// A yes/no key's value (y, n, 1, 0, on, off, yes, no).
bool config_yes(const std::string& key, const std::string& value, const std::string& where);
// A number key's value, within its range.
std::uint64_t config_number(const std::string& key, const std::string& value, const std::string& where);

}  // namespace tagproof::scenario
