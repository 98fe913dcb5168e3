// ychart/solve/alpha_penalty.hpp
// The penalty method of study 000 (Carballo-Hernandez 2022, Eqs. 4.6-4.8),
// kept as a baseline to compare sequential GP with. Each posynomial equality
// `P == N` (N a monomial, such as the channel count C) is relaxed to
// `P <= N`, and the objective gets a penalty alpha / h_bar, where h_bar is
// P / N condensed once, at a fixed point x_hat (the thesis's "naive
// partitioning"; here the model's start values). alpha grows by a step each
// iteration; the sweep accepts the first iterate where every P / N reaches
// 1 - tolerance (the thesis's stopping rule), or runs them all. With several
// equalities (one per layer, Eq. 4.10), each has its own alpha_e = alpha *
// scale_e, and the thesis's multi-layer rule can be asked for: raise them
// together and stop raising each one once its equality holds.
//
// What to expect (study 000 digest, section 4.8): a large alpha pulls the
// split toward x_hat's proportions, so the accepted answer depends on the
// step and the stopping rule; it is a heuristic with no optimality claim.
// alpha_penalty_sweep reports every iteration so that this can be seen.
#pragma once

#include "../model/detail/model_editor.hpp"
#include "../model/signomial_model.hpp"
#include "../result/solution.hpp"
#include "sequential_gp.hpp"
#include "solve.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart {

struct AlphaSweepOptions {
  double alpha_start = 10.0;  // the first alpha, in the objective's SI unit
  double alpha_step = 10.0;   // added each iteration (the thesis's figures step by 10)
  int max_iterations = 100;
  /// Accept an iterate when P / N >= 1 - tolerance for every equality.
  double tolerance = 1e-3;
  /// The thesis's rule: stop at the first accepted iterate. false: run all
  /// max_iterations, as Fig. 4.3 plots them.
  bool stop_at_first = true;
  /// Eq. 4.8 as printed: h_bar = prod (u_t / N)^eps_t, without Eq. 4.5's
  /// 1 / eps_t factors (smaller by prod eps_t^eps_t, 1/2 for a balanced
  /// split, which alpha absorbs). false: Eq. 4.5, h_bar = P condensed / N.
  bool thesis_condensation = true;
  /// Per equality, in the order they were added: alpha_e = alpha * scale[e]
  /// (empty: 1 for all), so that layers of different sizes get penalties of
  /// their own size. Positive.
  std::vector<double> scale;
  /// Eq. 4.10's rule: an equality's alpha stops growing while it holds
  /// (P / N >= 1 - tolerance) and resumes, from where it stopped, if it no
  /// longer does; the others keep stepping.
  bool freeze_satisfied = false;
};

struct AlphaIteration {
  int iteration = 0;  // 1-based, as the thesis counts
  double alpha = 0;            // alpha_start + (k - 1) alpha_step
  std::vector<double> alphas;  // per equality: the alpha its penalty used (scale and freezing applied)
  int satisfied = 0;           // equalities with P / N >= 1 - tolerance
  Status status = Status::numerical_error;
  std::vector<double> values;  // per registry index, in the variables' units
  std::vector<double> ratio;   // P / N per equality, at the iterate
  double objective = std::numeric_limits<double>::quiet_NaN();  // without the penalty (SI)
  double seconds = 0;          // this iteration's GP
  bool accepted = false;
};

struct AlphaSweepResult {
  std::vector<AlphaIteration> iterations;
  int accepted = -1;  // index into iterations of the first accepted one; -1: none
  double seconds = 0;
};

