// ychart/mapping/mapping.hpp
// A mapping of a workload onto an architecture: per storage level, the
// temporal factor of every loop (the loop runs that many times at that
// level), the spatial factors per array dimension (the fan-out below the
// level splits the loop over X and Y), and the order of the level's
// temporal loops. The nest, outermost first, is: the last level's temporal
// loops in its order, then its spatial loops, then the level below's, down
// to level 0's spatial loops and the MAC.
#pragma once

#include "../config.hpp"
#include "architecture.hpp"
#include "workload.hpp"

#include <string>
#include <vector>

namespace ychart::mapping {

struct LevelMapping {
  DimVector temporal{1, 1, 1, 1, 1, 1, 1};
  DimVector spatial_x{1, 1, 1, 1, 1, 1, 1}, spatial_y{1, 1, 1, 1, 1, 1, 1};
  /// The temporal loops outermost first, each loop once; empty means
  /// N, K, C, P, Q, R, S.
  std::vector<Dim> order;

  /// The loop order with the empty default spelled out.
  YCHART_DECL std::vector<Dim> loop_order() const;
  std::int64_t spatial(Dim d) const { return at(spatial_x, d) * at(spatial_y, d); }
};

struct Mapping {
  std::vector<LevelMapping> levels;  // one per storage level, innermost first

  /// Every loop's factors multiply to its extent; no array dimension holds
  /// more than its fan-out; each order names each loop once. Throws
  /// loopnest_error naming the level (and the loop) otherwise.
  YCHART_DECL void validate(const Workload& workload, const Architecture& architecture) const;
  /// The nest as Timeloop prints it: one line per loop, outermost first.
  YCHART_DECL std::string nest(const Workload& workload, const Architecture& architecture) const;
};

}  // namespace ychart::mapping

#if YCHART_HEADER_ONLY
#include "impl/mapping.ipp"
#endif
