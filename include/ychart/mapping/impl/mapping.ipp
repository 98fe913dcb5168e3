// ychart/mapping/impl/mapping.ipp
// The implementation of ychart/mapping/mapping.hpp.
#pragma once

#include "../../config.hpp"
#include "../../error.hpp"
#include "../mapping.hpp"

#include <sstream>

namespace ychart::mapping {

YCHART_DECL std::vector<Dim> LevelMapping::loop_order() const {
  if (!order.empty()) return order;
  return {all_dims.begin(), all_dims.end()};
}

YCHART_DECL void Mapping::validate(const Workload& w, const Architecture& a) const {
  const auto fail = [&](const std::string& what, const std::string& element) {
    throw loopnest_error("ychart: mapping of `" + w.name + "` on `" + a.name + "`: " + what, element);
  };
  if (levels.size() != a.levels.size())
    fail("has " + std::to_string(levels.size()) + " levels, the architecture " + std::to_string(a.levels.size()), a.name);
  DimVector product{1, 1, 1, 1, 1, 1, 1};
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const auto& m = levels[l];
    const auto& level = a.levels[l];
    std::int64_t x = 1, y = 1;
    for (Dim d : all_dims) {
      const auto loop = " loop " + std::string(name(d));
      if (at(m.temporal, d) <= 0 || at(m.spatial_x, d) <= 0 || at(m.spatial_y, d) <= 0)
        fail("level `" + level.name + "`:" + loop + " has a factor below 1", level.name);
      at(product, d) *= at(m.temporal, d) * m.spatial(d);
      x *= at(m.spatial_x, d), y *= at(m.spatial_y, d);
    }
    if (x > level.fanout_x || y > level.fanout_y)
      fail("level `" + level.name + "`: spatial factors " + std::to_string(x) + " x " + std::to_string(y) +
               " exceed its fan-out of " + std::to_string(level.fanout_x) + " x " + std::to_string(level.fanout_y),
           level.name);
    if (!m.order.empty()) {
      std::array<int, dim_count> seen{};
      for (Dim d : m.order) {
        const int i = static_cast<int>(d);
        if (i < 0 || i >= dim_count) fail("level `" + level.name + "`: the loop order names an unknown loop", level.name);
        if (seen[static_cast<std::size_t>(i)]++)
          fail("level `" + level.name + "`: the loop order names loop " + std::string(name(d)) + " twice", level.name);
      }
      if (m.order.size() != dim_count) fail("level `" + level.name + "`: the loop order must name all seven loops", level.name);
    }
  }
  for (Dim d : all_dims)
    if (at(product, d) != w[d])
      fail("the factors of loop " + std::string(name(d)) + " multiply to " + std::to_string(at(product, d)) +
               ", not its extent " + std::to_string(w[d]),
           std::string(name(d)));
}

YCHART_DECL std::string Mapping::nest(const Workload& w, const Architecture& a) const {
  std::ostringstream out;
  std::string indent;
  for (std::size_t l = levels.size(); l-- > 0;) {
    out << indent << "// " << a.levels[l].name << "\n";
    for (Dim d : levels[l].loop_order())
      if (at(levels[l].temporal, d) > 1)
        out << indent << "for " << name(d) << l << " in [0, " << at(levels[l].temporal, d) << ")\n", indent += "  ";
    for (const auto* axis : {&levels[l].spatial_y, &levels[l].spatial_x})
      for (Dim d : all_dims)
        if (at(*axis, d) > 1)
          out << indent << "spatial_for " << name(d) << l << (axis == &levels[l].spatial_x ? "x" : "y") << " in [0, "
              << at(*axis, d) << ")\n",
              indent += "  ";
  }
  out << indent << "MAC  // " << w.name << "\n";
  return out.str();
}

}  // namespace ychart::mapping
