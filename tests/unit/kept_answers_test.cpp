// kept_answers_test.cpp — KeptByteAnswers asks each byte once, keeps no
// answer that threw, and keeps the answers of different bytes apart.
#include <gtest/gtest.h>

#include <stdexcept>

#include "kept_answers.hpp"

namespace {
using tagproof::kernel::KeptByteAnswers;

TEST(KeptByteAnswers, EachByteIsAskedOnceAndAnsweredAsFirstTold) {
    KeptByteAnswers k;
    int asked = 0;
    for (int round = 0; round < 3; ++round)
        for (int b = 0; b < 256; ++b)
            EXPECT_EQ(k.get(std::uint8_t(b), [&] { return ++asked, 255 - b; }), 255 - b) << "byte " << b;
    EXPECT_EQ(asked, 256);  // the control of the memo: a table that kept nothing would ask 768 times
}

TEST(KeptByteAnswers, AnAnswerThatThrewIsAskedAgain) {
    KeptByteAnswers k;
    EXPECT_THROW(k.get(7, []() -> int { throw std::runtime_error("rule failed"); }), std::runtime_error);
    EXPECT_EQ(k.get(7, [] { return 0xF3; }), 0xF3);
    EXPECT_EQ(k.get(7, [] { return 0x00; }), 0xF3);  // kept now
}
}  // namespace
