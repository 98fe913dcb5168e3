// Tests of the packing subproblem of the symmetric decomposition
// (include/ychart/solve/symmetry/symmetric_packing.hpp) against brute force: random
// packings of a few item types on a few identical devices, with one to three
// resources and, half of the time, spreading rows. Every split of every
// type's units over the devices is enumerated; the oracle says whether one
// fits and which needs the least spreading. solve::symmetry::pack must agree, and the
// packing it returns must hold the counts, the per-device bounds and every
// device's resources.
#include <ychart/solve/symmetry/symmetric_packing.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using ychart::solve::symmetry::PackingProblem;
using ychart::solve::symmetry::PackingResult;

PackingProblem random_packing(std::mt19937& rng, bool spreading) {
  auto rint = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  PackingProblem p;
  // Tight instances: many small units per device, so that greedy packings
  // often fail and the exact search decides.
  p.devices = rint(2, 3);
  const int K = rint(2, 3), R = rint(1, 3);
  p.capacity.assign(std::size_t(R), 0.0);
  p.use.assign(std::size_t(R), std::vector<double>(std::size_t(K), 0.0));
  for (int r = 0; r < R; ++r) {
    p.capacity[std::size_t(r)] = rint(10, 30);
    for (int k = 0; k < K; ++k)  // whole and fractional sizes, some zero
      p.use[std::size_t(r)][std::size_t(k)] = rint(0, 4) == 0 ? 0.0 : rint(20, 120) / 10.0;
  }
  for (int k = 0; k < K; ++k) p.per_device_max.push_back(rint(1, 6));
  // Counts from devices filled at random until no unit fits (tight, so that
  // greedy packings often fail), then half of the time one unit more.
  p.count.assign(std::size_t(K), 0);
  for (int f = 0; f < p.devices; ++f) {
    std::vector<double> room = p.capacity;
    std::vector<int> here(std::size_t(K), 0);
    for (int attempt = 0; attempt < 50; ++attempt) {
      const auto k = std::size_t(rint(0, K - 1));
      bool fits_one = here[k] < p.per_device_max[k];
      for (int r = 0; r < R; ++r) fits_one = fits_one && p.use[std::size_t(r)][k] <= room[std::size_t(r)];
      if (!fits_one) continue;
      ++here[k];
      ++p.count[k];
      for (int r = 0; r < R; ++r) room[std::size_t(r)] -= p.use[std::size_t(r)][k];
    }
  }
  if (rint(0, 1) == 1) ++p.count[std::size_t(rint(0, K - 1))];
  if (spreading) {
    p.table.assign(std::size_t(K), {});
    for (int k = 0; k < K; ++k) {
      if (rint(0, 3) == 0) continue;  // this type is not spread
      for (int v = 0; v <= p.per_device_max[std::size_t(k)]; ++v) p.table[std::size_t(k)].push_back(v / (1.0 + v));
    }
    if (rint(0, 1) == 1) {  // study 001's form: one row per spread type, sum_f h(n_kf) <= y
      for (int k = 0; k < K; ++k)
        if (!p.table[std::size_t(k)].empty()) p.spread.push_back({{{k, 1.0}}, 1.0, 0.0});
      if (!p.spread.empty()) return p;
    }
    const int rows = rint(1, 2);
    for (int i = 0; i < rows; ++i) {
      PackingProblem::SpreadRow row;
      for (int k = 0; k < K; ++k)
        if (!p.table[std::size_t(k)].empty() && rint(0, 2) > 0) row.terms.emplace_back(k, rint(1, 3) * 0.5);
      row.gamma = rint(0, 3) == 0 ? 0.0 : 1.0;
      row.b = row.gamma > 0 ? 0.0 : rint(1, 6) * 0.5;  // gamma 0: a fixed limit on the spreading
      p.spread.push_back(row);
    }
  }
  return p;
}

// The spreading y a packing needs, as pack() defines it: the largest over
// rows of (sum coef * sum_f table(n_kf) - b) / gamma; +inf when a row with
// gamma 0 is exceeded; -inf without rows.
double y_needed(const PackingProblem& p, const std::vector<std::vector<int>>& n) {
  double y = -std::numeric_limits<double>::infinity();
  for (const auto& row : p.spread) {
    double v = 0.0;
    for (auto [k, c] : row.terms)
      for (int f = 0; f < p.devices; ++f) v += c * p.table[std::size_t(k)][std::size_t(n[std::size_t(k)][std::size_t(f)])];
    if (row.gamma > 0) y = std::max(y, (v - row.b) / row.gamma);
    else if (v > row.b + 1e-9) return std::numeric_limits<double>::infinity();
  }
  return y;
}

bool fits(const PackingProblem& p, const std::vector<std::vector<int>>& n) {
  for (std::size_t k = 0; k < p.count.size(); ++k) {
    int sum = 0;
    for (int f = 0; f < p.devices; ++f) {
      const int v = n[k][std::size_t(f)];
      if (v < 0 || v > p.per_device_max[k]) return false;
      sum += v;
    }
    if (sum != p.count[k]) return false;
  }
  for (std::size_t r = 0; r < p.capacity.size(); ++r)
    for (int f = 0; f < p.devices; ++f) {
      double used = 0.0;
      for (std::size_t k = 0; k < p.count.size(); ++k) used += p.use[r][k] * n[k][std::size_t(f)];
      if (used > p.capacity[r] + 1e-9) return false;
    }
  return true;
}

struct Oracle {
  bool feasible = false;
  double y = std::numeric_limits<double>::infinity();
};

