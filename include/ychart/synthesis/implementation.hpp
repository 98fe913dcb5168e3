// ychart/synthesis/implementation.hpp
// An implementation of a specification (study 003, OpenDSE's
// Implementation: allocation, binding, routings): which mapping option
// each process task uses, the value of each parameter, and each
// communication's route as a tree of directed link uses rooted at its
// sender's resource. evaluate() checks it against the specification --
// (4.1)-(4.8) and OpenDSE's routing rules -- and gives the breakdown of
// the cost of mapping: execution per task, communication per link,
// allocation per resource, with the power and the allocated resources.
// route() completes a binding with each communication's cheapest tree.
#pragma once

#include "../config.hpp"
#include "specification.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

namespace ychart::synthesis {

struct Implementation {
  std::vector<std::size_t> binding;          // per process (IndexedSpecification::processes order): option index
  std::vector<std::size_t> parameter_values;  // per parameter: index into its values
  std::vector<std::vector<Arc>> routes;       // per communication: its tree's link uses
};

struct Breakdown {
  double cost = 0;            // seconds: execution + communication + allocation
  double execution = 0;       // seconds
  double communication = 0;   // seconds
  double allocation = 0;      // seconds
  double power = 0;           // watts: allocated resources and their parameter values
  std::size_t allocated_processors = 0;
  std::vector<bool> allocated;            // per resource
  std::vector<double> task_seconds;       // per process
  std::vector<double> communication_seconds;  // per communication
  /// Per parameter: the chosen value, or 0 when its resource is unallocated
  /// (the KPI of the cost-parameter front: an unused NCS uses no SHAVEs).
  std::vector<double> parameter_value;
};

/// Checks `impl` against the specification and prices it. A binding to a
/// missing option, a route that leaves from elsewhere than the sender's
/// resource, misses a receiver, is not a tree or is longer than max_hops
/// throws specification_error naming the task or communication.
YCHART_DECL Breakdown evaluate(const Specification& spec, const IndexedSpecification& ix, const Implementation& impl);

/// The binding (option per process) and parameter values completed with
/// each communication's cheapest route: a shortest-path tree from the
/// sender's resource (cost, then hops), or the fewest-hops tree where the
/// cheapest one is longer than max_hops. Empty when a receiver is out of
/// reach. This is the decoder of the evolutionary search; the exact
/// routing of a fixed binding is solve_synthesis() with fixed_binding.
YCHART_DECL std::optional<Implementation> route(const Specification& spec, const IndexedSpecification& ix,
                                                std::vector<std::size_t> binding, std::vector<std::size_t> parameter_values);

}  // namespace ychart::synthesis

#if YCHART_HEADER_ONLY
#include "impl/implementation.ipp"
#endif
