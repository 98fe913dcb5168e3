// ychart/explore/detail/mpi_sweep.hpp
// explore::sweep over MPI ranks, on Boost.MPI: point i runs on rank i mod size
// (on that rank's threads), then every rank receives all results in grid
// order. Compiled only with YCHART_WITH_MPI (the ychart::mpi CMake target).
// Results travel through Boost.Serialization, so the result type needs a
// serialize() (fundamental types, std::string, std::vector and std::pair
// have one in Boost).
//
// Why cyclic and static: every rank knows its points without messages, the
// result is the same whatever the timing, and neighbouring grid points
// (similar difficulty) land on different ranks, which balances typical
// sweeps well enough.
#pragma once

#include "../../error.hpp"
#include "local_sweep.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ychart::explore {

/// A point of an MPI sweep failed (on this or another rank); every rank
/// throws it, with the point's index and the original message.
struct remote_point_error : ychart::error {
  using ychart::error::error;
};

namespace detail {

/// Ranks of MPI_COMM_WORLD, or 1 when MPI is not running.
inline int mpi_ranks() {
  if (!boost::mpi::environment::initialized() || boost::mpi::environment::finalized()) return 1;
  return boost::mpi::communicator().size();
}

inline std::string message_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

template <class Point, class Fn>
auto mpi_sweep(const std::vector<Point>& points, Fn& fn, const SweepOptions& options)
    -> std::vector<std::invoke_result_t<Fn&, const Point&>> {
  using Result = std::invoke_result_t<Fn&, const Point&>;
  const boost::mpi::communicator world;
  const auto rank = static_cast<std::size_t>(world.rank()), size = static_cast<std::size_t>(world.size());
  std::vector<Point> mine;
  for (std::size_t i = rank; i < points.size(); i += size) mine.push_back(points[i]);
  SweepOptions local = options;
  if (rank == 0) local.label = options.label + " (rank 0 of " + std::to_string(size) + ")";
  else local.progress = Progress::never;  // one bar, on rank 0
  auto run = run_points(mine, fn, local);

  // Each rank sends its results in order and its failures by grid index.
  using Failures = std::vector<std::pair<unsigned long, std::string>>;
  std::pair<std::vector<Result>, Failures> sent;
  for (std::size_t k = 0; k < mine.size(); ++k) {
    if (run.errors[k]) sent.second.emplace_back(rank + k * size, message_of(run.errors[k]));
    else sent.first.push_back(std::move(*run.results[k]));
  }
  std::vector<decltype(sent)> all;
  boost::mpi::all_gather(world, sent, all);

  const std::pair<unsigned long, std::string>* first = nullptr;
  for (const auto& from : all)
    for (const auto& failure : from.second)
      if (!first || failure.first < first->first) first = &failure;
  if (first) throw remote_point_error("point " + std::to_string(first->first) + " of the sweep: " + first->second);

  std::vector<Result> out;
  out.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) out.push_back(std::move(all[i % size].first[i / size]));
  return out;
}

}  // namespace detail
}  // namespace ychart::explore
