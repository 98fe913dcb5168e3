// ychart/solve/solve.hpp
// Model::solve(): lowers the model, runs Ipopt, and turns the outcome into a
// Solution with a status that can be trusted. An Ipopt failure is never
// reported as infeasible on Ipopt's word alone: the feasibility relaxation
// (product of slacks) is solved and decides between `infeasible`, with the
// constraints to relax, and `numerical_error`. An optimum that sits on the
// artificial box around log space means the model is unbounded.
#pragma once

#include "../lower/gp_standard_form.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"
#include "ipopt_gp.hpp"
#include "migp.hpp"
#include "symmetric_allocation.hpp"

#include <chrono>
#include <cmath>
#include <string>

namespace ychart {
namespace detail {

struct SolverCache {
  solve::IpoptRunner runner;
};
inline void destroy(SolverCache* c) { delete c; }

inline std::string ipopt_status_text(Ipopt::ApplicationReturnStatus s) {
  switch (s) {
    case Ipopt::Solve_Succeeded: return "solved";
    case Ipopt::Solved_To_Acceptable_Level: return "solved to acceptable level";
    case Ipopt::Infeasible_Problem_Detected: return "Ipopt detected infeasibility";
    case Ipopt::Search_Direction_Becomes_Too_Small: return "search direction became too small";
    case Ipopt::Diverging_Iterates: return "iterates diverged";
    case Ipopt::User_Requested_Stop: return "stopped";
    case Ipopt::Feasible_Point_Found: return "feasible point found";
    case Ipopt::Maximum_Iterations_Exceeded: return "iteration limit reached";
    case Ipopt::Restoration_Failed: return "Ipopt restoration phase failed";
    case Ipopt::Error_In_Step_Computation: return "error in step computation";
    case Ipopt::Maximum_CpuTime_Exceeded: return "time limit reached";
    case Ipopt::Not_Enough_Degrees_Of_Freedom: return "more independent equalities than variables";
    case Ipopt::Invalid_Problem_Definition: return "invalid problem definition";
    case Ipopt::Invalid_Option: return "invalid option";
    case Ipopt::Invalid_Number_Detected: return "invalid number (NaN or infinity) in evaluation";
    default: return "Ipopt internal error " + std::to_string(int(s));
  }
}

inline bool is_success(Ipopt::ApplicationReturnStatus s) {
  return s == Ipopt::Solve_Succeeded || s == Ipopt::Solved_To_Acceptable_Level;
}

}  // namespace detail

inline Solution Model::solve(const SolveOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  if (!cache_) cache_.reset(new detail::SolverCache);
  if (options.method == Method::automatic && !symmetries_.empty())
    if (const auto structure = detail::find_symmetric_structure(*this)) {
      auto solution = detail::solve_symmetric_allocation(*this, *structure, options);
      // The decomposition's packing can miss a row the structure check let
      // through (a spreading variable bounded by another row); it then says
      // numerical_error rather than answer wrongly, and the general methods,
      // which ignore the symmetry, still solve the model exactly.
      if (solution.status() != Status::numerical_error) return solution;
      return detail::solve_mixed_integer(*this, options, cache_->runner);
    }
  if (detail::needs_migp(*this)) return detail::solve_mixed_integer(*this, options, cache_->runner);
  const auto form = lower::lower_gp(*this);
  const solve::GpDerivativeMaps maps(form);
  const double box = options.bound_exponent * std::log(10.0);
  // Fast path: only variables free on both sides are boxed. If Ipopt does not
  // succeed there (an iterate ran past the box, or anything else), solve again
  // with every open side boxed, which classifies unbounded models exactly.
  auto r = cache_->runner.run(form, maps, options, box, false);
  const bool limit_hit =
      r.status == Ipopt::Maximum_Iterations_Exceeded || r.status == Ipopt::Maximum_CpuTime_Exceeded;
  if (!detail::is_success(r.status) && !limit_hit) {
    const int first_iterations = r.iterations;
    r = cache_->runner.run(form, maps, options, box, true);
    r.iterations += first_iterations;
  }

  Solution s;
  SolutionBuilder b{s};
  b.model_id() = registry_.get();
  b.objective_dimension() = objective_unit_;
  b.iterations() = r.iterations;
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

  if (r.status == Ipopt::Maximum_Iterations_Exceeded)
    return finish(Status::iteration_limit, detail::ipopt_status_text(r.status));
  if (r.status == Ipopt::Maximum_CpuTime_Exceeded)
    return finish(Status::time_limit, detail::ipopt_status_text(r.status));

  if (detail::is_success(r.status)) {
    // An optimum on the artificial box: the objective wants to go further.
    for (int j = 0; j < form.n; ++j) {
      const bool free_below = !std::isfinite(form.lower[j]), free_above = !std::isfinite(form.upper[j]);
      const double y = r.y[j];
      const double tol = 1e-3;
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
    std::string msg = r.status == Ipopt::Solve_Succeeded ? "" : detail::ipopt_status_text(r.status);
    return finish(Status::optimal, msg);
  }

  // Ipopt did not succeed: the feasibility relaxation decides what happened.
  const auto relaxed = lower::relax(form);
  const solve::GpDerivativeMaps relaxed_maps(relaxed);
  auto rr = cache_->runner.run(relaxed, relaxed_maps, options, box, true);
  b.iterations() += rr.iterations;
  if (!detail::is_success(rr.status))
    return finish(Status::numerical_error, detail::ipopt_status_text(r.status) +
                                               "; the feasibility relaxation also failed: " +
                                               detail::ipopt_status_text(rr.status));
  double total = 0.0;
  for (int k = form.n; k < relaxed.n; ++k) total += rr.y[k];
  if (total <= 1e-6)
    return finish(Status::numerical_error,
                  detail::ipopt_status_text(r.status) + ", but the model is feasible (relaxation needs no slack)");
  const double report_tol = 1e-6;
  for (int i = 0; i < relaxed.constraint_count(); ++i) {
    const auto& o = relaxed.origin[i];
    // The slack of row i is the one column >= form.n in its first term.
    int slack = -1;
    for (auto it = lower::GpStandardForm::SparseRows::InnerIterator(relaxed.A, relaxed.first_term[i]); it; ++it)
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
  std::snprintf(buf, sizeof buf, "%.6g", std::exp(total));
  return finish(Status::infeasible, "the product of the smallest relaxation factors is " + std::string(buf));
}

}  // namespace ychart
