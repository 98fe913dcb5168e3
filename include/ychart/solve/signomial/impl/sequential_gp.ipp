// ychart/solve/signomial/impl/sequential_gp.ipp
// Sequential GP for a SignomialModel: the implementation of
// SignomialModel::solve (declared in model/signomial_model.hpp, included by
// solve/signomial/sequential_gp.hpp when header-only).
//
//   start    the values the user gave (SignomialModel::start), the others
//            from the GP relaxation: signomial inequalities dropped, each
//            equality kept in the direction that is GP (`c_f + c_g <= 16`).
//            An infeasible relaxation proves the model infeasible.
//   phase 1  when the start violates a signomial constraint: every
//            condensed constraint gets a slack s >= 1 (equalities two), and
//            the GPs minimise the sum of the slacks until they are all 1
//            (a penalty convex-concave procedure). If they stop above 1, the
//            status is `no_feasible_point_found`.
//   phase 2  at the current point x_k, each inequality `P <= N` becomes
//            `P <= N^(x_k)`: N condensed into the monomial that equals it at
//            x_k and lies below it elsewhere (the arithmetic-geometric mean
//            inequality), so every iterate stays feasible and the objective
//            cannot rise. Each equality `P == N` becomes `P^(x_k) == N^(x_k)`,
//            its linearisation in log space (condensing both sides and
//            keeping `P <= N^` and `N <= P^` would pin the ratios of the
//            terms to those at x_k: a split could never move). A trust
//            region keeps every positive variable within a factor of x_k; it
//            shrinks when an equality's residual grows. Converged when the
//            point stops moving and the equalities hold: `local_optimum`.
//
//   polish   with SpOptions::polish, once the GP steps converge slowly
//            (three steps each more than half the one before) or nearly stop
//            changing the objective, Ipopt solves the exact signomial program
//            in log space from the current point (solve/signomial/ipopt_sp.hpp). The
//            GP steps converge linearly, and slowly where two terms of an
//            equality cost almost the same; Newton's method does not. A
//            polished point is kept only if it is feasible and no worse, and
//            the GP steps then resume from it to confirm it as a fixed point.
//
// Why our own: GPkit's SP solver is Python; the loop is short, and its GPs
// run on ychart's own back ends with warm starts.
#pragma once

#include "../../../config.hpp"
#include "../../../model/detail/model_editor.hpp"
#include "../../../model/signomial_model.hpp"
#include "../../../model/tolerances.hpp"
#include "../../../result/solution.hpp"
#include "../ipopt_sp.hpp"
#include "../../solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ychart::solve::signomial::detail {

/// The monomial that equals the posynomial `p` at `x` (values in the
/// variables' units) and lies below it everywhere (AM-GM): in log space,
/// the tangent of log p at log x.
inline ychart::detail::TermList condense(const ychart::detail::TermList& p, const std::vector<double>& x) {
  std::vector<double> u(p.size());
  double total = 0.0;
  for (std::size_t k = 0; k < p.size(); ++k) {
    double t = p.coefficient(k);
    for (const auto& f : p.factors(k)) t *= std::pow(x[f.var], f.exponent);
    u[k] = t;
    total += t;
  }
  std::map<std::uint32_t, double> exponent;
  double log_coefficient = 0.0;
  for (std::size_t k = 0; k < p.size(); ++k) {
    const double weight = u[k] / total;
    if (!(weight > 0)) continue;
    log_coefficient += weight * (std::log(p.coefficient(k)) - std::log(weight));
    for (const auto& f : p.factors(k)) exponent[f.var] += weight * f.exponent;
  }
  std::vector<ychart::detail::Factor> factors;
  for (const auto& [var, e] : exponent)
    if (e != 0.0) factors.push_back({var, e});
  ychart::detail::TermList out;
  out.push_term(std::exp(log_coefficient), factors);
  return out;
}

/// log P(x) - log N(x) of a signomial constraint (P, N > 0 at x).
inline double log_residual(const SignomialConstraint& c, const std::vector<double>& x) {
  const double p = c.positive().evaluate(x), n = c.negative().evaluate(x);
  if (c.positive().empty()) return -std::numeric_limits<double>::infinity();
  return std::log(p) - std::log(n);
}

