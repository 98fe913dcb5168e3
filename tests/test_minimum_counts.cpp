// The named roundoff rule (model/tolerances.hpp) and the counts built on it
// (pipeline/minimum_counts.hpp, study 001 eqs. 6.7 and 6.8), against values
// worked by hand, including quotients that binary floating point leaves just
// above or below an integer.
#include <ychart/model/tolerances.hpp>
#include <ychart/pipeline/minimum_counts.hpp>

#include <ychart/expr/operators.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace {

using namespace ychart;

TEST(Tolerances, AllowanceIsRelativeAboveOneAndAbsoluteBelow) {
  EXPECT_DOUBLE_EQ(tolerances::allowance(0.0), 1e-9);
  EXPECT_DOUBLE_EQ(tolerances::allowance(0.5), 1e-9);
  EXPECT_DOUBLE_EQ(tolerances::allowance(-2000.0), 2e-6);
  EXPECT_TRUE(tolerances::at_most(3 * 0.1, 0.3));  // 0.30000000000000004 <= 0.3
  EXPECT_FALSE(tolerances::at_most(0.3001, 0.3));
}

TEST(Tolerances, CeilAndFloorIgnoreRoundoffOnly) {
  EXPECT_EQ(tolerances::ceil(1.1 / 0.1), 11.0);  // 11.000000000000002
  EXPECT_EQ(tolerances::ceil(0.3 / 0.1), 3.0);   // 2.9999999999999996
  EXPECT_EQ(tolerances::ceil(4.0001), 5.0);
  EXPECT_EQ(tolerances::ceil(0.2), 1.0);
  EXPECT_EQ(tolerances::floor(0.3 / 0.1), 3.0);
  EXPECT_EQ(tolerances::floor(2.9999), 2.0);
}

TEST(MinimumCounts, ComputeUnitsOfEquation67) {
  EXPECT_EQ(pipeline::minimum_cus(4.0 * units::ms, 1.0 * units::ms), 4);
  EXPECT_EQ(pipeline::minimum_cus(1.1 * units::ms, 0.1 * units::ms), 11);
  EXPECT_EQ(pipeline::minimum_cus(0.3 * units::ms, 0.1 * units::ms), 3);
  EXPECT_EQ(pipeline::minimum_cus(4.0001 * units::ms, 1.0 * units::ms), 5);
  EXPECT_EQ(pipeline::minimum_cus(0.2 * units::ms, 1.0 * units::ms), 1);  // at least one
  EXPECT_EQ(pipeline::minimum_cus(3.0 * units::s, 1500.0 * units::ms), 2);  // units convert
}

TEST(MinimumCounts, DevicesOfEquation68) {
  // 250 % of one device's DSPs and 40 % of its BRAM: three devices.
  EXPECT_EQ(pipeline::devices_to_hold({250.0, 40.0}, {100.0, 100.0}), 3);
  EXPECT_EQ(pipeline::devices_to_hold({3 * 0.1}, {0.1}), 3);  // 3.0000000000000004 -> 3
  EXPECT_EQ(pipeline::devices_to_hold({0.0, 0.0}, {100.0, 0.0}), 1);  // nothing needed: one device
  EXPECT_EQ(pipeline::devices_to_hold({0.0, 5.0}, {100.0, 0.0}), std::numeric_limits<int>::max());
}

}  // namespace
