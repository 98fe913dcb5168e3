// ychart/solve/gp/gp_model.hpp
// A model that is a geometric program (no discrete or real variables, no
// affine objective), solved and reported: lowers it, runs a GP back end
// (gp_backend.hpp), and turns the outcome into a Solution with a status that
// can be trusted. A failed run is never reported as infeasible on the
// solver's word alone: the feasibility relaxation (product of slacks) is
// solved and decides between `infeasible`, with the constraints to relax,
// and `numerical_error`; a slack within what its solver leaves decides only
// with Ipopt finding the model infeasible too. An optimum that sits on the
// artificial box around log space means the model is unbounded.
// Model::solve's last strategy (solve/impl/solve.ipp).
#pragma once

#include "../../lower/gp_standard_form.hpp"
#include "../../model/model.hpp"
#include "../../model/tolerances.hpp"
#include "../../result/solution.hpp"
#include "../detail/solution_skeleton.hpp"
#include "gp_backend.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

namespace ychart::solve::gp {

namespace detail {

/// A GP run, and what the feasibility relaxation said when the run failed.
struct CheckedRun {
  GpResult run;
  std::optional<lower::GpStandardForm> relaxed;  // set when the run failed
  GpResult relaxation;
  int relaxation_iterations = 0;
  int fallbacks = 0;  // runs (the model's and the relaxation's) given to Ipopt
};

/// Runs the form with only the variables free on both sides boxed (fast);
/// if that does not succeed (an iterate ran past the box, or anything else),
/// again with every open side boxed, which classifies unbounded models
/// exactly. A failed run then gets the feasibility relaxation; unless it
/// proves infeasibility by itself (proves_infeasible), Ipopt gets the model
/// after the native solver (automatic choice of back end).
inline CheckedRun run_checked(const lower::GpStandardForm& form, const SolveOptions& options, LazyIpopt& ipopt) {
  GpBackend gp(form, ipopt);
  const double box = options.bound_exponent * std::log(10.0);
  auto boxed_twice = [&](auto&& one_run) {
    auto r = one_run(false);
    if (!r.success() && !r.limit_hit()) {
      const int first_iterations = r.iterations;
      r = one_run(true);
      r.iterations += first_iterations;
    }
    return r;
  };
  // A warm start from a solution of a related GP with the same form shape.
  GpWarmStart warm;
  if (options.warm_start)
    if (const auto& p = SolutionBuilder::gp_point(*options.warm_start);
        p && int(p->y.size()) == form.n && int(p->lambda.size()) == form.constraint_count())
      warm = {p->y, p->lambda, p->z_lower, p->z_upper};
  CheckedRun out;
  auto& r = out.run;
  r = boxed_twice([&](bool box_all) { return gp.run(options, {.box = box, .box_all = box_all, .warm = warm}); });
  if (!r.success() && !r.limit_hit()) {
    out.relaxed = lower::relax(form);
    GpBackend relaxed_gp(*out.relaxed, ipopt, /*feasible_by_construction=*/true);
    out.relaxation = relaxed_gp.run(options, {.box = box, .box_all = true});
    out.relaxation_iterations = out.relaxation.iterations;
    if (out.relaxation.success() && !proves_infeasible(out.relaxation, form.n) &&
        gp.may_fall_back(r, options)) {
      const int before = r.iterations;
      r = boxed_twice([&](bool box_all) { return gp.fall_back(r, options, {.box = box, .box_all = box_all}); });
      r.iterations += before;
    }
    out.fallbacks += relaxed_gp.fallbacks();
  }
  out.fallbacks += gp.fallbacks();
  return out;
}

/// The variables on the artificial box: the objective wants them further.
inline bool report_unbounded(const Model& model, const lower::GpStandardForm& form, const GpResult& r, double box,
                             SolutionBuilder& b) {
  for (int j = 0; j < form.n; ++j) {
    const bool free_below = !std::isfinite(form.lower[j]), free_above = !std::isfinite(form.upper[j]);
    const double y = r.y[j];
    // Within a factor e of the box (10^+-100 by default): an interior-point
    // method stops where a weakly pushed variable's slack times its
    // multiplier meets the tolerance, which for a multiplier of 1e-6 is a
    // slack of about 1e-3 (a random GP's x2 stopped 2e-3 from the box).
    const double tol = 1.0;
    const bool at_low = free_below && y <= -box + tol && r.z_lower[j] > tolerances::inactive;
    const bool at_high = free_above && y >= box - tol && r.z_upper[j] > tolerances::inactive;
    if (!at_low && !at_high) continue;
    const std::string name = j < form.n_model ? model.registry().variables[j].name : "objective";
    b.unbounded().push_back({name, at_low});
  }
  return !b.unbounded().empty();
}

/// The optimum: point, objective (its own bound: a convex GP), the warm-start
/// point, and per constraint its sensitivity and whether it is tight.
inline void report_optimum(const Model& model, const lower::GpStandardForm& form, const GpResult& r,
                           SolutionBuilder& b) {
  const auto& vars = model.registry().variables;
  b.point().resize(vars.size());
  for (std::size_t j = 0; j < vars.size(); ++j) {
    b.point()[j] = std::exp(r.y[j]);
    b.variables()[j].value = b.point()[j];
  }
  const double obj = model.objective().evaluate(b.point());
  b.objective() = obj;
  b.has_point() = true;
  b.bound() = obj;  // a convex GP: the optimum is its own bound
  b.gap() = 0.0;
  b.method() = r.solver;
  b.gp_point() = std::make_shared<const ychart::detail::GpPoint>(ychart::detail::GpPoint{r.y, r.lambda, r.z_lower, r.z_upper});
  // Multipliers of the log-space rows are d log(obj)/d log(monomial side);
  // flip for maximisation and for constraints written `monomial >= posynomial`.
  const double sense_sign = model.sense() == Model::Sense::minimize ? 1.0 : -1.0;
  for (int i = 0; i < form.constraint_count(); ++i) {
    if (form.origin[i].kind != lower::Origin::user) continue;
    const std::size_t ci = form.origin[i].index;
    auto& rep = b.constraints()[ci];
    const double written = model.constraints()[ci].written_reversed() ? 1.0 : -1.0;
    rep.sensitivity = sense_sign * written * r.lambda[i];
    if (rep.sensitivity == 0.0) rep.sensitivity = 0.0;  // no negative zero in tables
    const double limit = form.kind[i] == lower::RowKind::expsum_le ? 1.0 : 0.0;
    rep.tight = form.kind[i] == lower::RowKind::linear_eq ||
                (form.kind[i] == lower::RowKind::expsum_le ? r.g[i] >= limit * (1.0 - tolerances::acceptable)
                                                           : r.g[i] >= limit - tolerances::acceptable);
  }
}

/// The relaxation factor each constraint and bound needs; returns the
/// message for `infeasible`.
inline std::string report_relaxation(const Model& model, const lower::GpStandardForm& form, const CheckedRun& c,
                                     SolutionBuilder& b) {
  const auto& vars = model.registry().variables;
  const auto& relaxed = *c.relaxed;
  const double report_tol = tolerances::acceptable;
  for (int i = 0; i < relaxed.constraint_count(); ++i) {
    const auto& o = relaxed.origin[i];
    // The slack of row i is the one column >= form.n in its first term.
    int slack = -1;
    for (auto it = lower::GpStandardForm::SparseRows::InnerIterator(relaxed.A, relaxed.first_term[i]); it; ++it)
      if (it.col() >= form.n) slack = it.col();
    const double factor = std::exp(c.relaxation.y[slack]);
    if (o.kind == lower::Origin::user) {
      b.constraints()[o.index].relaxation = std::max(b.constraints()[o.index].relaxation, factor);
    } else if ((o.kind == lower::Origin::variable_lower || o.kind == lower::Origin::variable_upper) &&
               factor > 1.0 + report_tol && o.index < vars.size()) {
      b.bound_relaxations().push_back({vars[o.index].name, o.kind == lower::Origin::variable_lower, factor});
    }
  }
  for (auto& con : b.constraints())
    if (con.relaxation <= 1.0 + report_tol) con.relaxation = 1.0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", std::exp(total_slack(c.relaxation, form.n)));
  return "the product of the smallest relaxation factors is " + std::string(buf);
}

}  // namespace detail

/// Solves `model`, a GP, and reports it; `start` is when Model::solve began
/// (the Solution's solve time counts from it).
inline Solution solve_gp_model(const Model& model, const SolveOptions& options, LazyIpopt& ipopt,
                               std::chrono::steady_clock::time_point start) {
  const auto form = lower::lower_gp(model);
  const auto checked = detail::run_checked(form, options, ipopt);
  const GpResult& r = checked.run;
  Solution s;
  SolutionBuilder b{s};
  solve::detail::describe_model(model, b);
  b.iterations() = r.iterations + checked.relaxation_iterations;
  b.gp_fallbacks() = checked.fallbacks;
  auto finish = [&](Status st, std::string msg) {
    b.status() = st;
    b.message() = std::move(msg);
    b.solve_time() = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
  };
  if (r.status == GpRunStatus::iteration_limit) return finish(Status::iteration_limit, r.message);
  if (r.status == GpRunStatus::time_limit) return finish(Status::time_limit, r.message);
  if (r.success()) {
    const double box = options.bound_exponent * std::log(10.0);
    if (detail::report_unbounded(model, form, r, box, b))
      return finish(Status::unbounded, "the objective approaches " +
                                           std::string(model.sense() == Model::Sense::minimize ? "0" : "infinity") +
                                           " as variables run to 0 or infinity");
    detail::report_optimum(model, form, r, b);
    return finish(Status::optimal, r.message);
  }
  // The solver did not succeed: the feasibility relaxation decides.
  if (!checked.relaxation.success())
    return finish(Status::numerical_error,
                  r.message + "; the feasibility relaxation also failed: " + checked.relaxation.message);
  const double slack = total_slack(checked.relaxation, form.n);  // log of the product of the slacks
  if (slack <= tolerances::acceptable)
    return finish(Status::numerical_error, r.message + ", but the model is feasible (relaxation needs no slack)");
  if (!proves_infeasible(checked.relaxation, form.n) &&
      !ipopt_found_infeasible(r))
    return finish(Status::numerical_error, r.message + "; " + undecided_relaxation(slack, "model"));
  return finish(Status::infeasible, detail::report_relaxation(model, form, checked, b));
}

}  // namespace ychart::solve::gp
