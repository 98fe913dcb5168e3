// ychart/pipeline/placement_search.hpp
// The least initiation interval of an application on identical devices,
// proven: branch and bound over placements (which devices hold each task's
// compute units), and for each placement the least compute-unit counts
// that meet a target, found by forced increments. Exact for evaluate()'s
// own model wherever
//   (a) a task's execution time falls as it gets compute units and rises as
//       other tasks get them on its devices (through the device's
//       utilisation, clock, ports and DDR readers and writers), and
//   (b) host traffic depends on the placement only,
// which holds for study 001 chapter 4's enhanced model (eqs. 4.5-4.29):
// docs/pipeline.md, "Exact least II by placement", gives the argument.
// Every mapping it returns is priced by evaluate().
#pragma once

#include "detail/placement_tree.hpp"
#include "evaluate.hpp"

#include "../error.hpp"
#include "../model/status.hpp"

#include <optional>
#include <string>
#include <utility>

namespace ychart::pipeline {

struct PlacementSearchOptions {
  double time_limit = 60.0;  // seconds, wall clock
  /// A mapping to beat (local search's, say); if feasible, its II prunes
  /// from the start, and it is the answer when nothing beats it.
  std::optional<Mapping> incumbent;
};

struct PlacementSearchResult {
  /// optimal: the mapping's II is the least (to a relative 1e-10);
  /// infeasible: no mapping meets the caps; time_limit: the best mapping
  /// found, if any, with no claim.
  Status status = Status::time_limit;
  std::optional<Mapping> mapping;
  std::optional<Evaluation> evaluation;  // evaluate() of the mapping
  long nodes = 0;                        // partial placements visited
  long evaluations = 0;                  // mappings priced
  double seconds = 0.0;
};

/// The least-II mapping of `app` on `platform`'s identical devices under
/// `options` (its model, caps and schedule); see the header comment for
/// when the answer is exact. Three complete searches in turn, each handing
/// its incumbent to the next, until one finishes: the heaviest tasks placed
/// first (a quarter of the time limit), grown along the edges from the
/// heaviest (three quarters of the rest), and in index order (the rest). On
/// study 001's cases each of the first two proves within a second points
/// the other leaves open after 20 s, and the last finds good pipeline
/// mappings early (docs/pipeline.md).
template <ResourceRecord R>
PlacementSearchResult least_ii_by_placement(const Application<R>& app, const Platform<R>& platform,
                                            const EvaluationOptions<R>& options,
                                            const PlacementSearchOptions& search = {}) {
  if (options.operating_ii)
    throw model_error("ychart: least_ii_by_placement minimises the II; leave EvaluationOptions::operating_ii unset");
  if (!(search.time_limit > 0.0))
    throw model_error("ychart: PlacementSearchOptions::time_limit must be positive (seconds)");
  const int devices = platform.devices();
  if (devices < 1 || devices > detail::PlacementTree<R>::max_devices)
    throw model_error("ychart: least_ii_by_placement takes 1 to " +
                      std::to_string(detail::PlacementTree<R>::max_devices) + " devices, not " +
                      std::to_string(devices));
  // Each order's share of the time still left when it starts.
  constexpr std::pair<detail::TaskOrder, double> runs[] = {{detail::TaskOrder::heaviest_first, 0.25},
                                                           {detail::TaskOrder::grown_along_edges, 0.75},
                                                           {detail::TaskOrder::index, 1.0}};
  PlacementSearchResult r;
  std::optional<Mapping> incumbent = search.incumbent;
  bool finished = false;
  for (const auto& [order, share] : runs) {
    detail::PlacementTree<R> tree(app, platform, options, share * (search.time_limit - r.seconds), order);
    if (incumbent) tree.offer(*incumbent);
    finished = tree.search();
    incumbent = tree.best();
    r.nodes += tree.nodes();
    r.evaluations += tree.evaluations();
    r.seconds += tree.seconds();
    if (finished) break;
  }
  if (incumbent) {
    r.mapping = std::move(incumbent);
    r.evaluation = evaluate(app, platform, *r.mapping, options);
  }
  r.status = !finished ? Status::time_limit : r.mapping ? Status::optimal : Status::infeasible;
  return r;
}

}  // namespace ychart::pipeline
