#include <gtest/gtest.h>

#include "semkit/version.h"

static std::string bumped(const char* v, semkit::Part part) {
  return semkit::to_string(semkit::bump(semkit::parse(v), part));
}

TEST(Bump, Major) {
  EXPECT_EQ(bumped("1.2.3", semkit::Part::Major), "2.0.0");
  EXPECT_EQ(bumped("1.2.3-rc.1", semkit::Part::Major), "2.0.0");
}

TEST(Bump, Minor) {
  EXPECT_EQ(bumped("1.2.3", semkit::Part::Minor), "1.3.0");
}

TEST(Bump, PatchOfARelease) {
  EXPECT_EQ(bumped("1.2.3", semkit::Part::Patch), "1.2.4");
}

TEST(Bump, PatchOfAPreReleaseDropsTheTag) {
  EXPECT_EQ(bumped("1.2.3-rc.1", semkit::Part::Patch), "1.2.3");
}
