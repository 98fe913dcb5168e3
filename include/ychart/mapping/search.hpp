// ychart/mapping/search.hpp
// The mapper that proves: the mapping of a layer onto an architecture that
// minimises energy, latency or their product under every capacity, by an
// exact branch and bound of our own (no MILP solver: the cost model's
// products of loop factors separate by loop, which a bound can use and a
// linearisation loses). The mappings are split by the shape of each level
// (nothing runs there, or which loop group runs innermost and whether
// another group runs too), which fixes every tensor's reuse; within a
// shape the loops are placed one by one (temporal and spatial factors on
// every level), each placement pruned by capacities and fan-outs and by a
// bound that takes the unplaced loops at their least factors among the
// placements that still fit. Finished, the result is proven optimal on
// `evaluate`'s cost model; stopped by the time limit, it reports the
// incumbent, the bound and the gap. A random sample improved by local moves
// gives the first incumbent.
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
  /// Random mappings priced first and the best improved by local moves,
  /// for a first incumbent (0: none).
  std::uint64_t warm_start_samples = 500;
  /// A known objective value to beat (J, s or J s), e.g. the previous layer's bound: nodes that cannot go below it are pruned.
  std::optional<double> cutoff;
  /// Threads that search the level shapes side by side, sharing the
  /// incumbent (0: the machine's cores, at most 4). The optimum's value is
  /// the same for any count; among mappings that tie in both the objective
  /// and the tie-break, which one is returned may differ from run to run.
  /// More than 64 is an error.
  unsigned threads = 0;
  /// The nodes each level shape gets in the search's first pass, in the
  /// order of their bounds; the second pass takes up the shapes left
  /// unfinished where they stopped (0: one pass, each shape in full).
  /// Many shapes' bounds tie, and the first pass finds a good incumbent
  /// before any shape is searched in full (docs/mapping.md).
  std::uint64_t first_pass_nodes = 256;
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
