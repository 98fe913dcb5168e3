// ychart/loopnest/impl/platform.ipp
// The implementation of ychart/loopnest/platform.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../platform.hpp"

namespace ychart::loopnest {

YCHART_DECL void Platform::validate() const {
  auto fail = [&](const std::string& what) { throw loopnest_error("ychart: platform `" + name + "`: " + what, name); };
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

YCHART_DECL Platform combine(const std::string& name, const std::vector<Platform>& boards) {
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
