#include <stdexcept>

#include <gtest/gtest.h>

#include "semkit/version.h"

TEST(Parse, ReadsTheThreeNumbers) {
  semkit::Version v = semkit::parse("1.22.333");
  EXPECT_EQ(v.major, 1);
  EXPECT_EQ(v.minor, 22);
  EXPECT_EQ(v.patch, 333);
  EXPECT_EQ(v.pre, "");
}

TEST(Parse, ReadsAPreRelease) {
  EXPECT_EQ(semkit::parse("2.0.0-rc.1").pre, "rc.1");
}

TEST(Parse, RefusesBadText) {
  for (const char* bad : {"1.2", "1.2.x", "01.2.3", "1.2.3-", "1.2.3.4"}) {
    EXPECT_THROW(semkit::parse(bad), std::invalid_argument) << bad;
  }
}

TEST(Parse, RoundTrips) {
  for (const char* s : {"0.0.0", "1.2.3", "10.20.30-beta.2"}) {
    EXPECT_EQ(semkit::to_string(semkit::parse(s)), s);
  }
}
