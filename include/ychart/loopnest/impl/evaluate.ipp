// ychart/loopnest/impl/evaluate.ipp
// The implementation of ychart/loopnest/evaluate.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../evaluate.hpp"

namespace ychart::loopnest {


YCHART_DECL LayerEstimate evaluate_layer(const Layer& layer, const Platform& platform, std::size_t processor,
                                         const RefineOptions& options) {
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
