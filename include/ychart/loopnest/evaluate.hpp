// ychart/loopnest/evaluate.hpp
// ALOHA's layer analysis (study 002, section VI-C) on the refined nest:
// OPS_th and OPS_re, the traffic of every channel (Eq. 7, repeated transfers
// included), the per-channel roofline plus the overhead,
//   t = max(OPS_re / AP_max, max_ch traffic_ch / bw_ch) + ov      (Eqs. 8, 9)
// written as times, so that no ratio of sums is formed, and the energy
//   En = P_act t + E_bit b_acc                                    (Eq. 13).
// Beside it, the two estimates the paper compares with: the OPS count
// (Eq. 1, OPS_th / AP_max) and the Roofline (Eq. 6 with Eq. 4's traffic and,
// since the paper leaves the off-chip bandwidth unstated, the sum of the
// bandwidths of the channels the processor uses).
#pragma once

#include "layer.hpp"
#include "platform.hpp"
#include "refine.hpp"

#include "../expr/operators.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ychart::loopnest {

struct ChannelLoad {
  std::size_t channel = 0;
  Constant<dim::data> traffic{0.0};
  Constant<dim::time> time{0.0};
};

struct LayerEstimate {
  RefinedNest nest;
  std::size_t processor = 0;
  Constant<dim::operations> ops_th{0.0}, ops_re{0.0};
  Constant<dim::time> compute{0.0};  // OPS_re / AP_max
  std::vector<ChannelLoad> channels;  // the channels the layer uses, in platform order
  Constant<dim::time> latency{0.0};   // Eqs. 8 and 9
  std::string bottleneck;              // the slowest channel's id, or "compute"
  Constant<dim::data> accessed{0.0};  // b_acc: every byte moved
  std::optional<Constant<dim::energy>> energy;  // Eq. 13; absent without an active power
  Constant<dim::time> ops_estimate{0.0}, roofline_estimate{0.0};

  /// 1 - OPS_th / OPS_re: the share of the refined work that rounding adds.
  double rounding_underestimation() const { return 1.0 - ops_th.value() / ops_re.value(); }
};

/// The layer on processor `processor` of the platform (which must be valid).
inline LayerEstimate evaluate_layer(const Layer& layer, const Platform& platform, std::size_t processor,
                                    const RefineOptions& options = {}) {
  const auto& p = platform.processors.at(processor);
  LayerEstimate e;
  e.nest = refine(layer, p, platform, options);
  e.processor = processor;
  e.ops_th = e.nest.ops_theoretical();
  e.ops_re = e.nest.ops_refined();
  e.compute = e.ops_re / p.peak;
  double worst = e.compute.value(), accessed = 0;
  e.bottleneck = "compute";
  for (std::size_t c = 0; c < platform.channels.size(); ++c) {
    double bytes = 0;
    bool used = false;
    for (const auto& t : e.nest.transfers)
      if (t.present && t.channel == c) bytes += t.total(), used = true;
    if (!used) continue;
    ChannelLoad load{c, Constant<dim::data>(bytes), Constant<dim::data>(bytes) / platform.channels[c].bandwidth};
    accessed += bytes;
    if (load.time.value() > worst) worst = load.time.value(), e.bottleneck = platform.channels[c].id;
    e.channels.push_back(load);
  }
  e.latency = Constant<dim::time>(worst) + p.overhead;
  e.accessed = Constant<dim::data>(accessed);
  if (p.active_power) {
    const double per_byte = p.energy_per_byte ? p.energy_per_byte->value() : 0.0;
    e.energy = Constant<dim::energy>(p.active_power->value() * e.latency.value() + per_byte * accessed);
  }
  // The paper's two baselines.
  e.ops_estimate = e.ops_th / p.peak;
  const auto& t = e.nest.tensor;
  const double element = layer.element.value();
  const double x = double(layer.batch) * double(layer.input.channels * layer.input.height * layer.input.width);
  const double y = double(layer.batch) * double(layer.output.channels * layer.output.height * layer.output.width);
  const double w = t.has_weights ? double(t[Loop::IF]) * double(t[Loop::OF]) * double(t[Loop::KH]) * double(t[Loop::KW]) : 0;
  double bandwidth = 0;
  for (const auto& c : e.channels) bandwidth += platform.channels[c.channel].bandwidth.value();
  e.roofline_estimate =
      Constant<dim::time>(std::max(e.ops_estimate.value(), (x + y + w) * element / bandwidth));
  return e;
}

}  // namespace ychart::loopnest
