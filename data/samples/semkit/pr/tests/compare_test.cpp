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

TEST(Compare, PreReleaseIsLowerThanRelease) {
  EXPECT_LT(cmp("1.0.0-rc.1", "1.0.0"), 0);
  EXPECT_GT(cmp("1.0.0", "1.0.0-alpha"), 0);
}

TEST(Compare, PreReleaseIdentifiers) {
  // SemVer's own example, lowest first.
  const char* order[] = {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
                         "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"};
  for (int i = 0; i + 1 < 8; i++) {
    EXPECT_LT(cmp(order[i], order[i + 1]), 0) << order[i] << " < " << order[i + 1];
    EXPECT_GT(cmp(order[i + 1], order[i]), 0) << order[i + 1] << " > " << order[i];
  }
  EXPECT_EQ(cmp("1.0.0-rc.1", "1.0.0-rc.1"), 0);
}
