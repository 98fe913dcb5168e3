// ychart/mapping/pareto.hpp
// The exact front of energy against latency for one layer, by the
// epsilon-constraint method on the mapper that proves: the least energy,
// then the least energy at a latency just below the last point's, until no
// mapping is faster. Each point breaks energy ties by latency, so each is
// non-dominated as found (no tolerance decides it: explore::non_dominated's
// absolute one would merge points whose energies, in joules, differ by
// less than 1e-9); the front is exact when every point is proven (`exact`).
#pragma once

#include "../config.hpp"
#include "search.hpp"

#include <cstddef>
#include <vector>

namespace ychart::mapping {

struct FrontPoint {
  Constant<dim::energy> energy{0.0};
  Constant<dim::time> latency{0.0};
  MappingResult result;
};

struct EnergyLatencyFront {
  std::vector<FrontPoint> points;  // by increasing latency (and decreasing energy)
  bool exact = true;               // every point optimal, and the walk ended on infeasible
};

/// `options.objective` and `max_latency` are set per point; the time limit is per point.
YCHART_DECL EnergyLatencyFront energy_latency_front(const Workload& workload, const Architecture& architecture,
                                                    SearchOptions options = {}, std::size_t max_points = 200);

}  // namespace ychart::mapping

#if YCHART_HEADER_ONLY
#include "impl/pareto.ipp"
#endif
