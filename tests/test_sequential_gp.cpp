// Sequential GP on SignomialModel: closed forms, convex families checked
// against a dense grid search (2 and 3 variables), a local-optimality check
// by a fine grid around the answer, and the failure modes (an infeasible
// equality, a start far from feasible, iterations that do not settle).
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

using namespace ychart;

TEST(SequentialGp, ClosedFormSubtraction) {
  SignomialModel m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x >= 1 - y);
  m.subject_to(y <= 0.1);
  m.minimize(x);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::local_optimum) << s.message();
  EXPECT_NEAR(s[x], 0.9, 1e-7);
  EXPECT_NEAR(s[y], 0.1, 1e-7);
  EXPECT_EQ(s.method(), "sequential GP");
  EXPECT_GT(s.iterations(), 1);
  EXPECT_TRUE(std::isnan(s.bound()));  // no global claim
}

// minimise t s.t. a c_f <= t, b c_g <= t, c_f + c_g == C: the split that
// balances both devices, c_f = C b / (a + b), t = a b C / (a + b).
TEST(SequentialGp, ChannelSplitEqualityMatchesClosedForm) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> weight(0.1, 10.0), total(2.0, 64.0);
  for (int i = 0; i < 40; ++i) {
    const double a = weight(rng), b = weight(rng), C = total(rng);
    SignomialModel m;
    auto cf = m.positive("c_f");
    auto cg = m.positive("c_g");
    auto t = m.positive("t");
    m.subject_to(a * cf <= t);
    m.subject_to(b * cg <= t);
    m.subject_to(cf + cg == C);
    m.minimize(t);
    const auto s = m.solve();
    ASSERT_EQ(s.status(), Status::local_optimum) << i << ": " << s.message();
    EXPECT_NEAR(s[cf], C * b / (a + b), 1e-5 * C) << i;
    EXPECT_NEAR(s[cf] + s[cg], C, 1e-6 * C) << i;
    EXPECT_NEAR(s[t], a * b * C / (a + b), 1e-5 * a * b * C / (a + b)) << i;
  }
}

// A separable objective with exponents in {-1, 2, 3} is convex in linear
// space and `x + y (+ z) >= c` is linear: the local optimum is global, so a
// dense grid search is an oracle.
TEST(SequentialGp, ConvexFamiliesAgainstGridSearch) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> coef(0.2, 5.0), bound(1.0, 6.0);
  const double exps[] = {-1.0, 2.0, 3.0};
  for (int dims : {2, 3}) {
    for (int i = 0; i < 12; ++i) {
      std::vector<double> c(3), e(3), lin(3);
      for (int k = 0; k < 3; ++k) c[k] = coef(rng), e[k] = exps[rng() % 3], lin[k] = coef(rng);
      const double rhs = bound(rng);
      SignomialModel m;
      std::vector<Variable<>> v;
      for (int k = 0; k < dims; ++k) v.push_back(m.positive("x" + std::to_string(k), 0.05, 8.0));
      Posynomial<> objective = c[0] * pow(v[0], e[0]) + c[1] * pow(v[1], e[1]);
      Posynomial<> sum = lin[0] * v[0] + lin[1] * v[1];
      if (dims == 3) objective = objective + c[2] * pow(v[2], e[2]), sum = sum + lin[2] * v[2];
      m.subject_to(sum >= rhs);
      m.minimize(objective);
      const auto s = m.solve();
      ASSERT_EQ(s.status(), Status::local_optimum) << dims << "/" << i << ": " << s.message();
      auto f = [&](const double* x) {
        double o = 0;
        for (int k = 0; k < dims; ++k) o += c[static_cast<std::size_t>(k)] * std::pow(x[k], e[static_cast<std::size_t>(k)]);
        return o;
      };
      auto feasible = [&](const double* x) {
        double l = 0;
        for (int k = 0; k < dims; ++k) l += lin[static_cast<std::size_t>(k)] * x[k];
        return l >= rhs;
      };
      const int steps = dims == 2 ? 800 : 100;
      double best = std::numeric_limits<double>::infinity();
      double x[3];
      auto at = [](int j, int steps_) { return 0.05 * std::pow(8.0 / 0.05, double(j) / steps_); };
      for (int a = 0; a <= steps; ++a)
        for (int b = 0; b <= steps; ++b)
          for (int d = 0; d <= (dims == 3 ? steps : 0); ++d) {
            x[0] = at(a, steps), x[1] = at(b, steps), x[2] = at(d, steps);
            if (feasible(x)) best = std::min(best, f(x));
          }
      double ours[3] = {s[v[0]], s[v[1]], dims == 3 ? s[v[2]] : 1.0};
      double l = 0;
      for (int k = 0; k < dims; ++k) l += lin[static_cast<std::size_t>(k)] * ours[k];
      EXPECT_GE(l, rhs * (1 - 1e-7)) << dims << "/" << i;  // feasible
      EXPECT_NEAR(s.objective(), f(ours), 1e-7 * std::abs(f(ours)));
      EXPECT_LE(s.objective(), best * (1 + 1e-6)) << dims << "/" << i;  // no worse than the grid
      EXPECT_GE(s.objective(), best * (1 - (dims == 2 ? 2e-2 : 8e-2))) << dims << "/" << i;  // the grid is close
    }
  }
}

