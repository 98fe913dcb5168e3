// Integer modelling below the solvers: handles in standard containers, the
// run-time rules of tabulate and discrete terms, the lowering's bound
// propagation (domains shrink before encoding; empty domains are infeasible),
// and the linear-space reduction of II >= WCET / N.
#include <ychart/ychart.hpp>
#include <ychart/engine.hpp>  // the solver engine itself, which this test exercises

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

namespace {

using namespace ychart;

TEST(IntegerModelling, HandlesWorkInStandardContainers) {
  Model m;
  std::vector<Discrete<>> n;
  for (int i = 0; i < 4; ++i) n.push_back(m.integer("n" + std::to_string(i), 0, 5));
  auto r = m.real("r", 0, 1);
  std::set<Discrete<>> ordered(n.begin(), n.end());
  ordered.insert(n[2]);  // a copy is the same variable
  EXPECT_EQ(ordered.size(), 4u);
  std::unordered_map<Discrete<>, int> weight;
  for (std::size_t i = 0; i < n.size(); ++i) weight[n[i]] = int(i) + 1;
  EXPECT_EQ(weight.at(n[3]), 4);
  std::map<Real<>, double> reals{{r, 2.5}};
  EXPECT_EQ(reals.at(r), 2.5);
  Affine<> total;
  for (const auto& v : n) total += weight[v] * v;
  m.subject_to(total <= 7);
  m.maximize(sum(n) + r);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::optimal);
  double used = 0, count = 0;
  for (const auto& v : n) used += weight[v] * s[v], count += s[v];
  EXPECT_LE(used, 7 + 1e-9);
  EXPECT_DOUBLE_EQ(count, 6);  // n0 = 5 (weight 1) and n1 = 1 (weight 2) fill the 7
  EXPECT_DOUBLE_EQ(s.objective(), 6 + 1);  // and r = 1
}

TEST(IntegerModelling, TabulateAndDiscreteTermRules) {
  Model m;
  auto n = m.integer("n", 0, 3);
  EXPECT_THROW(tabulate(n, [](double v) { return 1.0 / v; }), invalid_coefficient);  // f(0) = inf
  auto big = m.integer("big", 0, 2e6);
  EXPECT_THROW(tabulate(big, [](double v) { return v; }), model_error);
  auto x = m.positive("x");
  EXPECT_THROW((void)((-2 * n) * x), invalid_coefficient);  // a monomial needs a positive coefficient
  const auto h = tabulate(n, [](double v) { return v * v; }, "square");
  m.subject_to(h <= 4);
  m.maximize(n);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::optimal);
  EXPECT_EQ(s[n], 2);
  EXPECT_EQ(s.value("square"), 4);
}

TEST(IntegerModelling, BoundPropagationShrinksDomainsBeforeEncoding) {
  Model m;
  auto n = m.integer("n", 1, 1000);
  auto k = m.integer("k", 0, 1000);
  auto t = m.positive("t");
  m.subject_to(7 * n + 2 * k <= 30);  // n <= 4 (k >= 0), k <= 11 (n >= 1)
  m.subject_to(t >= 10 / n);
  m.minimize(t + 0.01 * k);
  const auto form = lower::lower_minlp(m);
  ASSERT_FALSE(form.infeasible);
  ASSERT_EQ(form.encodings.size(), 1u);  // n: in a monomial
  EXPECT_EQ(form.encodings[0].values, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(form.nlp.upper[form.value_column[k.index()]], 11);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::optimal);
  EXPECT_EQ(s[n], 4);
  EXPECT_EQ(s[k], 0);
  EXPECT_NEAR(s[t], 2.5, 1e-9);
}

TEST(IntegerModelling, EmptyDomainAfterPropagationIsInfeasible) {
  Model m;
  auto a = m.integer("a", 0, 3);
  auto b = m.integer("b", 0, 3);
  auto x = m.positive("x", 1, 10);
  m.subject_to(a + b >= 10);
  m.subject_to(x >= 2.0);
  m.minimize(x + a);
  const auto s = m.solve();
  EXPECT_EQ(s.status(), Status::infeasible);
  EXPECT_NE(s.message().find("no value"), std::string::npos) << s.message();
}

