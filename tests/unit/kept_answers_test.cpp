// kept_answers_test.cpp — KeptByteAnswers and KeptAnswers ask each question
// once, keep no answer that threw, keep different questions' answers apart;
// KeptAnswers shares them with its copies and keeps nothing while a run
// records which rules it evaluates.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "kept_answers.hpp"

namespace {
using tagproof::kernel::KeptAnswers;
using tagproof::kernel::KeptByteAnswers;
using Kept = KeptAnswers<int, std::string, std::hash<int>>;

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

TEST(KeptAnswers, EachQuestionIsAskedOnceAndCopiesShareTheAnswers) {
    Kept k;
    int asked = 0;
    for (int round = 0; round < 3; ++round)
        for (int q = 0; q < 40; ++q)
            EXPECT_EQ(k.get(q, [&] { return ++asked, std::to_string(q * 7); }), std::to_string(q * 7)) << q;
    EXPECT_EQ(asked, 40);  // a memo keeping nothing would ask 120 times
    Kept copy = k;
    EXPECT_EQ(copy.get(3, [&] { return ++asked, std::string("asked again"); }), "21");
    (void)copy.get(41, [&] { return ++asked, std::string("new"); });
    EXPECT_EQ(k.get(41, [&] { return ++asked, std::string("asked again"); }), "new");  // the copy's answer
    EXPECT_EQ(asked, 41);
}

TEST(KeptAnswers, AnAnswerThatThrewIsAskedAgain) {
    Kept k;
    EXPECT_THROW(k.get(7, []() -> std::string { throw std::runtime_error("rule failed"); }), std::runtime_error);
    EXPECT_EQ(k.size(), 0u);
    EXPECT_EQ(k.get(7, [] { return std::string("a"); }), "a");
    EXPECT_EQ(k.get(7, [] { return std::string("b"); }), "a");
}

// A run that records the rules it evaluates asks every time (file_rules.hpp
// notes a rule only when it is evaluated), and keeps nothing for later.
TEST(KeptAnswers, NothingIsKeptOrReusedWhileRuleUseIsRecorded) {
    Kept k;
    (void)k.get(1, [] { return std::string("before"); });
    std::set<std::string> used;
    int asked = 0;
    {
        tagproof::kernel::RecordRuleUse record(used);
        EXPECT_EQ(k.get(1, [&] { return ++asked, std::string("afresh"); }), "afresh");
        EXPECT_EQ(k.get(2, [&] { return ++asked, std::string("x"); }), "x");
        EXPECT_EQ(k.get(2, [&] { return ++asked, std::string("x"); }), "x");
    }
    EXPECT_EQ(asked, 3);
    EXPECT_EQ(k.size(), 1u);  // only what was asked before the recording
    EXPECT_EQ(k.get(1, [] { return std::string("later"); }), "before");
}
}  // namespace
