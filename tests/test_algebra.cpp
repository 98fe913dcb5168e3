// The expression algebra: result classes and dimensions (compile time),
// coefficients and the errors bad coefficients raise (run time).
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

using namespace ychart;
namespace u = ychart::units;

template <class E, expr_class C, class D>
constexpr bool is = std::is_same_v<std::remove_cvref_t<E>, Expr<C, D>>;

TEST(Algebra, ResultClassesFollowTheGpRules) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  using D = u::dimensionless;
  static_assert(is<decltype(x * y), expr_class::monomial, D>);
  static_assert(is<decltype(2 * x * y), expr_class::monomial, D>);
  static_assert(is<decltype(x / y), expr_class::monomial, D>);
  static_assert(is<decltype(3 / x), expr_class::monomial, D>);
  static_assert(is<decltype(x + y), expr_class::posynomial, D>);
  static_assert(is<decltype(x + 1), expr_class::posynomial, D>);
  static_assert(is<decltype((x + y) * (x + 1)), expr_class::posynomial, D>);
  static_assert(is<decltype((x + y) / x), expr_class::posynomial, D>);
  static_assert(is<decltype(x - y), expr_class::signomial, D>);
  static_assert(is<decltype(-x), expr_class::signomial, D>);
  static_assert(is<decltype(Constant<>(2.0) - 1), expr_class::constant, D>);
  static_assert(is<decltype(pow(x, 0.5)), expr_class::monomial, D>);
  static_assert(is<decltype(max(x, y + 1)), expr_class::posynomial, D>);
  SUCCEED();
}

TEST(Algebra, DimensionsMultiplyAndCancel) {
  Model m;
  auto t = m.positive("t", u::ms);
  auto f = m.positive("f", u::MHz);
  auto p = m.positive("p", u::W);
  static_assert(is<decltype(t * f), expr_class::monomial, u::dimensionless>);
  static_assert(is<decltype(p * t), expr_class::monomial, dim::energy>);
  static_assert(is<decltype(1000 / f), expr_class::monomial, dim::time>);
  static_assert(is<decltype(pow<1, 2>(t * t)), expr_class::monomial, dim::time>);
  static_assert(std::is_same_v<u::dimension_product<dim::power, dim::time>, dim::energy>);
  static_assert(std::is_same_v<u::dimension_product<u::base_dimension<"dsp">, dim::time>,
                               u::dimension_product<dim::time, u::base_dimension<"dsp">>>);
  EXPECT_EQ(u::symbol(dim::time{}), "s");
  EXPECT_EQ(u::symbol(u::ms), "ms");
  EXPECT_EQ(u::symbol(u::base_dimension<"dsp">{}), "dsp");
}

TEST(Algebra, ScalesConvertExactly) {
  EXPECT_EQ(u::conversion_factor(u::ms, u::us), 1000.0);
  EXPECT_EQ(u::conversion_factor(u::GB, u::MB), 1000.0);
  EXPECT_EQ(u::conversion_factor(u::GiB, u::KiB), 1048576.0);
  EXPECT_EQ(u::conversion_factor(u::GHz, u::MHz), 1000.0);
  EXPECT_EQ(u::conversion_factor(u::W, u::mW), 1000.0);
  EXPECT_EQ(u::conversion_factor(u::J, u::mJ), 1000.0);
  EXPECT_DOUBLE_EQ((3 * u::ms).value(), 0.003);
  EXPECT_DOUBLE_EQ((3 * u::ms).in(u::us), 3000.0);
  EXPECT_DOUBLE_EQ((2 * u::W * (3 * u::s)).in(u::mJ), 6000.0);
  // bandwidth: 1 GB / (1 GB/s) is one second
  EXPECT_DOUBLE_EQ((1 * u::GB / (1 * u::GB_per_s)).value(), 1.0);
}

TEST(Algebra, TermsAndCoefficients) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto p = 2 * x * y + 3 * pow(x, -1) + 0 * y;  // the 0 term is dropped
  ASSERT_EQ(p.terms().size(), 2u);
  EXPECT_DOUBLE_EQ(p.terms().coefficient(0), 2.0);
  EXPECT_DOUBLE_EQ(p.terms().coefficient(1), 3.0);
  auto q = (x + y) * (x + y);  // four terms, merged factors
  ASSERT_EQ(q.terms().size(), 4u);
  EXPECT_EQ(q.terms().factors(0).size(), 1u);  // x*x = x^2
  EXPECT_DOUBLE_EQ(q.terms().factors(0)[0].exponent, 2.0);
  auto r = x * y / x;  // cancels to y
  ASSERT_EQ(r.terms().factors(0).size(), 1u);
  EXPECT_EQ(r.terms().factors(0)[0].var, y.index());
  EXPECT_EQ(p.to_string(), "2*x*y + 3*x^-1");
  EXPECT_EQ((x - 2 * y).to_string(), "x - 2*y");
}

