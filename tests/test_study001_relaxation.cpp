// Study 001 (Shan 2021), chapter 3: the GP relaxation (3.14)-(3.21) of the CU
// allocation for Alex-16 on 2 FPGAs, Alex-32 on 4 and VGG on 8, as
// pipeline::build_relaxation builds it from the tables in examples/data/shan2021,
// checked against
// (a) an independent closed form found by bisection, on the tables'
//     separate C++ transcription (data/shan2021_ch3.hpp),
//   II* = min { II : sum_k max(1, WCET_k / II) R_kt <= F R  for every t },
// (b) the values of the study digest's section 10.2 (3 decimals), and
// (c) the closed-form sensitivity of II* to the binding resource cap.
#include "data/shan2021_ch3.hpp"
#include "study001/common/study.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

namespace {

using shan2021::Kernel;
using ychart::pipeline::FpgaResources;

// The relaxation's constraint index of one resource's row.
std::size_t row(const ychart::pipeline::Relaxation<FpgaResources>& r, const char* resource) {
  return r.resource_row.at(*ychart::pipeline::resource_index<FpgaResources>(resource));
}

double use(const Kernel& k, int t) { return t == 0 ? k.bram_pct : t == 1 ? k.dsp_pct : k.bw_pct; }

bool fits(const std::vector<Kernel>& stages, int F, double cap, double ii) {
  for (int t = 0; t < 3; ++t) {
    double total = 0;
    for (const auto& k : stages) total += std::max(1.0, k.wcet_ms / ii) * use(k, t);
    if (total > F * cap * (1 + 1e-12)) return false;
  }
  return true;
}

// The closed-form oracle: bisection on II (every constraint is monotone in II).
std::optional<double> oracle(const std::vector<Kernel>& stages, int F, double cap) {
  double hi = 0;
  for (const auto& k : stages) hi = std::max(hi, k.wcet_ms);
  if (!fits(stages, F, cap, hi)) return std::nullopt;  // infeasible even with N_k = 1
  double lo = 1e-9;
  for (int it = 0; it < 200; ++it) {
    const double mid = std::sqrt(lo * hi);
    (fits(stages, F, cap, mid) ? hi : lo) = mid;
  }
  return hi;
}

struct Point {
  double cap;
  double digest_ms;  // 001_shan.md section 10.2; NaN where the digest prints "—"
};

void check_case(const shan2021::Case& c, const char* file, const std::vector<Point>& points) {
  const auto stages = c.stages();
  const auto app = ychart::pipeline::load_pipeline<FpgaResources>(study001::data_dir() / file, std::string(c.name));
  ASSERT_EQ(app.size(), stages.size());
  const auto arch = study001::aws_f1(c.fpgas);
  for (const auto& p : points) {
    SCOPED_TRACE(std::string(c.name) + " at R = " + std::to_string(p.cap) + "%");
    auto r = ychart::pipeline::build_relaxation(app, arch, ychart::pipeline::uniform_resources<FpgaResources>(p.cap));
    const auto s = r.model.solve();
    const auto expected = oracle(stages, c.fpgas, p.cap);
    if (!expected) {
      EXPECT_TRUE(std::isnan(p.digest_ms));
      ASSERT_EQ(s.status(), ychart::Status::infeasible) << s.message();
      // DSP cannot fit even one CU of every kernel; the report must say so.
      EXPECT_GT(s.constraint(row(r, "dsp")).relaxation, 1.0);
      continue;
    }
    ASSERT_EQ(s.status(), ychart::Status::optimal) << s.message();
    EXPECT_NEAR(s.value(r.ii), *expected, 1e-6 * *expected);
    EXPECT_NEAR(s.objective(ychart::units::ms), *expected, 1e-6 * *expected);
    EXPECT_NEAR(s.value(r.ii), p.digest_ms, 0.0005 + 1e-9);
    // N_k >= max(1, WCET_k / II) always; with equality for kernels that use the
    // binding DSP (the others may take any value the slack resources allow).
    for (std::size_t k = 0; k < stages.size(); ++k) {
      const double least = std::max(1.0, stages[k].wcet_ms / *expected);
      if (stages[k].dsp_pct > 0) EXPECT_NEAR(s.value(r.cus[k]), least, 1e-4 * least);
      else EXPECT_GE(s.value(r.cus[k]), least * (1 - 1e-6));
    }
    // DSP binds; with the clamped kernels (N_k = 1) fixed, II = sum_free W R / (F R - sum_clamped R), so
    // d log II / d log R = - F R / (F R - sum_clamped R_dsp).
    double clamped = 0;
    for (const auto& k : stages)
      if (k.wcet_ms <= *expected * (1 + 1e-9)) clamped += k.dsp_pct;
    const double sens = -c.fpgas * p.cap / (c.fpgas * p.cap - clamped);
    const auto& dsp = s.constraint(row(r, "dsp"));
    EXPECT_TRUE(dsp.tight);
    EXPECT_NEAR(dsp.sensitivity, sens, 1e-4 * std::abs(sens));
    EXPECT_NEAR(s.constraint(row(r, "bram")).sensitivity, 0.0, 1e-6);  // BRAM slack
  }
}

constexpr double none = std::numeric_limits<double>::quiet_NaN();

TEST(Study001Relaxation, Alex16OnTwoFpgas) {
  check_case(shan2021::alex16(), "ch3_alex16.csv", {{30, 2.581}, {40, 1.935}, {50, 1.547}, {55, 1.407}, {61, 1.268},
                                  {70, 1.105}, {76, 1.018}, {82, 0.943}, {92, 0.841}, {100, 0.773}});
}

TEST(Study001Relaxation, Alex32OnFourFpgas) {
  check_case(shan2021::alex32(), "ch3_alex32.csv", {{30, none}, {40, none}, {50, 6.986}, {55, 6.202}, {61, 5.466},
                                  {70, 4.668}, {76, 4.294}, {82, 3.976}, {92, 3.539}, {100, 3.252}});
}

TEST(Study001Relaxation, VggOnEightFpgas) {
  check_case(shan2021::vgg(), "ch3_vgg16.csv", {{30, 24.851}, {40, 17.782}, {50, 14.225}, {55, 12.931}, {61, 11.659},
                               {70, 10.160}, {76, 9.358}, {82, 8.673}, {92, 7.730}, {100, 7.112}});
}

TEST(Study001Relaxation, TableSumsMatchTheThesis) {
  // Table 3.3's SUM row counts multiplicities: 17 stages, 87.37 % BRAM, 183.67 % DSP.
  const auto v = shan2021::vgg().stages();
  ASSERT_EQ(v.size(), 17u);
  double bram = 0, dsp = 0, wcet = 0;
  for (const auto& k : v) bram += k.bram_pct, dsp += k.dsp_pct, wcet += k.wcet_ms;
  EXPECT_NEAR(bram, 87.37, 1e-9);
  EXPECT_NEAR(dsp, 183.67, 1e-9);
  EXPECT_NEAR(wcet, 426.6, 1e-9);
}

}  // namespace