namespace detail {

inline AlphaSweepResult alpha_penalty_sweep(const SignomialModel& model, const AlphaSweepOptions& o,
                                            const SolveOptions& solve_options) {
  if (!(o.alpha_start > 0) || !(o.alpha_step >= 0) || o.max_iterations < 1 || !(o.tolerance >= 0))
    throw model_error("ychart: AlphaSweepOptions: alpha_start must be positive, alpha_step and tolerance not "
                      "negative, max_iterations >= 1");
  if (!model.has_objective() || model.sense() != Model::Sense::minimize || !model.objective_affine().empty())
    throw model_error("ychart: the alpha-penalty method minimises a posynomial objective");
  const auto& vars = model.registry().variables;
  const auto& hat = model.start_values();
  std::vector<const SignomialConstraint*> equalities;
  for (const auto& c : model.signomial_constraints()) {
    if (c.sense() != Constraint::Sense::equal)
      throw model_error("ychart: the alpha-penalty method handles posynomial equalities only; `" + c.to_string() +
                        "` is an inequality (sequential GP solves it: SignomialModel::solve)");
    if (c.negative().size() != 1)
      throw model_error("ychart: the alpha-penalty method needs `posynomial == monomial`; `" + c.to_string() +
                        "` has a sum on both sides");
    for (std::size_t k = 0; k < c.positive().size(); ++k)
      for (const auto& f : c.positive().factors(k))
        if (f.var >= hat.size() || !std::isfinite(hat[f.var]))
          throw model_error("ychart: the alpha-penalty method condenses at the start point: give `" +
                            vars[f.var].name + "` a value with SignomialModel::start()");
    equalities.push_back(&c);
  }
  if (equalities.empty()) throw model_error("ychart: the model has no posynomial equality to penalise");
  if (!o.scale.empty() && o.scale.size() != equalities.size())
    throw model_error("ychart: AlphaSweepOptions::scale has " + std::to_string(o.scale.size()) +
                      " entries; the model has " + std::to_string(equalities.size()) + " posynomial equalities");
  for (double f : o.scale)
    if (!(f > 0) || !std::isfinite(f)) throw model_error("ychart: AlphaSweepOptions::scale entries must be positive");

  // x_hat: the start values (variables not in an equality: 1, unused).
  std::vector<double> x_hat(vars.size(), 1.0);
  for (std::size_t j = 0; j < vars.size() && j < hat.size(); ++j)
    if (std::isfinite(hat[j])) x_hat[j] = hat[j];
  // The penalty monomials 1 / h_bar = N / condensed P (times the thesis's factor).
  std::vector<TermList> inverse_h_bar;
  for (const auto* c : equalities) {
    TermList p_hat = condense(c->positive(), x_hat);
    if (o.thesis_condensation) {
      const double total = c->positive().evaluate(x_hat);
      double factor = 1.0;
      for (std::size_t k = 0; k < c->positive().size(); ++k) {
        TermList term;
        term.push_term(c->positive().coefficient(k), c->positive().factors(k));
        const double eps = term.evaluate(x_hat) / total;
        factor *= std::pow(eps, eps);
      }
      p_hat.scale(factor);
    }
    inverse_h_bar.push_back(TermList::product(c->negative(), p_hat.power(-1.0)));
  }

  AlphaSweepResult result;
  const auto sweep_start = std::chrono::steady_clock::now();
  std::optional<Solution> previous;
  auto scale = [&](std::size_t e) { return o.scale.empty() ? 1.0 : o.scale[e]; };
  std::vector<double> alphas(equalities.size());
  for (std::size_t e = 0; e < equalities.size(); ++e) alphas[e] = o.alpha_start * scale(e);
  for (int it = 0; it < o.max_iterations; ++it) {
    const double alpha = o.alpha_start + o.alpha_step * it;
    Model g = ModelEditor::copy_of(model.gp_part());
    Registry& reg = ModelEditor::registry(g);
    TermList objective = model.objective();
    for (std::size_t e = 0; e < equalities.size(); ++e) {
      ModelEditor::add_constraint(g, Constraint(&reg, equalities[e]->positive(), equalities[e]->negative(),
                                                Constraint::Sense::less_equal, false)
                                         .named(equalities[e]->name() + " (relaxed to <=)"));
      TermList penalty = inverse_h_bar[e];
      penalty.scale(alphas[e]);
      objective.append(penalty);
    }
    ModelEditor::set_objective(g, std::move(objective), model.objective_unit());
    SolveOptions so = solve_options;
    so.warm_start = previous ? &*previous : nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    Solution s = g.solve(so);
    AlphaIteration row;
    row.iteration = it + 1;
    row.alpha = alpha;
    row.alphas = alphas;
    row.status = s.status();
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s.has_values()) {
      SolutionBuilder b{s};
      row.values.assign(b.point().begin(), b.point().begin() + static_cast<std::ptrdiff_t>(vars.size()));
      row.objective = model.objective().evaluate(row.values);
      row.accepted = s.status() == Status::optimal;
      for (std::size_t e = 0; e < equalities.size(); ++e) {
        const auto* c = equalities[e];
        const double ratio = c->positive().evaluate(row.values) / c->negative().evaluate(row.values);
        row.ratio.push_back(ratio);
        const bool holds = ratio >= 1.0 - o.tolerance;
        if (!holds) row.accepted = false;
        row.satisfied += holds ? 1 : 0;
        if (!(o.freeze_satisfied && holds && s.status() == Status::optimal)) alphas[e] += o.alpha_step * scale(e);
      }
      previous = std::move(s);
    } else {
      for (std::size_t e = 0; e < equalities.size(); ++e) alphas[e] += o.alpha_step * scale(e);
    }
    result.iterations.push_back(std::move(row));
    if (result.iterations.back().accepted && result.accepted < 0) {
      result.accepted = static_cast<int>(result.iterations.size()) - 1;
      if (o.stop_at_first) break;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sweep_start).count();
  return result;
}

}  // namespace detail

/// The thesis's alpha sweep on a SignomialModel whose signomial constraints
/// are `posynomial == monomial` equalities, condensed at its start values.
inline AlphaSweepResult alpha_penalty_sweep(const SignomialModel& model, const AlphaSweepOptions& options = {},
                                            const SolveOptions& solve_options = {}) {
  return detail::alpha_penalty_sweep(model, options, solve_options);
}

}  // namespace ychart
