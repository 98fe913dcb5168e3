// ychart/solve/gp/gp_request.hpp
// What one GP solve is asked besides the form and the SolveOptions: the box
// that stands in for missing bounds, column bounds and a start that replace
// the form's (branch-and-bound nodes, fixed integers), rows known to hold,
// and a warm start from a related solve. Every GP back end takes one
// (native_gp.hpp, ipopt_gp.hpp, gp_backend.hpp), so a new input is one new
// field, not one more positional parameter on each.
#pragma once

#include <span>

namespace ychart::solve::gp {

/// A previous result of a related form (the same columns and rows: a
/// branch-and-bound child, the next point of a sweep, an outer-approximation
/// iteration), in log space. An empty span is not given: `lambda` empty (or
/// not one per row) means cold duals.
struct GpWarmStart {
  std::span<const double> y{};
  std::span<const double> lambda{};  // per row
  std::span<const double> z_lower{}, z_upper{};  // per column
};

struct GpRequest {
  /// |y| (log space) that stands in for an infinite bound.
  double box = 0;
  /// true: every open side of a non-linear column gets the box. false: only
  /// columns free on both sides do, and an iterate past the box is
  /// `diverging` (how an unbounded model shows).
  bool box_all = false;
  /// Column bounds that replace the form's (log space, one per column);
  /// empty: the form's.
  std::span<const double> lower{}, upper{};
  /// The starting point (log space, one per column); empty: the middle of
  /// finite bounds, else 0.
  std::span<const double> start{};
  /// Per row, nonzero: the row is known to hold and is left out; empty: none.
  std::span<const char> free_rows{};
  /// Used by the native method only (Ipopt starts from `start`).
  GpWarmStart warm{};
};

}  // namespace ychart::solve::gp
