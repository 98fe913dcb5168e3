// ychart/explore/sweep.hpp
// Sweeps: evaluate or solve one model per point of a parameter grid
// (resource cap, II_max, number of devices), in parallel over the
// machine's cores, with a progress bar and an ETA when stderr is a terminal.
// Results come back in grid order whatever order the threads finish in.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <type_traits>
#include <vector>

#include "../model/tolerances.hpp"
#include "detail/local_sweep.hpp"

#if defined(YCHART_WITH_MPI)
#include "detail/mpi_sweep.hpp"
#endif

namespace ychart::explore {

/// Calls fn(point) for every point, in parallel, and returns the results in
/// the order of `points`. An exception from any point is rethrown after all
/// threads have stopped (the first by grid order).
///
/// Built with MPI (the ychart::mpi target defines YCHART_WITH_MPI) and run
/// under mpirun with more than one rank, the points are spread over the
/// ranks and every rank gets all results, in grid order (explore/detail/mpi_sweep.hpp);
/// the result type must then be serialisable by Boost.Serialization.
template <class Point, class Fn>
auto sweep(const std::vector<Point>& points, Fn&& fn, const SweepOptions& options = {})
    -> std::vector<std::invoke_result_t<Fn&, const Point&>> {
#if defined(YCHART_WITH_MPI)
  if (detail::mpi_ranks() > 1) return detail::mpi_sweep(points, fn, options);
#endif
  auto run = detail::run_points(points, fn, options);
  for (auto& e : run.errors)
    if (e) std::rethrow_exception(e);
  std::vector<std::invoke_result_t<Fn&, const Point&>> out;
  out.reserve(points.size());
  for (auto& s : run.results) out.push_back(std::move(*s));
  return out;
}

/// A grid lo, lo + step, ..., up to hi (inclusive within rounding).
inline std::vector<double> linear_grid(double lo, double hi, double step) {
  std::vector<double> g;
  if (!(step > 0)) return g;
  for (int i = 0;; ++i) {
    const double v = lo + i * step;
    if (v > hi + tolerances::allowance(hi)) break;
    g.push_back(v);
  }
  return g;
}

}  // namespace ychart::explore
