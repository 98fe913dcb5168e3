// tests/test_known_optima.cpp
// Geometric programs whose optimum is known in closed form (AM-GM, weighted
// AM-GM, Cauchy-Schwarz, or an analytic KKT solution), including the examples
// of Boyd, Kim, Vandenberghe & Hassibi, "A tutorial on geometric programming"
// (2007). Every expected value is computed here from parameters by a formula
// whose derivation is stated next to it; none is a hard-coded answer.
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

namespace {

namespace u = ychart::units;
using ychart::Status;

constexpr double kObjTol = 1e-6;   // relative, objective values
constexpr double kVarTol = 1e-5;   // relative, variable values
constexpr double kSensTol = 1e-5;  // absolute (relative above 1), sensitivities

double rel_band(double expected, double tol) { return tol * std::max(std::abs(expected), 1e-300); }
double sens_band(double expected) { return kSensTol * std::max(1.0, std::abs(expected)); }

#define EXPECT_OBJ(actual, expected) EXPECT_NEAR(actual, expected, rel_band(expected, kObjTol))
#define EXPECT_VAR(actual, expected) EXPECT_NEAR(actual, expected, rel_band(expected, kVarTol))
#define EXPECT_SENS(actual, expected) EXPECT_NEAR(actual, expected, sens_band(expected))
#define ASSERT_OPTIMAL(s) ASSERT_EQ((s).status(), Status::optimal) << (s)

// ---------------------------------------------------------------------------
// 1. AM-GM: minimise a x + b / x.
TEST(KnownOptima, AmGmScaledReciprocal) {
  const double a = 3.0, b = 12.0;
  ychart::Model m;
  auto x = m.positive("x");
  m.minimize(a * x + b / x);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // AM-GM: a x + b/x >= 2 sqrt(ab), equality iff a x = b/x, i.e. x = sqrt(b/a).
  EXPECT_OBJ(s.objective(), 2.0 * std::sqrt(a * b));
  EXPECT_VAR(s[x], std::sqrt(b / a));
}

// ---------------------------------------------------------------------------
// 2. minimise x + y s.t. x y >= c, plus a slack constraint x <= 100.
TEST(KnownOptima, SumWithProductLowerBound) {
  const double c = 7.0, cap = 100.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.minimize(x + y);
  const auto prod = m.subject_to(x * y >= c);
  const auto slack = m.subject_to(x <= cap);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // AM-GM: x + y >= 2 sqrt(xy) >= 2 sqrt(c), equality at x = y = sqrt(c) (< cap, so x <= cap is slack).
  ASSERT_LT(std::sqrt(c), cap);
  EXPECT_OBJ(s.objective(), 2.0 * std::sqrt(c));
  EXPECT_VAR(s[x], std::sqrt(c));
  EXPECT_VAR(s[y], std::sqrt(c));
  // obj* = 2 c^(1/2): d log obj / d log c = 1/2; the slack constraint has sensitivity 0.
  EXPECT_SENS(s.constraint(prod).sensitivity, 0.5);
  EXPECT_TRUE(s.constraint(prod).tight);
  EXPECT_SENS(s.constraint(slack).sensitivity, 0.0);
  EXPECT_FALSE(s.constraint(slack).tight);
}

// ---------------------------------------------------------------------------
// 3. Boyd et al. (2007) box design, ratio bounds inactive. Tutorial parameters
// alpha = gamma = 0.5, beta = delta = 2, A_flr = 100.
TEST(KnownOptima, BoydBoxDesignInteriorRatios) {
  const double Awall = 500.0, Aflr = 100.0, alpha = 0.5, beta = 2.0, gamma = 0.5, delta = 2.0;
  ychart::Model m;
  auto h = m.positive("h");
  auto w = m.positive("w");
  auto d = m.positive("d");
  m.maximize(h * w * d);
  const auto wall = m.subject_to(2 * (h * w + h * d) <= Awall);
  const auto flr = m.subject_to(w * d <= Aflr);
  const auto r_lo = m.subject_to(h / w >= alpha);
  const auto r_hi = m.subject_to(h / w <= beta);
  const auto q_lo = m.subject_to(d / w >= gamma);
  const auto q_hi = m.subject_to(d / w <= delta);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // V^2 = (hw)(hd)(wd) <= (Awall/4)^2 Aflr by AM-GM on hw + hd <= Awall/2 and wd <= Aflr, so
  // V* = Awall sqrt(Aflr) / 4 at hw = hd = Awall/4, wd = Aflr: w = d = sqrt(Aflr), h = Awall / (4 sqrt(Aflr)).
  const double w_opt = std::sqrt(Aflr), d_opt = w_opt, h_opt = Awall / (4.0 * std::sqrt(Aflr));
  ASSERT_TRUE(alpha < h_opt / w_opt && h_opt / w_opt < beta);  // the ratio bounds really are inactive
  ASSERT_TRUE(gamma < d_opt / w_opt && d_opt / w_opt < delta);
  EXPECT_OBJ(s.objective(), Awall * std::sqrt(Aflr) / 4.0);
  EXPECT_VAR(s[h], h_opt);
  EXPECT_VAR(s[w], w_opt);
  EXPECT_VAR(s[d], d_opt);
  // log V* = log Awall + 1/2 log Aflr - log 4.
  EXPECT_SENS(s.constraint(wall).sensitivity, 1.0);
  EXPECT_SENS(s.constraint(flr).sensitivity, 0.5);
  for (auto i : {r_lo, r_hi, q_lo, q_hi}) {
    EXPECT_SENS(s.constraint(i).sensitivity, 0.0) << i;
    EXPECT_FALSE(s.constraint(i).tight) << i;
  }
  EXPECT_TRUE(s.constraint(wall).tight);
  EXPECT_TRUE(s.constraint(flr).tight);
}

// ---------------------------------------------------------------------------
// 4. Box design with the aspect-ratio bound h/w <= beta active (Awall large).
TEST(KnownOptima, BoydBoxDesignActiveRatio) {
  const double Awall = 1000.0, Aflr = 100.0, alpha = 0.5, beta = 2.0, gamma = 0.5, delta = 2.0;
  ychart::Model m;
  auto h = m.positive("h");
  auto w = m.positive("w");
  auto d = m.positive("d");
  m.maximize(h * w * d);
  const auto wall = m.subject_to(2 * (h * w + h * d) <= Awall);
  const auto flr = m.subject_to(w * d <= Aflr);
  const auto r_lo = m.subject_to(h / w >= alpha);
  const auto r_hi = m.subject_to(h / w <= beta);
  const auto q_lo = m.subject_to(d / w >= gamma);
  const auto q_hi = m.subject_to(d / w <= delta);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // With h = beta w, wd = Aflr and the wall tight: 2 beta (w^2 + Aflr) = Awall, so with K = Awall/(2 beta)
  // w^2 = K - Aflr, d = Aflr / w and V = beta Aflr w. Log-space KKT multipliers (a = w^2/(w^2 + Aflr)):
  // wall 1/(2a), floor (3a-1)/(2a), h/w <= beta (2a-1)/(2a): nonnegative iff a >= 1/2, which certifies this.
  const double K = Awall / (2.0 * beta);
  ASSERT_GT(K, Aflr);
  const double w_opt = std::sqrt(K - Aflr), d_opt = Aflr / w_opt, h_opt = beta * w_opt;
  const double a = w_opt * w_opt / (w_opt * w_opt + Aflr);
  ASSERT_GT(a, 0.5);
  ASSERT_TRUE(gamma < d_opt / w_opt && d_opt / w_opt < delta);
  ASSERT_GT(Awall / (4.0 * std::sqrt(Aflr)) / std::sqrt(Aflr), beta);  // the unconstrained ratio exceeds beta
  EXPECT_OBJ(s.objective(), beta * Aflr * w_opt);
  EXPECT_VAR(s[h], h_opt);
  EXPECT_VAR(s[w], w_opt);
  EXPECT_VAR(s[d], d_opt);
  // Differentiating log V = log beta + log Aflr + 1/2 log(Awall/(2 beta) - Aflr):
  const double w2 = w_opt * w_opt;
  EXPECT_SENS(s.constraint(wall).sensitivity, 0.5 * K / w2);
  EXPECT_SENS(s.constraint(flr).sensitivity, 1.0 - 0.5 * Aflr / w2);
  EXPECT_SENS(s.constraint(r_hi).sensitivity, 1.0 - 0.5 * K / w2);
  EXPECT_SENS(s.constraint(r_hi).sensitivity, (2 * a - 1) / (2 * a));  // the same, from the KKT multipliers
  for (auto i : {r_lo, q_lo, q_hi}) {
    EXPECT_SENS(s.constraint(i).sensitivity, 0.0) << i;
    EXPECT_FALSE(s.constraint(i).tight) << i;
  }
  EXPECT_TRUE(s.constraint(wall).tight);
  EXPECT_TRUE(s.constraint(flr).tight);
  EXPECT_TRUE(s.constraint(r_hi).tight);
}

// ---------------------------------------------------------------------------
// 5. The tutorial's first example (maximise x/y s.t. lo <= x <= 3,
// x^2 + c y/z <= sqrt(y), x/y = z^2) with lo, c changed so that it is feasible.
TEST(KnownOptima, BoydSimpleExampleFeasibleVariant) {
  const double lo = 0.5, hi = 3.0, c = 0.1;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto z = m.positive("z");
  m.maximize(x / y);
  const auto x_lo = m.subject_to(x >= lo);
  const auto x_hi = m.subject_to(x <= hi);
  const auto posy = m.subject_to(x * x + c * y / z <= ychart::pow(y, 0.5));
  const auto eq = m.subject_to(x / y == z * z);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // With r = x/y, z = sqrt(r), y = x/r the posynomial constraint reads g(r) = A r^(1/2) + B / r <= 1 with
  // A = x^(3/2), B = c x^(1/2), increasing in x, so x = lo; r* is the larger root of g(r) = 1 (bisection
  // right of the minimiser r_min = (2B/A)^(2/3), where g increases).
  const double A = std::pow(lo, 1.5), B = c * std::sqrt(lo);
  auto g = [&](double r) { return A * std::sqrt(r) + B / r; };
  const double r_min = std::pow(2 * B / A, 2.0 / 3.0);
  ASSERT_LT(g(r_min), 1.0);  // feasible
  double r_a = r_min, r_b = r_min;
  while (g(r_b) < 1.0) r_b *= 2;
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (r_a + r_b);
    (g(mid) < 1.0 ? r_a : r_b) = mid;
  }
  const double r = 0.5 * (r_a + r_b);
  EXPECT_OBJ(s.objective(), r);
  EXPECT_VAR(s[x], lo);
  EXPECT_VAR(s[y], lo / r);
  EXPECT_VAR(s[z], std::sqrt(r));
  // Implicit differentiation of g(r) = 1 (D = r g'(r) = A r^(1/2)/2 - B/r):
  //  rhs sqrt(y) scaled by k: g(r) = k, d log r / d log k = 1/D;
  //  rhs z^2 scaled by k: A r^(1/2) + B k^(1/2)/r = 1, d log r / d log k = -(B/(2r)) / D;
  //  x >= lo: A = lo^(3/2), B = c lo^(1/2), d log r / d log lo = -(3/2 A r^(1/2) + 1/2 B/r) / D.
  const double D = 0.5 * A * std::sqrt(r) - B / r;
  EXPECT_SENS(s.constraint(posy).sensitivity, 1.0 / D);
  EXPECT_SENS(s.constraint(eq).sensitivity, -(B / (2 * r)) / D);
  EXPECT_SENS(s.constraint(x_lo).sensitivity, -(1.5 * A * std::sqrt(r) + 0.5 * B / r) / D);
  EXPECT_SENS(s.constraint(x_hi).sensitivity, 0.0);
  EXPECT_TRUE(s.constraint(x_lo).tight);
  EXPECT_FALSE(s.constraint(x_hi).tight);
  EXPECT_TRUE(s.constraint(posy).tight);
  EXPECT_TRUE(s.constraint(eq).tight);
}

