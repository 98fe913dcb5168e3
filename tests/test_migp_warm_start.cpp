// Warm starts between related mixed-integer solves (a sweep over a budget):
// the previous solution's integers are tried first and outer approximation
// starts from the previous tangent cuts of rows that are unchanged. Every
// warm result must equal the cold one and the enumerated optimum; a warm
// start from an unrelated model must be ignored, not misused.
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace {

using namespace ychart;

// minimise t + 0.3 n1 + 0.2 n2  s.t.  t >= 4 / (n1 n2^0.5),  t >= 1 / n1 + 2 / n2 (a posynomial),
//                                    n1 + 2 n2 <= budget,  n1, n2 in [1, 8].
struct Sweep {
  Model m;
  Variable<> t;
  Discrete<> n1, n2;
  explicit Sweep(double budget) {
    t = m.positive("t");
    n1 = m.integer("n1", 1, 8);
    n2 = m.integer("n2", 1, 8);
    m.subject_to(t >= 4 / (n1 * pow(n2, 0.5)));
    m.subject_to(1 / n1 + 2 / n2 <= t);
    m.subject_to(n1 + 2 * n2 <= budget);
    m.minimize(t + 0.3 * n1 + 0.2 * n2);
  }
};

double enumerated(double budget) {
  double best = std::numeric_limits<double>::infinity();
  for (int a = 1; a <= 8; ++a)
    for (int b = 1; b <= 8; ++b) {
      if (a + 2 * b > budget) continue;
      const double t = std::max(4 / (a * std::sqrt(double(b))), 1.0 / a + 2.0 / b);
      best = std::min(best, t + 0.3 * a + 0.2 * b);
    }
  return best;
}

TEST(MigpWarmStart, SweepGivesTheColdOptimaWithFewerIpoptIterations) {
  Solution previous;
  bool first = true;
  int cold_iterations = 0, warm_iterations = 0;
  for (double budget : {3.0, 5.0, 7.0, 9.0, 12.0, 16.0, 24.0}) {
    Sweep cold(budget), warm(budget);
    SolveOptions o;
    o.method = Method::outer_approximation;
    const auto c = cold.m.solve(o);
    if (!first) o.warm_start = &previous;
    const auto w = warm.m.solve(o);
    ASSERT_EQ(c.status(), Status::optimal) << budget;
    ASSERT_EQ(w.status(), Status::optimal) << budget;
    EXPECT_NEAR(c.objective(), enumerated(budget), 1e-6 * enumerated(budget)) << budget;
    EXPECT_NEAR(w.objective(), enumerated(budget), 1e-6 * enumerated(budget)) << budget;
    if (!first) {
      cold_iterations += c.iterations();
      warm_iterations += w.iterations();
    }
    previous = w;
    first = false;
  }
  // Warm solves skip the root relaxation: the cuts stand in for it.
  EXPECT_LT(warm_iterations, cold_iterations);
}

TEST(MigpWarmStart, PreviousIntegersThatNoLongerFitAreNotUsed) {
  Sweep wide(24);
  const auto s = wide.m.solve();
  ASSERT_EQ(s.status(), Status::optimal);
  ASSERT_GT(s.value(wide.n1) + 2 * s.value(wide.n2), 3.0);  // infeasible under budget 3
  Sweep tight(3);
  SolveOptions o;
  o.warm_start = &s;
  const auto w = tight.m.solve(o);
  ASSERT_EQ(w.status(), Status::optimal);
  EXPECT_NEAR(w.objective(), enumerated(3), 1e-6 * enumerated(3));
  EXPECT_LE(w.value(tight.n1) + 2 * w.value(tight.n2), 3.0);
}

TEST(MigpWarmStart, SolutionOfAnUnrelatedModelIsIgnored) {
  Model other;
  auto x = other.positive("x", 1, 10);
  auto k = other.integer("k", 2, 3);
  other.subject_to(x >= 5 / k);
  other.minimize(x + k);
  const auto unrelated = other.solve();
  ASSERT_EQ(unrelated.status(), Status::optimal);
  Sweep s(9);
  SolveOptions o;
  o.warm_start = &unrelated;
  for (Method m : {Method::outer_approximation, Method::branch_and_bound}) {
    o.method = m;
    const auto w = s.m.solve(o);
    ASSERT_EQ(w.status(), Status::optimal);
    EXPECT_NEAR(w.objective(), enumerated(9), 1e-6 * enumerated(9));
  }
}

}  // namespace
