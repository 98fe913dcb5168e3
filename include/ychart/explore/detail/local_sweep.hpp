// ychart/explore/detail/local_sweep.hpp
// The options of a sweep and its runner on one process's threads, with the
// progress bar; explore/sweep.hpp and explore/detail/mpi_sweep.hpp build on it.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "../../config.hpp"
#include "../../progress.hpp"

namespace ychart::explore {

struct SweepOptions {
  /// Worker threads; 0: one per hardware thread. Ipopt solves are serialised
  /// inside the library (MUMPS is not thread-safe); GLPK, the searches and
  /// the evaluations run concurrently.
  unsigned threads = 0;
  using Progress = ychart::Progress;
  /// automatic: a bar on stderr only when stderr is a terminal. The points'
  /// own solves draw no status line while the bar runs.
  Progress progress = Progress::automatic;
  std::string label = "sweep";
};

namespace detail {

/// Calls body(i) for i in [0, count) on options.threads threads (0: one per
/// hardware thread), with the progress bar on stderr. body must not throw.
/// Not a template, so that the thread pool is compiled once, not once per
/// sweep in every program.
YCHART_DECL void run_indices(std::size_t count, const SweepOptions& options,
                             const std::function<void(std::size_t)>& body);

/// Runs fn over `points` on this process's threads. Every point ends with a
/// result or an exception; none is rethrown here.
template <class Point, class Fn>
struct LocalRun {
  using Result = std::invoke_result_t<Fn&, const Point&>;
  std::vector<std::optional<Result>> results;
  std::vector<std::exception_ptr> errors;
};

template <class Point, class Fn>
LocalRun<Point, Fn> run_points(const std::vector<Point>& points, Fn& fn, const SweepOptions& options) {
  LocalRun<Point, Fn> run;
  run.results.resize(points.size());
  run.errors.resize(points.size());
  run_indices(points.size(), options, [&](std::size_t i) {
    try {
      run.results[i].emplace(fn(points[i]));
    } catch (...) {
      run.errors[i] = std::current_exception();
    }
  });
  return run;
}

}  // namespace detail

}  // namespace ychart::explore

#if YCHART_HEADER_ONLY
#include "../impl/local_sweep.ipp"
#endif
