// The thesis's alpha-penalty method (study 000, Eqs. 4.6-4.8) as a baseline:
// each iteration's GP is checked against a 2-D grid search of the penalised
// problem; the split's sum rises with alpha; the first accepted iterate is
// the first whose sum reaches C; and a large alpha pulls the split back to
// the condensation point's proportions (digest section 4.8).
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

using namespace ychart;

struct Split {
  double a, b, C;
};

// min a c_f + b c_g + alpha / h_bar s.t. c_f + c_g <= C, c in [1, C]: the
// penalised problem of one iteration, by grid search.
double grid_optimum(const Split& p, double alpha, double hat_f, double hat_g, bool thesis) {
  const double ef = hat_f / (hat_f + hat_g), eg = hat_g / (hat_f + hat_g);
  const double k = thesis ? 1.0 : 1.0 / (std::pow(ef, ef) * std::pow(eg, eg));
  double best = std::numeric_limits<double>::infinity();
  const int n = 1500;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const double cf = std::pow(p.C, double(i) / n), cg = std::pow(p.C, double(j) / n);
      if (cf + cg > p.C) continue;
      const double h_bar = k * std::pow(cf / p.C, ef) * std::pow(cg / p.C, eg);
      best = std::min(best, p.a * cf + p.b * cg + alpha / h_bar);
    }
  return best;
}

SignomialModel split_model(const Split& p, double hat_f, double hat_g, Variable<>& cf, Variable<>& cg) {
  SignomialModel m;
  cf = m.positive("c_f", 1.0, p.C);
  cg = m.positive("c_g", 1.0, p.C);
  m.subject_to(cf + cg == p.C, "split");
  m.minimize(p.a * cf + p.b * cg);
  m.start(cf, hat_f);
  m.start(cg, hat_g);
  return m;
}

TEST(AlphaPenalty, EachIterationMatchesAGridSearch) {
  const Split p{0.2, 1.0, 16};
  for (bool thesis : {true, false}) {
    Variable<> cf, cg;
    auto m = split_model(p, 8, 8, cf, cg);
    baselines::AlphaSweepOptions o;
    o.alpha_start = 0.5;
    o.alpha_step = 0.5;
    o.max_iterations = 12;
    o.stop_at_first = false;
    o.thesis_condensation = thesis;
    const auto r = baselines::alpha_penalty_sweep(m, o);
    ASSERT_EQ(r.iterations.size(), 12u);
    double previous_ratio = 0;
    for (const auto& it : r.iterations) {
      ASSERT_EQ(it.status, Status::optimal);
      const double f = it.values[cf.index()], g = it.values[cg.index()];
      const double ef = 0.5, k = thesis ? 1.0 : 2.0;
      const double penalised = p.a * f + p.b * g + it.alpha / (k * std::pow(f / p.C, ef) * std::pow(g / p.C, ef));
      EXPECT_NEAR(penalised, grid_optimum(p, it.alpha, 8, 8, thesis), 2e-3 * penalised) << it.iteration;
      EXPECT_NEAR(it.objective, p.a * f + p.b * g, 1e-9);
      EXPECT_NEAR(it.ratio[0], (f + g) / p.C, 1e-9);
      EXPECT_GE(it.ratio[0], previous_ratio - 1e-7) << it.iteration;  // the sum rises with alpha
      previous_ratio = it.ratio[0];
    }
  }
}

TEST(AlphaPenalty, AcceptsTheFirstIterateWhoseSumReachesC) {
  const Split p{0.2, 1.0, 16};
  Variable<> cf, cg;
  auto m = split_model(p, 8, 8, cf, cg);
  baselines::AlphaSweepOptions o;
  o.alpha_start = 0.25;
  o.alpha_step = 0.25;
  const auto r = baselines::alpha_penalty_sweep(m, o);
  ASSERT_GE(r.accepted, 1);
  ASSERT_EQ(r.accepted, static_cast<int>(r.iterations.size()) - 1);  // stopped there
  EXPECT_GE(r.iterations.back().ratio[0], 1 - o.tolerance);
  for (int i = 0; i < r.accepted; ++i) EXPECT_LT(r.iterations[static_cast<std::size_t>(i)].ratio[0], 1 - o.tolerance);
  // The FPGA (cheaper per channel) gets more channels than the balanced guess.
  EXPECT_GT(r.iterations.back().values[cf.index()], 8.0);
}

