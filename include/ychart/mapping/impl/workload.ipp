// ychart/mapping/impl/workload.ipp
// The implementation of ychart/mapping/workload.hpp.
#pragma once

#include "../../config.hpp"
#include "../../error.hpp"
#include "../workload.hpp"

namespace ychart::mapping {

YCHART_DECL std::string_view name(Dim d) {
  static constexpr std::array<std::string_view, dim_count> names{"N", "K", "C", "P", "Q", "R", "S"};
  return names[static_cast<std::size_t>(d)];
}

YCHART_DECL std::string_view name(Tensor t) {
  static constexpr std::array<std::string_view, tensor_count> names{"weights", "inputs", "outputs"};
  return names[static_cast<std::size_t>(t)];
}

YCHART_DECL double Workload::macs() const {
  double m = 1;
  for (auto e : extent) m *= static_cast<double>(e);
  return m;
}

YCHART_DECL double Workload::tile_size(Tensor t, const DimVector& f) const {
  const auto d = [&](Dim x) { return static_cast<double>(at(f, x)); };
  switch (t) {
    case Tensor::weights: return d(Dim::K) * d(Dim::C) * d(Dim::R) * d(Dim::S);
    case Tensor::outputs: return d(Dim::N) * d(Dim::K) * d(Dim::P) * d(Dim::Q);
    case Tensor::inputs:
      return d(Dim::N) * d(Dim::C) * static_cast<double>(window(at(f, Dim::P), at(f, Dim::R), stride_h)) *
             static_cast<double>(window(at(f, Dim::Q), at(f, Dim::S), stride_w));
  }
  return 0;
}

YCHART_DECL void Workload::validate() const {
  for (Dim d : all_dims)
    if (at(extent, d) <= 0)
      throw loopnest_error("ychart: workload `" + name + "`: loop " + std::string(mapping::name(d)) +
                               " has extent " + std::to_string(at(extent, d)) + "; extents must be positive",
                           name);
  if (stride_h <= 0 || stride_w <= 0)
    throw loopnest_error("ychart: workload `" + name + "`: strides must be positive", name);
}

}  // namespace ychart::mapping
