// ychart/synthesis/pareto.hpp
// Exact two-objective fronts of a synthesis problem by the epsilon-
// constraint method (explore::pareto_walk): least cost, then least cost with
// the second objective strictly below the last point's, until nothing is
// feasible. Each point is a proven optimum, so the front is exact --
// where the thesis assembled its (cost, SHAVEs) front from single-
// objective EA runs (Fig. 7.5). Second objectives: a parameter's value
// (0 while its resource is unallocated), the power, or the number of
// allocated processors. Each point is solved in two stages (the least cost,
// then the least second objective at it), so no point is one of several
// implementations of its cost that a cheaper-in-the-second one beats.
#pragma once

#include "../config.hpp"
#include "synthesis_model.hpp"

#include "../explore/pareto.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::synthesis {

struct FrontPoint {
  double cost = 0;    // seconds
  double second = 0;  // the parameter's value, watts, or processors
  SynthesisResult result;
};

struct Front {
  std::vector<FrontPoint> points;  // by increasing second objective
  bool proven = true;              // every solve ended optimal (or infeasible, which ends the walk)
  std::size_t solves = 0;
  double seconds = 0;
};

/// The front of cost against `second`; `parameter` names the parameter
/// for SecondObjective::parameter.
YCHART_DECL Front pareto_front(const Specification& spec, const IndexedSpecification& ix, SecondObjective second,
                               std::size_t parameter = 0, const SolveOptions& solve_options = {});

}  // namespace ychart::synthesis

#if YCHART_HEADER_ONLY
#include "impl/pareto.ipp"
#endif
