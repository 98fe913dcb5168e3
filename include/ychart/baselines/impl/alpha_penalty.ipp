// ychart/baselines/impl/alpha_penalty.ipp
// The implementation of alpha_penalty_sweep (baselines/alpha_penalty.hpp).
#pragma once

#include "../../config.hpp"
#include "../../model/detail/model_editor.hpp"
#include "../../model/signomial_model.hpp"
#include "../../result/solution.hpp"
#include "../alpha_penalty.hpp"
#include "../../solve/signomial/sequential_gp.hpp"
#include "../../solve/solve.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::baselines {

namespace detail {

// The model internals the sweep edits (ychart::detail, hidden by this detail).
using ychart::detail::ModelEditor;
using ychart::detail::Registry;
using ychart::detail::TermList;

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
                        "` is an inequality (sequential GP solves it: SignomialModel::solve)", c.to_string());
    if (c.negative().size() != 1)
      throw model_error("ychart: the alpha-penalty method needs `posynomial == monomial`; `" + c.to_string() +
                        "` has a sum on both sides", c.to_string());
    for (std::size_t k = 0; k < c.positive().size(); ++k)
      for (const auto& f : c.positive().factors(k))
        if (f.var >= hat.size() || !std::isfinite(hat[f.var]))
          throw model_error("ychart: the alpha-penalty method condenses at the start point: give `" +
                            vars[f.var].name + "` a value with SignomialModel::start()", vars[f.var].name);
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
    TermList p_hat = solve::signomial::detail::condense(c->positive(), x_hat);
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

YCHART_DECL AlphaSweepResult alpha_penalty_sweep(const SignomialModel& model, const AlphaSweepOptions& options,
                                                 const SolveOptions& solve_options) {
  return detail::alpha_penalty_sweep(model, options, solve_options);
}

}  // namespace ychart::baselines