// ---------------------------------------------------------------------------
// 6. The tutorial's first example exactly as printed is infeasible.
TEST(KnownOptima, BoydSimpleExampleAsPrintedIsInfeasible) {
  const double lo = 2.0, hi = 3.0, c = 3.0;
  // x >= lo forces sqrt(y) >= lo^2 (y >= lo^4), then z >= c sqrt(y) and x = y z^2 >= lo^4 (c lo^2)^2 > hi.
  ASSERT_GT(std::pow(lo, 4) * std::pow(c * lo * lo, 2), hi);
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto z = m.positive("z");
  m.maximize(x / y);
  m.subject_to(x >= lo);
  m.subject_to(x <= hi);
  m.subject_to(x * x + c * y / z <= ychart::pow(y, 0.5));
  m.subject_to(x / y == z * z);
  const auto s = m.solve();
  EXPECT_EQ(s.status(), Status::infeasible) << s;
}

// ---------------------------------------------------------------------------
// 7. Power control (tutorial section 6.x): two transmitters, minimise P1 + P2
// s.t. SINR_i = G_ii P_i / (sigma_i + G_ij P_j) >= S_i, P_i <= Pmax.
TEST(KnownOptima, PowerControlTwoUsers) {
  const double G11 = 1.0, G22 = 0.8, G12 = 0.1, G21 = 0.2, s1 = 0.1, s2 = 0.2, S1 = 2.0, S2 = 3.0, Pmax = 10.0;
  // Both SINR constraints are tight at the minimal power vector (Perron-Frobenius); solving the 2x2 system
  // G11 P1 = S1 (s1 + G12 P2), G22 P2 = S2 (s2 + G21 P1) gives:
  auto powers = [&](double t1, double t2) {
    const double det = G11 * G22 - t1 * t2 * G12 * G21;
    return std::pair{(t1 * s1 * G22 + t1 * t2 * G12 * s2) / det, (t2 * s2 * G11 + t1 * t2 * G21 * s1) / det};
  };
  ASSERT_GT(G11 * G22 - S1 * S2 * G12 * G21, 0.0);
  const auto [P1_opt, P2_opt] = powers(S1, S2);
  ASSERT_LT(std::max(P1_opt, P2_opt), Pmax);
  ychart::Model m;
  auto P1 = m.positive("P1");
  auto P2 = m.positive("P2");
  m.minimize(P1 + P2);
  const auto sinr1 = m.subject_to(G11 * P1 >= S1 * s1 + S1 * G12 * P2);
  const auto sinr2 = m.subject_to(G22 * P2 >= S2 * s2 + S2 * G21 * P1);
  const auto cap1 = m.subject_to(P1 <= Pmax);
  const auto cap2 = m.subject_to(P2 <= Pmax);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  EXPECT_OBJ(s.objective(), P1_opt + P2_opt);
  EXPECT_VAR(s[P1], P1_opt);
  EXPECT_VAR(s[P2], P2_opt);
  // The right-hand side of SINR_i as written is S_i (s_i + G_ij P_j), so scaling it is scaling S_i:
  // sensitivity = d log(P1 + P2) / d log S_i of the closed form, by a central difference in log S_i.
  auto total = [&](double t1, double t2) {
    const auto [a, b] = powers(t1, t2);
    return a + b;
  };
  const double hstep = 1e-5;
  const double d1 = (std::log(total(S1 * std::exp(hstep), S2)) - std::log(total(S1 * std::exp(-hstep), S2))) / (2 * hstep);
  const double d2 = (std::log(total(S1, S2 * std::exp(hstep))) - std::log(total(S1, S2 * std::exp(-hstep)))) / (2 * hstep);
  EXPECT_SENS(s.constraint(sinr1).sensitivity, d1);
  EXPECT_SENS(s.constraint(sinr2).sensitivity, d2);
  EXPECT_TRUE(s.constraint(sinr1).tight);
  EXPECT_TRUE(s.constraint(sinr2).tight);
  EXPECT_FALSE(s.constraint(cap1).tight);
  EXPECT_FALSE(s.constraint(cap2).tight);
  EXPECT_SENS(s.constraint(cap1).sensitivity, 0.0);
}

