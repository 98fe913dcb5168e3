// The generated single header compiles and solves on its own.
#include "../single_include/ychart/ychart.hpp"

#include <gtest/gtest.h>

#include <cmath>

TEST(SingleInclude, SolvesAModel) {
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x * y >= 4);
  m.minimize(x + y);
  const auto s = m.solve();
  ASSERT_TRUE(s.optimal());
  EXPECT_NEAR(s.objective(), 4.0, 1e-6);
}
