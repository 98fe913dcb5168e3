// ychart/model/status.hpp
// Status of a solve, and the options a solve takes.
#pragma once

#include "../progress.hpp"
#include <atomic>
#include <ostream>
#include <string_view>

namespace ychart {

enum class Status {
  optimal,          // proven optimal (a convex GP: global)
  infeasible,       // proven infeasible; the Solution says what to relax
  unbounded,        // the objective runs to 0 (or infinity when maximised)
  time_limit,       // stopped by SolveOptions::time_limit
  iteration_limit,  // stopped by SolveOptions::max_iterations
  numerical_error,  // the solver failed; the message says how
  node_limit,       // a mixed-integer search stopped by SolveOptions::node_limit
  local_optimum,    // a KKT point of a nonconvex (signomial) model: no global claim
  no_feasible_point_found,  // a signomial model's feasibility phase stopped short of a feasible point
};

inline std::string_view to_string(Status s) {
  switch (s) {
    case Status::optimal: return "optimal";
    case Status::infeasible: return "infeasible";
    case Status::unbounded: return "unbounded";
    case Status::time_limit: return "time_limit";
    case Status::iteration_limit: return "iteration_limit";
    case Status::numerical_error: return "numerical_error";
    case Status::node_limit: return "node_limit";
    case Status::local_optimum: return "local_optimum";
    case Status::no_feasible_point_found: return "no_feasible_point_found";
  }
  return "?";
}
inline std::ostream& operator<<(std::ostream& os, Status s) { return os << to_string(s); }

class Solution;

/// How a model with discrete or real variables is solved (a pure GP always
/// goes to Ipopt directly).
enum class Method {
  automatic,            // one MILP for integer-linear models, outer approximation otherwise
  glpk,                 // one MILP (by SolveOptions::milp_solver: GLPK or CBC); only for models without posynomials
  outer_approximation,  // GLPK master over the encoding + tangent cuts, Ipopt with integers fixed
  branch_and_bound,     // best-bound search on Ipopt relaxations, branching n <= floor, n >= ceil
};

inline std::string_view to_string(Method m) {
  switch (m) {
    case Method::automatic: return "automatic";
    case Method::glpk: return "glpk";
    case Method::outer_approximation: return "outer_approximation";
    case Method::branch_and_bound: return "branch_and_bound";
  }
  return "?";
}

/// Which back end solves a geometric program: a pure GP, and the NLPs of the
/// mixed-integer searches (relaxations, fixed-integer subproblems).
enum class GpSolver {
  automatic,    // the native interior-point method; Ipopt when it fails numerically (logged)
  native,       // the native interior-point method only
  ipopt,        // Ipopt only
  cross_check,  // both on every GP, answering as `automatic`; two optima more than 1e-6 apart
                // (relative) throw solver_disagreement
};

inline std::string_view to_string(GpSolver s) {
  switch (s) {
    case GpSolver::automatic: return "automatic";
    case GpSolver::native: return "native";
    case GpSolver::ipopt: return "ipopt";
    case GpSolver::cross_check: return "cross_check";
  }
  return "?";
}

/// Which back end solves a mixed-integer linear program: a pure MILP, and
/// the master problems and repairs of the mixed-integer searches.
enum class MilpSolver {
  automatic,  // GLPK below milp_cbc_columns columns, CBC from there (measured: docs/performance.md)
  glpk,       // GLPK's branch and cut
  cbc,        // COIN-OR CBC's branch and cut
};

/// The size from which MilpSolver::automatic takes CBC.
inline constexpr int milp_cbc_columns = 2000;

inline std::string_view to_string(MilpSolver s) {
  switch (s) {
    case MilpSolver::automatic: return "automatic";
    case MilpSolver::glpk: return "glpk";
    case MilpSolver::cbc: return "cbc";
  }
  return "?";
}

/// What GpSolver::automatic means in this process: GpSolver::automatic
/// itself unless the program chose otherwise. The test suite sets
/// cross_check, so that every GP it solves is solved by both back ends
/// (tests/support/gp_solver_for_tests.cpp). A program that wants one back
/// end for every solve sets it once, before solving; a solve whose
/// SolveOptions::gp_solver is not automatic is not affected.
inline std::atomic<GpSolver>& default_gp_solver_setting() {
  static std::atomic<GpSolver> setting{GpSolver::automatic};
  return setting;
}
inline GpSolver default_gp_solver() { return default_gp_solver_setting().load(std::memory_order_relaxed); }
inline void set_default_gp_solver(GpSolver s) { default_gp_solver_setting().store(s, std::memory_order_relaxed); }

/// GP runs in this process, over every solve and thread, that the native
/// method failed and Ipopt was given (Solution::gp_fallbacks counts one
/// solve's). The examples, tests and benchmarks print it at exit when it is
/// not zero.
inline std::atomic<long>& gp_fallback_counter() {
  static std::atomic<long> count{0};
  return count;
}
inline long gp_fallbacks_in_process() { return gp_fallback_counter().load(std::memory_order_relaxed); }

struct SolveOptions {
  double time_limit = 1e20;         // seconds (CPU time for a GP, wall-clock for mixed-integer searches)
  int max_iterations = 3000;        // interior-point iterations per GP run
  double tolerance = 1e-9;          // relative convergence tolerance of the GP solvers
  /// GP: 0 silent, 1..12 Ipopt's print level; >= 1 notes a fallback from
  /// the native solver to Ipopt, >= 3 prints the native solver's iterations.
  /// Mixed-integer searches: >= 1 prints a progress line about once a second
  /// on stderr.
  int verbosity = 0;
  /// Mixed-integer searches at verbosity 0: a status line on stderr once a
  /// solve passes 1 s (incumbent, bound, gap), erased at the end. `automatic`
  /// draws it only on a terminal; see ychart/progress.hpp.
  Progress progress = Progress::automatic;
  Method method = Method::automatic;
  /// A mixed-integer solve is optimal when |incumbent - bound| is within
  /// relative_gap * |incumbent| or within absolute_gap (objective units, SI).
  double relative_gap = 1e-6;
  double absolute_gap = 1e-9;
  long node_limit = 1000000;        // branch-and-bound nodes / outer-approximation iterations
  bool heuristic = true;            // rounding + GLPK repair for an early incumbent
  /// A previous solution of a related model (the same variables, e.g. the
  /// previous point of a sweep): its discrete values are tried first and, if
  /// still feasible, give the search its first incumbent. For a GP with the
  /// same number of variables and rows, its primal-dual point starts the
  /// native interior-point method.
  const Solution* warm_start = nullptr;
  /// Values whose magnitude (in the variable's unit) passes 10^±bound_exponent
  /// count as running to 0 or infinity: the model is reported unbounded. The
  /// box also keeps Ipopt's KKT matrix well conditioned for free variables.
  double bound_exponent = 100.0;
  /// The GP back end. `automatic` is the process default
  /// (set_default_gp_solver), itself the native method with Ipopt when it
  /// fails numerically.
  GpSolver gp_solver = GpSolver::automatic;
  /// The MILP back end of pure integer-linear models (and of the masters
  /// and repairs of the mixed-integer searches).
  MilpSolver milp_solver = MilpSolver::automatic;
  /// GLPK's Gomory mixed-integer cuts (its MIR and cover cuts stay on).
  /// Off pays where many small MILPs have dense tableau rows, as in the
  /// power search's level relaxations (docs/solvers.md).
  bool milp_gomory_cuts = true;
  /// Mixed-integer models with Method::automatic: look for interchangeable
  /// blocks of discrete variables (solve/symmetry/symmetry.hpp) when none are
  /// declared, and use the symmetric decomposition where it applies.
  bool detect_symmetry = true;
};

}  // namespace ychart
