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

#include "../config.hpp"
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
YCHART_DECL CostTable cost_table(const Cnn& cnn, const Platform& platform, const OperatorDistribution& op_dist = {});

/// A processor per layer, in layer order.
using Binding = std::vector<std::size_t>;

/// Algorithm 1: every layer on its fastest allowed processor (ties: the
/// first in platform order), one after another.
YCHART_DECL Binding sequential_schedule(const CostTable& t);

struct CnnMetrics {
  Constant<dim::time> latency{0.0};          // Eq. 10
  Constant<dim::frequency> throughput{0.0};  // Eq. 11, frames per second
  std::optional<Constant<dim::energy>> energy;  // Eq. 12; absent if a used processor has no active power
  std::vector<double> busy_s;                   // per processor
  std::vector<double> start_s;                  // per layer (sequential schedule)
};

/// Eqs. 10-12 for a binding. `frame` is the frame period T of Eq. 12's idle
/// time (the latency constraint); without it, t_CNN or 1 / Th.
YCHART_DECL CnnMetrics evaluate_schedule(const CostTable& t, const Platform& platform, const Binding& b, bool pipeline,
                                         std::optional<Constant<dim::time>> frame = std::nullopt);

}  // namespace ychart::loopnest

#if YCHART_HEADER_ONLY
#include "impl/cnn.ipp"
#endif
