#include <gtest/gtest.h>
TEST(Fc, Works) { EXPECT_EQ(1, 1); }
