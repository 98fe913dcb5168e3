// ychart/mapping/evaluate.hpp
// The exact price of one mapping (docs/mapping.md states the rules): per
// storage level and tensor the tile, the reads and the writes; each level's
// occupancy against its capacities, its energy and the cycles its
// bandwidth needs; the MACs' energy; the latency (the slowest of compute
// and every level's bandwidth), the utilisation of the MAC array, which
// capacity binds and what bounds the latency. It is the oracle the search
// is tested against and the cost both baseline mappers sample.
#pragma once

#include "../config.hpp"
#include "architecture.hpp"
#include "mapping.hpp"
#include "workload.hpp"

#include "../expr/expression.hpp"
#include "../expr/operators.hpp"
#include "../units/dimension.hpp"

#include <array>
#include <string>
#include <vector>

namespace ychart::mapping {

struct TensorAccesses {
  double tile = 0;    // words per instance (0 where the level bypasses the tensor)
  double reads = 0;   // over all instances, the layer through
  double writes = 0;  // outputs: partial sums received
};

struct LevelCost {
  std::string name;
  std::array<TensorAccesses, tensor_count> tensors{};
  double instances = 1;  // the instances the mapping uses
  double occupancy = 0;  // words of all kept tiles, per instance
  Constant<dim::energy> energy{0.0};
  double cycles = 0;     // its accesses per instance over its bandwidth
  const TensorAccesses& operator[](Tensor t) const { return tensors[static_cast<std::size_t>(t)]; }
};

struct Evaluation {
  std::vector<LevelCost> levels;  // innermost first, as in the architecture
  double macs = 0;
  double macs_used = 0;           // spatial instances of the MAC
  double utilisation = 0;         // macs_used over the array's MACs
  double compute_cycles = 0;      // the temporal iterations
  double cycles = 0;              // max of compute and every level's cycles
  Constant<dim::energy> mac_energy{0.0};
  Constant<dim::energy> energy{0.0};  // levels and MACs
  Constant<dim::time> latency{0.0};
  std::string bottleneck;         // "compute" or the level whose bandwidth sets the latency
  bool fits = true;               // every tile within its capacities
  /// The level and tensor (or "shared") whose capacity is fullest, and how full.
  std::string binding_level, binding_tensor;
  double binding_fill = 0;

  /// Energy-delay product in J s.
  double edp() const { return energy.value() * latency.value(); }
};

/// Prices `mapping` (validated first: loopnest_error on a malformed one).
/// A mapping whose tiles overflow a capacity is priced all the same, with
/// `fits` false and the overflowing level in `binding_level`.
YCHART_DECL Evaluation evaluate(const Workload& workload, const Architecture& architecture, const Mapping& mapping);

}  // namespace ychart::mapping

#if YCHART_HEADER_ONLY
#include "impl/evaluate.ipp"
#endif