// ---------------------------------------------------------------------------
// 8. Wire sizing: minimise area sum l_i w_i s.t. delay sum c_i / w_i <= Dmax.
TEST(KnownOptima, WireSizingCauchySchwarz) {
  const std::vector<double> l{1.0, 2.0, 0.5, 3.0}, c{0.4, 0.1, 0.9, 0.2};
  const double Dmax = 2.5;
  const std::size_t n = l.size();
  ychart::Model m;
  std::vector<ychart::Variable<>> w;
  for (std::size_t i = 0; i < n; ++i) w.push_back(m.positive("w" + std::to_string(i), 1e-3, 1e3));
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  m.minimize(ychart::sum(idx, [&](std::size_t i) { return l[i] * w[i]; }));
  const auto delay = m.subject_to(ychart::sum(idx, [&](std::size_t i) { return c[i] / w[i]; }) <= Dmax);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // Cauchy-Schwarz: (sum sqrt(c_i l_i))^2 <= (sum l_i w_i)(sum c_i / w_i), so area* = S^2 / Dmax with
  // S = sum sqrt(c_i l_i), at w_i = (S / Dmax) sqrt(c_i / l_i); d log area / d log Dmax = -1.
  double S = 0;
  for (std::size_t i = 0; i < n; ++i) S += std::sqrt(c[i] * l[i]);
  EXPECT_OBJ(s.objective(), S * S / Dmax);
  for (std::size_t i = 0; i < n; ++i) EXPECT_VAR(s[w[i]], (S / Dmax) * std::sqrt(c[i] / l[i])) << i;
  EXPECT_SENS(s.constraint(delay).sensitivity, -1.0);
  EXPECT_TRUE(s.constraint(delay).tight);
}

