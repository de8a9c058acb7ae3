// InputError messages are one printable line: what the user wrote is quoted
// escaped and cut, never echoed raw (issue 16).
#include <gtest/gtest.h>

#include "error.hpp"

using namespace tagproof;

TEST(ErrorText, ControlCharactersAndBadBytesAreEscaped) {
    EXPECT_EQ(error_text::printable(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(error_text::printable("\x1b[2J"), "\\x1b[2J");
    EXPECT_EQ(error_text::printable("tab\there\r\n"), "tab\\there\\r\\n");
    EXPECT_EQ(error_text::printable("\xff\xfe"), "\\xff\\xfe");          // not UTF-8
    EXPECT_EQ(error_text::printable("\xef\xbb\xbfname"), "\\ufeffname");  // a byte-order mark
    EXPECT_EQ(error_text::printable("caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");  // UTF-8 text stays
    EXPECT_EQ(error_text::printable("\xc3"), "\\xc3");                   // a cut sequence
}

TEST(ErrorText, LongWordsAreCutWithTheirLength) {
    const std::string word(5000, 'x');
    const std::string m = error_text::printable("unknown event '" + word + "' here");
    EXPECT_LT(m.size(), 300u);
    EXPECT_NE(m.find("... (5000 characters)' here"), std::string::npos) << m;
    EXPECT_EQ(error_text::printable(std::string(200, 'y')), std::string(200, 'y'));  // paths stay whole
}

TEST(ErrorText, InputErrorIsPrintable) {
    InputError e("f.litmus:3", std::string("bad '\x01'"));
    EXPECT_STREQ(e.what(), "f.litmus:3: bad '\\x01'");
}

TEST(ErrorText, FirstControlIsWhereTextStops) {
    using tagproof::error_text::first_control;
    EXPECT_EQ(first_control("kmalloc(107)\twrite(p, 1)"), std::string_view::npos);  // a tab is text
    EXPECT_EQ(first_control(std::string_view("ab\0c", 4)), 2u);
    EXPECT_EQ(first_control("ab\x7f"), 2u);
    EXPECT_EQ(first_control("\x1b[0m ok 1 x"), 0u);  // an escape is not text ...
    EXPECT_EQ(first_control("\x1b[0m ok 1 x", true), std::string_view::npos);  // ... unless a console's colours
}
