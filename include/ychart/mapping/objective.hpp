// ychart/mapping/objective.hpp
// What a mapper minimises: energy, latency or their product, read off an
// Evaluation in SI units (J, s, J s).
#pragma once

#include "evaluate.hpp"

#include <string_view>

namespace ychart::mapping {

enum class Objective { energy, latency, energy_delay };

inline double objective_value(const Evaluation& e, Objective o) {
  switch (o) {
    case Objective::energy: return e.energy.value();
    case Objective::latency: return e.latency.value();
    case Objective::energy_delay: return e.edp();
  }
  return e.energy.value();
}

inline std::string_view name(Objective o) {
  switch (o) {
    case Objective::energy: return "energy";
    case Objective::latency: return "latency";
    case Objective::energy_delay: return "energy-delay";
  }
  return "energy";
}

}  // namespace ychart::mapping
