// ychart/loopnest/platform.hpp
// ALOHA's platform model (study 002, Tables 4 and 5), typed in units:
// memories with capacities, I/O channels with bandwidths, and processors with
// a peak, a clock, an n-dimensional parallelism grid, optional power figures
// and a fixed overhead. Each processor carries its computational model (the
// deployment strategy of its library): the loop order, the loop level of each
// transfer, the channel and memory of each data kind (with the loop that
// memory limits), and which loops each parallelism level unrolls.
// combine() makes one platform of several boards. Platform::validate() throws loopnest_error naming the processor and field.
#pragma once

#include "layer.hpp"

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/dimension.hpp"
#include "../units/operations.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace ychart::loopnest {

struct Memory {
  std::string id;
  Constant<dim::data> capacity{0.0};
};

struct IoChannel {
  std::string id;
  Constant<dim::bandwidth> bandwidth{0.0};
};

/// Where one data kind goes: loaded (input, weights) before, or stored
/// (output) after, loop level `level` of the loop order; through channel
/// `channel` into memory `memory` (indices into the platform's lists); the
/// memory limits loop `limited_loop`, which is tiled when it overflows.
struct TransferPlacement {
  int level = 0;
  std::size_t channel = 0;
  std::size_t memory = 0;
  Loop limited_loop = Loop::OF;
};

struct ComputationalModel {
  /// Level k of the loop order runs loop_order[k]. Loops not listed: BS
  /// outside level 0 (Listing 1 has the batch outermost), the others inside
  /// the last level in Listing 1's order (Table 4 omits KW).
  std::vector<Loop> loop_order;
  std::array<TransferPlacement, data_kind_count> transfer{};
  /// Grid level g unrolls these loops; several loops (Jetson's level 2: FH,
  /// FW) are unrolled together over their combined iteration space and must
  /// be adjacent in the loop order.
  std::vector<std::vector<Loop>> unrolls;
};

struct Processor {
  std::string id, type, subtype;
  Constant<dim::throughput> peak{0.0};
  Constant<dim::frequency> frequency{0.0};
  std::vector<long long> parallelism;  // the grid, one factor per level
  std::optional<Constant<dim::power>> active_power, idle_power;
  std::optional<Constant<units::dimension_quotient<dim::energy, dim::data>>> energy_per_byte;  // DDR access
  Constant<dim::time> overhead{0.0};
  ComputationalModel model;
};

struct Platform {
  std::string name;
  std::vector<Memory> memories;
  std::vector<IoChannel> channels;
  std::vector<Processor> processors;

  /// Throws loopnest_error naming the processor and the field at fault.
  void validate() const;

  std::size_t processor_index(const std::string& id) const {
    for (std::size_t k = 0; k < processors.size(); ++k)
      if (processors[k].id == id) return k;
    throw loopnest_error("ychart: platform `" + name + "` has no processor `" + id + "`");
  }
};

