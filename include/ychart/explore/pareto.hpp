// ychart/explore/pareto.hpp
// Pareto fronts of two KPIs by the epsilon-constraint method: minimise the
// first KPI subject to the second <= epsilon, each point solved exactly.
// pareto_grid() solves a given grid of epsilons in parallel and keeps the
// non-dominated points; pareto_walk() walks the whole front, each epsilon
// just below the previous point's second KPI, which finds every Pareto
// point when the second KPI takes separated values (a count, a spreading
// with few levels) -- including points a weighted sum cannot reach.
#pragma once

#include "../progress.hpp"
#include "sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::explore {

/// One solved point: the two KPIs (both minimised) and what produced them.
template <class Payload>
struct ParetoPoint {
  double first = 0.0;   // the minimised KPI
  double second = 0.0;  // the constrained KPI
  double epsilon = 0.0;  // the bound the point was solved under
  Payload payload{};
};

/// Keeps the points no other point dominates (<= in both, < in one),
/// sorted by the second KPI; among equal points the first is kept.
template <class Payload>
std::vector<ParetoPoint<Payload>> non_dominated(std::vector<ParetoPoint<Payload>> points, double tolerance = 1e-9) {
  std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first < b.first;
  });
  std::vector<ParetoPoint<Payload>> front;
  for (auto& p : points) {
    // Sorted by the second KPI: p is dominated iff some kept point has first <= p.first.
    bool dominated = false;
    for (const auto& q : front)
      if (q.first <= p.first + tolerance * std::max(1.0, std::abs(p.first))) dominated = true;
    if (!dominated) front.push_back(std::move(p));
  }
  return front;
}

/// solve(epsilon) -> std::optional<ParetoPoint<Payload>> (empty when
/// infeasible) for every epsilon, in parallel; the non-dominated points.
template <class Solve>
auto pareto_grid(const std::vector<double>& epsilons, Solve&& solve, const SweepOptions& options = {}) {
  auto solved = sweep(epsilons, solve, options);
  using Point = typename std::decay_t<decltype(solved)>::value_type::value_type;
  std::vector<Point> points;
  for (auto& s : solved)
    if (s) points.push_back(std::move(*s));
  return non_dominated(std::move(points));
}

/// Walks the front from the unconstrained optimum of the first KPI: solve
/// at epsilon = +inf, then at (previous second KPI) - gap, until infeasible
/// or `max_points` solves. Each solve must be exact for the front to be.
/// On a terminal (`progress`), a status line counts the points found; the
/// walk cannot know how many remain, so it shows no ETA.
template <class Solve>
auto pareto_walk(Solve&& solve, double gap, std::size_t max_points = 1000,
                 ychart::Progress progress = ychart::Progress::automatic) {
  using Point = typename std::invoke_result_t<Solve&, double>::value_type;
  std::vector<Point> points;
  double epsilon = std::numeric_limits<double>::infinity();
  const auto start = std::chrono::steady_clock::now();
  ychart::detail::StatusLine line(false, progress, /*delay=*/0.0);
  for (std::size_t i = 0; i < max_points; ++i) {
    std::optional<Point> p;
    {
      ychart::detail::MuteProgress mute;  // the walk's line covers its solves
      p = solve(epsilon);
    }
    if (!p) break;
    points.push_back(std::move(*p));
    epsilon = points.back().second - gap;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    line.update(seconds, [&] {
      return "Pareto front: " + std::to_string(points.size()) + " points, last at " + std::to_string(points.back().second) +
             ", " + std::to_string(static_cast<long>(seconds)) + " s";
    });
  }
  return non_dominated(std::move(points));
}

}  // namespace ychart::explore
