// Study 001 (Shan 2021), chapter 3: the exact integer CU allocation
// (eqs. 3.1-3.10, pipeline::build_mapping_model on the tables in
// examples/data/shan2021) for Alex-16 on 2 FPGAs and Alex-32 on 4, at
// resource caps 30 .. 92 %, checked against an independent exact method
// (tests/support/ch3_oracle.hpp: candidate IIs + a depth-first vector bin
// packing, on the tables' separate C++ transcription data/shan2021_ch3.hpp),
// which is itself checked here against brute-force enumeration of every
// n_kf on small random instances.
//   beta = 0:           the solver's II equals the oracle's optimal II;
//   Table 3.4 beta:     the solver's alpha II + beta phi equals the oracle's.
// Each solver allocation is also re-evaluated from its n_kf: resources per
// FPGA within the cap, N_k = sum_f n_kf, II = max_k WCET_k / N_k, phi.
#include "study001/common/study.hpp"
#include "support/ch3_oracle.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace {

using shan2021::Kernel;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---------------------------------------------------------------------------
// Brute force: every n_kf in 0 .. (what fits one empty bin), resources
// checked bin by bin; the minimum II and the minimum alpha II + beta phi.

struct Brute {
  bool feasible = false;
  double ii = std::numeric_limits<double>::infinity();
  double weighted = std::numeric_limits<double>::infinity();
};

void enumerate(const std::vector<Kernel>& ks, int F, double cap, double alpha, double beta, std::size_t k, int f,
               std::vector<std::vector<int>>& n, std::vector<std::array<double, 3>>& load, Brute& out) {
  const std::size_t K = ks.size();
  if (f == F) {
    k += 1;
    f = 0;
  }
  if (k == K) {
    double ii = 0, phi = 0;
    for (std::size_t j = 0; j < K; ++j) {
      int N = 0;
      double phi_j = 0;
      for (int g = 0; g < F; ++g) {
        N += n[j][g];
        phi_j += n[j][g] / (1.0 + n[j][g]);
      }
      if (N < 1) return;
      ii = std::max(ii, ks[j].wcet_ms / N);
      phi = std::max(phi, phi_j);
    }
    out.feasible = true;
    out.ii = std::min(out.ii, ii);
    out.weighted = std::min(out.weighted, alpha * ii + beta * phi);
    return;
  }
  const auto r = ch3_oracle::usage(ks[k]);
  for (int c = 0;; ++c) {
    bool fits = true;
    for (int t = 0; t < 3; ++t)
      if (load[f][t] + c * r[t] > cap + ch3_oracle::cap_eps) fits = false;
    if (!fits) break;
    n[k][f] = c;
    for (int t = 0; t < 3; ++t) load[f][t] += c * r[t];
    enumerate(ks, F, cap, alpha, beta, k, f + 1, n, load, out);
    for (int t = 0; t < 3; ++t) load[f][t] -= c * r[t];
    n[k][f] = 0;
  }
}

Brute brute_force(const std::vector<Kernel>& ks, int F, double cap, double alpha, double beta) {
  std::vector<std::vector<int>> n(ks.size(), std::vector<int>(F, 0));
  std::vector<std::array<double, 3>> load(F, {0, 0, 0});
  Brute out;
  enumerate(ks, F, cap, alpha, beta, 0, 0, n, load, out);
  return out;
}

// ---------------------------------------------------------------------------
// Re-evaluation of an allocation n_kf.

struct Evaluated {
  double ii = 0, phi = 0;
  std::vector<int> total;
};

// Checks resources per bin and returns II and phi of the allocation.
Evaluated evaluate(const std::vector<Kernel>& ks, int F, double cap, const std::vector<std::vector<int>>& n) {
  Evaluated e;
  EXPECT_EQ(n.size(), ks.size());
  for (std::size_t k = 0; k < ks.size(); ++k) {
    EXPECT_EQ(n[k].size(), static_cast<std::size_t>(F));
    int N = 0;
    double phi_k = 0;
    for (int f = 0; f < F; ++f) {
      EXPECT_GE(n[k][f], 0);
      N += n[k][f];
      phi_k += n[k][f] / (1.0 + n[k][f]);
    }
    EXPECT_GE(N, 1) << "kernel " << k << " has no CU";
    e.total.push_back(N);
    e.ii = std::max(e.ii, ks[k].wcet_ms / std::max(N, 1));
    e.phi = std::max(e.phi, phi_k);
  }
  for (int f = 0; f < F; ++f)
    for (int t = 0; t < 3; ++t) {
      double use = 0;
      for (std::size_t k = 0; k < ks.size(); ++k) use += n[k][f] * ch3_oracle::usage(ks[k])[t];
      EXPECT_LE(use, cap + 1e-9) << "FPGA " << f << ", resource " << t;
    }
  return e;
}