/// How far x is from satisfying the signomial constraints: the largest log
/// violation (0 when all hold).
inline double signomial_violation(const std::vector<SignomialConstraint>& cs, const std::vector<double>& x) {
  double worst = 0.0;
  for (const auto& c : cs) {
    const double r = log_residual(c, x);
    worst = std::max(worst, c.sense() == Constraint::Sense::equal ? std::abs(r) : r);
  }
  return worst;
}

class SequentialGp {
  /// A relative change of the objective after an Ipopt polish at or below
  /// this ends the iteration.
  static constexpr double polish_settled = 1e-7;

 public:
  SequentialGp(const SignomialModel& model, const SolveOptions& options, const SpOptions& sp)
      : model_(model), options_(options), sp_(sp), start_(std::chrono::steady_clock::now()) {}

  Solution run() {
    const auto& vars = model_.registry().variables;
    n_ = vars.size();
    // 1. The GP relaxation: a superset of the feasible set.
    // Only a start and an infeasibility test: a looser tolerance spares the
    // interior point its last, slowest digits (on study 000's VGG16 the
    // native method stalls at a gap of 1e-5 and hands over to Ipopt, 100 ms).
    Solution relaxed = solve_gp(build(Phase::relaxation, {}, 0.0), nullptr, std::max(options_.tolerance, 1e-5));
    gp_solves_ = 1;
    if (relaxed.status() == Status::infeasible)
      return finish(std::move(relaxed), Status::infeasible,
                    "the GP relaxation (signomial inequalities dropped, equalities kept where GP) is infeasible, "
                    "so the signomial model is");
    if (relaxed.status() == Status::time_limit) return finish(std::move(relaxed), Status::time_limit, "time limit");
    std::vector<double> x(n_, 1.0);
    if (relaxed.status() == Status::optimal) x = point_of(relaxed);
    for (std::size_t j = 0; j < n_; ++j) {
      if (j < model_.start_values().size() && std::isfinite(model_.start_values()[j])) x[j] = model_.start_values()[j];
      if (vars[j].kind == ychart::detail::VariableKind::positive) {
        if (!(x[j] > 0) || !std::isfinite(x[j])) x[j] = 1.0;
        x[j] = std::clamp(x[j], std::max(vars[j].lower, tolerances::tiny), vars[j].upper);
      } else if (vars[j].kind == ychart::detail::VariableKind::real) {
        if (!std::isfinite(x[j])) x[j] = std::clamp(0.0, vars[j].lower, vars[j].upper);
      }
    }

    // 2. Phase 1, when a signomial inequality (or an equality, far off) fails.
    std::optional<Solution> last;
    if (inequality_violation(x) > sp_.feasibility_tolerance) {
      log("feasibility phase: largest log violation %.3g", signomial_violation(model_.signomial_constraints(), x));
      double trust = sp_.trust_region;
      for (int it = 0;; ++it) {
        if (it >= sp_.max_feasibility_iterations)
          return finish(std::move(*last_or(last, relaxed)), Status::no_feasible_point_found,
                        "the feasibility phase reached its iteration limit (" +
                            std::to_string(sp_.max_feasibility_iterations) + " GPs) without a feasible point");
        if (remaining() <= 0) return finish(std::move(*last_or(last, relaxed)), Status::time_limit, "time limit");
        Solution s = solve_with_trust(Phase::feasibility, x, trust, last ? &*last : nullptr);
        if (!s.has_values())
          return finish(std::move(s), Status::numerical_error,
                        "a feasibility-phase GP failed: " + std::string(to_string(s.status())) + " " + s.message());
        const auto y = point_of(s);
        const double slack = slack_excess(s);
        const double step = log_step(x, y);
        x = y;
        log("feasibility %3d: slack excess %.3e, step %.3e", it + 1, slack, step);
        last = std::move(s);
        if (slack <= sp_.feasibility_tolerance && inequality_violation(x) <= sp_.feasibility_tolerance) break;
        if (step <= sp_.step_tolerance)
          return finish(std::move(*last), Status::no_feasible_point_found,
                        "the feasibility phase stopped at a point that violates a signomial constraint (largest "
                        "log violation " + format(signomial_violation(model_.signomial_constraints(), x)) +
                            "); the model may be infeasible, or a start nearer a feasible point may help");
      }
    }

    // 3. Phase 2: inner approximations of the inequalities, linearised equalities.
    double trust = sp_.trust_region;
    double residual = equality_residual(x);
    std::optional<Solution> previous;  // same structure: a warm start
    double objective = std::numeric_limits<double>::quiet_NaN();
    bool polished = false, polish_kept = false;
    int slow_steps = 0;
    double last_step = std::numeric_limits<double>::infinity();
    for (int it = 0;; ++it) {
      if (it >= sp_.max_iterations) {
        if (!previous) return finish(std::move(*last_or(last, relaxed)), Status::iteration_limit, "iteration limit");
        return finish(std::move(*previous), Status::iteration_limit,
                      "sequential GP reached its iteration limit (" + std::to_string(sp_.max_iterations) +
                          " GPs) before the point settled; the values are its last iterate" +
                          (sp_.polish ? std::string()
                                      : std::string(" (SpOptions::polish = true finishes slow GP steps with Ipopt)")));
      }
      if (remaining() <= 0) {
        if (!previous) return finish(std::move(*last_or(last, relaxed)), Status::time_limit, "time limit");
        return finish(std::move(*previous), Status::time_limit, "time limit; the values are the last iterate");
      }
      Solution s = solve_with_trust(Phase::main, x, trust, previous ? &*previous : nullptr);
      if (s.status() == Status::infeasible) {
        // The linearised equalities have no common point with the rest at this
        // x (a start far from the equality surface): slack steps until the
        // slacks are all 1, then the main phase again.
        std::optional<Solution> step_back;
        for (int k = 0; k < sp_.max_feasibility_iterations && remaining() > 0; ++k) {
          // No trust region here: the slacks absorb a poor linearisation, and
          // a start far off (every share at its bound) needs long steps.
          Solution f = solve_gp(build(Phase::feasibility, x, std::numeric_limits<double>::infinity()),
                                step_back ? &*step_back : nullptr);
          if (!f.has_values()) break;
          const auto y = point_of(f);
          const double excess = slack_excess(f);
          log("sgp %3d: infeasible at this linearisation; feasibility step %.3e, slack excess %.3e", it + 1,
              log_step(x, y), excess);
          x = y;
          step_back = std::move(f);
          if (excess <= sp_.feasibility_tolerance) break;
        }
        if (step_back) {
          residual = equality_residual(x);
          previous.reset();  // the feasibility GP has other variables: no warm start from it
          continue;
        }
      }
      if (!s.has_values() || s.status() != Status::optimal) {
        const Status st = s.status() == Status::time_limit ? Status::time_limit : Status::numerical_error;
        return finish(previous ? std::move(*previous) : std::move(s), st,
                      "a sequential-GP subproblem ended " + std::string(to_string(s.status())) + ": " + s.message());
      }
      const auto y = point_of(s);
      std::size_t mover = 0;
      const double step = log_step(x, y, &mover);
      const double new_residual = equality_residual(y);
      const double change = std::isnan(objective) ? std::numeric_limits<double>::infinity()
                                                  : std::abs(s.objective() - objective);
      log("sgp %3d: objective %-14.8g step %.3e (%s) equality residual %.3e trust %.3g", it + 1, s.objective(), step,
          model_.registry().variables[mover].name.c_str(), new_residual, trust);
      // An equality drifting away: the linearisation is poor at this range.
      if (new_residual > std::max(residual, sp_.feasibility_tolerance) && trust > 1.0001) trust = std::sqrt(trust);
      x = y;
      residual = new_residual;
      // After a polish, the GP steps only confirm Ipopt's point: they end once
      // the objective no longer changes (variables at a bound still move a
      // little in log space as the interior point approaches the bound).
      const bool settled = step <= sp_.step_tolerance ||
                           (sp_.objective_tolerance > 0 &&
                            change <= sp_.objective_tolerance * std::max(std::abs(s.objective()), tolerances::tiny)) ||
                           (polish_kept && change <= polish_settled * std::max(std::abs(s.objective()), tolerances::tiny));
      objective = s.objective();
      previous = std::move(s);
      // Linear convergence: the step shrank by less than half, three times running.
      slow_steps = step > 0.5 * last_step ? slow_steps + 1 : 0;
      last_step = step;
      const bool slowing = slow_steps >= 3 || (std::isfinite(change) &&
                                               change <= sp_.polish_after * std::max(std::abs(objective), tolerances::tiny));
      if (sp_.polish && !polished && !settled && slowing && residual <= 1e-2) {
        polished = true;
        if (auto p = polish(x)) {
          polish_kept = true;
          x = std::move(*p);
          objective = model_.objective().evaluate(x);  // the confirming GP compares with the polished point
          residual = equality_residual(x);
          continue;
        }
      }
      if (settled && residual <= sp_.feasibility_tolerance && inequality_violation(x) <= sp_.feasibility_tolerance)
        return finish(std::move(*previous), Status::local_optimum,
                      "a KKT point of the signomial model (sequential GP, " + std::to_string(gp_solves_) +
                          " GP solves); no global claim");
    }
  }