TEST(AlphaPenalty, LargeAlphaDriftsBackToTheCondensationPoint) {
  const Split p{0.2, 1.0, 16};
  Variable<> cf, cg;
  auto m = split_model(p, 8, 8, cf, cg);
  baselines::AlphaSweepOptions o;
  o.alpha_start = 1e4;
  o.max_iterations = 1;
  const auto r = baselines::alpha_penalty_sweep(m, o);
  ASSERT_EQ(r.iterations.size(), 1u);
  const double f = r.iterations[0].values[cf.index()], g = r.iterations[0].values[cg.index()];
  EXPECT_NEAR(f / g, 1.0, 0.05);  // the 8/8 guess, not the latency optimum
  // Sequential GP on the same model finds the latency optimum: all on the FPGA but the bound.
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::local_optimum) << s.message();
  EXPECT_NEAR(s[cf], 15.0, 1e-5);
  EXPECT_NEAR(s[cg], 1.0, 1e-5);
}

// Eq. 4.10's rule on two independent layers, the second ten times as costly:
// with scale {1, 10} both see the same penalised problem up to a factor, and
// with freeze_satisfied an equality's alpha stops at the first iterate where
// it holds and stays there, while the single-layer sweep keeps stepping.
TEST(AlphaPenalty, PerEqualityScaleAndFreezing) {
  SignomialModel m;
  auto f1 = m.positive("f1", 1.0, 16.0), g1 = m.positive("g1", 1.0, 16.0);
  auto f2 = m.positive("f2", 1.0, 32.0), g2 = m.positive("g2", 1.0, 32.0);
  m.subject_to(f1 + g1 == 16.0, "layer 1");
  m.subject_to(f2 + g2 == 32.0, "layer 2");
  m.minimize(0.2 * f1 + 1.0 * g1 + 1.0 * f2 + 10.0 * g2);
  for (auto v : {f1, g1}) m.start(v, 8.0);
  for (auto v : {f2, g2}) m.start(v, 16.0);
  baselines::AlphaSweepOptions o;
  o.alpha_start = o.alpha_step = 0.25;
  o.max_iterations = 60;
  o.scale = {1.0, 10.0};
  o.freeze_satisfied = true;
  const auto r = baselines::alpha_penalty_sweep(m, o);
  ASSERT_GE(r.accepted, 0);
  std::vector<int> first(2, -1);
  for (const auto& it : r.iterations) {
    ASSERT_EQ(it.status, Status::optimal);
    ASSERT_EQ(it.alphas.size(), 2u);
    for (int e = 0; e < 2; ++e)
      if (first[e] < 0 && it.ratio[e] >= 1 - o.tolerance) first[e] = it.iteration;
    for (int e = 0; e < 2; ++e) {  // before its first success, alpha_e = (start + step (k - 1)) scale_e
      if (first[e] < 0 || it.iteration <= first[e]) {
        EXPECT_NEAR(it.alphas[e], it.alpha * o.scale[e], 1e-12) << it.iteration << " " << e;
      }
    }
    // Each layer's iterate is the single-layer optimum at its own alpha (a grid search).
    const double c1 = 0.2 * it.values[f1.index()] + it.values[g1.index()] +
                      it.alphas[0] / (std::sqrt(it.values[f1.index()] / 16.0) * std::sqrt(it.values[g1.index()] / 16.0));
    EXPECT_NEAR(c1, grid_optimum({0.2, 1.0, 16}, it.alphas[0], 8, 8, true), 2e-3 * c1) << it.iteration;
  }
  ASSERT_GT(first[0], 0);
  ASSERT_GT(first[1], 0);
  // The rule, iteration by iteration: a holding equality keeps its alpha, the others step.
  for (std::size_t i = 0; i + 1 < r.iterations.size(); ++i)
    for (std::size_t e = 0; e < 2; ++e) {
      const auto &now = r.iterations[i], &next = r.iterations[i + 1];
      const double expected = now.ratio[e] >= 1 - o.tolerance ? now.alphas[e] : now.alphas[e] + o.alpha_step * o.scale[e];
      EXPECT_NEAR(next.alphas[e], expected, 1e-12) << i << " " << e;
    }
  EXPECT_EQ(r.iterations.back().satisfied, 2);
  EXPECT_NE(first[0], first[1]);  // the layers succeed at different iterations, so freezing mattered
  EXPECT_THROW(([&] {
                 baselines::AlphaSweepOptions bad = o;
                 bad.scale = {1.0};
                 baselines::alpha_penalty_sweep(m, bad);
               }()),
               model_error);
}

TEST(AlphaPenalty, ModelsItCannotTakeAreErrors) {
  SignomialModel m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x >= 1 - y);  // an inequality
  m.minimize(x);
  EXPECT_THROW(baselines::alpha_penalty_sweep(m), model_error);
  SignomialModel n;
  auto u = n.positive("u");
  auto v = n.positive("v");
  n.subject_to(u + v == 4);
  n.minimize(u + v);
  EXPECT_THROW(baselines::alpha_penalty_sweep(n), model_error);  // no condensation point given
}

}  // namespace
