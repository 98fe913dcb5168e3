// Statuses: infeasible (with what to relax), unbounded (with which variables
// run away), iteration and time limits, and values refused when not optimal.
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <cmath>

using namespace ychart;

TEST(Status, InfeasibleReportsTheRelaxationProduct) {
  Model m;
  auto x = m.positive("x");
  m.subject_to(x >= 2, "at least 2");
  m.subject_to(x <= 1, "at most 1");
  m.minimize(x);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::infeasible) << s.message();
  // x >= 2 / s0 and x <= s1 need s0 * s1 >= 2: the minimal product is exactly 2.
  const double product = s.constraint(0).relaxation * s.constraint(1).relaxation;
  EXPECT_NEAR(product, 2.0, 1e-5);
  EXPECT_THROW((void)s.value(x), solution_error);
  EXPECT_THROW((void)s.objective(), solution_error);
  std::ostringstream os;
  os << s;
  EXPECT_NE(os.str().find("relax"), std::string::npos);
}

TEST(Status, InfeasibleBoundsAreNamed) {
  Model m;
  auto x = m.positive("x", 1.0, 2.0);
  m.subject_to(x >= 3);
  m.minimize(x);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::infeasible);
  double product = s.constraint(0).relaxation;
  for (const auto& b : s.bound_relaxations()) {
    EXPECT_EQ(b.variable, "x");
    EXPECT_FALSE(b.lower);
    product *= b.factor;
  }
  EXPECT_NEAR(product, 1.5, 1e-5);
}

TEST(Status, ContradictoryEqualitiesAreInfeasible) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x == 2 * y);
  m.subject_to(x == 3 * y);
  m.minimize(x + y);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::infeasible) << s.message();
  EXPECT_NEAR(s.constraint(0).relaxation * s.constraint(1).relaxation, 1.5, 1e-5);
}

TEST(Status, UnboundedNamesTheVariablesAndDirection) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x * y >= 1);
  m.minimize(x);  // x -> 0 with y -> infinity
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::unbounded) << s.message();
  bool x_to_zero = false;
  for (const auto& u : s.unbounded_variables()) x_to_zero |= (u.name == "x" && u.to_zero);
  EXPECT_TRUE(x_to_zero);
}

TEST(Status, UnboundedMaximisation) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y", 0.0, 3.0);
  m.subject_to(x <= 2 * y * x);  // holds for every x once y >= 1/2
  m.maximize(x);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::unbounded);
  ASSERT_FALSE(s.unbounded_variables().empty());
  EXPECT_EQ(s.unbounded_variables()[0].name, "x");
  EXPECT_FALSE(s.unbounded_variables()[0].to_zero);
}

TEST(Status, IterationLimit) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x * y >= 1);
  m.subject_to(x + y + x * y <= 100);
  m.minimize(x + 2 * y + 1 / (x * y * y));
  SolveOptions o;
  o.max_iterations = 1;
  const auto s = m.solve(o);
  EXPECT_EQ(s.status(), Status::iteration_limit);
  EXPECT_THROW((void)s.value(x), solution_error);
  // The same model solves without the limit.
  EXPECT_EQ(m.solve().status(), Status::optimal);
}

TEST(Status, TimeLimit) {
  Model m;
  std::vector<Variable<>> xs;
  Posynomial<> budget;
  for (int i = 0; i < 2000; ++i) {
    xs.push_back(m.positive("x" + std::to_string(i)));
    budget += (1.0 + i % 7) * xs.back();
  }
  auto t = m.positive("t");
  for (int i = 0; i < 2000; ++i) m.subject_to((1.0 + i % 13) / xs[i] <= t);
  m.subject_to(budget <= 1000);
  m.minimize(t);
  SolveOptions o;
  o.time_limit = 1e-9;
  const auto s = m.solve(o);
  EXPECT_EQ(s.status(), Status::time_limit);
}

TEST(Status, SolutionPrintsAndWritesJson) {
  Model m;
  auto x = m.positive("x");
  auto t = m.positive("t", units::ms);
  m.subject_to(x * t >= 2 * units::ms, "work");
  m.subject_to(t >= 0.5 * units::ms);
  m.minimize(x + t / (1 * units::ms));
  const auto s = m.solve();
  ASSERT_TRUE(s.optimal());
  std::ostringstream os;
  os << s;
  EXPECT_NE(os.str().find("work"), std::string::npos);
  EXPECT_NE(os.str().find("ms"), std::string::npos);
  const auto json = s.to_json();
  EXPECT_NE(json.find("\"status\": \"optimal\""), std::string::npos);
  EXPECT_NE(json.find("\"name\": \"work\""), std::string::npos);
  // min x + t with x t >= 2 (t in ms): x = t = sqrt 2
  EXPECT_NEAR(s.value(t), std::sqrt(2.0), 1e-6);
  EXPECT_NEAR(s.value(t, units::us), 1000 * std::sqrt(2.0), 1e-3);
}

// Variables bounded on one side only are not boxed on the fast path; running
// off through the open side must still be reported as unbounded.
TEST(Status, UnboundedThroughTheOpenSideOfABound) {
  {
    Model m;
    auto x = m.positive("x", 1.0);  // x >= 1, no upper bound
    auto y = m.positive("y", 1.0, 4.0);
    m.subject_to(x >= y);
    m.maximize(x * y);
    const auto s = m.solve();
    ASSERT_EQ(s.status(), Status::unbounded) << s.message();
    ASSERT_EQ(s.unbounded_variables().size(), 1u);
    EXPECT_EQ(s.unbounded_variables()[0].name, "x");
    EXPECT_FALSE(s.unbounded_variables()[0].to_zero);
  }
  {
    Model m;
    auto x = m.positive("x", 0.0, 5.0);  // x <= 5, no lower bound
    m.minimize(x);
    const auto s = m.solve();
    ASSERT_EQ(s.status(), Status::unbounded) << s.message();
    ASSERT_EQ(s.unbounded_variables().size(), 1u);
    EXPECT_TRUE(s.unbounded_variables()[0].to_zero);
  }
}
