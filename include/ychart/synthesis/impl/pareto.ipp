// ychart/synthesis/impl/pareto.ipp
// The implementation of ychart/synthesis/pareto.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../pareto.hpp"

namespace ychart::synthesis {


YCHART_DECL Front pareto_front(const Specification& spec, const IndexedSpecification& ix, SecondObjective second,
                               std::size_t parameter, const SolveOptions& solve_options) {
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
    constexpr double relative_step = 1e-6;
    step = relative_step * std::max(1.0, total);
  }
  Front front;
  auto solve = [&](double epsilon) -> std::optional<explore::ParetoPoint<SynthesisResult>> {
    SynthesisOptions o;
    o.then_minimize = second;  // the least second objective at each point's cost
    o.then_minimize_parameter = parameter;
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
    explore::ParetoPoint<SynthesisResult> p;
    p.first = r.objective;
    p.second = y;
    p.epsilon = epsilon;
    p.payload = std::move(r);
    return p;
  };
  for (auto& p : explore::pareto_walk(solve, step, 1000, solve_options.progress))
    front.points.push_back({p.first, p.second, std::move(p.payload)});
  front.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return front;
}

}  // namespace ychart::synthesis
