// kept_fields.hpp — the text of an entry kept across processes (the corpus
// cache, scenario/corpus_cache.hpp; decided obligations, solver/
// decided_cache.hpp): fields written as "LENGTH:BYTES\n", read back exactly
// or not at all, and a file written whole or not at all (a reader never sees
// half an entry: it is renamed into place).
#pragma once
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace tagproof::kept {

void put(std::ostream& o, const std::string& s);
void put(std::ostream& o, std::uint64_t n);
void put_list(std::ostream& o, const std::vector<std::string>& v);

// false on anything that is not what put() wrote (a reader then treats the
// entry as absent)
bool get(std::istream& in, std::string& s);
bool get(std::istream& in, std::uint64_t& x);
bool get_list(std::istream& in, std::vector<std::string>& v);

// Writes `text` to `path` through a temporary file renamed into place;
// false (and nothing at `path` changed) when it cannot.
bool write_whole(const std::string& path, const std::string& text);

}  // namespace tagproof::kept
