// ychart/mapping/search.hpp
// The mapper that proves: the mapping of a layer onto an architecture that
// minimises energy, latency or their product under every capacity, found
// by an exact branch and bound over the levels, outermost first. At each
// level it places every loop's factors (temporal, and spatial on the X and
// Y fan-out), and chooses which loop group is innermost (the only choice of
// order that changes a count, detail/orders.hpp). A level's tile is known
// as soon as the levels above it are placed, so capacities prune before a
// level is entered, and the traffic into a level is priced exactly at the
// same moment; what is not placed yet is bounded below by what every
// element must cost at least once. Finished, the result is proven optimal
// on `evaluate`'s cost model; stopped by the time limit it reports the
// incumbent, the bound and the gap.
#pragma once

#include "../config.hpp"
#include "architecture.hpp"
#include "evaluate.hpp"
#include "mapping.hpp"
#include "objective.hpp"
#include "workload.hpp"

#include "../result/solve_report.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace ychart::mapping {

struct SearchOptions {
  Objective objective = Objective::energy;
  double time_limit = 60;                     // seconds; then time_limit with the gap
  std::optional<Constant<dim::time>> max_latency;   // an epsilon constraint (fronts)
  std::optional<Constant<dim::energy>> max_energy;
  /// Ties in the objective go to the lower latency (energy objective) or
  /// energy (latency objective), so that each point of a front is
  /// non-dominated.
  bool break_ties = true;
  /// Random mappings priced first, for a first incumbent (0: none).
  std::uint64_t warm_start_samples = 500;
  /// A known objective value to beat (J, s or J s), e.g. the previous layer's bound: nodes that cannot go below it are pruned.
  std::optional<double> cutoff;
};

struct MappingResult : SolveReport {
  std::optional<Mapping> mapping;
  std::optional<Evaluation> evaluation;
  std::uint64_t nodes = 0;   // partial mappings entered
  std::uint64_t leaves = 0;  // complete mappings priced
  /// Infeasible: the level and tensor ("shared" for a shared capacity) that
  /// can hold no tile, or empty when a latency or energy limit is what no
  /// mapping meets.
  std::string infeasible_level, infeasible_tensor;
};

/// The optimal mapping (status optimal, bound = objective), or the best
/// found with its bound and gap (time_limit), or infeasible with the level
/// and tensor at fault. Throws loopnest_error on malformed input.
YCHART_DECL MappingResult search_mapping(const Workload& workload, const Architecture& architecture,
                                         const SearchOptions& options = {});

}  // namespace ychart::mapping

#if YCHART_HEADER_ONLY
#include "impl/search.ipp"
#endif
