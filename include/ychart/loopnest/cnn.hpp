// ychart/loopnest/cnn.hpp
// ALOHA's CNN aggregation (study 002, section VII): a CNN as a chain of
// layers in execution order, the cost of every (layer, processor) pair that
// the operator distribution allows and that fits, Algorithm 1's sequential
// schedule (per layer, the fastest allowed processor), and a schedule's
//   latency     t_CNN = s_|L| + t(l_|L|) - s_1                      (Eq. 10)
//   throughput  1 / max_j sum_{i on j} t_i (pipelined), 1 / t_CNN   (Eq. 11)
//   energy      sum_i (t_i P_act + b_i E_bit) + sum_j P_idle (T - busy_j)
// (Eq. 12, with t_idle read as the frame period T minus the processor's busy
// time; T is the latency constraint when given, else t_CNN or 1 / Th).
#pragma once

#include "evaluate.hpp"
#include "layer.hpp"
#include "platform.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ychart::loopnest {

struct Cnn {
  std::string name;
  std::vector<Layer> layers;  // in execution order (a topological order of the DAG)
};

/// ALOHA's op_dist: an operator listed here runs only on processors of the
/// listed types; an operator not listed runs anywhere.
struct OperatorDistribution {
  std::vector<std::pair<Operator, std::string>> entries;

  bool allows(Operator op, const Processor& p) const {
    bool listed = false;
    for (const auto& [o, type] : entries)
      if (o == op) {
        listed = true;
        if (type == p.type) return true;
      }
    return !listed;
  }
};

/// Time and energy of every layer on every processor; NaN where the pair is
/// not allowed or the layer's tile fits no memory (`why` says which).
struct CostTable {
  std::size_t layers = 0, processors = 0;
  std::vector<double> time_s, energy_j, bytes;  // energy: NaN without an active power
  std::vector<std::string> why;
  std::vector<std::string> layer_names;

  std::size_t at(std::size_t i, std::size_t j) const { return i * processors + j; }
  bool allowed(std::size_t i, std::size_t j) const { return !std::isnan(time_s[at(i, j)]); }
  double time(std::size_t i, std::size_t j) const { return time_s[at(i, j)]; }
  double energy(std::size_t i, std::size_t j) const { return energy_j[at(i, j)]; }
};

/// Throws loopnest_error naming a layer that no processor can run, with the
/// reason for each processor.
inline CostTable cost_table(const Cnn& cnn, const Platform& platform, const OperatorDistribution& op_dist = {}) {
  platform.validate();
  if (cnn.layers.empty()) throw loopnest_error("ychart: CNN `" + cnn.name + "` has no layers");
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
    if (!any) throw loopnest_error("ychart: no processor can run layer `" + layer.name + "`:" + reasons);
  }
  return t;
}

/// A processor per layer, in layer order.
using Binding = std::vector<std::size_t>;

/// Algorithm 1: every layer on its fastest allowed processor (ties: the
/// first in platform order), one after another.
inline Binding sequential_schedule(const CostTable& t) {
  Binding b(t.layers);
  for (std::size_t i = 0; i < t.layers; ++i) {
    std::size_t best = t.processors;
    for (std::size_t j = 0; j < t.processors; ++j)
      if (t.allowed(i, j) && (best == t.processors || t.time(i, j) < t.time(i, best))) best = j;
    b[i] = best;
  }
  return b;
}

struct CnnMetrics {
  Constant<dim::time> latency{0.0};          // Eq. 10
  Constant<dim::frequency> throughput{0.0};  // Eq. 11, frames per second
  std::optional<Constant<dim::energy>> energy;  // Eq. 12; absent if a used processor has no active power
  std::vector<double> busy_s;                   // per processor
  std::vector<double> start_s;                  // per layer (sequential schedule)
};

/// Eqs. 10-12 for a binding. `frame` is the frame period T of Eq. 12's idle
/// time (the latency constraint); without it, t_CNN or 1 / Th.
inline CnnMetrics evaluate_schedule(const CostTable& t, const Platform& platform, const Binding& b, bool pipeline,
                                    std::optional<Constant<dim::time>> frame = std::nullopt) {
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
                                                : std::to_string(b[i])));
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
