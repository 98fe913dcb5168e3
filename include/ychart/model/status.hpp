// ychart/model/status.hpp
// Status of a solve, and the options a solve takes.
#pragma once

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
};

inline std::string_view to_string(Status s) {
  switch (s) {
    case Status::optimal: return "optimal";
    case Status::infeasible: return "infeasible";
    case Status::unbounded: return "unbounded";
    case Status::time_limit: return "time_limit";
    case Status::iteration_limit: return "iteration_limit";
    case Status::numerical_error: return "numerical_error";
  }
  return "?";
}
inline std::ostream& operator<<(std::ostream& os, Status s) { return os << to_string(s); }

struct SolveOptions {
  double time_limit = 1e20;         // seconds of CPU time
  int max_iterations = 3000;        // interior-point iterations
  double tolerance = 1e-9;          // Ipopt's relative convergence tolerance
  int verbosity = 0;                // 0: silent; 1..12: Ipopt's print level
  /// Values whose magnitude (in the variable's unit) passes 10^±bound_exponent
  /// count as running to 0 or infinity: the model is reported unbounded. The
  /// box also keeps Ipopt's KKT matrix well conditioned for free variables.
  double bound_exponent = 100.0;
};

}  // namespace ychart
