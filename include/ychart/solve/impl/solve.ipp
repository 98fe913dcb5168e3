// ychart/solve/impl/solve.ipp
// The implementation of Model::solve() (declared in model/model.hpp,
// included by solve/solve.hpp when header-only): lowers the model, runs a GP back end (gp_backend.hpp: the
// native interior-point method or Ipopt), and turns the outcome into a
// Solution with a status that can be trusted. A failed run is never reported
// as infeasible on the solver's word alone: the feasibility relaxation
// (product of slacks) is solved and decides between `infeasible`, with the
// constraints to relax, and `numerical_error`. An optimum that sits on the
// artificial box around log space means the model is unbounded.
#pragma once

#include "../../config.hpp"
#include "../../lower/gp_standard_form.hpp"
#include "../../model/model.hpp"
#include "../../result/solution.hpp"
#include "../gp/gp_backend.hpp"
#include "../mixed_integer/migp.hpp"
#include "../symmetry/symmetric_allocation.hpp"
#include "../symmetry/symmetry.hpp"

#include <chrono>
#include <cmath>
#include <optional>
#include <string>

namespace ychart {
namespace detail {

struct SolverCache {
  solve::gp::LazyIpopt ipopt;  // made only if Ipopt runs
};
YCHART_DECL void destroy(SolverCache* c) { delete c; }

}  // namespace detail

YCHART_DECL Solution Model::solve(const SolveOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  if (!cache_) cache_.reset(new detail::SolverCache);
  // Declared symmetries are checked whatever the method: a declaration that
  // is not a symmetry is a modelling mistake (model_error), never used.
  solve::symmetry::verify_declared_symmetries(*this);
  std::optional<solve::symmetry::SymmetricStructure> structure;
  // Interchangeable blocks the decomposition does not apply to are broken
  // by ordering rows in the general methods instead (one group only: two
  // groups ordered by separate keys could exclude every optimum).
  std::vector<std::vector<std::uint32_t>> ordered;
  if (solve::mixed_integer::needs_migp(*this)) {
    if (symmetries_.size() == 1) {
      if (options.method == Method::automatic)
        structure = solve::symmetry::find_symmetric_structure(*this, symmetries_.front());
      ordered = symmetries_.front();
    } else if (symmetries_.empty() && options.detect_symmetry) {
      const auto groups = solve::symmetry::find_interchangeable_blocks(*this);
      for (const auto& blocks : groups)
        if (options.method == Method::automatic && (structure = solve::symmetry::find_symmetric_structure(*this, blocks))) break;
      if (!groups.empty()) ordered = groups.front();
    }
  }
  if (structure) {
    auto solution = solve::symmetry::solve_symmetric_allocation(*this, *structure, options);
    // The decomposition's packing can miss a row the structure check let
    // through (a spreading variable bounded by another row); it then says
    // numerical_error rather than answer wrongly, and the general methods,
    // which ignore the symmetry, still solve the model exactly.
    if (solution.status() != Status::numerical_error) return solution;
    return solve::mixed_integer::solve_mixed_integer(*this, options, cache_->ipopt, &ordered);
  }
  if (solve::mixed_integer::needs_migp(*this)) return solve::mixed_integer::solve_mixed_integer(*this, options, cache_->ipopt, &ordered);
  const auto form = lower::lower_gp(*this);
  solve::gp::GpBackend gp(form, cache_->ipopt);
  const double box = options.bound_exponent * std::log(10.0);
  // Fast path: only variables free on both sides are boxed. If the solver
  // does not succeed there (an iterate ran past the box, or anything else),
  // solve again with every open side boxed, which classifies unbounded models
  // exactly.
  auto run = [&](auto&& one_run) {
    auto r = one_run(false);
    if (!r.success() && !r.limit_hit()) {
      const int first_iterations = r.iterations;
      r = one_run(true);
      r.iterations += first_iterations;
    }
    return r;
  };
  // A warm start from a solution of a related GP with the same form shape.
  solve::gp::GpWarmStart warm;
  if (options.warm_start)
    if (const auto& p = SolutionBuilder::gp_point(*options.warm_start);
        p && int(p->y.size()) == form.n && int(p->lambda.size()) == form.constraint_count())
      warm = {p->y, p->lambda, p->z_lower, p->z_upper};
  auto r = run([&](bool box_all) { return gp.run(options, {.box = box, .box_all = box_all, .warm = warm}); });

  // A failed run: the feasibility relaxation decides what happened. If it
  // needs no slack and the native solver only suspected infeasibility, Ipopt
  // gets the model (automatic choice of back end).
  std::optional<lower::GpStandardForm> relaxed;
  solve::gp::GpResult rr;
  double total_slack = 0.0;
  int relaxation_iterations = 0;
  if (!r.success() && !r.limit_hit()) {
    relaxed = lower::relax(form);
    solve::gp::GpBackend relaxed_gp(*relaxed, cache_->ipopt, /*feasible_by_construction=*/true);
    rr = relaxed_gp.run(options, {.box = box, .box_all = true});
    relaxation_iterations = rr.iterations;
    for (int k = form.n; rr.success() && k < relaxed->n; ++k) total_slack += rr.y[k];
    if (rr.success() && total_slack <= 1e-6 && gp.may_fall_back(r, options)) {
      const int before = r.iterations;
      r = run([&](bool box_all) { return gp.fall_back(r, options, {.box = box, .box_all = box_all}); });
      r.iterations += before;
    }
  }

  Solution s;
  SolutionBuilder b{s};
  b.model_id() = registry_.get();
  b.objective_dimension() = objective_unit_;
  b.iterations() = r.iterations + relaxation_iterations;
  const auto& vars = registry_->variables;
  b.variables().resize(vars.size());
  for (std::size_t j = 0; j < vars.size(); ++j)
    b.variables()[j] = {vars[j].name, vars[j].unit, std::nan(""), vars[j].auxiliary};
  b.constraints().resize(constraints_.size());
  for (std::size_t i = 0; i < constraints_.size(); ++i) {
    auto& c = b.constraints()[i];
    if (constraints_[i].name().empty()) {
      c.name = 'c';
      c.name += std::to_string(i);
    } else {
      c.name = constraints_[i].name();
    }
    c.text = constraints_[i].to_string();
  }

  auto finish = [&](Status st, std::string msg) {
    b.status() = st;
    b.message() = std::move(msg);
    b.solve_time() = std::chrono::duration<double>(clock::now() - start).count();
    return s;
  };

  if (r.status == solve::gp::GpRunStatus::iteration_limit) return finish(Status::iteration_limit, r.message);
  if (r.status == solve::gp::GpRunStatus::time_limit) return finish(Status::time_limit, r.message);

  if (r.success()) {
    // An optimum on the artificial box: the objective wants to go further.
    for (int j = 0; j < form.n; ++j) {
      const bool free_below = !std::isfinite(form.lower[j]), free_above = !std::isfinite(form.upper[j]);
      const double y = r.y[j];
      // Within a factor e of the box (10^+-100 by default): an interior-point
      // method stops where a weakly pushed variable's slack times its
      // multiplier meets the tolerance, which for a multiplier of 1e-6 is a
      // slack of about 1e-3 (a random GP's x2 stopped 2e-3 from the box).
      const double tol = 1.0;
      const bool at_low = free_below && y <= -box + tol && r.z_lower[j] > 1e-9;
      const bool at_high = free_above && y >= box - tol && r.z_upper[j] > 1e-9;
      if (!at_low && !at_high) continue;
      const std::string name = j < form.n_model ? vars[j].name : "objective";
      b.unbounded().push_back({name, at_low});
    }
    if (!b.unbounded().empty())
      return finish(Status::unbounded, "the objective approaches " +
                                           std::string(sense_ == Sense::minimize ? "0" : "infinity") +
                                           " as variables run to 0 or infinity");

    b.point().resize(vars.size());
    for (std::size_t j = 0; j < vars.size(); ++j) {
      b.point()[j] = std::exp(r.y[j]);
      b.variables()[j].value = b.point()[j];
    }
    const double obj = objective_.evaluate(b.point());
    b.objective() = obj;
    b.has_point() = true;
    b.bound() = obj;  // a convex GP: the optimum is its own bound
    b.gap() = 0.0;
    b.method() = r.solver;
    b.gp_point() = std::make_shared<const detail::GpPoint>(detail::GpPoint{r.y, r.lambda, r.z_lower, r.z_upper});
    // Multipliers of the log-space rows are d log(obj)/d log(monomial side);
    // flip for maximisation and for constraints written `monomial >= posynomial`.
    const double sense_sign = sense_ == Sense::minimize ? 1.0 : -1.0;
    for (int i = 0; i < form.constraint_count(); ++i) {
      if (form.origin[i].kind != lower::Origin::user) continue;
      const std::size_t ci = form.origin[i].index;
      auto& rep = b.constraints()[ci];
      const double written = constraints_[ci].written_reversed() ? 1.0 : -1.0;
      rep.sensitivity = sense_sign * written * r.lambda[i];
      if (rep.sensitivity == 0.0) rep.sensitivity = 0.0;  // no negative zero in tables
      const double limit = form.kind[i] == lower::RowKind::expsum_le ? 1.0 : 0.0;
      rep.tight = form.kind[i] == lower::RowKind::linear_eq ||
                  (form.kind[i] == lower::RowKind::expsum_le ? r.g[i] >= limit * (1.0 - 1e-6)
                                                             : r.g[i] >= limit - 1e-6);
    }
    return finish(Status::optimal, r.message);
  }

  // The solver did not succeed: the feasibility relaxation decided above.
  if (!rr.success())
    return finish(Status::numerical_error,
                  r.message + "; the feasibility relaxation also failed: " + rr.message);
  if (total_slack <= 1e-6)
    return finish(Status::numerical_error, r.message + ", but the model is feasible (relaxation needs no slack)");
  const double report_tol = 1e-6;
  for (int i = 0; i < relaxed->constraint_count(); ++i) {
    const auto& o = relaxed->origin[i];
    // The slack of row i is the one column >= form.n in its first term.
    int slack = -1;
    for (auto it = lower::GpStandardForm::SparseRows::InnerIterator(relaxed->A, relaxed->first_term[i]); it; ++it)
      if (it.col() >= form.n) slack = it.col();
    const double factor = std::exp(rr.y[slack]);
    if (o.kind == lower::Origin::user) {
      b.constraints()[o.index].relaxation = std::max(b.constraints()[o.index].relaxation, factor);
    } else if ((o.kind == lower::Origin::variable_lower || o.kind == lower::Origin::variable_upper) &&
               factor > 1.0 + report_tol && o.index < vars.size()) {
      b.bound_relaxations().push_back({vars[o.index].name, o.kind == lower::Origin::variable_lower, factor});
    }
  }
  for (auto& c : b.constraints())
    if (c.relaxation <= 1.0 + report_tol) c.relaxation = 1.0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", std::exp(total_slack));
  return finish(Status::infeasible, "the product of the smallest relaxation factors is " + std::string(buf));
}

}  // namespace ychart
