// ychart/loopnest/impl/cnn.ipp
// The implementation of ychart/loopnest/cnn.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../cnn.hpp"

namespace ychart::loopnest {


YCHART_DECL CostTable cost_table(const Cnn& cnn, const Platform& platform, const OperatorDistribution& op_dist) {
  platform.validate();
  if (cnn.layers.empty()) throw loopnest_error("ychart: CNN `" + cnn.name + "` has no layers", cnn.name);
  CostTable t;
  t.layers = cnn.layers.size();
  t.processors = platform.processors.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  t.time_s.assign(t.layers * t.processors, nan);
  t.energy_j = t.bytes = t.time_s;
  t.why.assign(t.time_s.size(), "");
  for (std::size_t i = 0; i < t.layers; ++i) {
    const auto& layer = cnn.layers[i];
    t.layer_names.push_back(layer.name);
    std::string reasons;
    for (std::size_t j = 0; j < t.processors; ++j) {
      const auto& p = platform.processors[j];
      if (!op_dist.allows(layer.op, p)) {
        t.why[t.at(i, j)] = std::string("the operator distribution keeps ") + operator_name(layer.op) +
                            " off processors of type " + p.type;
      } else {
        try {
          const auto e = evaluate_layer(layer, platform, j);
          t.time_s[t.at(i, j)] = e.latency.value();
          t.energy_j[t.at(i, j)] = e.energy ? e.energy->value() : nan;
          t.bytes[t.at(i, j)] = e.accessed.value();
          continue;
        } catch (const tiling_error& error) {
          t.why[t.at(i, j)] = error.what();
        }
      }
      reasons += "\n  " + p.id + ": " + t.why[t.at(i, j)];
    }
    bool any = false;
    for (std::size_t j = 0; j < t.processors; ++j) any = any || t.allowed(i, j);
    if (!any) throw loopnest_error("ychart: no processor can run layer `" + layer.name + "`:" + reasons, layer.name);
  }
  return t;
}

YCHART_DECL Binding sequential_schedule(const CostTable& t) {
  Binding b(t.layers);
  for (std::size_t i = 0; i < t.layers; ++i) {
    std::size_t best = t.processors;
    for (std::size_t j = 0; j < t.processors; ++j)
      if (t.allowed(i, j) && (best == t.processors || t.time(i, j) < t.time(i, best))) best = j;
    b[i] = best;
  }
  return b;
}

YCHART_DECL CnnMetrics evaluate_schedule(const CostTable& t, const Platform& platform, const Binding& b, bool pipeline,
                                         std::optional<Constant<dim::time>> frame) {
  if (b.size() != t.layers) throw loopnest_error("ychart: the binding has " + std::to_string(b.size()) +
                                                 " entries for " + std::to_string(t.layers) + " layers");
  CnnMetrics m;
  m.busy_s.assign(t.processors, 0.0);
  double clock = 0, active = 0;
  bool energy_known = true;
  for (std::size_t i = 0; i < t.layers; ++i) {
    if (b[i] >= t.processors || !t.allowed(i, b[i]))
      throw loopnest_error("ychart: layer `" + t.layer_names[i] + "` cannot run on processor " +
                           (b[i] < t.processors ? "`" + platform.processors[b[i]].id + "`: " + t.why[t.at(i, b[i])]
                                                : std::to_string(b[i])), t.layer_names[i]);
    m.start_s.push_back(clock);
    clock += t.time(i, b[i]);
    m.busy_s[b[i]] += t.time(i, b[i]);
    if (std::isnan(t.energy(i, b[i]))) energy_known = false;
    else active += t.energy(i, b[i]);
  }
  m.latency = Constant<dim::time>(clock);
  double interval = clock;
  if (pipeline) {
    interval = 0;
    for (double busy : m.busy_s) interval = std::max(interval, busy);
  }
  m.throughput = Constant<dim::frequency>(1.0 / interval);
  if (energy_known) {
    const double period = frame ? frame->value() : interval;
    double idle = 0;
    for (std::size_t j = 0; j < t.processors; ++j)
      if (const auto& p = platform.processors[j]; p.idle_power)
        idle += p.idle_power->value() * std::max(0.0, period - m.busy_s[j]);
    m.energy = Constant<dim::energy>(active + idle);
  }
  return m;
}

}  // namespace ychart::loopnest