 private:
  enum class Phase { relaxation, feasibility, main };

  static std::string format(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
  }

  template <class... A>
  void log(const char* fmt, A... args) const {
    if (options_.verbosity < 1) return;
    std::fprintf(stderr, "ychart sequential GP: ");
    std::fprintf(stderr, fmt, args...);
    std::fprintf(stderr, "\n");
  }

  double remaining() const {
    return options_.time_limit - std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  static Solution* last_or(std::optional<Solution>& last, Solution& fallback) { return last ? &*last : &fallback; }

  std::vector<double> point_of(Solution& s) const {
    SolutionBuilder b{s};
    std::vector<double> y(b.point().begin(), b.point().begin() + static_cast<std::ptrdiff_t>(n_));
    return y;
  }

  /// The largest move (log space for positive variables), and which variable made it.
  double log_step(const std::vector<double>& x, const std::vector<double>& y, std::size_t* mover = nullptr) const {
    const auto& vars = model_.registry().variables;
    double step = 0.0;
    for (std::size_t j = 0; j < n_; ++j) {
      double d = 0.0;
      if (vars[j].kind == ychart::detail::VariableKind::positive && x[j] > 0 && y[j] > 0)
        d = std::abs(std::log(y[j]) - std::log(x[j]));
      else if (vars[j].kind == ychart::detail::VariableKind::real)
        d = std::abs(y[j] - x[j]) / std::max(1.0, std::abs(x[j]));
      if (d > step) {
        step = d;
        if (mover) *mover = j;
      }
    }
    return step;
  }

  double inequality_violation(const std::vector<double>& x) const {
    double worst = 0.0;
    for (const auto& c : model_.signomial_constraints())
      if (c.sense() == Constraint::Sense::less_equal) worst = std::max(worst, log_residual(c, x));
    return worst;
  }
  double equality_residual(const std::vector<double>& x) const {
    double worst = 0.0;
    for (const auto& c : model_.signomial_constraints())
      if (c.sense() == Constraint::Sense::equal) worst = std::max(worst, std::abs(log_residual(c, x)));
    return worst;
  }

  // The feasibility phase's slacks sit at indices n_ and up.
  double slack_excess(Solution& s) const {
    SolutionBuilder b{s};
    double excess = 0.0;
    for (std::size_t j = n_; j < b.point().size(); ++j) excess = std::max(excess, b.point()[j] - 1.0);
    return excess;
  }

  /// The GP of one step (or the relaxation), at x.
  Model build(Phase phase, const std::vector<double>& x, double trust) const {
    Model g = ychart::detail::ModelEditor::copy_of(model_.gp_part());
    ychart::detail::Registry& reg = ychart::detail::ModelEditor::registry(g);
    if (phase != Phase::relaxation && trust > 0 && std::isfinite(trust)) {
      for (std::size_t j = 0; j < n_; ++j) {
        auto& v = reg.variables[j];
        if (v.kind != ychart::detail::VariableKind::positive || v.auxiliary || !(x[j] > 0)) continue;
        v.lower = std::max(v.lower, x[j] / trust);
        v.upper = std::min(v.upper, x[j] * trust);
        if (v.lower > v.upper) v.lower = v.upper;  // x outside its bounds (a user start): the bound wins
      }
    }
    ychart::detail::TermList slacks;
    auto new_slack = [&](const std::string& name) {
      const auto index = reg.add(ychart::detail::make_record("slack(" + name + ")", "", 1.0, std::numeric_limits<double>::infinity(),
                                             1.0, ychart::detail::VariableKind::positive, /*auxiliary=*/true));
      slacks.append(ychart::detail::TermList::variable(index, 1.0));
      return ychart::detail::TermList::variable(index, 1.0);
    };
    for (const auto& c : model_.signomial_constraints()) {
      const std::string& name = c.name();
      if (phase == Phase::relaxation) {
        // Keep what is GP: `P <= monomial` (an equality with a monomial side).
        if (c.sense() == Constraint::Sense::equal) {
          if (c.negative().size() == 1)
            ychart::detail::ModelEditor::add_constraint(g, Constraint(&reg, c.positive(), c.negative(), Constraint::Sense::less_equal,
                                                      false).named(name + " (relaxed to <=)"));
          else if (c.positive().size() == 1)
            ychart::detail::ModelEditor::add_constraint(g, Constraint(&reg, c.negative(), c.positive(), Constraint::Sense::less_equal,
                                                      false).named(name + " (relaxed to >=)"));
        }
        continue;
      }
      if (c.sense() == Constraint::Sense::less_equal) {
        ychart::detail::TermList larger = condense(c.negative(), x);
        if (phase == Phase::feasibility) larger = ychart::detail::TermList::product(larger, new_slack(name));
        ychart::detail::ModelEditor::add_constraint(
            g, Constraint(&reg, c.positive(), std::move(larger), Constraint::Sense::less_equal, false)
                   .named(name + " (condensed)"));
      } else {
        ychart::detail::TermList left = condense(c.positive(), x), right = condense(c.negative(), x);
        if (phase == Phase::feasibility) {
          // P^ == N^ s+ / s-: both slacks >= 1, so either side may give.
          right = ychart::detail::TermList::product(right, new_slack(name + " +"));
          left = ychart::detail::TermList::product(left, new_slack(name + " -"));
        }
        ychart::detail::ModelEditor::add_constraint(g, Constraint(&reg, std::move(left), std::move(right), Constraint::Sense::equal,
                                                  false).named(name + " (linearised)"));
      }
    }
    if (phase == Phase::feasibility) ychart::detail::ModelEditor::set_objective(g, std::move(slacks), "");
    else ychart::detail::ModelEditor::set_objective(g, model_.gp_part());
    return g;
  }

  Solution solve_gp(Model g, const Solution* warm, double tolerance = 0.0) {
    SolveOptions o = options_;
    if (tolerance > 0) o.tolerance = tolerance;
    o.verbosity = std::max(0, options_.verbosity - 1);
    o.time_limit = std::max(1e-3, remaining());
    o.warm_start = warm;
    ++gp_solves_;
    Solution s = g.solve(o);
    gp_fallbacks_ += s.gp_fallbacks();
    return s;
  }

  /// One step's GP; without the trust region when it makes the GP infeasible.
  Solution solve_with_trust(Phase phase, const std::vector<double>& x, double trust, const Solution* warm) {
    Solution s = solve_gp(build(phase, x, trust), warm);
    if (s.status() == Status::infeasible && std::isfinite(trust))
      s = solve_gp(build(phase, x, std::numeric_limits<double>::infinity()), nullptr);
    return s;
  }

  Solution finish(Solution s, Status status, const std::string& message) {
    SolutionBuilder b{s};
    b.status() = status;
    b.message() = message;
    b.method() = "sequential GP";
    b.iterations() = gp_solves_;
    b.gp_fallbacks() = gp_fallbacks_;
    b.model_id() = &model_.registry();
    b.solve_time() = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    // Slack variables of the feasibility phase are not the model's.
    if (b.point().size() > n_) b.point().resize(n_);
    if (b.variables().size() > n_) b.variables().resize(n_);
    if (status == Status::infeasible) b.has_point() = false;
    // A local method proves no bound.
    b.bound() = std::numeric_limits<double>::quiet_NaN();
    b.gap() = std::numeric_limits<double>::quiet_NaN();
    return s;
  }

  /// Ipopt on the exact program in log space, from x; the point if it is
  /// feasible and no worse than x, else nothing (and a log line saying why).
  std::optional<std::vector<double>> polish(const std::vector<double>& x) {
    const auto& vars = model_.registry().variables;
    for (const auto& v : vars)
      if (v.kind != ychart::detail::VariableKind::positive) {
        log("polish skipped: the model has a variable that is not positive (`%s`)", v.name.c_str());
        return std::nullopt;
      }
    if (model_.sense() != Model::Sense::minimize || !model_.objective_affine().empty()) {
      log("%s", "polish skipped: it minimises a posynomial objective only");
      return std::nullopt;
    }
    LogSpaceProgram p;
    p.lower.resize(n_), p.upper.resize(n_);
    for (std::size_t j = 0; j < n_; ++j) {
      p.lower[j] = vars[j].lower > 0 ? std::log(vars[j].lower) : -std::numeric_limits<double>::infinity();
      p.upper[j] = std::log(vars[j].upper);
    }
    const double f0 = model_.objective().evaluate(x);
    p.objective = model_.objective();
    p.objective.scale(1.0 / std::max(std::abs(f0), tolerances::tiny));
    auto difference = [&](const ychart::detail::TermList& smaller, const ychart::detail::TermList& larger) {
      ychart::detail::TermList row = smaller;
      ychart::detail::TermList minus = larger;
      minus.scale(-1.0);
      row.append(minus);
      const double size = std::max({std::abs(smaller.evaluate(x)), std::abs(larger.evaluate(x)), tolerances::tiny});
      row.scale(1.0 / size);
      return row;
    };
    for (const auto& c : model_.gp_part().constraints()) {
      const bool equality = c.sense() == Constraint::Sense::equal;
      if (c.form() == Constraint::Form::gp && c.monomial().size() == 1) {
        ychart::detail::TermList row = ychart::detail::TermList::product(c.posynomial(), c.monomial().power(-1.0));
        row.append(ychart::detail::TermList::constant(-1.0));
        p.rows.push_back({std::move(row), equality});
      } else {
        p.rows.push_back({difference(c.smaller(), c.larger()), equality});
      }
    }
    for (const auto& c : model_.signomial_constraints())
      p.rows.push_back({difference(c.positive(), c.negative()), c.sense() == Constraint::Sense::equal});
    SolveOptions o = options_;
    o.time_limit = std::max(1e-3, remaining());
    auto r = solve_log_space(p, x, o);
    if (!r.success || r.x.size() != n_) {
      log("polish: Ipopt ended `%s`; the GP steps go on", r.message.c_str());
      return std::nullopt;
    }
    const double f1 = model_.objective().evaluate(r.x);
    double gp_violation = 0.0;
    for (const auto& c : model_.gp_part().constraints()) {
      const double smaller = c.smaller().evaluate(r.x), larger = c.larger().evaluate(r.x);
      const double excess = (smaller - larger) / std::max({std::abs(larger), std::abs(smaller), tolerances::tiny});
      gp_violation = std::max(gp_violation, c.sense() == Constraint::Sense::equal ? std::abs(excess) : excess);
    }
    const double tol = sp_.feasibility_tolerance;
    if (!(gp_violation <= tol && inequality_violation(r.x) <= tol && equality_residual(r.x) <= tol &&
          f1 <= f0 * (1 + tolerances::roundoff) + tolerances::tiny)) {
      log("polish: Ipopt's point (objective %.10g) is infeasible or worse (violation %.2e); kept the GP steps", f1,
          std::max({gp_violation, inequality_violation(r.x), equality_residual(r.x)}));
      return std::nullopt;
    }
    log("polish: Ipopt, %d iterations: objective %.10g -> %.10g", r.iterations, f0, f1);
    return std::move(r.x);
  }

  const SignomialModel& model_;
  SolveOptions options_;
  SpOptions sp_;
  std::chrono::steady_clock::time_point start_;
  std::size_t n_ = 0;
  int gp_solves_ = 0;
  int gp_fallbacks_ = 0;
};

}  // namespace ychart::solve::signomial::detail

namespace ychart {

YCHART_DECL Solution SignomialModel::solve(const SolveOptions& options, const SpOptions& sp) {
  if (!(sp.trust_region > 1.0) || sp.max_iterations < 1 || sp.max_feasibility_iterations < 1 ||
      !(sp.step_tolerance > 0) || !(sp.feasibility_tolerance > 0) || !(sp.objective_tolerance >= 0))
    throw model_error("ychart: SpOptions: trust_region must exceed 1, the iteration limits must be >= 1 and the "
                      "tolerances positive");
  if (signomial_.empty()) {  // every constraint is GP: a proof is possible
    Solution s = Model::solve(options);
    return s;
  }
  return solve::signomial::detail::SequentialGp(*this, options, sp).run();
}

}  // namespace ychart
