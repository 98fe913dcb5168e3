// ychart/synthesis/pareto.hpp
// Exact two-objective fronts of a synthesis problem by the epsilon-
// constraint method (dse::pareto_walk): least cost, then least cost with
// the second objective strictly below the last point's, until nothing is
// feasible. Each point is a proven optimum, so the front is exact --
// where the thesis assembled its (cost, SHAVEs) front from single-
// objective EA runs (Fig. 7.5). Second objectives: a parameter's value
// (0 while its resource is unallocated), the power, or the number of
// allocated processors.
#pragma once

#include "synthesis_model.hpp"

#include "../dse/pareto.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::synthesis {

enum class SecondObjective { parameter, power, processors };

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
inline Front pareto_front(const Specification& spec, const IndexedSpecification& ix, SecondObjective second,
                          std::size_t parameter = 0, const SolveOptions& solve_options = {}) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto& params = spec.architecture.parameters;
  if (second == SecondObjective::parameter && parameter >= params.size())
    throw specification_error("ychart: pareto_front: the architecture has no parameter " + std::to_string(parameter), "");
  // The step below each point: half the smallest gap between values the
  // second objective can take (a parameter's values and 0; whole numbers
  // of processors).
  double step = 0.5;
  if (second == SecondObjective::parameter) {
    auto v = params[parameter].values;
    v.push_back(0.0);
    std::sort(v.begin(), v.end());
    for (std::size_t k = 1; k < v.size(); ++k)
      if (v[k] > v[k - 1]) step = std::min(step, 0.5 * (v[k] - v[k - 1]));
  }
  if (second == SecondObjective::power) {
    // Above GLPK's feasibility tolerance: powers closer than a millionth
    // of the largest total count as one.
    double total = 0;
    for (const auto& r : spec.architecture.resources) total += r.power.value();
    for (const auto& p : params)
      for (const auto& w : p.power) total += w.value();
    step = 1e-6 * std::max(1.0, total);
  }
  Front front;
  auto solve = [&](double epsilon) -> std::optional<dse::ParetoPoint<SynthesisResult>> {
    SynthesisOptions o;
    if (epsilon < 0) return std::nullopt;  // every second objective here is >= 0
    if (std::isfinite(epsilon)) {
      switch (second) {
        case SecondObjective::parameter: o.parameter_limit = std::make_pair(parameter, epsilon); break;
        case SecondObjective::power: o.power_limit = Constant<dim::power>{epsilon}; break;
        case SecondObjective::processors:
          o.processor_limit = static_cast<std::size_t>(std::floor(epsilon));
          break;
      }
    }
    auto r = solve_synthesis(spec, ix, o, solve_options);
    ++front.solves;
    if (r.status == Status::infeasible) return std::nullopt;
    if (r.status != Status::optimal) front.proven = false;
    if (!r.implementation) return std::nullopt;
    double y = 0;
    switch (second) {
      case SecondObjective::parameter: y = r.breakdown.parameter_value[parameter]; break;
      case SecondObjective::power: y = r.breakdown.power; break;
      case SecondObjective::processors: y = static_cast<double>(r.breakdown.allocated_processors); break;
    }
    dse::ParetoPoint<SynthesisResult> p;
    p.first = r.cost;
    p.second = y;
    p.epsilon = epsilon;
    p.payload = std::move(r);
    return p;
  };
  for (auto& p : dse::pareto_walk(solve, step, 1000, solve_options.progress))
    front.points.push_back({p.first, p.second, std::move(p.payload)});
  front.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return front;
}

}  // namespace ychart::synthesis