// Nonconvex: minimise x + y s.t. x y + 1 >= 2 x... checked locally: no point
// of a fine grid around the answer is feasible and better.
TEST(SequentialGp, NonconvexAnswerIsALocalMinimum) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.5, 3.0);
  for (int i = 0; i < 20; ++i) {
    const double a = u(rng), b = u(rng), k = u(rng);
    SignomialModel m;
    auto x = m.positive("x", 0.1, 10);
    auto y = m.positive("y", 0.1, 10);
    m.subject_to(x * y + k >= a * x + b * y);  // x y - a x - b y + k >= 0
    m.minimize(pow(x, -1.0) + y);
    const auto s = m.solve();
    ASSERT_EQ(s.status(), Status::local_optimum) << i << ": " << s.message();
    const double X = s[x], Y = s[y];
    auto feasible = [&](double p, double q) { return p * q + k >= (a * p + b * q) * (1 - 1e-9); };
    auto f = [](double p, double q) { return 1 / p + q; };
    EXPECT_TRUE(feasible(X, Y)) << i;
    for (int dx = -50; dx <= 50; ++dx)
      for (int dy = -50; dy <= 50; ++dy) {
        const double p = std::clamp(X * std::exp(dx * 1e-3), 0.1, 10.0), q = std::clamp(Y * std::exp(dy * 1e-3), 0.1, 10.0);
        if (feasible(p, q)) {
          EXPECT_GE(f(p, q), s.objective() * (1 - 1e-7)) << i << " at " << p << ", " << q;
        }
      }
  }
}

TEST(SequentialGp, AllGpConstraintsSolveAsAGp) {
  SignomialModel m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x + y <= 4);          // GP already
  m.subject_to(x * y >= 1 + 0 * x);  // a posynomial side with one term after normalisation
  m.maximize(x * y);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::optimal) << s.message();
  EXPECT_NEAR(s.objective(), 4.0, 1e-6);
  EXPECT_TRUE(m.signomial_constraints().empty());
}

TEST(SequentialGp, InfeasibleEqualityIsInfeasible) {
  SignomialModel m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x + y == 1);
  m.subject_to(x >= 2);
  m.minimize(x + y);
  const auto s = m.solve();
  EXPECT_EQ(s.status(), Status::infeasible) << s.message();
  EXPECT_FALSE(s.has_values());
}

TEST(SequentialGp, StartFarFromFeasibleRunsTheFeasibilityPhase) {
  SignomialModel m;
  auto x = m.positive("x", 1e-3, 1e3);
  auto y = m.positive("y", 1e-3, 1e3);
  m.subject_to(x + y >= 10);  // violated at the start below
  m.subject_to(x <= 4 * y);
  m.minimize(x * x + y);
  m.start(x, 1e-3);
  m.start(y, 1e-3);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::local_optimum) << s.message();
  // Convex in linear space: x + y = 10 with 2 x = 1 at the optimum (x = 0.5).
  EXPECT_NEAR(s[x], 0.5, 1e-5);
  EXPECT_NEAR(s[y], 9.5, 1e-5);
}

TEST(SequentialGp, NoFeasiblePointFoundIsSaid) {
  // x + y >= 10 cannot hold with x, y <= 4, but the relaxation does not see it.
  SignomialModel m;
  auto x = m.positive("x", 0.1, 4);
  auto y = m.positive("y", 0.1, 4);
  m.subject_to(x + y >= 10);
  m.minimize(x + y);
  const auto s = m.solve();
  EXPECT_EQ(s.status(), Status::no_feasible_point_found) << s.message();
}

