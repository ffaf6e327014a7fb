#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "semkit/range.h"

static bool sat(const char* v, const char* range) { return semkit::satisfies(semkit::parse(v), range); }

TEST(Range, EveryOperator) {
  EXPECT_TRUE(sat("1.2.3", ">=1.2.3"));
  EXPECT_FALSE(sat("1.2.2", ">=1.2.3"));
  EXPECT_TRUE(sat("1.2.3", "<=1.2.3"));
  EXPECT_FALSE(sat("1.2.4", "<=1.2.3"));
  EXPECT_TRUE(sat("1.2.4", ">1.2.3"));
  EXPECT_FALSE(sat("1.2.3", ">1.2.3"));
  EXPECT_TRUE(sat("1.2.2", "<1.2.3"));
  EXPECT_FALSE(sat("1.2.3", "<1.2.3"));
  EXPECT_TRUE(sat("1.2.3", "=1.2.3"));
  EXPECT_TRUE(sat("1.2.3", "1.2.3"));
  EXPECT_FALSE(sat("1.2.4", "1.2.3"));
}

TEST(Range, AllComparatorsMustHold) {
  EXPECT_TRUE(sat("1.5.0", ">=1.2.0 <2.0.0"));
  EXPECT_FALSE(sat("2.0.0", ">=1.2.0 <2.0.0"));
  EXPECT_FALSE(sat("2.0.0-rc.1", ">=2.0.0  <3.0.0"));
}

TEST(Range, RefusesBadRanges) {
  try {
    sat("1.0.0", "   ");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "empty range");
  }
  for (const char* bad : {"=>1.0.0", "~1.0.0", ">=1.0"}) {
    try {
      sat("1.0.0", bad);
      FAIL() << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), std::string("bad comparator '") + bad + "'");
    }
  }
}
