// ychart/model/tolerances.hpp
// The named tolerances of ychart's own arithmetic (the solvers' tolerances
// are SolveOptions'): how far a quantity computed from data may be off by
// floating-point roundoff and still count as equal to another, and the
// rounding rules built on it; how far a value a solver returns may sit from
// an integer; when a multiplier or price counts as zero; and the few-ulps
// slack between one number computed along two paths; when a solver's answer
// is close enough to accept; and the floor of a relative quantity's divisor.
// A quotient such as 1.1 / 0.1 is
// 11.000000000000002 and 0.3 / 0.1 is 2.9999999999999996; a count derived
// from either must be 11 and 3.
#pragma once

#include <algorithm>
#include <cmath>

namespace ychart::tolerances {

/// Relative roundoff allowed in a quantity computed from data.
inline constexpr double roundoff = 1e-9;

/// How far a solver's value may sit from an integer, or from a bound of an
/// integer variable, and still be read as that integer.
inline constexpr double integrality = 1e-9;

/// A solver's multiplier or LP price at or below this is zero: its row is
/// not active.
inline constexpr double inactive = 1e-9;

/// Relative slack between two values that are one number computed along two
/// paths (a tie, a bound re-derived from a solution): a few ulps of a double,
/// far below roundoff.
inline constexpr double ulps = 1e-12;

/// A solver's answer within this is accepted as if exact: a feasibility
/// relaxation's total slack (the GP layer), a KKT error (Ipopt's acceptable
/// level), a row's relative distance to its limit read as tight, two GP back
/// ends' objectives read as one.
inline constexpr double acceptable = 1e-6;

/// A feasibility relaxation whose slack, in total or as a factor above 1, is
/// at most this needs none (the mixed-integer search, the infeasibility
/// report); also a row's violation at a point GLPK returns.
inline constexpr double slack = 1e-7;

/// A feasibility relaxation's total slack (the sum of its log-slacks) above
/// this, and above the acceptable tolerance per slack, proves infeasibility
/// on its own. Below it the total may be what an interior point leaves at
/// its tolerance: every slack stops about tolerance / multiplier above zero
/// (2.3e-5 in total, seen on a feasible exact study-001 model, from a run
/// stopped at the acceptable level), and a second back end decides.
inline constexpr double decisive_slack = 1e-4;

/// The floor of the divisor of a relative quantity (a gap, a change): it
/// keeps a zero scale from dividing and moves no other.
inline constexpr double tiny = 1e-300;

/// The roundoff a quantity of this magnitude may carry: roundoff * max(1, |scale|).
inline double allowance(double scale) { return roundoff * std::max(1.0, std::abs(scale)); }

/// True when a <= b up to b's allowance.
inline bool at_most(double a, double b) { return a <= b + allowance(b); }

/// The least integer >= x, ignoring an excess of allowance(x) over an integer.
inline double ceil(double x) { return std::ceil(x - allowance(x)); }

/// The greatest integer <= x, ignoring a shortfall of allowance(x) below an integer.
inline double floor(double x) { return std::floor(x + allowance(x)); }

}  // namespace ychart::tolerances