TEST(IntegerModelling, LowerBoundByATableOfOneIntegerStaysLinear) {
  // II >= W_k / N_k with II only in the objective: II gets a linear column
  // and the rows become linear in the encoding, so GLPK solves the model.
  Model m;
  auto ii = m.positive("II", units::ms);
  const double wcet[] = {5.16, 1.78, 4.11};
  const double dsp[] = {4.31, 0.5, 7.63};
  Affine<> use;
  std::vector<Discrete<>> cus;
  for (int k = 0; k < 3; ++k) {
    cus.push_back(m.integer("N" + std::to_string(k), 1, 50));
    m.subject_to(ii >= wcet[k] * units::ms / cus.back());
    use += dsp[k] * cus.back();
  }
  m.subject_to(use <= 40);
  m.minimize(ii);
  const auto form = lower::lower_minlp(m);
  EXPECT_TRUE(form.nlp.is_linear_column(form.value_column[ii.index()]));
  const auto s = m.solve();
  ASSERT_EQ(s.status(), Status::optimal);
  EXPECT_EQ(s.method(), "glpk");
  // Enumeration.
  double best = std::numeric_limits<double>::infinity();
  for (int a = 1; a <= 10; ++a)
    for (int b = 1; b <= 80; ++b)
      for (int c = 1; c <= 6; ++c)
        if (dsp[0] * a + dsp[1] * b + dsp[2] * c <= 40)
          best = std::min(best, std::max({wcet[0] / a, wcet[1] / b, wcet[2] / c}));
  EXPECT_NEAR(s.value(ii), best, 1e-9 * best);
  EXPECT_NEAR(s.objective(), best * 1e-3, 1e-12);  // SI seconds
}

}  // namespace

namespace {

TEST(IntegerModelling, ChoiceWithNoValueInsideItsPropagatedBoundsIsInfeasible) {
  Model m;
  auto c = m.choice("c", {1, 8});
  auto x = m.positive("x");
  m.subject_to(c >= 2);
  m.subject_to(c <= 7);
  m.subject_to(x >= 1 / c);  // c in a monomial: encoded
  m.minimize(x);
  const auto s = m.solve();
  EXPECT_EQ(s.status(), Status::infeasible);
  EXPECT_NE(s.message().find("`c`"), std::string::npos) << s.message();
}

TEST(IntegerModelling, TabulatedArgumentOverTheEncodingLimitIsAModelError) {
  Model m;
  auto n = m.integer("n", 0, 500000);  // tabulate accepts up to 10^6 values, an encoding 10^5
  m.subject_to(tabulate(n, [](double v) { return v; }) <= 3);
  m.maximize(n);
  try {
    (void)m.solve();
    FAIL() << "expected model_error";
  } catch (const model_error& e) {
    EXPECT_NE(std::string(e.what()).find("`n`"), std::string::npos) << e.what();
  }
}

}  // namespace

// Found by the model fuzzer: a discrete variable whose only value is 1, used
// in a monomial. Its encoding row `log n0 = log(1) z` stores a zero
// coefficient; the relaxation once kept that row as an equality with a zero
// Jacobian row and ended in numerical_error. Oracle: enumeration of n1.
TEST(IntegerModelling, SingleValueOneInAMonomial) {
  for (const auto backend : {GpSolver::native, GpSolver::ipopt}) {
    Model m;
    auto n0 = m.integer("n0", 1, 1);
    auto n1 = m.integer("n1", 3, 4);
    auto t = m.positive("t");
    m.subject_to(t >= 0.25 * pow(n1, 2) * pow(n0, -2));
    m.minimize(t + 2 * n0 - 2 * n1);
    SolveOptions o;
    o.gp_solver = backend;
    const auto s = m.solve(o);
    ASSERT_EQ(s.status(), Status::optimal) << to_string(backend) << ": " << s.message();
    double best = std::numeric_limits<double>::infinity();
    for (double v : {3.0, 4.0}) best = std::min(best, 0.25 * v * v + 2 - 2 * v);
    EXPECT_NEAR(s.objective(), best, 1e-6);
    EXPECT_EQ(s[n1], 4);
  }
}
