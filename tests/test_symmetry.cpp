// Tests of symmetry found, not declared (include/ychart/solve/symmetry/symmetry.hpp):
//   * the plain CU allocation of study 001 ch. 3 (examples/study001/ch3/
//     plain_model.hpp, no interchangeable()) is found to have interchangeable
//     FPGAs, and its optimum equals the independent exact method of
//     tests/support/ch3_oracle.hpp, the same model solved with detection
//     off (a second method) and the same model with the FPGAs declared;
//   * models that are not symmetric are not found to be, and still solve to
//     the oracle's optimum;
//   * a declared group that is not a symmetry is a model_error naming the
//     constraint that breaks it; a true one written with its sides swapped
//     or its rows scaled is accepted.
#include "study001/ch3/plain_model.hpp"
#include "support/ch3_oracle.hpp"

#include <ychart/ychart.hpp>
#include <ychart/engine.hpp>  // the solver engine itself, which this test exercises

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace ychart;
using shan2021::Kernel;

std::vector<Kernel> random_kernels(std::mt19937& rng, int K, bool with_twins) {
  std::uniform_real_distribution<double> res(3.0, 15.0), wcet(0.5, 10.0);
  std::vector<Kernel> ks;
  for (int k = 0; k < K; ++k) {
    if (with_twins && k == 1) {  // an identical kernel, as VGG's CONV6, 7
      ks.push_back(ks.front());
      continue;
    }
    ks.push_back(Kernel{"k", std::round(res(rng) * 100) / 100, std::round(res(rng) * 100) / 100,
                        std::round(res(rng) * 100) / 100, std::round(wcet(rng) * 1000) / 1000, 1});
  }
  return ks;
}

double weighted(const study001::ch3::PlainAllocation& p, const Solution& s, double alpha, double beta) {
  return alpha * s[p.ii] + (p.phi ? beta * s[*p.phi] : 0.0);  // II in ms, as declared
}

TEST(Symmetry, PlainAllocationIsFoundSymmetricAndSolvedExactly) {
  std::mt19937 rng(15001);
  int found = 0, feasible = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int K = 3 + trial % 2, F = 2 + trial % 3;
    const bool twins = trial % 5 == 4;
    const auto ks = random_kernels(rng, K, twins);
    const double cap = std::round(std::uniform_real_distribution<double>(15.0, 40.0)(rng));
    const double alpha = 1.0, beta = trial % 2 ? 0.0 : 0.7;
    SCOPED_TRACE("trial " + std::to_string(trial) + ": K " + std::to_string(K) + ", F " + std::to_string(F) +
                 ", cap " + std::to_string(cap) + ", beta " + std::to_string(beta));
    auto p = study001::ch3::plain_allocation(ks, F, cap, alpha, beta);
    // Among the groups found (identical kernels are a second one), one has
    // a block per FPGA: the variables n[.][f] of one column.
    const auto groups = solve::symmetry::find_interchangeable_blocks(p.model);
    bool devices = false;
    for (const auto& blocks : groups) {
      if (blocks.size() != std::size_t(F) || blocks.front().size() != std::size_t(K)) continue;
      auto column_of = [&](std::uint32_t j) {
        for (int k = 0; k < K; ++k)
          for (int f = 0; f < F; ++f)
            if (p.n[std::size_t(k)][std::size_t(f)].index() == j) return f;
        return -1;
      };
      bool columns = true;
      std::vector<int> seen;
      for (const auto& block : blocks) {
        const int f = column_of(block.front());
        for (auto j : block) columns = columns && f >= 0 && column_of(j) == f;
        columns = columns && std::find(seen.begin(), seen.end(), f) == seen.end();
        seen.push_back(f);
      }
      devices = devices || columns;
    }
    ASSERT_TRUE(devices);
    ++found;
    const auto s = p.model.solve();
    const auto oracle = ch3_oracle::exact_weighted(ks, F, cap, alpha, beta);
    if (!oracle.feasible) {
      EXPECT_EQ(s.status(), Status::infeasible) << s.message();
      continue;
    }
    ++feasible;
    ASSERT_EQ(s.status(), Status::optimal) << s.message();
    EXPECT_EQ(s.method(), "symmetric decomposition");
    EXPECT_NEAR(weighted(p, s, alpha, beta), oracle.objective, 1e-6 * std::max(1.0, oracle.objective));
    SolveOptions off;
    off.detect_symmetry = false;
    const auto plain = p.model.solve(off);
    ASSERT_EQ(plain.status(), Status::optimal) << plain.message();
    EXPECT_NEAR(plain.objective(), s.objective(), 1e-6 * std::max(1.0, std::abs(s.objective())));
    // The same model with the FPGAs declared interchangeable.
    auto declared = study001::ch3::plain_allocation(ks, F, cap, alpha, beta);
    std::vector<std::vector<Discrete<>>> fpgas(static_cast<std::size_t>(F));
    for (std::size_t f = 0; f < fpgas.size(); ++f)
      for (const auto& row : declared.n) fpgas[f].push_back(row[f]);
    declared.model.interchangeable(fpgas);
    const auto d = declared.model.solve();
    ASSERT_EQ(d.status(), Status::optimal) << d.message();
    EXPECT_EQ(d.method(), "symmetric decomposition");
    EXPECT_NEAR(weighted(declared, d, alpha, beta), oracle.objective, 1e-6 * std::max(1.0, oracle.objective));
  }
  EXPECT_EQ(found, 60);
  EXPECT_GE(feasible, 30);
}