// ---------------------------------------------------------------------------
// 9. Wire sizing with one width at its (active) upper bound.
TEST(KnownOptima, WireSizingWidthCapActive) {
  const std::vector<double> l{1.0, 2.0, 0.5, 3.0}, c{0.4, 0.1, 0.9, 0.2};
  const double Dmax = 2.5;
  const std::size_t n = l.size(), k = 2;
  double S = 0;
  for (std::size_t i = 0; i < n; ++i) S += std::sqrt(c[i] * l[i]);
  const double w_free = (S / Dmax) * std::sqrt(c[k] / l[k]);
  const double w_cap = 0.6 * w_free;
  ychart::Model m;
  std::vector<ychart::Variable<>> w;
  for (std::size_t i = 0; i < n; ++i) w.push_back(m.positive("w" + std::to_string(i), 0.0, i == k ? w_cap : 1e3));
  ychart::Posynomial<> area, delay_expr;
  for (std::size_t i = 0; i < n; ++i) {
    area += l[i] * w[i];
    delay_expr += c[i] / w[i];
  }
  m.minimize(area);
  const auto delay = m.subject_to(delay_expr <= Dmax);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // w_k = w_cap; the rest is problem 8 with budget D' = Dmax - c_k / w_cap and S' = sum_{i != k} sqrt(c_i l_i):
  // area* = l_k w_cap + S'^2 / D'. KKT certificate: the bound multiplier nu c_k / w_cap^2 - l_k with
  // nu = (S'/D')^2 must be >= 0. d area/d Dmax = -S'^2/D'^2.
  const double Dp = Dmax - c[k] / w_cap;
  ASSERT_GT(Dp, 0.0);
  const double Sp = S - std::sqrt(c[k] * l[k]);
  ASSERT_GT((Sp / Dp) * (Sp / Dp) * c[k] / (w_cap * w_cap) - l[k], 0.0);
  const double area_opt = l[k] * w_cap + Sp * Sp / Dp;
  EXPECT_OBJ(s.objective(), area_opt);
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_VAR(s[w[i]], i == k ? w_cap : (Sp / Dp) * std::sqrt(c[i] / l[i])) << i;
  EXPECT_SENS(s.constraint(delay).sensitivity, -Dmax * Sp * Sp / (Dp * Dp) / area_opt);
  EXPECT_TRUE(s.constraint(delay).tight);
}

// ---------------------------------------------------------------------------
// 10. Monomial equality: minimise x + y + z s.t. x y z == V.
TEST(KnownOptima, MonomialEqualityVolume) {
  const double V = 5.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto z = m.positive("z");
  m.minimize(x + y + z);
  const auto vol = m.subject_to(x * y * z == V);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // AM-GM: x + y + z >= 3 (xyz)^(1/3) = 3 V^(1/3) at x = y = z = V^(1/3); d log obj / d log V = 1/3.
  EXPECT_OBJ(s.objective(), 3.0 * std::cbrt(V));
  for (auto v : {x, y, z}) EXPECT_VAR(s[v], std::cbrt(V));
  EXPECT_SENS(s.constraint(vol).sensitivity, 1.0 / 3.0);
  EXPECT_TRUE(s.constraint(vol).tight);
}