inline void Platform::validate() const {
  auto fail = [&](const std::string& what) { throw loopnest_error("ychart: platform `" + name + "`: " + what); };
  auto positive = [&](double v, const std::string& what) {
    if (!(v > 0) || !std::isfinite(v)) fail(what + " must be positive and finite");
  };
  for (const auto& m : memories) positive(m.capacity.value(), "memory `" + m.id + "`: capacity");
  for (const auto& c : channels) positive(c.bandwidth.value(), "channel `" + c.id + "`: bandwidth");
  if (processors.empty()) fail("no processors");
  for (const auto& p : processors) {
    const std::string where = "processor `" + p.id + "`: ";
    positive(p.peak.value(), where + "peak");
    positive(p.frequency.value(), where + "frequency");
    if (!(p.overhead.value() >= 0) || !std::isfinite(p.overhead.value())) fail(where + "overhead must not be negative");
    for (auto power : {p.active_power, p.idle_power})
      if (power && (!(power->value() >= 0) || !std::isfinite(power->value()))) fail(where + "power must not be negative");
    if (p.energy_per_byte && (!(p.energy_per_byte->value() >= 0) || !std::isfinite(p.energy_per_byte->value())))
      fail(where + "energy per bit must not be negative");
    for (std::size_t g = 0; g < p.parallelism.size(); ++g)
      if (p.parallelism[g] < 1 || p.parallelism[g] > (1LL << 24))
        fail(where + "parallelism level " + std::to_string(g) + " = " + std::to_string(p.parallelism[g]) +
             " must be a positive factor");
    const auto& cm = p.model;
    std::array<int, loop_count> level{};
    level.fill(-1);
    for (std::size_t k = 0; k < cm.loop_order.size(); ++k) {
      auto& l = level[std::size_t(cm.loop_order[k])];
      if (l >= 0) fail(where + "loop " + loop_name(cm.loop_order[k]) + " appears twice in the loop order");
      l = int(k);
    }
    if (cm.unrolls.size() > p.parallelism.size())
      fail(where + "the computational model unrolls with parallelism level " + std::to_string(p.parallelism.size()) +
           ", which the processor does not have (it lists " + std::to_string(p.parallelism.size()) + " levels)");
    std::array<bool, loop_count> unrolled{};
    for (std::size_t g = 0; g < cm.unrolls.size(); ++g) {
      const auto& loops = cm.unrolls[g];
      if (loops.empty()) fail(where + "parallelism level " + std::to_string(g) + " unrolls no loop");
      for (std::size_t k = 0; k < loops.size(); ++k) {
        if (unrolled[std::size_t(loops[k])])
          fail(where + "loop " + loop_name(loops[k]) + " is unrolled by two parallelism levels");
        unrolled[std::size_t(loops[k])] = true;
        if (loops.size() > 1 && level[std::size_t(loops[k])] < 0)
          fail(where + "parallelism level " + std::to_string(g) + " unrolls loop " + loop_name(loops[k]) +
               " together with others, so it must appear in the loop order");
        if (k > 0 && level[std::size_t(loops[k])] != level[std::size_t(loops[k - 1])] + 1)
          fail(where + "parallelism level " + std::to_string(g) +
               " unrolls several loops; they must be adjacent in the loop order, in order");
      }
    }
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& t = cm.transfer[std::size_t(d)];
      const std::string kind = std::string(data_kind_name(DataKind(d)));
      if (t.level < 0 || t.level > int(cm.loop_order.size()))
        fail(where + "the " + kind + " transfer is at loop level " + std::to_string(t.level) + "; levels run from 0 to " +
             std::to_string(cm.loop_order.size()));
      if (t.channel >= channels.size()) fail(where + "the " + kind + " transfer uses a channel the platform lacks");
      if (t.memory >= memories.size()) fail(where + "the " + kind + " data goes to a memory the platform lacks");
      // A transfer may not sit between the loops of one unrolled group.
      for (const auto& loops : cm.unrolls)
        for (std::size_t k = 1; k < loops.size(); ++k)
          if (level[std::size_t(loops[k])] == t.level)
            fail(where + "the " + kind + " transfer sits between loops that one parallelism level unrolls together");
      for (int e = 0; e < d; ++e)
        if (cm.transfer[std::size_t(e)].memory == t.memory &&
            cm.transfer[std::size_t(e)].limited_loop != t.limited_loop)
          fail(where + "the " + kind + " and " + data_kind_name(DataKind(e)) + " data share memory `" +
               memories[t.memory].id + "` but name different limited loops");
    }
  }
}

/// Several boards as one platform (study 002 binds to NEURAghe and Jetson
/// together): memories, channels and processors keep their order, their ids
/// get the board's name as a prefix ("NEURAghe.ch0").
inline Platform combine(const std::string& name, const std::vector<Platform>& boards) {
  Platform out;
  out.name = name;
  for (const auto& b : boards) {
    const std::size_t memories = out.memories.size(), channels = out.channels.size();
    for (auto m : b.memories) m.id = b.name + "." + m.id, out.memories.push_back(m);
    for (auto c : b.channels) c.id = b.name + "." + c.id, out.channels.push_back(c);
    for (auto p : b.processors) {
      p.id = b.name + "." + p.id;
      for (auto& t : p.model.transfer) t.channel += channels, t.memory += memories;
      out.processors.push_back(std::move(p));
    }
  }
  out.validate();
  return out;
}

}  // namespace ychart::loopnest