TEST(SequentialGp, IterationsThatDoNotSettleEndIterationLimit) {
  SignomialModel m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x >= 1 - y);
  m.subject_to(y <= 0.1);
  m.minimize(x);
  SpOptions sp;
  sp.max_iterations = 2;
  sp.trust_region = 1.5;  // small steps: two GPs cannot reach 0.9
  const auto s = m.solve({}, sp);
  EXPECT_EQ(s.status(), Status::iteration_limit) << s.message();
  ASSERT_TRUE(s.has_values());
  EXPECT_GE(s[x] + s[y], 1 - 1e-9);  // the last iterate is feasible
  EXPECT_GT(s[x], 0.9);
}

// Two devices whose per-channel costs differ by 3.6 %: each GP step moves the
// split by that factor only (the condensed equality's tangent), so the GP
// steps alone crawl toward the bound; Ipopt's polish on the exact program
// reaches the closed form, min 1.036 a + b s.t. a + b = 4096, a, b in
// [0.01, 4096]: a = 0.01, b = 4095.99.
TEST(SequentialGp, PolishFinishesSlowGpSteps) {
  auto build = [](Variable<>& a, Variable<>& b) {
    SignomialModel m;
    a = m.positive("a", 0.01, 4096.0);
    b = m.positive("b", 0.01, 4096.0);
    m.subject_to(a + b == 4096.0, "split");
    m.minimize(1.036 * a + b);
    m.start(a, 2048.0);
    m.start(b, 2048.0);
    return m;
  };
  Variable<> a, b;
  auto m = build(a, b);
  SpOptions slow;
  slow.max_iterations = 40;
  const auto crawl = m.solve({}, slow);
  EXPECT_EQ(crawl.status(), Status::iteration_limit) << crawl.message();
  EXPECT_GT(crawl[a], 1.0);  // still far from the bound after 40 GPs
  EXPECT_NE(crawl.message().find("polish"), std::string::npos);  // the message says what helps
  SpOptions polish = slow;
  polish.polish = true;
  const auto fast = m.solve({}, polish);
  ASSERT_EQ(fast.status(), Status::local_optimum) << fast.message();
  EXPECT_NEAR(fast[a], 0.01, 1e-4);  // the last GP's interior point stops just inside the bound
  EXPECT_NEAR(fast[b], 4095.99, 1e-4);
  EXPECT_NEAR(fast.objective(), 1.036 * 0.01 + 4095.99, 1e-5);
  EXPECT_LT(fast.iterations(), 20);
}

// Where the GP steps converge on their own, the polish changes nothing: a
// second method for the same local optimum.
TEST(SequentialGp, PolishAgreesWhereGpStepsConverge) {
  SignomialModel m;
  auto x = m.positive("x", 1e-3, 10.0);
  auto y = m.positive("y", 1e-3, 10.0);
  m.subject_to(x + y == 3.0);
  m.subject_to(x * y >= 0.5);
  m.minimize(pow(x, 2.0) + 2.0 * pow(y, 2.0) + 1.0 / x);
  const auto plain = m.solve();
  SpOptions o;
  o.polish = true;
  const auto polished = m.solve({}, o);
  ASSERT_EQ(plain.status(), Status::local_optimum) << plain.message();
  ASSERT_EQ(polished.status(), Status::local_optimum) << polished.message();
  EXPECT_NEAR(polished.objective(), plain.objective(), 1e-7 * plain.objective());
  EXPECT_NEAR(polished[x], plain[x], 1e-5);
  // and both against a grid over the equality: x in (0, 3), y = 3 - x
  double best = std::numeric_limits<double>::infinity();
  for (int i = 1; i < 300000; ++i) {
    const double xv = 3.0 * i / 300000.0, yv = 3.0 - xv;
    if (xv * yv < 0.5) continue;
    best = std::min(best, xv * xv + 2 * yv * yv + 1 / xv);
  }
  EXPECT_NEAR(plain.objective(), best, 1e-6 * best);
}

TEST(SequentialGp, BadOptionsAndConstraintsAreErrors) {
  SignomialModel m;
  auto x = m.positive("x");
  m.minimize(x);
  SpOptions sp;
  sp.trust_region = 1.0;
  m.subject_to(x >= 1 - x * 0.5);
  EXPECT_THROW(m.solve({}, sp), model_error);
  Model other;
  auto z = other.positive("z");
  EXPECT_THROW(m.subject_to(z >= 1 - x), model_error);  // another model's variable
}

}  // namespace
