// ychart/result/solve_report.hpp
// What every problem class's solve_* reports beside its decision: the
// status, a message, the decision's objective, a proven bound on every
// decision's objective, the relative gap between the two and the
// wall-clock time. Each class's result derives from SolveReport, so that
// code reading results (tables, JSON, sweeps) reads them one way, and every
// result starts from the same default.
#pragma once

#include "../model/status.hpp"

#include <limits>
#include <string>

namespace ychart {

struct SolveReport {
  /// Every solve_* sets the status on each path. The default is
  /// numerical_error so that a result nobody filled in never reads as an
  /// answer.
  Status status = Status::numerical_error;
  /// Why, when the status is not optimal (and what was relaxed or skipped).
  std::string message;
  /// The decision's objective, in the unit the class's result documents
  /// (NaN when there is no decision).
  double objective = std::numeric_limits<double>::quiet_NaN();
  /// A proven lower bound (minimising) on the objective of every decision
  /// the solve searched; NaN when the method gives none.
  double bound = std::numeric_limits<double>::quiet_NaN();
  /// (objective - bound) / objective; NaN without a bound.
  double gap = std::numeric_limits<double>::quiet_NaN();
  /// Wall-clock seconds, model building included.
  double seconds = 0;
};

}  // namespace ychart
