// The passes of the mixed-integer lowering (lower/minlp_passes.hpp), each on
// its own: small models whose columns, rows and domains are worked out by
// hand in the comments, so that a pass that changes what it produces fails
// here before it changes a solve. test_integer_modelling.cpp and the solver
// tests check the chained lowering through its answers.
#include <ychart/core.hpp>
#include <ychart/lower/lower_minlp.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

namespace {

using namespace ychart;
using namespace ychart::lower;

TEST(MinlpPasses, DiscreteInLogSpaceMarksOnlyDiscreteVariablesInMonomials) {
  Model m;
  auto n = m.integer("n", 1, 8);  // in a monomial: marked
  auto k = m.integer("k", 0, 8);  // affine only: not marked
  auto t = m.positive("t");       // positive: not a discrete variable
  m.subject_to(t >= 10 / n);
  m.subject_to(n + k <= 9);
  m.minimize(t);
  const auto in_log = discrete_in_log_space(m);
  ASSERT_EQ(in_log.size(), 3u);
  EXPECT_EQ(in_log[n.index()], 1);
  EXPECT_EQ(in_log[k.index()], 0);
  EXPECT_EQ(in_log[t.index()], 0);
}

TEST(MinlpPasses, DiscreteInLogSpaceAcceptsRealsInAffineExpressions) {
  // (A real in a monomial does not compile: the expression types keep it out.)
  Model m;
  auto r = m.real("r", 1, 2);
  auto t = m.positive("t");
  m.subject_to(t + r <= 5);  // affine: fine
  m.minimize(t);
  EXPECT_NO_THROW(discrete_in_log_space(m));
}

TEST(MinlpPasses, LinearPositivesAreTheLowerBoundsOfTablesOfOneInteger) {
  // II >= 6 / N with II only in the objective: II may be linear. x appears
  // in a product with N, so it stays in log space.
  Model m;
  auto ii = m.positive("II");
  auto x = m.positive("x");
  auto n = m.integer("N", 1, 6);
  m.subject_to(ii >= 6 / n);
  m.subject_to(x * n >= 2);
  m.minimize(ii + x);
  const auto lin = linear_positive_variables(m);
  EXPECT_EQ(lin[ii.index()], 1);
  EXPECT_EQ(lin[x.index()], 0);
  EXPECT_EQ(lin[n.index()], 0);  // not positive
}

TEST(MinlpPasses, NoLinearPositivesWithoutDiscreteVariablesOrWhenMaximising) {
  Model gp;  // a pure GP stays in log space
  auto a = gp.positive("a");
  gp.subject_to(a >= 2);
  gp.minimize(a);
  EXPECT_EQ(linear_positive_variables(gp)[a.index()], 0);
  Model mx;
  auto b = mx.positive("b", 1, 10);
  auto n = mx.integer("n", 1, 4);
  mx.subject_to(b <= 10 / n);
  mx.maximize(b);
  EXPECT_EQ(linear_positive_variables(mx)[b.index()], 0);
}

TEST(MinlpPasses, DiscreteDomainsPropagateThenKeepTheValuesInside) {
  // 7 n + 2 k <= 30 with n >= 1, k >= 0: n <= 4 (30 / 7), k <= 11 (23 / 2).
  Model m;
  auto n = m.integer("n", 1, 1000);
  auto k = m.integer("k", 0, 1000);
  auto t = m.positive("t");
  m.subject_to(7 * n + 2 * k <= 30);
  m.subject_to(t >= 10 / n);
  m.minimize(t + 0.01 * k);
  const auto d = discrete_domains(m, discrete_in_log_space(m));
  EXPECT_EQ(d.empty, -1);
  EXPECT_EQ(d.upper[n.index()], 4);
  EXPECT_EQ(d.upper[k.index()], 11);
  EXPECT_EQ(d.needs_encoding[n.index()], 1);  // in a monomial
  EXPECT_EQ(d.needs_encoding[k.index()], 0);  // affine only: no encoding
  EXPECT_EQ(d.values[n.index()], (std::vector<double>{1, 2, 3, 4}));
  EXPECT_TRUE(std::isinf(d.upper[t.index()]));
}

TEST(MinlpPasses, DiscreteDomainsReportAVariableLeftWithoutAValue) {
  // a + b >= 10 with a, b <= 3: a >= 7 > 3.
  Model m;
  auto a = m.integer("a", 0, 3);
  auto b = m.integer("b", 0, 3);
  m.subject_to(a + b >= 10);
  m.minimize(a + b);
  const auto d = discrete_domains(m, discrete_in_log_space(m));
  EXPECT_TRUE(d.empty == int(a.index()) || d.empty == int(b.index())) << d.empty;
  const auto form = lower_minlp(m);
  EXPECT_TRUE(form.infeasible);
  EXPECT_NE(form.infeasible_reason.find("no value"), std::string::npos);
}

TEST(MinlpPasses, DiscreteDomainsRefuseNonPositiveValuesInLogSpaceAndHugeEncodings) {
  Model zero;
  auto n = zero.integer("n", 0, 4);
  auto t = zero.positive("t");
  zero.subject_to(t >= 1 / n);  // n = 0 has no log
  zero.minimize(t);
  EXPECT_THROW(discrete_domains(zero, discrete_in_log_space(zero)), model_error);
  Model huge;
  auto h = huge.integer("h", 1, 200000);
  auto u = huge.positive("u");
  huge.subject_to(u >= 1 / h);
  huge.minimize(u);
  EXPECT_THROW(discrete_domains(huge, discrete_in_log_space(huge)), model_error);
}

TEST(MinlpPasses, ColumnsComeAsVariablesThenLogColumnsThenEncodings) {
  // Variables t (positive, log space), n in 1..3 (in a monomial), k in 0..5
  // (affine). Columns: 0 t (log), 1 n (value), 2 k (value), 3 log n,
  // 4-6 the binaries of n = 1, 2, 3.
  Model m;
  auto t = m.positive("t", 0.5, 20);
  auto n = m.integer("n", 1, 3);
  auto k = m.integer("k", 0, 5);
  m.subject_to(t >= 10 / n);
  m.subject_to(t * n >= 1);  // keeps t in log space
  m.subject_to(n + k <= 6);
  m.minimize(t);
  const auto in_log = discrete_in_log_space(m);
  const auto d = discrete_domains(m, in_log);
  MinlpForm form;
  add_variable_columns(m, linear_positive_variables(m), in_log, d, form);
  ASSERT_EQ(form.nlp.n, 7);
  EXPECT_EQ(form.nlp.n_model, 3);
  EXPECT_EQ(form.value_column[t.index()], 0);
  EXPECT_EQ(form.log_column[t.index()], 0);
  EXPECT_NEAR(form.nlp.lower[0], std::log(0.5), 1e-15);
  EXPECT_NEAR(form.nlp.upper[0], std::log(20.0), 1e-15);
  EXPECT_EQ(form.value_column[n.index()], 1);
  EXPECT_EQ(form.log_column[n.index()], 3);
  EXPECT_NEAR(form.nlp.upper[3], std::log(3.0), 1e-15);
  EXPECT_EQ(form.value_column[k.index()], 2);
  EXPECT_EQ(form.log_column[k.index()], -1);
  ASSERT_EQ(form.encodings.size(), 1u);
  EXPECT_EQ(form.encodings[0].first, 4);
  EXPECT_EQ(form.integer, (std::vector<char>{0, 1, 1, 0, 1, 1, 1}));
}

TEST(MinlpPasses, ObjectiveShapes) {
  // A monomial: log space, no column. A posynomial: a log epigraph column.
  // A posynomial plus an affine part: a linear epigraph column.
  auto shape = [](auto build) {
    Model m;
    build(m);
    MinlpForm form;
    const auto in_log = discrete_in_log_space(m);
    const auto lin = linear_positive_variables(m);
    add_variable_columns(m, lin, in_log, discrete_domains(m, in_log), form);
    const int before = form.nlp.n;
    const auto parts = add_objective_column(m, lin, form);
    return std::tuple{form.log_objective, form.objective_column >= 0 ? form.objective_column - before : -1,
                      parts.posynomial.size(), parts.affine.size(), int(form.nlp.c.size()) == form.nlp.n};
  };
  auto monomial = shape([](Model& m) { auto x = m.positive("x", 1, 2); m.minimize(3 * x); });
  EXPECT_EQ(monomial, std::tuple(true, -1, std::size_t(1), std::size_t(0), true));
  auto posynomial = shape([](Model& m) { auto x = m.positive("x", 1, 2); m.minimize(x + 1 / x); });
  EXPECT_EQ(posynomial, std::tuple(true, 0, std::size_t(2), std::size_t(0), true));
  auto mixed = shape([](Model& m) {
    auto x = m.positive("x", 1, 2);
    auto r = m.real("r", 0, 1);
    m.minimize(x + 1 / x + r);
  });
  EXPECT_EQ(mixed, std::tuple(false, 0, std::size_t(2), std::size_t(1), true));
}

TEST(MinlpPasses, ConstraintRowsOfEachForm) {
  // t >= 10 / n with t linear: one linear row over n's encoding,
  //   10/1 z1 + 10/2 z2 - t <= 0 (scaled by t's coefficient 1).
  // 2 n + 4 k <= 8: one affine row scaled by its largest coefficient,
  //   0.5 n + k - 2 <= 0.
  Model m;
  auto t = m.positive("t");
  auto n = m.integer("n", 1, 2);
  auto k = m.integer("k", 0, 2);
  m.subject_to(t >= 10 / n);
  m.subject_to(2 * n + 4 * k <= 8);
  m.minimize(t);
  const auto in_log = discrete_in_log_space(m);
  const auto lin = linear_positive_variables(m);
  ASSERT_EQ(lin[t.index()], 1);
  MinlpForm form;
  add_variable_columns(m, lin, in_log, discrete_domains(m, in_log), form);
  add_objective_column(m, lin, form);
  RowBuilder rows(form);
  add_constraint_rows(m, lin, rows, form);
  rows.assemble();
  const auto& f = form.nlp;
  ASSERT_EQ(f.A.rows(), 2);
  ASSERT_EQ(f.kind.size(), 2u);
  EXPECT_EQ(f.kind[0], RowKind::linear_le);
  EXPECT_EQ(f.kind[1], RowKind::linear_le);
  const int z = form.encodings.at(0).first;
  EXPECT_DOUBLE_EQ(f.A.coeff(0, z), 10.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(0, z + 1), 5.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(0, form.value_column[t.index()]), -1.0);
  EXPECT_DOUBLE_EQ(f.b[0], 0.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(1, form.value_column[n.index()]), 0.5);
  EXPECT_DOUBLE_EQ(f.A.coeff(1, form.value_column[k.index()]), 1.0);
  EXPECT_DOUBLE_EQ(f.b[1], -2.0);
  EXPECT_EQ(f.origin[1].kind, Origin::user);
  EXPECT_EQ(f.origin[1].index, 1u);
}

TEST(MinlpPasses, EncodingRowsTieTheBinariesToTheValueAndItsLog) {
  // n in {2, 4} in a monomial: z2 + z4 = 1, 2 z2 + 4 z4 - n = 0,
  // log 2 z2 + log 4 z4 - log n = 0.
  Model m;
  auto n = m.choice("n", {2, 4});
  auto t = m.positive("t", 0.1, 10);
  m.subject_to(t * n >= 3);
  m.minimize(t);
  const auto in_log = discrete_in_log_space(m);
  const auto lin = linear_positive_variables(m);
  MinlpForm form;
  add_variable_columns(m, lin, in_log, discrete_domains(m, in_log), form);
  add_objective_column(m, lin, form);
  RowBuilder rows(form);
  add_encoding_rows(m, rows, form);
  rows.assemble();
  const auto& f = form.nlp;
  const int z = form.encodings.at(0).first;
  ASSERT_EQ(f.A.rows(), 3);
  EXPECT_DOUBLE_EQ(f.A.coeff(0, z) + f.A.coeff(0, z + 1), 2.0);
  EXPECT_DOUBLE_EQ(f.b[0], -1.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(1, z), 2.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(1, z + 1), 4.0);
  EXPECT_DOUBLE_EQ(f.A.coeff(1, form.value_column[n.index()]), -1.0);
  EXPECT_NEAR(f.A.coeff(2, z + 1), std::log(4.0), 1e-15);
  EXPECT_DOUBLE_EQ(f.A.coeff(2, form.log_column[n.index()]), -1.0);
}

TEST(MinlpPasses, UnusedLogColumnsAreFixedAtZeroOrTheNearestBound) {
  GpStandardForm f;
  f.n = 3;
  f.lower = {-1.0, 0.5, -5.0};
  f.upper = {1.0, 2.0, 5.0};
  f.linear_column = {0, 0, 1};
  f.c = Eigen::VectorXd::Zero(3);
  fix_unused_log_columns(f, {0, 0, 0});
  EXPECT_EQ(f.lower[0], 0.0);  // 0 lies inside [-1, 1]
  EXPECT_EQ(f.upper[0], 0.0);
  EXPECT_EQ(f.lower[1], 0.5);  // nearest bound to 0
  EXPECT_EQ(f.upper[1], 0.5);
  EXPECT_EQ(f.lower[2], -5.0);  // a linear column is left alone
  EXPECT_EQ(f.upper[2], 5.0);
}

TEST(MinlpPasses, ColumnKeysNameEveryColumn) {
  Model m;
  auto t = m.positive("t", 0.5, 20);
  auto n = m.integer("n", 1, 2);
  m.subject_to(t * n >= 1);
  m.minimize(t + 1 / t);
  const auto form = lower_minlp(m);
  ASSERT_EQ(form.column_key.size(), std::size_t(form.nlp.n));
  EXPECT_EQ(form.column_key[form.value_column[t.index()]].kind, ColumnKey::log);
  EXPECT_EQ(form.column_key[form.value_column[n.index()]].kind, ColumnKey::value);
  EXPECT_EQ(form.column_key[form.log_column[n.index()]].kind, ColumnKey::log);
  EXPECT_EQ(form.column_key[form.encodings[0].first + 1].kind, ColumnKey::encoding);
  EXPECT_EQ(form.column_key[form.encodings[0].first + 1].index, 1u);
  EXPECT_EQ(form.column_key[form.objective_column].kind, ColumnKey::objective);
}

}  // namespace
