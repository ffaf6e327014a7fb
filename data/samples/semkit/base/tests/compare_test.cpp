#include <gtest/gtest.h>

#include "semkit/version.h"

static int cmp(const char* a, const char* b) {
  return semkit::compare(semkit::parse(a), semkit::parse(b));
}

TEST(Compare, OrdersByNumbers) {
  EXPECT_LT(cmp("1.2.3", "1.2.4"), 0);
  EXPECT_LT(cmp("1.2.9", "1.10.0"), 0);
  EXPECT_GT(cmp("2.0.0", "1.99.99"), 0);
}

TEST(Compare, EqualVersions) {
  EXPECT_EQ(cmp("1.2.3", "1.2.3"), 0);
}