// ---------------------------------------------------------------------------
// 11. Two monomial equalities: minimise x + 2y + 3z s.t. x y z == V, x == y.
TEST(KnownOptima, TwoMonomialEqualities) {
  const double V = 6.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto z = m.positive("z");
  m.minimize(x + 2 * y + 3 * z);
  const auto vol = m.subject_to(x * y * z == V);
  const auto same = m.subject_to(x == y);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // With x = k y (rhs of x == y scaled by k): minimise (k+2) y + 3 z s.t. y^2 z = V/k. Weighted AM-GM,
  // a y/2 + a y/2 + b z >= 3 (a^2 b y^2 z / 4)^(1/3): obj(k) = 3 ((k+2)^2 3 V / (4k))^(1/3),
  // attained at a y / 2 = b z. At k = 1: y = (2 V)^(1/3), z = y/2.
  auto obj = [&](double k, double vol_) { return 3.0 * std::cbrt((k + 2) * (k + 2) * 3.0 * vol_ / (4.0 * k)); };
  const double y_opt = std::cbrt(2.0 * V);
  EXPECT_OBJ(s.objective(), obj(1.0, V));
  EXPECT_OBJ(s.objective(), y_opt + 2 * y_opt + 3 * (y_opt / 2));  // consistency of the formula
  EXPECT_VAR(s[x], y_opt);
  EXPECT_VAR(s[y], y_opt);
  EXPECT_VAR(s[z], y_opt / 2);
  // d log obj / d log V = 1/3; d log obj / d log k = (1/3)(2k/(k+2) - 1) at k = 1 = -1/9.
  EXPECT_SENS(s.constraint(vol).sensitivity, 1.0 / 3.0);
  EXPECT_SENS(s.constraint(same).sensitivity, (1.0 / 3.0) * (2.0 / 3.0 - 1.0));
  EXPECT_TRUE(s.constraint(vol).tight);
  EXPECT_TRUE(s.constraint(same).tight);
}

// ---------------------------------------------------------------------------
// 12. Variable bounds active: a x + b/x on a box that excludes sqrt(b/a), and
// a monomial maximised over a box.
TEST(KnownOptima, VariableBoundsActive) {
  const double a = 1.0, b = 4.0;  // unconstrained minimiser sqrt(b/a) = 2
  {
    const double lo = 3.0, hi = 10.0;
    ASSERT_GT(lo, std::sqrt(b / a));
    ychart::Model m;
    auto x = m.positive("x", lo, hi);
    m.minimize(a * x + b / x);
    const auto s = m.solve();
    ASSERT_OPTIMAL(s);
    // a x + b/x is increasing for x > sqrt(b/a), so x* = lo.
    EXPECT_VAR(s[x], lo);
    EXPECT_OBJ(s.objective(), a * lo + b / lo);
  }
  {
    const double lo = 0.1, hi = 1.5;
    ASSERT_LT(hi, std::sqrt(b / a));
    ychart::Model m;
    auto x = m.positive("x", lo, hi);
    m.minimize(a * x + b / x);
    const auto s = m.solve();
    ASSERT_OPTIMAL(s);
    // decreasing for x < sqrt(b/a), so x* = hi.
    EXPECT_VAR(s[x], hi);
    EXPECT_OBJ(s.objective(), a * hi + b / hi);
  }
  {
    const double xlo = 1.0, xhi = 4.0, ylo = 0.5, yhi = 2.0;
    ychart::Model m;
    auto x = m.positive("x", xlo, xhi);
    auto y = m.positive("y", ylo, yhi);
    m.maximize(x * x / y);
    const auto s = m.solve();
    ASSERT_OPTIMAL(s);
    // x^2 / y increases in x and decreases in y: x = xhi, y = ylo.
    EXPECT_VAR(s[x], xhi);
    EXPECT_VAR(s[y], ylo);
    EXPECT_OBJ(s.objective(), xhi * xhi / ylo);
  }
}

// ---------------------------------------------------------------------------
// 13. max() in the objective: minimise max(a x, b y) s.t. x y >= c.
TEST(KnownOptima, MaxEpigraphObjective) {
  const double a = 2.0, b = 5.0, c = 3.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.minimize(ychart::max(a * x, b * y));
  const auto prod = m.subject_to(x * y >= c);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // max(ax, by) >= sqrt(ax by) >= sqrt(abc), equality at a x = b y = sqrt(abc); obj ~ c^(1/2).
  const double t = std::sqrt(a * b * c);
  EXPECT_OBJ(s.objective(), t);
  EXPECT_VAR(s[x], t / a);
  EXPECT_VAR(s[y], t / b);
  EXPECT_SENS(s.constraint(prod).sensitivity, 0.5);
  EXPECT_TRUE(s.constraint(prod).tight);
}

// ---------------------------------------------------------------------------
// 14. max() of posynomials with both branches active: minimise max(x + y, 3x) s.t. x y >= c.
TEST(KnownOptima, MaxOfPosynomialsBothBranchesActive) {
  const double c = 8.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.minimize(ychart::max(x + y, 3 * x));
  const auto prod = m.subject_to(x * y >= c);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // If y >= 2x: obj >= x + c/x with x <= sqrt(c/2) (decreasing there) >= 3 sqrt(c/2); if y < 2x:
  // obj >= 3x > 3 sqrt(c/2). So obj* = 3 sqrt(c/2) at x = sqrt(c/2), y = sqrt(2c); obj ~ c^(1/2).
  EXPECT_OBJ(s.objective(), 3.0 * std::sqrt(c / 2));
  EXPECT_VAR(s[x], std::sqrt(c / 2));
  EXPECT_VAR(s[y], std::sqrt(2 * c));
  EXPECT_SENS(s.constraint(prod).sensitivity, 0.5);
  EXPECT_TRUE(s.constraint(prod).tight);
}

