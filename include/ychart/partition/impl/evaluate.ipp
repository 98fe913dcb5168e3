// ychart/partition/impl/evaluate.ipp
// The implementation of ychart/partition/evaluate.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../../model/tolerances.hpp"
#include "../evaluate.hpp"

namespace ychart::partition {

YCHART_DECL Constant<dim::data> boundary_tensor(const SequentialGraph& g, std::size_t i) {
  return i == 0 ? g.input : g.segments[i - 1].output;
}

YCHART_DECL PartitionCost evaluate(const SequentialGraph& g, const Platform& p, const std::vector<NodeRange>& ranges,
                                   Schedule schedule) {
  g.validate();
  p.validate();
  const auto on = detail::segments_on_fpga(g, ranges);
  PartitionCost c;
  double cpu = 0, cycles = 0, in = 0, out = 0;
  for (std::size_t i = 0; i < g.segments.size(); ++i) {
    const auto& s = g.segments[i];
    if (on[i]) {
      cycles += s.fpga_cycles;
      c.fpga_max_node_cycles = std::max(c.fpga_max_node_cycles, s.fpga_max_node_cycles);
      c.used += s.fpga;
    } else {
      cpu += s.cpu_time.value() / p.cpu_speedup;
    }
  }
  for (const auto& [first, last] : detail::runs_of(on)) {
    in += p.to_fpga(boundary_tensor(g, std::size_t(first))).value();
    out += p.from_fpga(g.segments[std::size_t(last)].output).value();
    c.fpga.push_back({g.segments[std::size_t(first)].first_node, g.segments[std::size_t(last)].end_node});
  }
  c.cpu = Constant<dim::time>(cpu);
  c.fpga_compute = Constant<dim::time>(cycles / p.fpga.clock.value());  // cycles / Hz = s
  c.to_fpga = Constant<dim::time>(in);
  c.from_fpga = Constant<dim::time>(out);
  c.latency = c.cpu + c.fpga_compute + c.to_fpga + c.from_fpga;
  c.interval = schedule == Schedule::sequential
                   ? c.latency
                   : Constant<dim::time>(std::max({cpu, in + out, c.fpga_max_node_cycles / p.fpga.clock.value()}));
  const auto need = c.used.counts(), have = p.fpga.budget.counts();
  for (std::size_t k = 0; k < need.size(); ++k)
    if (need[k] > have[k] * (1 + tolerances::ulps)) {
      c.fits = false;
      if (c.over_budget.empty()) c.over_budget = FpgaFootprint::kind_name(k);
    }
  return c;
}

}  // namespace ychart::partition