// Every split of every type over the devices.
Oracle brute_force(const PackingProblem& p) {
  Oracle o;
  const std::size_t K = p.count.size();
  std::vector<std::vector<int>> n(K, std::vector<int>(std::size_t(p.devices), 0));
  auto search = [&](auto&& self, std::size_t k, int f, int left) -> void {
    if (k == K) {
      if (!fits(p, n)) return;
      const double y = y_needed(p, n);
      if (!std::isfinite(y) && y > 0) return;  // a fixed spreading limit exceeded
      o.feasible = true;
      o.y = std::min(o.y, y);
      return;
    }
    if (f == p.devices - 1) {
      if (left > p.per_device_max[k]) return;
      n[k][std::size_t(f)] = left;
      self(self, k + 1, 0, k + 1 < K ? p.count[k + 1] : 0);
      n[k][std::size_t(f)] = 0;
      return;
    }
    for (int v = 0; v <= std::min(left, p.per_device_max[k]); ++v) {
      n[k][std::size_t(f)] = v;
      self(self, k, f + 1, left - v);
    }
    n[k][std::size_t(f)] = 0;
  };
  search(search, 0, 0, p.count[0]);
  return o;
}

void expect_agrees(const PackingProblem& p, const std::string& what, bool greedy_first) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  const PackingResult r = ychart::solve::symmetry::pack(p, std::numeric_limits<double>::infinity(), deadline, greedy_first);
  const Oracle o = brute_force(p);
  SCOPED_TRACE(what + (greedy_first ? "" : ", exact search alone"));
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.feasible, o.feasible);
  if (!o.feasible) return;
  ASSERT_TRUE(fits(p, r.n)) << "the returned packing breaks a count, a bound or a resource";
  const double y = y_needed(p, r.n);
  EXPECT_DOUBLE_EQ(r.y_needed, y) << "the reported spreading is not the packing's";
  if (std::isfinite(o.y)) {
    EXPECT_NEAR(y, o.y, 1e-9) << "a packing needing less spreading exists";
  } else {
    EXPECT_EQ(y, o.y);  // no spreading rows with gamma > 0: -inf
  }
}

std::string describe(const PackingProblem& p, int trial) {
  std::string s = "trial " + std::to_string(trial) + ": " + std::to_string(p.devices) + " devices, counts";
  for (int c : p.count) s += " " + std::to_string(c);
  s += ", " + std::to_string(p.capacity.size()) + " resources, " + std::to_string(p.spread.size()) + " spreading rows";
  return s;
}

TEST(SymmetricPacking, FeasibilityAgreesWithBruteForce) {
  std::mt19937 rng(15101);
  int feasible = 0;
  const int trials = 300;
  for (int trial = 0; trial < trials; ++trial) {
    const auto p = random_packing(rng, false);
    expect_agrees(p, describe(p, trial), true);
    expect_agrees(p, describe(p, trial), false);
    feasible += brute_force(p).feasible ? 1 : 0;
  }
  // Both verdicts occur often (measured 2026-11-25: 117 of 300 packable; with spreading 74 of 200).
  std::cout << "[ packings ] " << feasible << " of " << trials << " packable\n";
  EXPECT_GT(feasible, trials / 5);
  EXPECT_LT(feasible, trials * 4 / 5);
}

TEST(SymmetricPacking, LeastSpreadingAgreesWithBruteForce) {
  std::mt19937 rng(15102);
  int feasible = 0;
  const int trials = 200;
  for (int trial = 0; trial < trials; ++trial) {
    const auto p = random_packing(rng, true);
    expect_agrees(p, describe(p, trial), true);
    expect_agrees(p, describe(p, trial), false);
    feasible += brute_force(p).feasible ? 1 : 0;
  }
  std::cout << "[ packings with spreading ] " << feasible << " of " << trials << " packable\n";
  EXPECT_GT(feasible, trials / 5);
  EXPECT_LT(feasible, trials * 4 / 5);
}

// The instance that the split search could not settle in 10 s: AlexNet-16's
// eight kernels at beta 0 on 5 FPGAs at 90 % (Shan 2021, Table 3.2), with the
// totals the master asks for; DSP is 445.25 % of 450 %. Bin completion packs
// it; the packing is checked, not compared with a stored one.
TEST(SymmetricPacking, AlexNet16OnFiveFpgasAtNinetyPercent) {
  PackingProblem p;
  p.devices = 5;
  p.count = {15, 5, 3, 12, 2, 19, 14, 10};
  p.per_device_max = {8, 25, 29, 11, 13, 15, 11, 11};
  p.use = {{1.8, 3.5, 3.1, 2.1, 2.2, 2.9, 3.2, 3.1},
           {4.31, 0, 0.06, 7.63, 0.06, 5.66, 7.55, 7.55},
           {10.59, 0.05, 2.53, 4.39, 6.66, 2.63, 1.91, 4.39}};
  p.capacity = {90, 90, 90};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  const auto r = ychart::solve::symmetry::pack(p, std::numeric_limits<double>::infinity(), deadline);
  ASSERT_TRUE(r.complete);
  ASSERT_TRUE(r.feasible);
  EXPECT_TRUE(fits(p, r.n));
  // One more CONV2 unit overfills DSP (454.88 % > 450 %): unpackable.
  p.count[3] = 13;
  const auto over = ychart::solve::symmetry::pack(p, std::numeric_limits<double>::infinity(), deadline);
  ASSERT_TRUE(over.complete);
  EXPECT_FALSE(over.feasible);
}

}  // namespace
