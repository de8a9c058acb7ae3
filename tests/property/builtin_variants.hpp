// builtin_variants.hpp — the ten built-in variants as gtest parameters, with
// test names gtest accepts (linux-6.1 -> linux_6_1).
#pragma once
#include <gtest/gtest.h>

#include <string>

namespace tagproof::testing_support {

inline auto builtin_variants() {
    return ::testing::Values("linux-6.1", "linux-6.3", "linux-6.4", "linux-7.0", "mm-2026", "anjum-v2", "anjum-v3",
                             "anjum-v4", "sample-v2", "sample-v3");
}

inline std::string variant_test_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string n = info.param;
    for (char& c : n)
        if (c == '-' || c == '.') c = '_';
    return n;
}

}  // namespace tagproof::testing_support