// ---------------------------------------------------------------------------
// The oracle against brute force.

TEST(Study001Exact, OracleMatchesBruteForce) {
  std::mt19937 rng(20210301);
  std::uniform_real_distribution<double> res(3.0, 15.0), wcet(0.5, 10.0), capd(15.0, 40.0);
  std::uniform_int_distribution<int> coin(0, 5);
  const double betas[] = {0.3, 1.0, 5.0};
  int feasible = 0, infeasible = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int K = 3 + trial % 2;                 // 3 or 4 kernels
    const int F = K == 4 ? 2 : 2 + (trial / 2) % 2;  // 2 bins with 4 kernels, 2 or 3 with 3
    std::vector<Kernel> ks;
    for (int k = 0; k < K; ++k) {
      Kernel x{"k", std::round(res(rng) * 100) / 100, std::round(res(rng) * 100) / 100,
               std::round(res(rng) * 100) / 100, std::round(wcet(rng) * 1000) / 1000, 1};
      if (coin(rng) == 0) x.dsp_pct = 0;  // like POOL1
      ks.push_back(x);
    }
    const double cap = std::round(capd(rng));
    const double alpha = 1.0, beta = betas[trial % 3];
    SCOPED_TRACE("trial " + std::to_string(trial) + ": K = " + std::to_string(K) + ", F = " + std::to_string(F) +
                 ", cap = " + std::to_string(cap) + ", beta = " + std::to_string(beta));
    const auto b = brute_force(ks, F, cap, alpha, beta);
    const auto ii = ch3_oracle::exact_ii(ks, F, cap);
    const auto w = ch3_oracle::exact_weighted(ks, F, cap, alpha, beta);
    ASSERT_EQ(ii.feasible, b.feasible);
    ASSERT_EQ(w.feasible, b.feasible);
    if (!b.feasible) {
      ++infeasible;
      continue;
    }
    ++feasible;
    EXPECT_NEAR(ii.ii_ms, b.ii, 1e-12 * b.ii);
    EXPECT_NEAR(w.objective, b.weighted, 1e-12 * b.weighted);
    // The packings returned are what they claim.
    const auto e = evaluate(ks, F, cap, ii.per_fpga);
    EXPECT_EQ(e.total, ii.total);
    EXPECT_NEAR(e.ii, ii.ii_ms, 1e-12 * b.ii);
    const auto ew = evaluate(ks, F, cap, w.per_fpga);
    EXPECT_EQ(ew.total, w.total);
    EXPECT_NEAR(ew.ii, w.ii_ms, 1e-12 * w.ii_ms);
    EXPECT_NEAR(ew.phi, w.phi, 1e-12);
    EXPECT_NEAR(alpha * ew.ii + beta * ew.phi, w.objective, 1e-12 * w.objective);
  }
  // Both outcomes are exercised (321 feasible, 79 infeasible with this seed).
  EXPECT_GT(feasible, 250);
  EXPECT_GT(infeasible, 40);
}

// ---------------------------------------------------------------------------
// The solver against the oracle.

struct Point {
  const char* which;  // "alex16" or "alex32"
  double cap;
  bool weighted;      // false: beta = 0; true: Table 3.4 alpha, beta
};

void PrintTo(const Point& p, std::ostream* os) {
  *os << p.which << " at " << p.cap << "%" << (p.weighted ? ", Table 3.4 beta" : ", beta = 0");
}

std::string point_name(const testing::TestParamInfo<Point>& info) {
  return std::string(info.param.which) + "_cap" + std::to_string(static_cast<int>(info.param.cap)) +
         (info.param.weighted ? "_weighted" : "_ii");
}

class Study001ExactPoint : public testing::TestWithParam<Point> {};

