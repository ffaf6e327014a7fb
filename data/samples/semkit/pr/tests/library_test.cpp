#include <string>

#include <gtest/gtest.h>

#include "semkit/version.h"

TEST(Library, ReportsItsVersion) {
  EXPECT_EQ(std::string(semkit::library_version()), "1.1.0");
}
