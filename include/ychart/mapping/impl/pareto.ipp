// ychart/mapping/impl/pareto.ipp
// The implementation of ychart/mapping/pareto.hpp.
#pragma once

#include "../../config.hpp"
#include "../pareto.hpp"

#include <cmath>
#include <optional>

namespace ychart::mapping {

YCHART_DECL EnergyLatencyFront energy_latency_front(const Workload& w, const Architecture& a, SearchOptions options,
                                                    std::size_t max_points) {
  EnergyLatencyFront front;
  options.objective = Objective::energy;
  options.break_ties = true;
  const auto solve = [&](double epsilon) -> std::optional<explore::ParetoPoint<MappingResult>> {
    // Strictly faster than the last point: latencies are cycles over the
    // clock, computed along one path, so a relative step of 1e-9 separates them.
    options.max_latency.reset();
    if (std::isfinite(epsilon)) options.max_latency = Constant<dim::time>(epsilon * (1 - 1e-9));
    auto r = search_mapping(w, a, options);
    if (!r.evaluation) {
      if (r.status != Status::infeasible) front.exact = false;  // stopped before any mapping: the front may go on
      return std::nullopt;
    }
    if (r.status != Status::optimal) front.exact = false;
    return explore::ParetoPoint<MappingResult>{r.evaluation->energy.value(), r.evaluation->latency.value(), epsilon, std::move(r)};
  };
  front.points = explore::pareto_walk(solve, 0.0, max_points, Progress::never);
  return front;
}

}  // namespace ychart::mapping