// ---------------------------------------------------------------------------
// 15. max() in a constraint: minimise x + y s.t. max(a/x, b/y, c/(xy)) <= 1.
TEST(KnownOptima, MaxInConstraint) {
  const double a = 1.0, b = 2.0, c = 9.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.minimize(x + y);
  const auto cons = m.subject_to(ychart::max(a / x, b / y, c / (x * y)) <= 1.0);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // x >= a, y >= b, x y >= c; the AM-GM point x = y = sqrt(c) satisfies the first two when
  // sqrt(c) > max(a, b), so obj* = 2 sqrt(c). Scaling the rhs 1 by k divides a, b, c by k: obj ~ k^(-1/2).
  ASSERT_GT(std::sqrt(c), std::max(a, b));
  EXPECT_OBJ(s.objective(), 2 * std::sqrt(c));
  EXPECT_VAR(s[x], std::sqrt(c));
  EXPECT_VAR(s[y], std::sqrt(c));
  EXPECT_SENS(s.constraint(cons).sensitivity, -0.5);
  EXPECT_TRUE(s.constraint(cons).tight);
}

// ---------------------------------------------------------------------------
// 16. Non-integer exponents: minimise x^p + y^q s.t. x y >= c.
TEST(KnownOptima, PowNonIntegerExponents) {
  const double p = 0.5, q = 1.5, c = 4.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.minimize(ychart::pow(x, p) + ychart::pow(y, q));
  const auto prod = m.subject_to(x * y >= c);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // u = x^p, v = y^q: minimise u + v s.t. u^(1/p) v^(1/q) >= c. Lagrange: u = alpha T, v = beta T with
  // alpha = (1/p)/s, beta = (1/q)/s, s = 1/p + 1/q, T = (c / (alpha^(1/p) beta^(1/q)))^(1/s); obj ~ c^(1/s).
  const double sum_inv = 1 / p + 1 / q, alpha = (1 / p) / sum_inv, beta = (1 / q) / sum_inv;
  const double T = std::pow(c / (std::pow(alpha, 1 / p) * std::pow(beta, 1 / q)), 1 / sum_inv);
  EXPECT_OBJ(s.objective(), T);
  EXPECT_VAR(s[x], std::pow(alpha * T, 1 / p));
  EXPECT_VAR(s[y], std::pow(beta * T, 1 / q));
  EXPECT_SENS(s.constraint(prod).sensitivity, 1 / sum_inv);
}

// ---------------------------------------------------------------------------
// 17. Maximise a weighted geometric mean x^a y^b z^c s.t. x + y + z <= S.
TEST(KnownOptima, WeightedGeometricMeanMaximisation) {
  const double a = 0.5, b = 1.5, c = 2.0, S = 6.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto z = m.positive("z");
  m.maximize(ychart::pow(x, a) * ychart::pow(y, b) * ychart::pow(z, c));
  const auto budget = m.subject_to(x + y + z <= S);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // Weighted AM-GM with weights a_i/A (A = a+b+c): S/A >= prod (x_i/a_i)^(a_i/A), equality at
  // x_i = a_i S / A; obj* = prod (a_i S / A)^(a_i) ~ S^A.
  const double A = a + b + c;
  const double obj = std::pow(a * S / A, a) * std::pow(b * S / A, b) * std::pow(c * S / A, c);
  EXPECT_OBJ(s.objective(), obj);
  EXPECT_VAR(s[x], a * S / A);
  EXPECT_VAR(s[y], b * S / A);
  EXPECT_VAR(s[z], c * S / A);
  EXPECT_SENS(s.constraint(budget).sensitivity, A);
  EXPECT_TRUE(s.constraint(budget).tight);
}

// ---------------------------------------------------------------------------
// 18. Units: T in ms, constants in us. minimise T + c^2 / T (c = 250 us),
// without and with an active lower limit T >= L (L = 300 us).
TEST(KnownOptima, UnitsMillisecondsWithMicrosecondConstraints) {
  const double c_us = 250.0, L_us = 300.0;
  const double c_si = c_us * 1e-6, L_si = L_us * 1e-6;
  const auto c = c_us * u::us;
  {
    ychart::Model m;
    auto T = m.positive("T", u::ms);
    m.minimize(T + c * c / T);
    const auto s = m.solve();
    ASSERT_OPTIMAL(s);
    // AM-GM: T + c^2/T >= 2c at T = c.
    EXPECT_OBJ(s.objective(), 2 * c_si);                 // SI seconds
    EXPECT_OBJ(s.objective(u::us), 2 * c_us);            // microseconds
    EXPECT_VAR(s[T], c_si / 1e-3);                       // declared unit: ms
    EXPECT_VAR(s.value(T, u::us), c_us);
  }
  {
    ychart::Model m;
    auto T = m.positive("T", u::ms);
    m.minimize(T + c * c / T);
    const auto lim = m.subject_to(T >= L_us * u::us);
    const auto s = m.solve();
    ASSERT_OPTIMAL(s);
    // L > c, and T + c^2/T increases for T > c, so T* = L, obj* = L + c^2/L and
    // d log obj / d log L = (L - c^2/L) / (L + c^2/L).
    ASSERT_GT(L_si, c_si);
    const double obj = L_si + c_si * c_si / L_si;
    EXPECT_OBJ(s.objective(), obj);
    EXPECT_OBJ(s.objective(u::ms), obj / 1e-3);
    EXPECT_VAR(s[T], L_si / 1e-3);
    EXPECT_VAR(s.value(T, u::us), L_us);
    EXPECT_VAR(s.value(T, u::s), L_si);
    EXPECT_SENS(s.constraint(lim).sensitivity, (L_si - c_si * c_si / L_si) / obj);
    EXPECT_TRUE(s.constraint(lim).tight);
  }
}

