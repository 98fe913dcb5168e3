// ychart/lower/lower_minlp.hpp
// Lowers a model with discrete or real variables to one convex form over
// columns in two spaces (docs/solvers.md, "Mixed-integer models"):
//   * log columns y = log x for positive variables and for discrete
//     variables that appear in monomials (all values > 0);
//   * linear columns for reals, discrete values, tabulated values, and the
//     binary encoding z of a discrete n that is used in log space, in a
//     table, or has an explicit value set:
//         sum_v z_v = 1,  n = sum_v v z_v,  log n = sum_v log(v) z_v,
//         f(n) = sum_v f(v) z_v,
//     all linear in z;
//   * GP constraints as in lower_gp (monomial rows linear, posynomial rows
//     sums of exponentials), affine constraints as linear rows, and
//     `posynomial <= affine` as a mixed row sum exp(.) + d.x + e <= 0.
// The objective is linear in the columns: log(monomial), a log-space
// epigraph for a posynomial, or t + affine with sum exp(.) <= t (linear t)
// when a posynomial and an affine part are added.
// One reduction keeps mixed-integer models linear where they can be: a
// positive variable x that appears only in objective terms c * x and on the
// larger side of constraints `sum_k c_k g_k(n_k) <= a * x` (each g_k a power
// of one discrete variable, or a constant) gets a linear column, and those
// constraints become linear rows in the encodings (II >= WCET / N is
// II >= sum_v (WCET / v) [N = v]). It is exact at integer points and leaves
// the relaxation at least as tight. Relaxing integrality gives
// a convex NLP; fixing the integer columns gives the outer-approximation
// subproblem.
// The lowering is a chain of passes (lower/minlp_passes.hpp), each tested
// on its own.
#pragma once

#include "minlp_passes.hpp"

namespace ychart::lower {

/// Lowers any model (GP, mixed-integer GP, MILP) to a MinlpForm.
inline MinlpForm lower_minlp(const Model& model) {
  if (!model.has_objective()) throw model_error("ychart: the model has no objective; call minimize() or maximize()");
  const auto in_log = discrete_in_log_space(model);
  const auto linear_positive = linear_positive_variables(model);
  const auto domains = discrete_domains(model, in_log);
  MinlpForm m;
  if (domains.empty >= 0) {
    m.infeasible = true;
    m.infeasible_reason = "the affine constraints leave the discrete variable `" +
                          model.registry().variables[domains.empty].name + "` no value";
    return m;
  }
  add_variable_columns(model, linear_positive, in_log, domains, m);
  const auto objective = add_objective_column(model, linear_positive, m);
  RowBuilder rows(m);
  add_objective_rows(model, objective, rows, m);
  add_constraint_rows(model, linear_positive, rows, m);
  add_encoding_rows(model, rows, m);
  rows.assemble();
  fix_unused_log_columns(m.nlp, rows.used_columns());
  assign_column_keys(m);
  return m;
}

}  // namespace ychart::lower