TEST(Symmetry, DevicesWithDifferentCapsAreNotInterchangeable) {
  std::mt19937 rng(15002);
  for (int trial = 0; trial < 20; ++trial) {
    const auto ks = random_kernels(rng, 3, false);
    auto p = study001::ch3::plain_allocation(ks, 2, 30, 1.0, 0.0);
    // FPGA 2 gets a tighter BRAM row: the two FPGAs differ.
    Affine<> bram;
    for (std::size_t k = 0; k < ks.size(); ++k) bram += ks[k].bram_pct * p.n[k][1];
    p.model.subject_to(bram <= 20.0, "smaller BRAM of FPGA 2");
    EXPECT_TRUE(solve::symmetry::find_interchangeable_blocks(p.model).empty());
    // Brute force over every allocation n[k][f] that fits its FPGA.
    const double caps[2][3] = {{30, 30, 30}, {20, 30, 30}};
    double best = std::numeric_limits<double>::infinity();
    std::vector<int> n(6, 0);
    auto use = [&](int f, int t) {
      double u = 0;
      for (int k = 0; k < 3; ++k) {
        const auto& x = ks[std::size_t(k)];
        u += n[std::size_t(2 * k + f)] * (t == 0 ? x.bram_pct : t == 1 ? x.dsp_pct : x.bw_pct);
      }
      return u;
    };
    auto fits = [&](int f) {
      for (int t = 0; t < 3; ++t)
        if (use(f, t) > caps[f][t] + 1e-9) return false;
      return true;
    };
    auto search = [&](auto&& self, int v) -> void {
      if (v == 6) {
        double ii = 0;
        for (int k = 0; k < 3; ++k) {
          const int N = n[std::size_t(2 * k)] + n[std::size_t(2 * k + 1)];
          if (N == 0) return;
          ii = std::max(ii, ks[std::size_t(k)].wcet_ms / N);
        }
        best = std::min(best, ii);
        return;
      }
      for (n[std::size_t(v)] = 0; fits(v % 2); ++n[std::size_t(v)]) self(self, v + 1);
      n[std::size_t(v)] = 0;
    };
    search(search, 0);
    const auto s = p.model.solve();
    if (!std::isfinite(best)) {
      EXPECT_EQ(s.status(), Status::infeasible);
      continue;
    }
    ASSERT_EQ(s.status(), Status::optimal) << s.message();
    EXPECT_NEAR(s[p.ii], best, 1e-6 * best);
  }
}

TEST(Symmetry, ADeclaredGroupThatIsNotASymmetryIsAModelError) {
  Model m;
  auto a1 = m.integer("a1", 0, 5), b1 = m.integer("b1", 0, 5);
  auto a2 = m.integer("a2", 0, 5), b2 = m.integer("b2", 0, 5);
  auto t = m.positive("t");
  m.subject_to(2 * a1 + 3 * b1 <= 10, "device 1");
  m.subject_to(2 * a2 + 3 * b2 <= 9, "device 2");  // not the same capacity
  m.subject_to(a1 + a2 >= 2);
  m.subject_to(b1 + b2 >= 2);
  auto total = m.integer("total", 1, 20);
  m.subject_to(total == a1 + a2 + b1 + b2);
  m.subject_to(t >= 1.0 / total);
  m.minimize(t);
  m.interchangeable(std::vector<std::vector<Discrete<>>>{{a1, b1}, {a2, b2}});
  try {
    (void)m.solve();
    FAIL() << "a false declaration was accepted";
  } catch (const model_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("device 1"), std::string::npos) << what;
    EXPECT_NE(what.find("not interchangeable"), std::string::npos) << what;
  }
  // Whatever the method: the declaration is checked before any search.
  SolveOptions bb;
  bb.method = Method::branch_and_bound;
  EXPECT_THROW((void)m.solve(bb), model_error);
}

