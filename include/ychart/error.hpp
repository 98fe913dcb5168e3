// ychart/error.hpp
// The exceptions ychart throws. All derive from ychart::error, which derives
// from std::runtime_error, so `catch (const std::exception&)` sees them too.
#pragma once

#include <stdexcept>
#include <string>

namespace ychart {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A coefficient that is negative, zero where it must not be, NaN or infinite
/// where a monomial or posynomial needs a positive finite one.
struct invalid_coefficient : error {
  using error::error;
};

/// A model that cannot be built or solved as written (variables of two
/// models mixed, an objective missing, bounds that contradict each other).
struct model_error : error {
  using error::error;
};

/// A graph or node table that is malformed: a non-positive count or size, a
/// range that is empty, overlaps another or does not start and end at cut
/// points. The message names the node, segment or field.
struct graph_error : model_error {
  using model_error::model_error;
};

/// Asking a Solution for something it does not have (values of an
/// infeasible model, a variable of another model).
struct solution_error : error {
  using error::error;
};

/// Two solvers that should agree did not: SolveOptions::gp_solver ==
/// GpSolver::cross_check found the native GP solver and Ipopt apart.
struct solver_disagreement : error {
  using error::error;
};

}  // namespace ychart
