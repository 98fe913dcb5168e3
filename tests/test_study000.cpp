// Study 000, Setup 1 on the transcribed (made-up) flydels: the exact integer
// split against enumeration of every split, the sequential-GP split against
// a dense grid search of the continuous problem, for FPGA + GPU and for
// CPU + GPU + FPGA; and the loader's file:line errors.
#include "study000/setup1.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#ifndef YCHART_EXAMPLES_DATA_DIR
#error "YCHART_EXAMPLES_DATA_DIR must name examples/data (tests/CMakeLists.txt defines it)"
#endif

namespace {

using namespace study000;

const Setup1& setup() {
  static const Setup1 s = load_setup1(std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "carballo2022" / "setup1.json");
  return s;
}

bool fits(const Setup1& s, double c_fpga) {
  for (const auto& r : s.resources)
    if (c_fpga > 0 && r.model(c_fpga) > r.budget * (1 + 1e-12)) return false;
  return true;
}

TEST(Study000, ExactIntegerSplitMatchesEnumeration) {
  const auto& s = setup();
  const int C = static_cast<int>(s.channels);
  // FPGA + GPU.
  double best = std::numeric_limits<double>::infinity();
  for (int f = 0; f <= C; ++f)
    if (fits(s, f)) best = std::min(best, latency_ms(s, {{"fpga", f}, {"gpu", C - f}}));
  const auto two = exact_split(s, {"fpga", "gpu"});
  ASSERT_EQ(two.status, ychart::Status::optimal);
  EXPECT_NEAR(two.latency_ms, best, 1e-9);
  EXPECT_NEAR(latency_ms(s, two.split), best, 1e-9);
  EXPECT_EQ(two.split.at("fpga") + two.split.at("gpu"), C);
  // CPU + GPU + FPGA.
  double best3 = std::numeric_limits<double>::infinity();
  for (int c = 0; c <= C; ++c)
    for (int f = 0; c + f <= C; ++f)
      if (fits(s, f)) best3 = std::min(best3, latency_ms(s, {{"cpu", c}, {"fpga", f}, {"gpu", C - c - f}}));
  const auto three = exact_split(s, {"cpu", "fpga", "gpu"});
  ASSERT_EQ(three.status, ychart::Status::optimal);
  EXPECT_NEAR(three.latency_ms, best3, 1e-9);
}

TEST(Study000, SequentialGpSplitMatchesAGridSearch) {
  const auto& s = setup();
  const double C = s.channels;
  // Continuous, every device at least one channel: c_G = C - c_F.
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= 200000; ++i) {
    const double f = 1 + (C - 2) * i / 200000.0;
    if (fits(s, f)) best = std::min(best, latency_ms(s, {{"fpga", f}, {"gpu", C - f}}));
  }
  auto m = split_model(s, {"fpga", "gpu"});
  const auto sol = m.model.solve();
  ASSERT_EQ(sol.status(), ychart::Status::local_optimum) << sol.message();
  EXPECT_LE(sol.objective() * 1e3, best * (1 + 1e-9));  // no worse than the grid
  EXPECT_GE(sol.objective() * 1e3, best * (1 - 1e-5));  // and the grid is fine
  EXPECT_NEAR(sol[m.c.at("fpga")] + sol[m.c.at("gpu")], C, 1e-6);

  double best3 = std::numeric_limits<double>::infinity();
  const int n = 1500;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const double c = 1 + (C - 3) * i / double(n), f = 1 + (C - 3) * j / double(n), g = C - c - f;
      if (g >= 1 && fits(s, f)) best3 = std::min(best3, latency_ms(s, {{"cpu", c}, {"fpga", f}, {"gpu", g}}));
    }
  auto m3 = split_model(s, {"cpu", "fpga", "gpu"});
  const auto sol3 = m3.model.solve();
  ASSERT_EQ(sol3.status(), ychart::Status::local_optimum) << sol3.message();
  EXPECT_LE(sol3.objective() * 1e3, best3 * (1 + 1e-6));
  EXPECT_GE(sol3.objective() * 1e3, best3 * (1 - 1e-3));
}

TEST(Study000, LoaderNamesFileAndLine) {
  const auto dir = std::filesystem::temp_directory_path() / "ychart_test_study000";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "bad.json") << "{\"layer\": {\"c\": 16},\n \"latency_ms\": {\"cpu\": {\"family\": \"lin\", "
                                     "\"coefficients\": [1, 2, 3]}}}";
  try {
    load_setup1(dir / "bad.json");
    FAIL() << "no error";
  } catch (const ychart::io::parse_error& e) {
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.field, "latency_ms.cpu");
    EXPECT_NE(std::string(e.what()).find("lin 2"), std::string::npos) << e.what();
  }
}

}  // namespace
