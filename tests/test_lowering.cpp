// The log-space standard form: rows, coefficients, kinds, epigraphs, bounds,
// and the feasibility relaxation.
#include <ychart/ychart.hpp>
#include <ychart/engine.hpp>  // the solver engine itself, which this test exercises

#include <gtest/gtest.h>

#include <cmath>

using namespace ychart;

TEST(Lowering, MonomialConstraintsAreLinearRows) {
  Model m;
  auto x = m.positive("x", 0.5, 4.0);
  auto y = m.positive("y");
  m.subject_to(2 * x * pow(y, 3) <= 5 * y);  // 0.4 x y^2 <= 1
  m.subject_to(x == 3 * y);                  // x / (3y) == 1
  m.minimize(x / y);
  const auto f = lower::lower_gp(m);
  ASSERT_EQ(f.n, 2);
  ASSERT_EQ(f.constraint_count(), 2);
  EXPECT_EQ(f.kind[0], lower::RowKind::linear_le);
  EXPECT_EQ(f.kind[1], lower::RowKind::linear_eq);
  EXPECT_NEAR(f.b[0], std::log(0.4), 1e-15);
  EXPECT_DOUBLE_EQ(f.A.coeff(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(0, 1), 2.0);
  EXPECT_NEAR(f.b[1], -std::log(3.0), 1e-15);
  EXPECT_DOUBLE_EQ(f.A.coeff(1, 1), -1.0);
  EXPECT_DOUBLE_EQ(f.c[0], 1.0);  // log objective = y_x - y_y
  EXPECT_DOUBLE_EQ(f.c[1], -1.0);
  EXPECT_NEAR(f.lower[0], std::log(0.5), 1e-15);
  EXPECT_NEAR(f.upper[0], std::log(4.0), 1e-15);
  EXPECT_TRUE(std::isinf(f.lower[1]) && f.lower[1] < 0);
}

TEST(Lowering, PosynomialsBecomeSumsOfExponentials) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.subject_to(x + 2 * y <= 4 * x * y);
  m.minimize(x + y);  // two terms: epigraph variable
  const auto f = lower::lower_gp(m);
  ASSERT_EQ(f.n, 3);  // x, y, objective epigraph
  ASSERT_EQ(f.constraint_count(), 2);
  EXPECT_EQ(f.origin[0].kind, lower::Origin::objective);
  EXPECT_EQ(f.kind[1], lower::RowKind::expsum_le);
  EXPECT_EQ(f.first_term[2] - f.first_term[1], 2);
  // x / (4xy) = 0.25 y^-1 ; 2y/(4xy) = 0.5 x^-1
  const int r = f.first_term[1];
  EXPECT_NEAR(f.b[r], std::log(0.25), 1e-15);
  EXPECT_DOUBLE_EQ(f.A.coeff(r, 1), -1.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(r, 0), 0.0);
  EXPECT_NEAR(f.b[r + 1], std::log(0.5), 1e-15);
  EXPECT_DOUBLE_EQ(f.A.coeff(r + 1, 0), -1.0);
  EXPECT_DOUBLE_EQ(f.c[2], 1.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(f.first_term[0], 2), -1.0);  // x / t
}

TEST(Lowering, MaxIntroducesEpigraphRows) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.minimize(max(x, 2 * y) * x);
  const auto f = lower::lower_gp(m);
  EXPECT_EQ(m.registry().variables.size(), 3u);
  EXPECT_TRUE(m.registry().variables[2].auxiliary);
  int epigraphs = 0;
  for (auto o : f.origin) epigraphs += o.kind == lower::Origin::epigraph;
  EXPECT_EQ(epigraphs, 2);
}

TEST(Lowering, UnitsFoldIntoCoefficients) {
  Model m;
  auto t = m.positive("t", units::ms);
  m.subject_to(t >= 250 * units::us);  // 0.00025 s / (0.001 t) <= 1
  m.minimize(t);
  const auto f = lower::lower_gp(m);
  EXPECT_NEAR(f.b[0], std::log(0.25), 1e-12);
  EXPECT_NEAR(f.c0, std::log(1e-3), 1e-12);
}

TEST(Lowering, RelaxationAddsOneSlackPerConstraintAndBound) {
  Model m;
  auto x = m.positive("x", 1.0, 2.0);
  auto y = m.positive("y");
  m.subject_to(x + y <= 1);
  m.subject_to(x == y);
  m.minimize(x);
  const auto f = lower::lower_gp(m);
  const auto r = lower::relax(f);
  EXPECT_EQ(r.n, f.n + 2 + 2);                         // 2 constraints, 2 finite bounds
  EXPECT_EQ(r.constraint_count(), 1 + 2 + 2);          // equality splits in two
  for (int j = f.n; j < r.n; ++j) EXPECT_EQ(r.c[j], 1.0);
  for (int j = 0; j < f.n; ++j) EXPECT_TRUE(std::isinf(r.lower[j]));
}
