// ychart/mapping/objective.hpp
// What a mapper minimises: energy, latency or their product, read off an
// Evaluation in SI units (J, s, J s).
#pragma once

#include "evaluate.hpp"

#include <string_view>

namespace ychart::mapping {

enum class Objective { energy, latency, energy_delay };

/// The objective of a mapping with this energy (J) and latency (s).
inline double objective_value(Objective o, double energy, double latency) {
  switch (o) {
    case Objective::energy: return energy;
    case Objective::latency: return latency;
    case Objective::energy_delay: return energy * latency;
  }
  return energy;
}

inline double objective_value(const Evaluation& e, Objective o) { return objective_value(o, e.energy.value(), e.latency.value()); }

inline std::string_view name(Objective o) {
  switch (o) {
    case Objective::energy: return "energy";
    case Objective::latency: return "latency";
    case Objective::energy_delay: return "energy-delay";
  }
  return "energy";
}

}  // namespace ychart::mapping
