// tests/support/mapping_cases.hpp
// Random small layers and memory hierarchies for the mapping class's
// tests: every test that compares a mapper with an oracle draws from here.
#pragma once

#include <ychart/mapping/architecture.hpp>
#include <ychart/mapping/workload.hpp>
#include <ychart/expr/operators.hpp>
#include <ychart/units/unit.hpp>

#include <random>
#include <string>

namespace ychart::test {

/// A layer of at most `max_macs` MACs with extents of 1-6 and strides of 1-2.
inline mapping::Workload random_workload(std::mt19937_64& rng, double max_macs) {
  static constexpr std::int64_t sizes[] = {1, 1, 2, 2, 3, 4, 6};
  std::uniform_int_distribution<int> pick(0, 6), coin(0, 1);
  for (;;) {
    mapping::Workload w{"random", {}, 1 + coin(rng), 1 + coin(rng)};
    for (auto& e : w.extent) e = sizes[pick(rng)];
    if (w.macs() <= max_macs && w.macs() >= 2) return w;
  }
}

/// 2-4 levels; the inner ones keep random tensors in random capacities
/// (per tensor, shared, or none), random fan-outs of 1-3 per axis with or
/// without multicast, random energies and bandwidths.
inline mapping::Architecture random_architecture(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> levels(2, 4), fan(1, 3), coin(0, 1), cap(1, 12), three(0, 2);
  std::uniform_real_distribution<double> energy(0.2, 8.0), bw(0.5, 8.0);
  mapping::Architecture a;
  a.name = "random";
  a.mac_energy = energy(rng) * units::pJ;
  const int n = levels(rng);
  for (int l = 0; l < n; ++l) {
    mapping::StorageLevel s;
    s.name = "L" + std::to_string(l);
    const bool top = l + 1 == n;
    s.read_energy = energy(rng) * (l + 1) * units::pJ;
    s.write_energy = energy(rng) * (l + 1) * units::pJ;
    if (coin(rng)) s.bandwidth = bw(rng);
    s.fanout_x = fan(rng), s.fanout_y = l == 0 ? 1 : fan(rng);
    s.multicast = coin(rng);
    if (!top) {
      for (auto& k : s.keeps) k = three(rng) != 0;
      switch (three(rng)) {
        case 0: for (auto& c : s.capacity) c = cap(rng); break;
        case 1: s.shared_capacity = 3 * cap(rng); break;
        default: break;
      }
    }
    a.levels.push_back(s);
  }
  a.levels.back().fanout_x = std::min<std::int64_t>(a.levels.back().fanout_x, 2);
  return a;
}

}  // namespace ychart::test
