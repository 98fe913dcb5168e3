// ychart/mapping/impl/pareto.ipp
// The implementation of ychart/mapping/pareto.hpp.
#pragma once

#include "../../config.hpp"
#include "../pareto.hpp"

#include <algorithm>

namespace ychart::mapping {

YCHART_DECL EnergyLatencyFront energy_latency_front(const Workload& w, const Architecture& a, SearchOptions options,
                                                    std::size_t max_points) {
  EnergyLatencyFront front;
  options.objective = Objective::energy;
  options.break_ties = true;
  options.max_latency.reset();
  for (std::size_t k = 0; k < max_points; ++k) {
    auto r = search_mapping(w, a, options);
    if (!r.evaluation) {
      if (r.status != Status::infeasible) front.exact = false;  // stopped before any mapping: the front may go on
      break;
    }
    if (r.status != Status::optimal) front.exact = false;
    if (k + 1 == max_points) front.exact = false;  // cut short
    // Strictly faster than this point next: latencies are cycles over the
    // clock, computed along one path, so a relative step of 1e-9 separates them.
    options.max_latency = r.evaluation->latency * (1 - 1e-9);
    front.points.push_back({r.evaluation->energy, r.evaluation->latency, std::move(r)});
  }
  std::reverse(front.points.begin(), front.points.end());
  return front;
}

}  // namespace ychart::mapping
