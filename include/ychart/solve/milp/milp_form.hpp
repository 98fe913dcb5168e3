// ychart/solve/milp/milp_form.hpp
// The mixed-integer linear program both MILP back ends take (MilpForm),
// their options and result, the check every form passes before a back end
// sees it, and the feasibility test of a point against a form.
#pragma once

#include "../../error.hpp"
#include "../../model/status.hpp"
#include "../../model/tolerances.hpp"
#include "../../progress.hpp"

#include <Eigen/SparseCore>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace ychart::solve::milp {

/// minimise (or maximise) c.x + c0  s.t.  row_lower <= A x <= row_upper,
/// lower <= x <= upper, x_j integer where integer[j]. Infinite bounds mean none.
struct MilpForm {
  int n = 0;
  std::vector<double> lower, upper;
  std::vector<char> integer;
  std::vector<double> c;
  double c0 = 0.0;
  bool maximize = false;
  Eigen::SparseMatrix<double, Eigen::RowMajor, int> A;
  std::vector<double> row_lower, row_upper;
};

struct MilpOptions {
  /// The back end: GLPK, CBC, or `automatic`, which solve_milp() decides
  /// from the form's size (docs/solvers.md, "MILP back ends").
  MilpSolver solver = MilpSolver::automatic;
  double time_limit = 1e20;    // seconds (wall clock)
  double relative_gap = 0.0;   // stop when |incumbent - bound| / |incumbent| <= this
  bool verbose = false;
  /// Seconds allowed to decide whether a model with an unbounded LP
  /// relaxation has any integer point (unbounded) or none (infeasible).
  double undecided_limit = 10.0;
  /// GLPK's cut generators (Gomory mixed-integer, mixed-integer rounding,
  /// cover; not clique, whose generator corrupts memory on some models,
  /// glpk_milp.hpp). Off in GLPK by default; on here: on study 001's master
  /// problems they cut solve times 2-5x (docs/performance.md).
  bool cuts = true;
  /// With `cuts`, GLPK's Gomory mixed-integer cuts too (SolveOptions::milp_gomory_cuts).
  bool gomory_cuts = true;
  /// ychart's progress line on stderr about once a second (elapsed,
  /// incumbent, bound, gap, nodes); `verbose` shows GLPK's own output.
  bool progress = false;
  /// Without `progress`: the same as a live status line once the solve
  /// passes 1 s, erased at the end (ychart/progress.hpp). GLPK only: CBC
  /// shows its own log with `verbose` or `progress`.
  Progress live_progress = Progress::never;
  /// A feasible point to start from (an incumbent a heuristic found), or
  /// empty. GLPK gets it as its first incumbent; with it, GLPK's presolver
  /// is off, since the incumbent is given in the original columns. CBC does
  /// not search from it, but a search that ends without a better point
  /// returns it. A point that is not feasible (bounds, integrality, rows
  /// within 1e-7) is ignored.
  std::vector<double> start;
};

struct MilpResult {
  Status status = Status::numerical_error;
  std::vector<double> x;       // incumbent (empty when there is none)
  double objective = std::numeric_limits<double>::quiet_NaN();  // of the incumbent
  double bound = std::numeric_limits<double>::quiet_NaN();      // best proven bound
  double gap = std::numeric_limits<double>::quiet_NaN();        // relative, GLPK's definition
  std::string message;
};

namespace detail {

// GLPK aborts the process on invalid input, so everything is checked first
// (by both back ends, which then reject the same forms).
inline void validate(const MilpForm& f) {
  auto bad = [](const std::string& what) { throw model_error("ychart: invalid MILP: " + what); };
  const auto n = static_cast<std::size_t>(f.n);
  if (f.lower.size() != n || f.upper.size() != n || f.integer.size() != n || f.c.size() != n)
    bad("vector sizes differ from the number of columns");
  if (f.A.cols() != f.n || f.row_lower.size() != std::size_t(f.A.rows()) || f.row_upper.size() != std::size_t(f.A.rows()))
    bad("matrix and row bounds do not match");
  for (std::size_t j = 0; j < n; ++j) {
    if (std::isnan(f.lower[j]) || std::isnan(f.upper[j]) || f.lower[j] > f.upper[j])
      bad("column " + std::to_string(j) + " has bounds that are NaN or crossed");
    if (!std::isfinite(f.c[j])) bad("objective coefficient of column " + std::to_string(j) + " is not finite");
  }
  for (int i = 0; i < f.A.rows(); ++i)
    if (std::isnan(f.row_lower[i]) || std::isnan(f.row_upper[i]) || f.row_lower[i] > f.row_upper[i])
      bad("row " + std::to_string(i) + " has bounds that are NaN or crossed");
  for (int k = 0; k < f.A.nonZeros(); ++k)
    if (!std::isfinite(f.A.valuePtr()[k])) bad("a matrix coefficient is not finite");
  if (!std::isfinite(f.c0)) bad("the objective constant is not finite");
}

/// Whether x satisfies the form: bounds, integrality and rows, within tol
/// (relative to the row's scale).
inline bool feasible_point(const MilpForm& f, const std::vector<double>& x, double tol = tolerances::slack) {
  if (x.size() != std::size_t(f.n)) return false;
  for (int j = 0; j < f.n; ++j) {
    if (!std::isfinite(x[j]) || x[j] < f.lower[j] - tol || x[j] > f.upper[j] + tol) return false;
    if (f.integer[j] && x[j] != std::floor(x[j])) return false;  // GLPK takes integers only exactly
  }
  for (int i = 0; i < f.A.rows(); ++i) {
    double ax = 0.0, scale = 1.0;
    for (Eigen::SparseMatrix<double, Eigen::RowMajor, int>::InnerIterator it(f.A, i); it; ++it) {
      ax += it.value() * x[it.col()];
      scale = std::max(scale, std::abs(it.value() * x[it.col()]));
    }
    if (ax < f.row_lower[i] - tol * scale || ax > f.row_upper[i] + tol * scale) return false;
  }
  return true;
}

/// |objective - bound| relative to the objective, as both back ends report it.
inline double relative_gap(double objective, double bound) {
  return std::abs(objective - bound) / (std::abs(objective) + DBL_EPSILON);
}

/// What a zero-objective run found when the LP relaxation was unbounded.
enum class IntegerPoint { found, proved_none, undecided };

/// The LP relaxation is unbounded: the MILP is unbounded if it has any
/// integer feasible point (a rational MILP's recession directions are those
/// of its relaxation), infeasible if it has none, and undecided when the
/// zero-objective run ran out of time.
inline MilpResult unbounded_relaxation_result(IntegerPoint point) {
  MilpResult r;
  switch (point) {
    case IntegerPoint::found:
      r.status = Status::unbounded;
      r.message = "the objective improves without limit";
      break;
    case IntegerPoint::proved_none:
      r.status = Status::infeasible;
      r.message = "no integer feasible point (the LP relaxation is unbounded)";
      break;
    case IntegerPoint::undecided:
      r.status = Status::time_limit;
      r.message = "the LP relaxation is unbounded, and no integer point was found in the time allowed: the model is "
                  "unbounded or infeasible (bound the integer variables to decide)";
      break;
  }
  return r;
}

}  // namespace detail

}  // namespace ychart::solve::milp