namespace {

// The relaxation's structure at a size where barrier terms of the log-space
// box could bias the answer: 3000 synthetic kernels (seeded), still within
// 1e-6 of the bisection oracle.
TEST(Study001Relaxation, LargeSyntheticInstanceStaysAccurate) {
  std::mt19937 rng(7u);
  std::uniform_real_distribution<double> wcet(0.5, 70.0), dsp(0.0, 20.0), bram(0.0, 12.0), bw(1.0, 7.0);
  std::vector<Kernel> stages;  // for the oracle
  std::vector<ychart::pipeline::Task<FpgaResources>> kernels;  // the same, for the model
  for (int k = 0; k < 3000; ++k) {
    const bool pool = rng() % 5 == 0;
    const double w = wcet(rng), d = dsp(rng), b = bram(rng), m = bw(rng);
    stages.push_back({"K", b, pool ? 0.0 : d, m, w, 1});
    ychart::pipeline::Task<FpgaResources> kernel;
    kernel.name = "K";
    kernel.implementation().wcet = w * ychart::units::ms;
    kernel.implementation().use.bram = b, kernel.implementation().use.dsp = pool ? 0.0 : d, kernel.implementation().use.bw = m;
    kernels.push_back(kernel);
  }
  const int F = 1500;
  const auto expected = oracle(stages, F, 61.0);
  ASSERT_TRUE(expected.has_value());
  auto r = ychart::pipeline::build_relaxation(ychart::pipeline::Application<FpgaResources>::pipeline("synthetic", kernels),
                                         study001::aws_f1(F), ychart::pipeline::uniform_resources<FpgaResources>(61.0));
  const auto s = r.model.solve();
  ASSERT_EQ(s.status(), ychart::Status::optimal) << s.message();
  EXPECT_NEAR(s.value(r.ii), *expected, 1e-6 * *expected);
}

}  // namespace

// Chapter 4's GP relaxation of VGG-16 on one to three FPGAs at caps where
// not even one CU of every kernel fits: the native method stalled there
// and, until 2026-11-30, handed each to Ipopt (study001_ch4's last GP
// fallbacks). The oracle: with N_k >= 1 the relaxation is feasible exactly
// when one CU of every kernel fits the DSP of F FPGAs at the cap (II may
// grow to the largest WCET); the native method must decide both ways alone.
TEST(Study001Relaxation, ChapterFourInfeasibleRelaxationsSettleWithoutIpopt) {
  ychart::pipeline::KernelColumns columns;
  columns.wcet = "tc1_ms";
  const auto app = ychart::pipeline::load_pipeline<FpgaResources>(study001::data_dir() / "ch4_vgg16.csv", "VGG-16", columns);
  double one_cu_each = 0;
  for (const auto& k : app.kernels()) one_cu_each += k.implementation().use.dsp;
  const auto process_default = ychart::default_gp_solver();
  ychart::set_default_gp_solver(ychart::GpSolver::automatic);  // native, Ipopt only after a failure
  int infeasible = 0;
  for (int fpgas = 1; fpgas <= 3; ++fpgas)
    for (double cap : {45.0, 55.0, 68.0, 92.0}) {
      SCOPED_TRACE("VGG-16 on " + std::to_string(fpgas) + " FPGAs at " + std::to_string(cap) + " %");
      auto r = ychart::pipeline::build_relaxation(app, study001::aws_f1(fpgas),
                                                  ychart::pipeline::uniform_resources<FpgaResources>(cap));
      const auto s = r.model.solve();
      const bool fits = one_cu_each <= fpgas * cap;
      infeasible += !fits;
      EXPECT_EQ(s.status(), fits ? ychart::Status::optimal : ychart::Status::infeasible) << s.message();
      EXPECT_EQ(s.gp_fallbacks(), 0) << s.message();
    }
  ychart::set_default_gp_solver(process_default);
  EXPECT_GE(infeasible, 6);
}
