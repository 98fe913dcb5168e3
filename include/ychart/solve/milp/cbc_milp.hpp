// ychart/solve/milp/cbc_milp.hpp
// A mixed-integer linear program solved with COIN-OR CBC's branch and cut,
// the second MILP back end beside GLPK. CBC's root cuts and heuristics
// prove models GLPK's branch and bound does not close (study 003's class at
// 1000 tasks: docs/performance.md). Same form, options and result as
// glpk_milp.hpp, and the same rules: `optimal` only when CBC proved it (or
// stopped within the requested gap), `time_limit` with incumbent, bound and
// gap, `infeasible`, `unbounded`.
#pragma once

#include "milp_form.hpp"

#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

namespace ychart::solve::milp {

namespace detail {

// CBC's driver (CbcMain0/CbcMain1) keeps process-wide state (its signal
// handler's model, its parameter tables' defaults), so solves from several
// threads (a sweep's workers) take turns.
inline std::mutex& cbc_driver_mutex() {
  static std::mutex m;
  return m;
}

inline int cbc_no_callback(CbcModel*, int) { return 0; }

/// The form as Clp's column-major arrays, minimised (a maximisation is
/// negated, so that bounds read the same way for both senses).
inline void load_cbc(OsiClpSolverInterface& solver, const MilpForm& f, bool zero_objective) {
  const Eigen::SparseMatrix<double, Eigen::ColMajor, int> by_column = f.A;
  const double inf = solver.getInfinity();
  auto finite_or = [inf](double v) { return std::isfinite(v) ? v : (v > 0 ? inf : -inf); };
  std::vector<double> lower(f.n), upper(f.n), cost(f.n, 0.0), row_lower(f.A.rows()), row_upper(f.A.rows());
  for (int j = 0; j < f.n; ++j) {
    lower[j] = finite_or(f.lower[j]);
    upper[j] = finite_or(f.upper[j]);
    if (!zero_objective) cost[j] = f.maximize ? -f.c[j] : f.c[j];
  }
  for (int i = 0; i < f.A.rows(); ++i) {
    row_lower[i] = finite_or(f.row_lower[i]);
    row_upper[i] = finite_or(f.row_upper[i]);
  }
  std::vector<CoinBigIndex> starts(by_column.outerIndexPtr(), by_column.outerIndexPtr() + f.n + 1);
  solver.loadProblem(f.n, static_cast<int>(f.A.rows()), starts.data(), by_column.innerIndexPtr(),
                     by_column.valuePtr(), lower.data(), upper.data(), cost.data(), row_lower.data(),
                     row_upper.data());
  for (int j = 0; j < f.n; ++j)
    if (f.integer[j]) solver.setInteger(j);
}

/// CBC's command-line driver on the loaded model, with the options chosen
/// by measurement: dual simplex with presolve for the root LP (Clp's default
/// initial solve took 5 s on a flow model the dual simplex solves in 0.2 s)
/// and CBC's integer preprocessing off (it cost more than it saved on study
/// 003's models). `seconds_left` is what is left of the caller's limit.
///
/// CBC counts it in wall-clock time ("-timeMode elapsed"), as GLPK does.
/// Its LP solver (Clp) counts the process's CPU time whatever the mode, so
/// beside busy threads an LP can stop halfway before the search's limit:
/// solve_cbc trusts no run that passed the limit on either clock. (With
/// "-timeMode cpu" the statuses agreed more often, but on a loaded machine,
/// where the process gets little CPU, a 1 s limit took 10-16 s of wall
/// time.)
inline void run_cbc(CbcModel& model, const MilpOptions& o, double seconds_left) {
  CbcSolverUsefulData data;
  data.noPrinting_ = !(o.verbose || o.progress);
  data.useSignalHandler_ = false;
  CbcMain0(model, data);
  const std::string seconds = std::to_string(std::clamp(seconds_left, 1e-3, 1e12));
  const std::string gap = std::to_string(std::max(o.relative_gap, 0.0));
  const char* log = o.verbose || o.progress ? "1" : "0";
  std::vector<const char*> args{"ychart", "-log", log, "-slog", log, "-timeMode", "elapsed", "-seconds", seconds.c_str(),
                                "-ratioGap", gap.c_str(), "-preprocess", "off"};
  // CBC's own cut settings (each generator "ifmove": kept where it moves the
  // bound); "-cuts on" would force every generator at every node.
  if (!o.cuts) args.insert(args.end(), {"-cuts", "off"});
  args.insert(args.end(), {"-dualSimplex", "-solve", "-quit"});
  CbcMain1(static_cast<int>(args.size()), args.data(), model, &cbc_no_callback, data);
}

struct CbcOutcome {
  bool optimal = false, within_gap = false, infeasible = false, unbounded = false, time_limit = false,
       abandoned = false;
  std::vector<double> x;  // incumbent, in the form's sense; empty when none
  double bound = 0.0;
};

/// The objective's best value over the variables' box alone (rows ignored):
/// a bound that needs no LP, in the form's sense; infinite where a column
/// the objective improves along is unbounded.
inline double box_bound(const MilpForm& f) {
  const double inf = std::numeric_limits<double>::infinity();
  double bound = f.c0;
  for (int j = 0; j < f.n; ++j) {
    const double c = f.maximize ? -f.c[j] : f.c[j];  // minimised
    if (c == 0.0) continue;
    const double best_end = c > 0 ? f.lower[j] : f.upper[j];
    if (!std::isfinite(best_end)) return f.maximize ? inf : -inf;
    bound += f.c[j] * best_end;
  }
  return bound;
}

inline CbcOutcome solve_cbc(const MilpForm& f, const MilpOptions& o, bool zero_objective) {
  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  load_cbc(solver, f, zero_objective);
  CbcModel model(solver);
  model.messageHandler()->setLogLevel(0);
  // The time spent waiting for another thread's CBC run counts against the limit.
  const auto waiting = std::chrono::steady_clock::now();
  std::lock_guard lock(cbc_driver_mutex());
  const auto started = std::chrono::steady_clock::now();
  const std::clock_t cpu_started = std::clock();  // the process's CPU time, as Clp counts it
  const double seconds_left = o.time_limit - std::chrono::duration<double>(started - waiting).count();
  run_cbc(model, o, seconds_left);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const double cpu = static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;
  CbcOutcome out;
  const double sign = f.maximize && !zero_objective ? -1.0 : 1.0;
  if (const double* best = model.bestSolution(); best && model.getSolutionCount() > 0) out.x.assign(best, best + f.n);
  // Once either clock has passed the limit, some LP of the run may have been
  // stopped halfway, and CBC reads such an LP as what it was computing, not
  // as a stop: an interrupted LP's objective as the bound (3.6e11 s, and
  // 1.64e-3 s, on a model whose root LP bound is 1.107e-3 s: study 001
  // chapter 4's bound model of ResNet-16 on 5 FPGAs at a 55 % cap, at limits
  // of 0.3-0.8 s), an infeasible node or root (that model and others like it
  // "proven infeasible" with 0 or 2 nodes, beside a busy thread, whose CPU
  // time Clp counts), and a search "completed" on that basis. Such a run
  // proves nothing: its status is the time limit, and its bound the
  // variables' box (box_bound), which needs no LP.
  out.time_limit = model.isSecondsLimitReached() || model.secondaryStatus() == 4 || wall >= seconds_left ||
                   cpu >= seconds_left;
  out.bound = out.time_limit ? (zero_objective ? 0.0 : box_bound(f))
                             : sign * model.getBestPossibleObjValue() + (zero_objective ? 0.0 : f.c0);
  out.optimal = !out.time_limit && model.isProvenOptimal() && !out.x.empty();
  out.within_gap = model.secondaryStatus() == 2;
  out.infeasible = !out.time_limit && (model.isProvenInfeasible() || model.isInitialSolveProvenPrimalInfeasible());
  out.unbounded = !out.time_limit && (model.isContinuousUnbounded() || model.secondaryStatus() == 7);
  out.abandoned = model.isAbandoned();
  return out;
}

inline double objective_of(const MilpForm& f, const std::vector<double>& x) {
  double v = f.c0;
  for (int j = 0; j < f.n; ++j) v += f.c[j] * x[j];
  return v;
}

}  // namespace detail

/// The MILP by CBC (MilpOptions::solver is not read; solve_milp() dispatches).
/// CBC's incumbent is checked against the form (bounds, integrality within
/// 1e-6 and rounded, rows): a point that fails is not returned as optimal.
inline MilpResult solve_milp_cbc(const MilpForm& f, const MilpOptions& o = {}) {
  detail::validate(f);
  const auto started = std::chrono::steady_clock::now();
  const auto out = detail::solve_cbc(f, o, false);
  MilpResult r;
  auto worse = [&](double a, double b) { return f.maximize ? a < b : a > b; };
  if (!out.x.empty()) {
    r.x = out.x;
    for (int j = 0; j < f.n; ++j)
      if (f.integer[j]) r.x[j] = std::round(r.x[j]);  // CBC's integers are within its tolerance
    r.objective = detail::objective_of(f, r.x);
    if (!detail::feasible_point(f, r.x, 1e-6)) {
      r.status = Status::numerical_error;
      r.message = "CBC returned a point that violates the model";
      return r;
    }
  }
  // A start the search did not improve on is still a feasible point.
  if (!o.start.empty() && detail::feasible_point(f, o.start) &&
      (r.x.empty() || worse(r.objective, detail::objective_of(f, o.start)))) {
    r.x = o.start;
    r.objective = detail::objective_of(f, o.start);
  }
  auto set_gap = [&] { r.gap = detail::relative_gap(r.objective, r.bound); };
  if (out.optimal && !out.within_gap) {
    r.status = Status::optimal;
    r.bound = r.objective;
    r.gap = 0.0;
  } else if (out.optimal) {
    r.status = Status::optimal;
    r.bound = out.bound;
    set_gap();
    r.message = "optimal within the requested relative gap";
  } else if (out.unbounded) {
    // As for GLPK: decided by a zero-objective run.
    MilpOptions decide = o;
    decide.time_limit = std::min(o.undecided_limit,
                                 std::max(1e-3, o.time_limit - std::chrono::duration<double>(
                                                                   std::chrono::steady_clock::now() - started)
                                                                   .count()));
    const auto feasible = detail::solve_cbc(f, decide, true);
    r = detail::unbounded_relaxation_result(!feasible.x.empty()  ? detail::IntegerPoint::found
                                            : feasible.infeasible ? detail::IntegerPoint::proved_none
                                                                  : detail::IntegerPoint::undecided);
  } else if (out.infeasible && r.x.empty()) {
    r.status = Status::infeasible;
    r.message = "no integer feasible point";
  } else if (out.time_limit) {
    r.status = Status::time_limit;
    r.bound = out.bound;
    if (!r.x.empty()) {
      set_gap();
      r.message = "time limit reached with an incumbent";
    } else {
      r.message = "time limit reached before any integer feasible point";
    }
  } else {
    r.status = Status::numerical_error;
    r.bound = out.bound;
    if (!r.x.empty()) set_gap();
    r.message = out.abandoned ? "CBC abandoned the search (numerical difficulties)"
                              : "CBC stopped without proving optimality or infeasibility";
  }
  return r;
}

}  // namespace ychart::solve::milp
