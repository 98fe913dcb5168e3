// ychart/mapping/detail/placements.hpp
// Every way to place one loop's extent over the levels of an architecture:
// a temporal factor per level and a spatial factor per array dimension
// whose fan-out is above one, the factors multiplying to the extent. The
// search decides a mapping loop by loop, choosing one placement for each.
#pragma once

#include "../architecture.hpp"
#include "factors.hpp"

#include <cstdint>
#include <vector>

namespace ychart::mapping::detail {

struct Placement {
  std::vector<std::int64_t> temporal, spatial_x, spatial_y;  // per level
  /// above[c + 1]: the product of every factor of the levels above child c
  /// (c = -1 for the MACs), so above[0] is the extent.
  std::vector<std::int64_t> above;
  /// tile[c + 1]: the extent over above[c + 1], the loop's part of child c's tile.
  std::vector<std::int64_t> tile;
};

inline std::vector<Placement> placements(std::int64_t extent, const Architecture& a) {
  const std::size_t levels = a.levels.size();
  struct Slot {
    std::size_t level;
    int kind;  // 0 temporal, 1 x, 2 y
    std::int64_t limit;
  };
  std::vector<Slot> slots;
  for (std::size_t l = 0; l < levels; ++l) {
    slots.push_back({l, 0, extent});
    if (a.levels[l].fanout_x > 1) slots.push_back({l, 1, a.levels[l].fanout_x});
    if (a.levels[l].fanout_y > 1) slots.push_back({l, 2, a.levels[l].fanout_y});
  }
  std::vector<Placement> out;
  Placement p{std::vector<std::int64_t>(levels, 1), std::vector<std::int64_t>(levels, 1),
              std::vector<std::int64_t>(levels, 1), std::vector<std::int64_t>(levels + 1, 1),
              std::vector<std::int64_t>(levels + 1, 1)};
  const auto finish = [&] {
    std::int64_t product = 1;
    for (std::size_t c = levels; c-- > 0;) {
      p.above[c + 1] = product;
      product *= p.temporal[c] * p.spatial_x[c] * p.spatial_y[c];
    }
    p.above[0] = product;
    for (std::size_t c = 0; c <= levels; ++c) p.tile[c] = extent / p.above[c];
    out.push_back(p);
  };
  const auto factor = [&](const Slot& s) -> std::int64_t& {
    return s.kind == 0 ? p.temporal[s.level] : s.kind == 1 ? p.spatial_x[s.level] : p.spatial_y[s.level];
  };
  const auto place = [&](auto& self, std::size_t i, std::int64_t left) -> void {
    if (i + 1 == slots.size()) {
      if (left > slots[i].limit) return;
      factor(slots[i]) = left;
      finish();
      factor(slots[i]) = 1;
      return;
    }
    for (auto f : divisors(left)) {
      if (f > slots[i].limit) break;
      factor(slots[i]) = f;
      self(self, i + 1, left / f);
      factor(slots[i]) = 1;
    }
  };
  place(place, 0, extent);
  return out;
}

}  // namespace ychart::mapping::detail
