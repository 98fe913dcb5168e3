// ychart/pipeline/mapping.hpp
// A fixed mapping -- compute units of each kernel on each device, and
// optionally each device's clock -- and the performance model that says how
// it is timed: compute only (study 001 ch. 3), host transfers then execution
// then transfers back (ch. 4), or transfers overlapped with execution by
// double buffering (ch. 5).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ychart::pipeline {

/// Compute units of kernel k on device f: cus[k][f].
struct Mapping {
  std::vector<std::vector<int>> cus;
  /// Clock of each device as a fraction of the nominal clock; empty: the
  /// evaluator picks the slowest clocks that keep the initiation interval.
  std::vector<double> clock_fraction;

  int total(std::size_t k) const {
    int n = 0;
    for (int c : cus.at(k)) n += c;
    return n;
  }
  std::size_t kernels() const { return cus.size(); }
  std::size_t devices() const { return cus.empty() ? 0 : cus.front().size(); }
};

/// How one run is scheduled.
enum class Schedule {
  compute_only,       // II = max over kernels of execution time (no transfers)
  sequential_phases,  // II = host-to-device + execution + device-to-host
  double_buffered,    // II = max(host-to-device + device-to-host, execution)
};

inline std::string to_string(Schedule s) {
  switch (s) {
    case Schedule::compute_only: return "compute only";
    case Schedule::sequential_phases: return "sequential phases";
    case Schedule::double_buffered: return "double buffered";
  }
  return "?";
}

/// Which effects the timing includes.
struct PerformanceModel {
  Schedule schedule = Schedule::compute_only;
  /// Data between kernels that sit entirely on one device stays in its
  /// memory instead of going through the host (ch. 4); off in ch. 5.
  bool locality = true;
  /// Reading and writing device memory inside the execution phase, with
  /// the bandwidth shared between all CUs of a device (ch. 4, worst case).
  bool memory_contention = false;
  /// The device clock falls linearly with utilisation (ch. 4).
  bool clock_degradation = false;
  /// A device's CUs share one clock, the slowest of its kernels' (ch. 4);
  /// off: each kernel runs at its own clock (ch. 3).
  bool shared_device_clock = false;
  /// At an operating II, devices that finish early run at a lower clock,
  /// the critical one at full clock (ch. 5, sec. 4.3); needs every device
  /// kind's nominal clock. Off: every device runs at its own clock and waits.
  bool scale_clocks = true;
  /// A CU draws dynamic power only while it computes. Off: for the whole
  /// execution phase, at its device's clock fraction (ch. 5, eq. 5.20).
  bool clock_gating = false;
};

}  // namespace ychart::pipeline
