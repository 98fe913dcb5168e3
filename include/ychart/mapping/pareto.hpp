// ychart/mapping/pareto.hpp
// The exact front of energy against latency for one layer, by the
// epsilon-constraint method on the mapper that proves (explore::pareto_walk):
// the least energy, then the least energy at a latency just below the last
// point's, until no mapping is faster. Each point breaks energy ties by
// latency, so each is non-dominated; the front is exact when every point
// is proven (`exact`).
#pragma once

#include "../config.hpp"
#include "search.hpp"

#include "../explore/pareto.hpp"

#include <cstddef>
#include <vector>

namespace ychart::mapping {

struct EnergyLatencyFront {
  /// first: energy (J), second: latency (s), ordered by latency.
  std::vector<explore::ParetoPoint<MappingResult>> points;
  bool exact = true;  // every point optimal
};

/// `options.objective` and `max_latency` are set per point; the time limit is per point.
YCHART_DECL EnergyLatencyFront energy_latency_front(const Workload& workload, const Architecture& architecture,
                                                    SearchOptions options = {}, std::size_t max_points = 200);

}  // namespace ychart::mapping

#if YCHART_HEADER_ONLY
#include "impl/pareto.ipp"
#endif
