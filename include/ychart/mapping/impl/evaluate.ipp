// ychart/mapping/impl/evaluate.ipp
// The implementation of ychart/mapping/evaluate.hpp.
#pragma once

#include "../../config.hpp"
#include "../detail/traffic.hpp"
#include "../evaluate.hpp"

#include <algorithm>

namespace ychart::mapping {

namespace detail {

/// Occupancy of level `l` and whether each capacity holds; updates the
/// evaluation's fullest capacity.
inline void price_capacity(const Workload& w, const Architecture& a, const Mapping& m, int l, Evaluation& e) {
  const auto& level = a.levels[static_cast<std::size_t>(l)];
  auto& cost = e.levels[static_cast<std::size_t>(l)];
  const DimVector shape = tile_shape(w, m, l);
  const auto note = [&](double used, std::int64_t capacity, std::string_view tensor) {
    const double fill = used / static_cast<double>(capacity);
    if (fill > 1) e.fits = false;
    if (fill > e.binding_fill) e.binding_fill = fill, e.binding_level = level.name, e.binding_tensor = tensor;
  };
  for (Tensor t : all_tensors) {
    if (!level.keeps_tensor(t)) continue;
    const double tile = w.tile_size(t, shape);
    cost.tensors[static_cast<std::size_t>(t)].tile = tile;
    cost.occupancy += tile;
    if (auto c = level.capacity_of(t)) note(tile, *c, name(t));
  }
  if (level.shared_capacity) note(cost.occupancy, *level.shared_capacity, "shared");
}

}  // namespace detail

YCHART_DECL Evaluation evaluate(const Workload& w, const Architecture& a, const Mapping& m) {
  w.validate();
  a.validate();
  m.validate(w, a);
  Evaluation e;
  const int top = static_cast<int>(a.levels.size()) - 1;
  e.levels.resize(a.levels.size());
  for (int l = 0; l <= top; ++l) {
    e.levels[static_cast<std::size_t>(l)].name = a.levels[static_cast<std::size_t>(l)].name;
    e.levels[static_cast<std::size_t>(l)].instances = detail::used_instances(m, l);
    detail::price_capacity(w, a, m, l, e);
  }
  for (Tensor t : all_tensors) {
    const auto ti = static_cast<std::size_t>(t);
    for (int child = detail::mac_child; child < top; ++child) {
      if (child != detail::mac_child && !a.levels[static_cast<std::size_t>(child)].keeps_tensor(t)) continue;
      const auto traffic = detail::child_traffic(w, a, m, t, child);
      auto& parent = e.levels[static_cast<std::size_t>(detail::parent_of(a, t, child))].tensors[ti];
      if (t == Tensor::outputs) {
        parent.writes += traffic.words;
        if (child != detail::mac_child) e.levels[static_cast<std::size_t>(child)].tensors[ti].reads += traffic.words;
      } else {
        parent.reads += traffic.parent_reads;
        if (child != detail::mac_child) e.levels[static_cast<std::size_t>(child)].tensors[ti].writes += traffic.words;
      }
    }
  }
  e.macs = w.macs();
  e.macs_used = detail::used_instances(m, detail::mac_child);
  e.utilisation = e.macs_used / a.macs_available();
  e.compute_cycles = e.macs / e.macs_used;
  e.cycles = e.compute_cycles;
  e.bottleneck = "compute";
  e.mac_energy = e.macs * a.mac_energy;
  double energy = e.mac_energy.value();
  for (int l = 0; l <= top; ++l) {
    const auto& level = a.levels[static_cast<std::size_t>(l)];
    auto& cost = e.levels[static_cast<std::size_t>(l)];
    double reads = 0, writes = 0;
    for (const auto& acc : cost.tensors) reads += acc.reads, writes += acc.writes;
    cost.energy = reads * level.read_energy + writes * level.write_energy;
    energy += cost.energy.value();
    if (level.bandwidth) cost.cycles = (reads + writes) / (cost.instances * *level.bandwidth);
    if (cost.cycles > e.cycles) e.cycles = cost.cycles, e.bottleneck = level.name;
  }
  e.energy = Constant<dim::energy>(energy);
  e.latency = Constant<dim::time>(e.cycles / a.clock.value());
  return e;
}

}  // namespace ychart::mapping