TEST(Symmetry, ADeclaredSymmetryWrittenDifferentlyIsAccepted) {
  Model m;
  auto a1 = m.integer("a1", 0, 5), b1 = m.integer("b1", 0, 5);
  auto a2 = m.integer("a2", 0, 5), b2 = m.integer("b2", 0, 5);
  auto t = m.positive("t");
  auto phi = m.real("phi", 0, 4);
  m.subject_to(2 * a1 + 3 * b1 <= 10, "device 1");
  m.subject_to(10 >= 3 * b2 + 2 * a2, "device 2");   // sides swapped
  m.subject_to(4 * a1 + 6 * b1 <= 20, "device 1 twice");
  m.subject_to(6 * b2 + 4 * a2 <= 20, "device 2 twice");
  auto h = [](double v) { return v / (1 + v); };
  m.subject_to(tabulate(a1, h) + tabulate(a2, h) <= phi);
  m.subject_to(tabulate(b2, h) + tabulate(b1, h) <= phi);
  m.subject_to(a1 + a2 >= 3);
  m.subject_to(b1 + b2 >= 2);
  auto A = m.integer("A", 1, 10), B = m.integer("B", 1, 10);
  m.subject_to(A == a1 + a2);
  m.subject_to(B == b2 + b1);
  m.subject_to(t >= 1.0 / A + 2.0 / B);
  m.minimize(t + 0.1 * phi);
  const std::vector<std::vector<Discrete<>>> groups{{a1, b1}, {a2, b2}};
  m.interchangeable(groups);
  solve::symmetry::SymmetryChecker checker(m);
  const solve::symmetry::Blocks blocks{{a1.index(), b1.index()}, {a2.index(), b2.index()}};
  EXPECT_FALSE(checker.check(blocks).has_value()) << *checker.check(blocks);
  // Positions matter: a1 with b2 is not a symmetry.
  const solve::symmetry::Blocks crossed{{a1.index(), b1.index()}, {b2.index(), a2.index()}};
  EXPECT_TRUE(checker.check(crossed).has_value());
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::optimal) << s.message();
  // Second method: branch and bound, which ignores the declaration.
  SolveOptions bb;
  bb.method = Method::branch_and_bound;
  const auto r = m.solve(bb);
  ASSERT_EQ(r.status(), Status::optimal) << r.message();
  EXPECT_NEAR(s.objective(), r.objective(), 1e-6 * std::max(1.0, std::abs(r.objective())));
}

TEST(Symmetry, DifferentTablesBreakASymmetry) {
  Model m;
  auto a1 = m.integer("a1", 0, 3), a2 = m.integer("a2", 0, 3);
  auto phi = m.real("phi", 0, 10);
  m.subject_to(a1 <= 2), m.subject_to(a2 <= 2);
  m.subject_to(tabulate(a1, [](double v) { return v; }, "h(a1)") +
                   tabulate(a2, [](double v) { return 2 * v; }, "g(a2)") <=
               phi);
  m.subject_to(a1 + a2 >= 3);
  m.minimize(phi);
  EXPECT_TRUE(solve::symmetry::find_interchangeable_blocks(m).empty());
  m.interchangeable(std::vector<std::vector<Discrete<>>>{{a1}, {a2}});
  try {
    (void)m.solve();
    FAIL() << "a false declaration was accepted";
  } catch (const model_error& e) {
    EXPECT_NE(std::string(e.what()).find("h(a1)"), std::string::npos) << e.what();
  }
}

