// ychart/mapping/impl/architecture.ipp
// The implementation of ychart/mapping/architecture.hpp.
#pragma once

#include "../../config.hpp"
#include "../../error.hpp"
#include "../architecture.hpp"

#include <cmath>

namespace ychart::mapping {

YCHART_DECL double Architecture::macs_available() const {
  double m = 1;
  for (const auto& l : levels) m *= static_cast<double>(l.fanout_x * l.fanout_y);
  return m;
}

YCHART_DECL void Architecture::validate() const {
  const auto fail = [&](const std::string& what, const std::string& element) {
    throw loopnest_error("ychart: architecture `" + name + "`: " + what, element);
  };
  if (levels.empty()) fail("has no storage level", name);
  if (!(mac_energy.value() > 0) || !std::isfinite(mac_energy.value())) fail("the MAC energy must be positive", name);
  if (!(clock.value() > 0) || !std::isfinite(clock.value())) fail("the clock must be positive", name);
  for (const auto& l : levels) {
    const auto at_level = [&](const std::string& what) { fail("level `" + l.name + "`: " + what, l.name); };
    for (Tensor t : all_tensors)
      if (auto c = l.capacity_of(t); c && *c <= 0)
        at_level("the capacity for " + std::string(mapping::name(t)) + " must be positive, not " + std::to_string(*c));
    if (l.shared_capacity && *l.shared_capacity <= 0) at_level("the shared capacity must be positive");
    if (!(l.read_energy.value() > 0) || !std::isfinite(l.read_energy.value())) at_level("the read energy must be positive");
    if (!(l.write_energy.value() > 0) || !std::isfinite(l.write_energy.value())) at_level("the write energy must be positive");
    if (l.bandwidth && !(*l.bandwidth > 0 && std::isfinite(*l.bandwidth))) at_level("the bandwidth must be positive");
    if (l.fanout_x <= 0 || l.fanout_y <= 0) at_level("the fan-out must be positive");
  }
  for (Tensor t : all_tensors)
    if (!levels.back().keeps_tensor(t))
      fail("the outermost level `" + levels.back().name + "` must keep every tensor; it does not keep " +
               std::string(mapping::name(t)),
           levels.back().name);
}

}  // namespace ychart::mapping