// ---------------------------------------------------------------------------
// 19. Units and maximisation: T1 in ms, T2 in us, maximise T1 T2 s.t. T1 + T2 <= D (D = 2 ms).
TEST(KnownOptima, UnitsMaximiseMixedTimeUnits) {
  const double D_ms = 2.0, D_si = D_ms * 1e-3;
  ychart::Model m;
  auto T1 = m.positive("T1", u::ms);
  auto T2 = m.positive("T2", u::us);
  m.maximize(T1 * T2);
  const auto budget = m.subject_to(T1 + T2 <= D_ms * u::ms);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // AM-GM: T1 T2 <= (D/2)^2 at T1 = T2 = D/2; obj ~ D^2.
  EXPECT_OBJ(s.objective(), (D_si / 2) * (D_si / 2));     // s^2
  EXPECT_OBJ(s.objective(u::ms * u::ms), (D_ms / 2) * (D_ms / 2));
  EXPECT_VAR(s[T1], (D_si / 2) / 1e-3);                   // ms
  EXPECT_VAR(s[T2], (D_si / 2) / 1e-6);                   // us
  EXPECT_VAR(s.value(T2, u::ms), D_ms / 2);
  EXPECT_SENS(s.constraint(budget).sensitivity, 2.0);
  EXPECT_TRUE(s.constraint(budget).tight);
}

// ---------------------------------------------------------------------------
// 20. Multi-term objective: minimise a (x + y + z) + b / (x y z).
TEST(KnownOptima, MultiTermObjectiveFourTermAmGm) {
  const double a = 2.0, b = 3.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto z = m.positive("z");
  m.minimize(a * x + a * y + a * z + b / (x * y * z));
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // AM-GM on four terms: sum >= 4 (a^3 b)^(1/4), equality when a x = a y = a z = b/(xyz): x = (b/a)^(1/4).
  EXPECT_OBJ(s.objective(), 4 * std::pow(a * a * a * b, 0.25));
  for (auto v : {x, y, z}) EXPECT_VAR(s[v], std::pow(b / a, 0.25));
}

// ---------------------------------------------------------------------------
// 21. Many variables (n = 50), symmetric: minimise sum x_i s.t. prod x_i >= C.
TEST(KnownOptima, ManyVariablesSymmetric) {
  const int n = 50;
  const double C = 3.0;
  ychart::Model m;
  std::vector<ychart::Variable<>> x;
  for (int i = 0; i < n; ++i) x.push_back(m.positive("x" + std::to_string(i)));
  m.minimize(ychart::sum(x));
  ychart::Monomial<> prod = x[0];
  for (int i = 1; i < n; ++i) prod = prod * x[i];
  const auto p = m.subject_to(prod >= C);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // AM-GM: sum x_i >= n (prod x_i)^(1/n) >= n C^(1/n) at x_i = C^(1/n); d log obj / d log C = 1/n.
  EXPECT_OBJ(s.objective(), n * std::pow(C, 1.0 / n));
  for (int i = 0; i < n; ++i) EXPECT_VAR(s[x[i]], std::pow(C, 1.0 / n)) << i;
  EXPECT_SENS(s.constraint(p).sensitivity, 1.0 / n);
  EXPECT_TRUE(s.constraint(p).tight);
}

// ---------------------------------------------------------------------------
// 22. Many variables (n = 50), weighted: minimise sum a_i x_i s.t. prod x_i >= C.
TEST(KnownOptima, ManyVariablesWeighted) {
  const int n = 50;
  const double C = 0.25;
  std::vector<double> a(n);
  for (int i = 0; i < n; ++i) a[i] = 1.0 + 0.1 * i;
  ychart::Model m;
  std::vector<ychart::Variable<>> x;
  for (int i = 0; i < n; ++i) x.push_back(m.positive("x" + std::to_string(i)));
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  m.minimize(ychart::sum(idx, [&](int i) { return a[i] * x[i]; }));
  ychart::Monomial<> prod = x[0];
  for (int i = 1; i < n; ++i) prod = prod * x[i];
  const auto p = m.subject_to(prod >= C);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // AM-GM on the a_i x_i: sum >= n (C prod a_i)^(1/n), equality when all a_i x_i = obj/n.
  double log_prod_a = 0;
  for (double ai : a) log_prod_a += std::log(ai);
  const double obj = n * std::exp((std::log(C) + log_prod_a) / n);
  EXPECT_OBJ(s.objective(), obj);
  for (int i = 0; i < n; ++i) EXPECT_VAR(s[x[i]], obj / (n * a[i])) << i;
  EXPECT_SENS(s.constraint(p).sensitivity, 1.0 / n);
}

// ---------------------------------------------------------------------------
// 23. Monomial constraints only (an LP in log space): maximise x y^2 s.t. x y <= a, y / x <= b.
TEST(KnownOptima, MonomialConstraintsOnlyLogLp) {
  const double a = 3.0, b = 2.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.maximize(x * y * y);
  const auto c1 = m.subject_to(x * y <= a);
  const auto c2 = m.subject_to(y / x <= b);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // x y^2 = (xy)^(3/2) (y/x)^(1/2) <= a^(3/2) b^(1/2), at x y = a, y = b x: x = sqrt(a/b), y = sqrt(ab).
  EXPECT_OBJ(s.objective(), std::pow(a, 1.5) * std::sqrt(b));
  EXPECT_VAR(s[x], std::sqrt(a / b));
  EXPECT_VAR(s[y], std::sqrt(a * b));
  EXPECT_SENS(s.constraint(c1).sensitivity, 1.5);
  EXPECT_SENS(s.constraint(c2).sensitivity, 0.5);
  EXPECT_TRUE(s.constraint(c1).tight);
  EXPECT_TRUE(s.constraint(c2).tight);
}

