// ychart/mapping/detail/orders.hpp
// Which loop orders a mapper needs to try. A tensor's tile in a child stays
// only while the innermost loops above it ignore the tensor; each loop
// ignores exactly one tensor, so at each level only which group of loops
// is innermost (N P Q: weights stay; K: inputs stay; C R S: outputs stay)
// changes a count, and any order is matched or beaten by the order that
// puts its own innermost group innermost whole (docs/mapping.md).
#pragma once

#include "../workload.hpp"

#include <vector>

namespace ychart::mapping::detail {

/// The order, outermost first, whose innermost loops are those that ignore `stays`.
inline std::vector<Dim> order_with_innermost(Tensor stays) {
  std::vector<Dim> order;
  for (Tensor g : all_tensors)
    if (g != stays)
      for (Dim d : all_dims)
        if (ignored_by(d) == g) order.push_back(d);
  for (Dim d : all_dims)
    if (ignored_by(d) == stays) order.push_back(d);
  return order;
}

/// The groups with a loop of more than one iteration among `temporal`: the
/// innermost choices that differ. One choice (weights) when none has.
inline std::vector<Tensor> innermost_choices(const DimVector& temporal) {
  std::vector<Tensor> groups;
  for (Tensor g : all_tensors)
    for (Dim d : all_dims)
      if (ignored_by(d) == g && at(temporal, d) > 1) {
        groups.push_back(g);
        break;
      }
  if (groups.empty()) groups.push_back(Tensor::weights);
  return groups;
}

}  // namespace ychart::mapping::detail