TEST_P(Study001ExactPoint, SolverMatchesOracle) {
  const Point p = GetParam();
  const shan2021::Case c = std::string(p.which) == "alex16" ? shan2021::alex16() : shan2021::alex32();
  const auto stages = c.stages();
  const int F = c.fpgas;
  const double alpha = p.weighted ? c.alpha : 1.0;
  const double beta = p.weighted ? c.beta : 0.0;
  SCOPED_TRACE(std::string(c.name) + " at R = " + std::to_string(p.cap) + "%, beta = " + std::to_string(beta));

  auto t0 = std::chrono::steady_clock::now();
  const auto ii = ch3_oracle::exact_ii(stages, F, p.cap);
  ch3_oracle::WeightedResult w;
  if (p.weighted) w = ch3_oracle::exact_weighted(stages, F, p.cap, alpha, beta);
  const double oracle_s = seconds_since(t0);

  const auto app = ychart::pipeline::load_pipeline<ychart::pipeline::FpgaResources>(
      study001::data_dir() / (std::string("ch3_") + p.which + ".csv"), std::string(c.name));
  ASSERT_EQ(app.size(), stages.size());
  ychart::pipeline::MappingModelOptions<ychart::pipeline::FpgaResources> options;
  options.cap() = ychart::pipeline::uniform_resources<ychart::pipeline::FpgaResources>(p.cap);
  options.alpha = alpha;
  options.beta = beta;
  auto mm = ychart::pipeline::build_mapping_model(app, study001::aws_f1(F), options);
  ychart::SolveOptions o;
  o.time_limit = 60;  // a guard: the status must still be optimal (or infeasible)
  t0 = std::chrono::steady_clock::now();
  const auto s = mm.model.solve(o);
  const double solver_s = seconds_since(t0);
  // Optimum in the unit of s.objective(): SI seconds for beta = 0, dimensionless otherwise.
  const double expected = p.weighted ? w.objective : ii.ii_ms * 1e-3;
  std::printf("[point] %-20s cap %3.0f %-8s solver %8.3f s %-15s oracle %7.3f s (%ld nodes)  optimum %.9g solver %.9g bound %.9g\n",
              c.name.data(), p.cap, p.weighted ? "weighted" : "beta=0", solver_s,
              std::string(ychart::to_string(s.status())).c_str(), oracle_s, p.weighted ? w.nodes : ii.nodes,
              ii.feasible ? expected : std::nan(""), s.has_values() ? s.objective() : std::nan(""), s.bound());
  RecordProperty("solver_seconds", std::to_string(solver_s));
  RecordProperty("oracle_seconds", std::to_string(oracle_s));

  if (!ii.feasible) {
    EXPECT_FALSE(w.feasible);
    EXPECT_EQ(s.status(), ychart::Status::infeasible) << s.message();
    return;
  }
  // An incumbent left by a limit is checked too: feasible, not better than the optimum.
  ASSERT_TRUE(s.has_values()) << s.status() << ": " << s.message();

  // The solver's allocation, re-evaluated.
  std::vector<std::vector<int>> n(stages.size());
  for (std::size_t k = 0; k < stages.size(); ++k) {
    for (int f = 0; f < F; ++f) {
      const double v = s.value(mm.cus[k][f]);
      EXPECT_NEAR(v, std::round(v), 1e-6) << "n_" << k << "_" << f << " is not integral";
      n[k].push_back(static_cast<int>(std::lround(v)));
    }
  }
  const auto e = evaluate(stages, F, p.cap, n);
  for (std::size_t k = 0; k < stages.size(); ++k) EXPECT_NEAR(s.value(mm.total[k]), e.total[k], 1e-6) << "N_" << k;
  EXPECT_NEAR(mm.initiation_interval(s).in(ychart::units::ms), e.ii, 1e-6 * e.ii);
  EXPECT_GE(s.objective(), expected * (1 - 1e-6)) << "the solver beats the exact optimum";
  if (std::isfinite(s.bound())) {
    EXPECT_LE(s.bound(), expected * (1 + 1e-6)) << "the solver's bound cuts off the optimum";
  }
  ASSERT_EQ(s.status(), ychart::Status::optimal) << s.message();

  if (!p.weighted) {
    EXPECT_NEAR(mm.initiation_interval(s).in(ychart::units::ms), ii.ii_ms, 1e-6 * ii.ii_ms);
    EXPECT_NEAR(s.objective(), ii.ii_ms * 1e-3, 1e-6 * ii.ii_ms * 1e-3);  // SI seconds
    EXPECT_NEAR(e.ii, ii.ii_ms, 1e-6 * ii.ii_ms);
  } else {
    ASSERT_TRUE(w.feasible);
    EXPECT_NEAR(s.objective(), w.objective, 1e-6 * w.objective);
    EXPECT_NEAR(alpha * e.ii + beta * e.phi, w.objective, 1e-6 * w.objective)
        << "solver allocation: II = " << e.ii << " ms, phi = " << e.phi << "; oracle: II = " << w.ii_ms
        << " ms, phi = " << w.phi;
    EXPECT_NEAR(s.value(mm.spreading), e.phi, 1e-6);
    // The weighted optimum never beats the unweighted II.
    EXPECT_GE(w.ii_ms, ii.ii_ms * (1 - 1e-12));
  }
}

std::vector<Point> points() {
  std::vector<Point> out;
  for (bool weighted : {false, true})
    for (const char* which : {"alex16", "alex32"})
      // 30 %: below one CU of Alex-32's convolutions (bounds of n_kf at 0).
      for (double cap : {30.0, 40.0, 50.0, 61.0, 70.0, 80.0, 92.0}) out.push_back({which, cap, weighted});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Caps, Study001ExactPoint, testing::ValuesIn(points()), point_name);

}  // namespace
