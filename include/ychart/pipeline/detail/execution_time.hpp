// ychart/pipeline/detail/execution_time.hpp
// One compute unit's execution time in study 001's chapter-4 model (eqs.
// 4.16-4.29): reading its share of the inputs and constants from device
// memory, computing its share of the cycles, writing its share of the
// output. The evaluator calls it with the bandwidth a mapping actually gets;
// the mapping model calls it with bounds on clock and bandwidth, so the two
// share one formula.
#pragma once

#include "../application.hpp"
#include "../resources.hpp"

#include "../../error.hpp"

#include <string>

namespace ychart::pipeline::detail {

inline double positive_or(double v, double fallback) { return v > 0.0 ? v : fallback; }

/// Where a CU runs: its kernel's own clock (at which wcet was measured), the
/// clock it gets, and each AXI port's read and write bandwidth (bytes/s; 0 =
/// leave memory out).
struct CuConditions {
  double own_clock = 0;  // Hz
  double clock = 0;      // Hz
  double read_port_bandwidth = 0;
  double write_port_bandwidth = 0;
};

/// Seconds one of `cus` CUs of task `kn`, implemented as `impl` (an
/// Implementation<R> of any kind), takes: compute (the wcet's cycles at
/// `clock`, eq. 4.29) plus, when port bandwidths are given, the read (eqs.
/// 4.18-4.21) and write (4.22-4.25) phases.
template <class TaskT, class Impl>
double cu_execution_time(const TaskT& kn, const Impl& impl, double cus, const CuConditions& at) {
  // At its own clock (or when no clock is known) the wcet scales with 1/cus alone.
  const double compute = at.clock == at.own_clock ? impl.wcet.value() / cus
                                                  : impl.wcet.value() * at.own_clock / (cus * at.clock);
  if (at.read_port_bandwidth <= 0 && at.write_port_bandwidth <= 0) return compute;
  const double di = kn.data_in.value(), c = kn.constants.value();
  // eq. 4.18: the scaling share of inputs and constants is split, the rest duplicated.
  const double read = (kn.input_scaling * di + kn.constant_scaling * c) / cus + (1 - kn.input_scaling) * di +
                      (1 - kn.constant_scaling) * c;
  const double write = kn.data_out.value() / cus;  // eq. 4.22: outputs are split
  const int x = impl.reading_ports(), y = impl.writing_ports();
  double tr = 0, tw = 0;
  if (read > 0) {
    if (x == 0) throw model_error("ychart: kernel '" + kn.name + "' reads memory through no port", kn.name);
    tr = read / (x * at.read_port_bandwidth);
  }
  if (write > 0) {
    if (y == 0) throw model_error("ychart: kernel '" + kn.name + "' writes memory through no port", kn.name);
    tw = write / (y * at.write_port_bandwidth);
  }
  return tr + compute + tw;  // eq. 4.16: no overlap
}

}  // namespace ychart::pipeline::detail
