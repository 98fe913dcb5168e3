// ychart/mapping/architecture.hpp
// The accelerator of the loop-nest mapping class: a memory hierarchy of
// storage levels, innermost (register files) first, outermost (DRAM) last.
// Each level keeps some tensors (the others bypass it), holds them in a
// capacity per tensor or a shared one, costs an energy per word read and
// written, moves a bandwidth in words per cycle per instance, and fans out
// to an X x Y array of the level below (a PE array), with or without
// multicast. Below level 0 are the MAC units.
#pragma once

#include "../config.hpp"
#include "workload.hpp"

#include "../expr/expression.hpp"
#include "../units/dimension.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ychart::mapping {

struct StorageLevel {
  std::string name;
  /// Which tensors the level stores; the others pass through it.
  std::array<bool, tensor_count> keeps{true, true, true};
  /// Words per tensor (absent: no limit of its own) ...
  std::array<std::optional<std::int64_t>, tensor_count> capacity{};
  /// ... and words for all the kept tensors together (absent: no limit).
  std::optional<std::int64_t> shared_capacity;
  Constant<dim::energy> read_energy{0.0}, write_energy{0.0};  // per word
  /// Words per cycle per instance; absent: never the bottleneck.
  std::optional<double> bandwidth;
  /// The array of instances of the level below (or of MACs below level 0)
  /// that one instance of this level feeds.
  std::int64_t fanout_x = 1, fanout_y = 1;
  /// Whether one read feeds every child that needs the same tile.
  bool multicast = true;

  bool keeps_tensor(Tensor t) const { return keeps[static_cast<std::size_t>(t)]; }
  std::optional<std::int64_t> capacity_of(Tensor t) const { return capacity[static_cast<std::size_t>(t)]; }
};

struct Architecture {
  std::string name;
  std::vector<StorageLevel> levels;  // innermost first; the last (DRAM) keeps every tensor
  Constant<dim::energy> mac_energy{0.0};
  Constant<dim::frequency> clock{1e9};

  /// MAC units in all: the product of every level's fan-out.
  YCHART_DECL double macs_available() const;
  /// Throws loopnest_error naming the architecture or the level: no levels,
  /// an outermost level that does not keep every tensor, a non-positive
  /// capacity, energy, bandwidth, fan-out or clock.
  YCHART_DECL void validate() const;
};

}  // namespace ychart::mapping

#if YCHART_HEADER_ONLY
#include "impl/architecture.ipp"
#endif