TEST(Symmetry, ObjectiveThatFavoursOneDeviceBreaksIt) {
  Model m;
  auto a1 = m.integer("a1", 0, 3), a2 = m.integer("a2", 0, 3);
  m.subject_to(a1 + a2 >= 3);
  m.subject_to(a1 <= 2), m.subject_to(a2 <= 2);
  m.minimize(1.0 * a1 + 2.0 * a2);
  EXPECT_TRUE(solve::symmetry::find_interchangeable_blocks(m).empty());
  solve::symmetry::SymmetryChecker checker(m);
  const auto broken = checker.check({{a1.index()}, {a2.index()}});
  ASSERT_TRUE(broken.has_value());
  EXPECT_NE(broken->find("objective"), std::string::npos) << *broken;
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::optimal);
  EXPECT_NEAR(s.objective(), 4.0, 1e-9);  // a1 = 2, a2 = 1
}

}  // namespace

namespace {

// Symmetric models outside the decomposition's structure (every device must
// hold a unit: a ">=" row per device): the device blocks are found and kept
// in order by rows (migp.hpp, add_ordering_rows) in every general method,
// and each optimum equals brute-force enumeration over all allocations.
TEST(Symmetry, OrderingRowsKeepTheOptimumOutsideTheDecomposition) {
  std::mt19937 rng(27182);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int feasible = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int K = 2 + trial % 2, F = 2 + (trial / 2) % 2, U = 3;
    std::vector<int> use(static_cast<std::size_t>(K)), work(static_cast<std::size_t>(K));
    for (int k = 0; k < K; ++k) use[std::size_t(k)] = uniform(1, 4), work[std::size_t(k)] = uniform(1, 9);
    const int cap = uniform(3, 8);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": K " + std::to_string(K) + ", F " + std::to_string(F) +
                 ", cap " + std::to_string(cap));
    Model m;
    std::vector<std::vector<Discrete<>>> n(static_cast<std::size_t>(K));
    for (int k = 0; k < K; ++k)
      for (int f = 0; f < F; ++f)
        n[std::size_t(k)].push_back(m.integer("n" + std::to_string(k) + std::to_string(f), 0, U));
    auto ii = m.positive("II");
    for (int f = 0; f < F; ++f) {
      Affine<> load, units;
      for (int k = 0; k < K; ++k) {
        load += use[std::size_t(k)] * n[std::size_t(k)][std::size_t(f)];
        units += n[std::size_t(k)][std::size_t(f)];
      }
      m.subject_to(load <= double(cap));
      m.subject_to(units >= 1.0);
    }
    for (int k = 0; k < K; ++k) {
      auto total = m.integer("N" + std::to_string(k), 1, U * F);
      Affine<> sum;
      for (int f = 0; f < F; ++f) sum += n[std::size_t(k)][std::size_t(f)];
      m.subject_to(total == sum);
      m.subject_to(ii >= double(work[std::size_t(k)]) / total);
    }
    m.minimize(ii);
    const auto groups = solve::symmetry::find_interchangeable_blocks(m);
    ASSERT_FALSE(groups.empty());
    // Brute force: every allocation in [0, U]^(K F).
    double best = std::numeric_limits<double>::infinity();
    std::vector<int> x(std::size_t(K * F), 0);
    while (true) {
      bool ok = true;
      for (int f = 0; f < F && ok; ++f) {
        int load = 0, units = 0;
        for (int k = 0; k < K; ++k) load += use[std::size_t(k)] * x[std::size_t(k * F + f)], units += x[std::size_t(k * F + f)];
        ok = load <= cap && units >= 1;
      }
      double value = 0.0;
      for (int k = 0; k < K && ok; ++k) {
        int total = 0;
        for (int f = 0; f < F; ++f) total += x[std::size_t(k * F + f)];
        ok = total >= 1;
        value = std::max(value, double(work[std::size_t(k)]) / total);
      }
      if (ok) best = std::min(best, value);
      std::size_t j = 0;
      while (j < x.size() && x[j] == U) x[j++] = 0;
      if (j == x.size()) break;
      ++x[j];
    }
    for (Method method : {Method::automatic, Method::outer_approximation, Method::branch_and_bound}) {
      SolveOptions o;
      o.method = method;
      const auto s = m.solve(o);
      EXPECT_NE(s.method(), "symmetric decomposition");
      if (!std::isfinite(best)) {
        EXPECT_EQ(s.status(), Status::infeasible) << s.message();
        continue;
      }
      ASSERT_EQ(s.status(), Status::optimal) << to_string(method) << ": " << s.message();
      EXPECT_NEAR(s.objective(), best, 1e-6 * best) << to_string(method);
    }
    feasible += std::isfinite(best);
  }
  EXPECT_GE(feasible, 15);
}

}  // namespace