TEST(Algebra, BadCoefficientsThrowNamingTheExpression) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW((void)(-2 * x), invalid_coefficient);
  EXPECT_THROW((void)(x + -1), invalid_coefficient);
  EXPECT_THROW((void)(nan * x), invalid_coefficient);
  EXPECT_THROW((void)(inf * y), invalid_coefficient);
  EXPECT_THROW((void)(x / 0), invalid_coefficient);
  EXPECT_THROW((void)(x <= 0 * y), invalid_coefficient);
  EXPECT_THROW((void)(x <= -3), invalid_coefficient);
  try {
    (void)(x + y + -4.0);
    FAIL() << "expected invalid_coefficient";
  } catch (const invalid_coefficient& e) {
    EXPECT_NE(std::string(e.what()).find("x + y + -4"), std::string::npos) << e.what();
  }
  // Signomials accept any finite sign; subtraction of constants stays a constant.
  EXPECT_NO_THROW((void)(x - 2 * y));
  EXPECT_DOUBLE_EQ((Constant<>(1.0) - 3).value(), -2.0);
  // catchable as std::exception
  EXPECT_THROW((void)(-1 * x), std::exception);
}

TEST(Algebra, MixingModelsThrows) {
  Model a, b;
  auto x = a.positive("x");
  auto y = b.positive("y");
  EXPECT_THROW((void)(x + y), model_error);
  EXPECT_THROW(a.subject_to(y <= 2), model_error);
  EXPECT_THROW(a.positive("bad", 3.0, 1.0), model_error);
}

TEST(Algebra, SumOverStdAndRangeV3Ranges) {
  Model m;
  std::vector<Variable<>> xs;
  for (int i = 0; i < 5; ++i) xs.push_back(m.positive("x" + std::to_string(i)));
  auto s1 = sum(xs, [](const Variable<>& v) { return 2 * v; });
  EXPECT_EQ(s1.terms().size(), 5u);
  auto s2 = sum(ranges::views::iota(0, 5), [&](int i) { return (i + 1) * xs[i]; });
  ASSERT_EQ(s2.terms().size(), 5u);
  EXPECT_DOUBLE_EQ(s2.terms().coefficient(4), 5.0);
  auto s3 = sum(ranges::views::iota(1, 4) | ranges::views::transform([](int i) { return 1.0 * i; }));
  EXPECT_DOUBLE_EQ(s3.value(), 6.0);
  std::vector<Variable<>> none;
  EXPECT_TRUE(sum(none, [](const Variable<>& v) { return v; }).terms().empty());
}

TEST(Algebra, VariablesAreValuesInStandardContainers) {
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  static_assert(std::is_trivially_copyable_v<Variable<>>);
  static_assert(sizeof(Variable<>) <= 24);
  std::set<Variable<>> s{x, y, x};
  EXPECT_EQ(s.size(), 2u);
  std::map<Variable<>, int> mp{{x, 1}, {y, 2}};
  EXPECT_EQ(mp[y], 2);
  std::unordered_map<Variable<>, double> um;
  um[x] = 3.0;
  EXPECT_EQ(um.count(x), 1u);
  EXPECT_EQ(um.count(y), 0u);
}

// Unqualified max on expressions of one dimension must be ychart::max, never
// std::max (dimension types must not drag namespace std into ADL).
TEST(Algebra, UnqualifiedMaxOnDimensionedVariablesIsOurs) {
  Model m;
  auto t0 = m.positive("t0", u::ms);
  auto t1 = m.positive("t1", u::ms);
  auto t2 = m.positive("t2", u::ms);
  auto e = max(t0, t1);
  static_assert(is<decltype(e), expr_class::posynomial, dim::time>);
  auto f = max(t0, t1, 2 * t2);
  static_assert(is<decltype(f), expr_class::posynomial, dim::time>);
}

TEST(Algebra, UnitsOnEitherSideAndInPlaceSums) {
  Model m;
  auto x = m.positive("x");
  auto t = m.positive("t", u::ms);
  static_assert(is<decltype(u::ms * x), expr_class::monomial, dim::time>);
  static_assert(is<decltype(t / u::us), expr_class::monomial, u::dimensionless>);
  EXPECT_DOUBLE_EQ((t / u::us).terms().coefficient(0), 1000.0);  // t in ms, read in us
  Posynomial<> p;
  p += x;
  p += 2 * x;
  EXPECT_EQ(p.terms().size(), 2u);
  Posynomial<> zero = Constant<>(0.0);  // 0 is the empty sum, not an error
  EXPECT_TRUE(zero.terms().empty());
  EXPECT_NO_THROW(p += Constant<>(0.0));
  EXPECT_THROW(p += Constant<>(-1.0), invalid_coefficient);
}

TEST(Algebra, UnitSymbolsReadAsUsersWriteThem) {
  EXPECT_EQ(u::symbol(u::MHz), "MHz");
  EXPECT_EQ(u::symbol(u::mW), "mW");
  EXPECT_EQ(u::symbol(u::W), "W");
  EXPECT_EQ(u::symbol(u::KiB), "KiB");
  EXPECT_EQ(u::symbol(u::GB_per_s), "GB/s");
  EXPECT_EQ(u::symbol(u::unit<u::base_dimension<"bram18k">, std::ratio<2>>{}), "(2 bram18k)");
}

TEST(Algebra, SolutionRejectsForeignAndDefaultVariables) {
  Model m;
  auto x = m.positive("x");
  m.subject_to(x >= 2);
  m.minimize(x);
  const auto s = m.solve();
  ASSERT_TRUE(s.optimal());
  EXPECT_NEAR(s[x], 2.0, 1e-7);
  EXPECT_THROW((void)s.value(Variable<>{}), solution_error);
  Model other;
  auto y = other.positive("y");
  EXPECT_THROW((void)s.value(y), solution_error);
}
