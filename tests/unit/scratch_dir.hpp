// scratch_dir.hpp — a fresh directory of the unit tests' own.
//
// ctest runs each GoogleTest case as its own process, two at a time: two cases
// that wrote the same fixed path under /tmp raced (one truncated mm/page_alloc.c
// while the other read it; CI failed on TreeAccount that way). The process id
// makes the path this case's alone; it is emptied first, so a directory left by
// an earlier run with the same pid is not read.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

namespace tagproof::test {

inline std::string scratch_dir(const std::string& name) {
    const auto d = std::filesystem::temp_directory_path() /
                   ("tagproof-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d.string();
}

}  // namespace tagproof::test