// ---------------------------------------------------------------------------
// 24. Maximise a product under a linear budget: maximise x y s.t. x/a + y/b <= 1.
TEST(KnownOptima, ProductUnderLinearBudget) {
  const double a = 4.0, b = 10.0;
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  m.maximize(x * y);
  const auto budget = m.subject_to(x / a + y / b <= 1.0);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // AM-GM: (x/a)(y/b) <= ((x/a + y/b)/2)^2 = k^2/4 for rhs k: obj* = a b k^2 / 4, sensitivity 2.
  EXPECT_OBJ(s.objective(), a * b / 4);
  EXPECT_VAR(s[x], a / 2);
  EXPECT_VAR(s[y], b / 2);
  EXPECT_SENS(s.constraint(budget).sensitivity, 2.0);
}

// ---------------------------------------------------------------------------
// 25. Constant terms inside posynomials (objective and constraint).
TEST(KnownOptima, ConstantTermsInPosynomials) {
  {
    const double p = 2.0, q = 4.0;
    ychart::Model m;
    auto x = m.positive("x");
    m.minimize(x + p + q / x);
    const auto s = m.solve();
    ASSERT_OPTIMAL(s);
    // the constant p only shifts: x + q/x >= 2 sqrt(q) at x = sqrt(q).
    EXPECT_OBJ(s.objective(), 2 * std::sqrt(q) + p);
    EXPECT_VAR(s[x], std::sqrt(q));
  }
  {
    ychart::Model m;
    auto x = m.positive("x");
    auto y = m.positive("y");
    m.minimize(x + y);
    const auto cons = m.subject_to(1 + 1 / x <= y);
    const auto s = m.solve();
    ASSERT_OPTIMAL(s);
    // rhs scaled by k: y = (1 + 1/x)/k, obj(k) = min_x x + 1/(k x) + 1/k = 2 k^(-1/2) + 1/k at x = k^(-1/2);
    // at k = 1: obj 3, x = 1, y = 2, d log obj / d log k = (-k^(-1/2) - 1/k) / obj(k).
    const double k = 1.0, obj = 2 / std::sqrt(k) + 1 / k;
    EXPECT_OBJ(s.objective(), obj);
    EXPECT_VAR(s[x], 1 / std::sqrt(k));
    EXPECT_VAR(s[y], (1 + std::sqrt(k)) / k);
    EXPECT_SENS(s.constraint(cons).sensitivity, (-1 / std::sqrt(k) - 1 / k) / obj);
    EXPECT_TRUE(s.constraint(cons).tight);
  }
}

// ---------------------------------------------------------------------------
// 26. Floor planning (tutorial section 6.x style): two blocks side by side in a
// square bounding box, minimise its area W H.
TEST(KnownOptima, FloorplanTwoBlocksSquare) {
  const double a1 = 3.0, a2 = 5.0;
  ychart::Model m;
  auto W = m.positive("W");
  auto H = m.positive("H");
  auto w1 = m.positive("w1");
  auto h1 = m.positive("h1");
  auto w2 = m.positive("w2");
  auto h2 = m.positive("h2");
  m.minimize(W * H);
  const auto ar1 = m.subject_to(w1 * h1 >= a1);
  const auto ar2 = m.subject_to(w2 * h2 >= a2);
  const auto width = m.subject_to(w1 + w2 <= W);
  const auto hgt1 = m.subject_to(h1 <= H);
  const auto hgt2 = m.subject_to(h2 <= H);
  const auto square = m.subject_to(W == H);
  const auto s = m.solve();
  ASSERT_OPTIMAL(s);
  // W H >= (w1 + w2) H >= (a1/h1 + a2/h2) H >= a1 + a2, equality at h_i = H, w_i = a_i / H;
  // the square gives W = H = sqrt(a1 + a2). Scaling the rhs by k: a_i -> a_i k (sens a_i/(a1+a2)),
  // W -> kW (obj (a1+a2)/k, sens -1), H -> kH in h_i <= H (obj a_i/k + a_j, sens -a_i/(a1+a2)),
  // H -> kH in W == H (obj unchanged, sens 0).
  const double A = a1 + a2, side = std::sqrt(A);
  EXPECT_OBJ(s.objective(), A);
  EXPECT_VAR(s[W], side);
  EXPECT_VAR(s[H], side);
  EXPECT_VAR(s[h1], side);
  EXPECT_VAR(s[h2], side);
  EXPECT_VAR(s[w1], a1 / side);
  EXPECT_VAR(s[w2], a2 / side);
  EXPECT_SENS(s.constraint(ar1).sensitivity, a1 / A);
  EXPECT_SENS(s.constraint(ar2).sensitivity, a2 / A);
  EXPECT_SENS(s.constraint(width).sensitivity, -1.0);
  EXPECT_SENS(s.constraint(hgt1).sensitivity, -a1 / A);
  EXPECT_SENS(s.constraint(hgt2).sensitivity, -a2 / A);
  EXPECT_SENS(s.constraint(square).sensitivity, 0.0);
  for (auto i : {ar1, ar2, width, hgt1, hgt2, square}) EXPECT_TRUE(s.constraint(i).tight) << i;
}

}  // namespace
