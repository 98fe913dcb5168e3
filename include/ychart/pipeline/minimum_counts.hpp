// ychart/pipeline/minimum_counts.hpp
// The counts every mapping of a pipeline needs (study 001 eqs. 6.7 and
// 6.8), written once for the exact models and the thesis baselines: the
// compute units a kernel needs to meet an initiation interval, and the
// devices whose capacity holds a total resource need as a fractional
// packing. Both round up with tolerances::ceil, so a quotient computed as
// 4.0000000000000004 counts 4.
#pragma once

#include "../model/tolerances.hpp"
#include "../expr/expression.hpp"
#include "../units/unit.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace ychart::pipeline {

/// Eq. 6.7: the least N with Twc / N <= II, at least 1.
inline int minimum_cus(Constant<dim::time> wcet, Constant<dim::time> ii) {
  return std::max(1, static_cast<int>(tolerances::ceil(wcet.in(units::ms) / ii.in(units::ms))));
}

/// Eq. 6.8 for given needs: max over resources of ceil(need_t / capacity_t),
/// at least 1; the largest int when a resource is needed that a device
/// lacks (capacity 0).
inline int devices_to_hold(const std::vector<double>& need, const std::vector<double>& capacity) {
  int devices = 1;
  for (std::size_t t = 0; t < need.size() && t < capacity.size(); ++t) {
    if (!(need[t] > 0)) continue;
    if (!(capacity[t] > 0)) return std::numeric_limits<int>::max();
    const double d = tolerances::ceil(need[t] / capacity[t]);
    if (d >= double(std::numeric_limits<int>::max())) return std::numeric_limits<int>::max();
    devices = std::max(devices, static_cast<int>(d));
  }
  return devices;
}

}  // namespace ychart::pipeline
