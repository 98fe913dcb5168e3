// ychart/mapping/detail/traffic.hpp
// The reuse rules that `evaluate` and the search share. A "child" is a
// storage level that keeps a tensor, or the MACs (child -1); its parent is
// the next level up that keeps the same tensor. Everything about the
// traffic into a child depends only on the levels above it, which is what
// lets the search price a child as soon as those levels are chosen.
#pragma once

#include "../architecture.hpp"
#include "../mapping.hpp"
#include "../workload.hpp"

#include <algorithm>
#include <vector>

namespace ychart::mapping::detail {

inline constexpr int mac_child = -1;

/// The product of every factor (temporal and spatial) of the levels above `child`.
inline DimVector upper_product(const Mapping& m, int child) {
  DimVector u{1, 1, 1, 1, 1, 1, 1};
  for (auto l = static_cast<std::size_t>(child + 1); l < m.levels.size(); ++l)
    for (Dim d : all_dims) at(u, d) *= at(m.levels[l].temporal, d) * m.levels[l].spatial(d);
  return u;
}

/// The tile a child holds: the part of every loop below its parent's loops.
inline DimVector tile_shape(const Workload& w, const Mapping& m, int child) {
  DimVector f{1, 1, 1, 1, 1, 1, 1};
  if (child == mac_child) return f;
  const DimVector u = upper_product(m, child);
  for (Dim d : all_dims) at(f, d) = w[d] / at(u, d);
  return f;
}

/// Instances of the child that the mapping uses: the spatial factors above it.
inline double used_instances(const Mapping& m, int child) {
  double n = 1;
  for (auto l = static_cast<std::size_t>(child + 1); l < m.levels.size(); ++l)
    for (Dim d : all_dims) n *= static_cast<double>(m.levels[l].spatial(d));
  return n;
}

/// The temporal reuse of tensor `t` in `child`: the product of the
/// innermost temporal loops above it (levels up, each in its order from
/// the inside) that do not index `t`, up to the first one with more than
/// one iteration that does. While they run the child's tile stays.
inline double temporal_reuse(Tensor t, const Mapping& m, int child) {
  double run = 1;
  for (auto l = static_cast<std::size_t>(child + 1); l < m.levels.size(); ++l) {
    const auto order = m.levels[l].loop_order();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const auto f = at(m.levels[l].temporal, *it);
      if (f == 1) continue;
      if (indexes(t, *it)) return run;
      run *= static_cast<double>(f);
    }
  }
  return run;
}

/// How many times the child's tile changes: every temporal iteration above
/// it but those of its reuse run.
inline double epochs(Tensor t, const Mapping& m, int child) {
  double n = 1;
  for (auto l = static_cast<std::size_t>(child + 1); l < m.levels.size(); ++l)
    for (Dim d : all_dims) n *= static_cast<double>(at(m.levels[l].temporal, d));
  return n / temporal_reuse(t, m, child);
}

/// The next level above `child` that keeps `t` (the outermost keeps all).
inline int parent_of(const Architecture& a, Tensor t, int child) {
  for (auto l = static_cast<std::size_t>(child + 1); l < a.levels.size(); ++l)
    if (a.levels[l].keeps_tensor(t)) return static_cast<int>(l);
  return static_cast<int>(a.levels.size()) - 1;
}

/// Children of one parent instance that receive the same tile at once: the
/// spatial factors, between child and parent, of loops that do not index
/// `t`, on fan-outs that multicast.
inline double multicast_factor(Tensor t, const Architecture& a, const Mapping& m, int child, int parent) {
  double n = 1;
  for (int l = child + 1; l <= parent; ++l) {
    const auto li = static_cast<std::size_t>(l);
    if (!a.levels[li].multicast) continue;
    for (Dim d : all_dims)
      if (!indexes(t, d)) n *= static_cast<double>(m.levels[li].spatial(d));
  }
  return n;
}

/// Words moved into all instances of a child over the layer (for outputs:
/// the partial sums it sends up), and the parent's reads that serve them.
struct ChildTraffic {
  double words = 0;         // into the children (outputs: out of them)
  double parent_reads = 0;  // read-only tensors: after multicast
};

inline ChildTraffic child_traffic(const Workload& w, const Architecture& a, const Mapping& m, Tensor t, int child) {
  const double words = epochs(t, m, child) * w.tile_size(t, tile_shape(w, m, child)) * used_instances(m, child);
  return {words, words / multicast_factor(t, a, m, child, parent_of(a, t, child))};
}

}  // namespace ychart::mapping::detail

namespace ychart::mapping::detail {

/// Energy (J) and cycles of a mapping that is known to be valid, by the
/// same rules as `evaluate`, without its report: what the search prices
/// each complete mapping with.
struct Price {
  double energy = 0, cycles = 0;
};

inline Price price(const Workload& w, const Architecture& a, const Mapping& m) {
  const int top = static_cast<int>(a.levels.size()) - 1;
  std::vector<double> words(a.levels.size(), 0.0);
  Price p{w.macs() * a.mac_energy.value(), 0};
  for (Tensor t : all_tensors)
    for (int child = mac_child; child < top; ++child) {
      if (child != mac_child && !a.levels[static_cast<std::size_t>(child)].keeps_tensor(t)) continue;
      const auto tr = child_traffic(w, a, m, t, child);
      const auto parent = static_cast<std::size_t>(parent_of(a, t, child));
      const bool out = t == Tensor::outputs;
      const double up = out ? tr.words : tr.parent_reads;
      p.energy += up * (out ? a.levels[parent].write_energy : a.levels[parent].read_energy).value();
      words[parent] += up;
      if (child == mac_child) continue;
      const auto c = static_cast<std::size_t>(child);
      p.energy += tr.words * (out ? a.levels[c].read_energy : a.levels[c].write_energy).value();
      words[c] += tr.words;
    }
  p.cycles = w.macs() / used_instances(m, mac_child);
  for (int l = 0; l <= top; ++l)
    if (const auto& bw = a.levels[static_cast<std::size_t>(l)].bandwidth)
      p.cycles = std::max(p.cycles, words[static_cast<std::size_t>(l)] / (used_instances(m, l) * *bw));
  return p;
}

}  // namespace ychart::mapping::detail
