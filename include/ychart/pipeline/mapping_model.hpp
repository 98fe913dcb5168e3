// ychart/pipeline/mapping_model.hpp
// The mapping as an optimisation model: integer compute units of every
// kernel on every device, the per-device resource caps generated for every
// member of the kind's resource record, and the KPI expressions the
// objective and constraints are written in -- initiation interval,
// spreading, transfer times, devices holding each kernel. Built on a
// ychart::Model, so users add their own constraints and solve it with any
// method; mapping() reads the solution back as a pipeline::Mapping that
// evaluate() prices exactly.
//
// What the model contains (study 001's equation numbers):
//   N_k = sum_f n_kf >= 1 (3.3, 3.8); sum_k n_kf R_kt <= cap_t (3.9, 3.10, 4.4);
//   T_exe >= WCET_k / N_k (3.1, 3.6); spreading phi >= sum_f n/(1+n) (3.4, 3.7);
//   with transfers: alpha_kf = [n_kf > 0], edge e local when both ends sit
//   entirely on one device, host-to-device = sum_k (alpha_k - a_k) DI_k / B,
//   device-to-host = sum_k (1 - b_k) DO_k / B (4.6-4.15, exactly linearised:
//   a_k = 1 forces alpha_k = 1); II = sum of the phases (4.5) or the max of
//   transfers and execution (5.5).
// The execution time here is each kernel at its own clock. Memory contention
// and clock degradation (ch. 4) are products of integers and continuous
// times that no linear or convex row expresses exactly; with
// `memory_time` and `clock_degradation` the model carries the strongest
// bound on them that stays a function of N_k alone: the busiest device of
// kernel k holds at least ceil(N_k / F) of its CUs, so its clock is at most
// F1_k - psi ceil(N_k/F) use_k, and each port moves at most width x that
// clock (sharing the DDR only lowers it). So this model's optimum is a lower
// bound on the full model's II, and evaluate() gives the full model's II of
// the mapping it returns.
#pragma once

#include "../config.hpp"
#include "application.hpp"
#include "detail/execution_time.hpp"
#include "detail/resource_rows.hpp"
#include "detail/solution_mapping.hpp"
#include "detail/transfer_rows.hpp"
#include "architecture.hpp"
#include "mapping.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/functions.hpp"
#include "../expr/operators.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace ychart::pipeline {

/// What to optimise and which effects to include.
template <ResourceRecord R>
struct MappingModelOptions {
  /// Per-device cap on each resource; empty: the device's capacity.
  std::optional<R> cap;
  Schedule schedule = Schedule::compute_only;
  /// Co-located consecutive kernels keep their data on the device.
  bool locality = true;
  /// Objective alpha * II[ms] + beta * spreading; beta = 0 leaves the
  /// spreading out of the model.
  double alpha = 1.0;
  double beta = 0.0;
  /// Declared upper bound of every CU count; the solver derives tight ones.
  int max_cus = 1000;
  /// Bound the execution phase from below by the memory reads and writes of
  /// each CU at its port bandwidth (needs the device memory's port width).
  bool memory_time = false;
  /// ... and by the clock degradation of its busiest device (needs the
  /// architecture's clock: nominal, psi and the utilisation resource).
  bool clock_degradation = false;
};

template <ResourceRecord R>
struct MappingModel {
  Model model;
  Variable<dim::time> execution;     // T_exe (ms); equals II for compute_only; absent with bound rows
  Real<dim::time> ii;                // II (ms): with transfers, or with bound rows
  /// Execution bounded by tables of N_k (memory_time, clock_degradation):
  /// one affine term per kernel and no `execution` variable.
  std::vector<Affine<dim::time>> execution_bounds;
  Affine<dim::time> host_to_device;  // empty for compute_only
  Affine<dim::time> device_to_host;
  std::vector<Discrete<>> total;                // N_k
  std::vector<std::vector<Discrete<>>> cus;     // n_kf
  std::vector<std::vector<Discrete<>>> placed;  // alpha_kf (transfer models only)
  Real<> spreading;                             // phi (beta > 0 only)
  bool has_spreading = false;
  Schedule schedule = Schedule::compute_only;

  /// The II variable of the model as a value in ms.
  double ii_ms(const Solution& s) const {
    return schedule == Schedule::compute_only && execution_bounds.empty() ? s.value(execution) : s.value(ii);
  }

  /// The compute units of a solution, rounded to the integers they are.
  Mapping mapping(const Solution& s) const { return detail::solution_mapping(cus, s); }
};

/// Builds the model of mapping `app` onto `arch`.
template <ResourceRecord R>
MappingModel<R> build_mapping_model(const Application<R>& app, const Architecture<R>& arch,
                                    const MappingModelOptions<R>& options = {}) {
  arch.validate();
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no kernel");
  MappingModel<R> mm;
  auto& m = mm.model;
  mm.schedule = options.schedule;
  const std::size_t K = app.size(), F = static_cast<std::size_t>(arch.devices);
  const int M = options.max_cus;
  const auto names = resource_names<R>();
  const auto cap = resource_values(options.cap ? *options.cap : arch.kind.capacity);
  const bool transfers = options.schedule != Schedule::compute_only;
  if (transfers && !(arch.host_to_device.bandwidth.value() > 0.0 && arch.device_to_host.bandwidth.value() > 0.0))
    throw model_error("ychart: the " + to_string(options.schedule) +
                      " schedule needs the host-to-device and device-to-host bandwidths");

  const bool bound_rows = options.memory_time || options.clock_degradation;
  const auto& kind = arch.kind;
  const double nominal = kind.clock.nominal.value();
  if (options.memory_time && !(kind.memory.port_bytes_per_cycle.value() > 0))
    throw model_error("ychart: memory_time needs the device memory's port width (LocalMemory::port_bytes_per_cycle)");
  if (options.clock_degradation && !has_resource<R>(kind.clock.utilisation_resource))
    throw model_error("ychart: clock_degradation needs Architecture::kind.clock.utilisation_resource");
  const auto capacity = resource_values(kind.capacity);

  if (!bound_rows) mm.execution = m.positive(transfers ? "T_exe" : "II", units::ms);
  mm.cus.resize(K);
  std::vector<int> most_cus, device_cus;  // CU bounds: on all devices, on one; the big-Ms below
  std::vector<Affine<dim::time>> compute_tables;  // compute time alone, for the memory-sharing rows
  for (std::size_t k = 0; k < K; ++k) {
    const auto& kn = app.kernel(k);
    const std::string id = kn.name + "#" + std::to_string(k);
    const auto use = resource_values(kn.use);
    // No more CUs than F devices' caps hold: a short domain for the tables.
    int most = M;
    for (std::size_t t = 0; t < names.size(); ++t)
      if (use[t] > 0) most = std::min(most, static_cast<int>(std::floor(double(F) * cap[t] / use[t] + 1e-9)));
    const int one_device = detail::cus_per_device(kn, cap, M);
    detail::CuConditions at;
    at.own_clock = detail::positive_or(kn.clock.value(), nominal);
    auto clock_at = [&](int N) {  // the busiest device's clock bound
      if (!options.clock_degradation) return at.own_clock;
      const std::size_t u = *resource_index<R>(kind.clock.utilisation_resource);
      const double busiest = std::ceil(double(N) / double(F));
      return at.own_clock - kind.clock.degradation_per_utilisation.value() * busiest * use[u] / capacity[u];
    };
    if (bound_rows) {
      if (!(at.own_clock > 0))
        throw model_error("ychart: kernel '" + kn.name + "' needs a clock (Kernel::clock or the device's nominal)");
      while (most >= 1 && !(clock_at(most) > 0)) --most;  // a clock degraded to zero is no mapping
    }
    if (most < 1)
      throw model_error("ychart: one CU of kernel '" + kn.name + "' does not fit " + std::to_string(F) + " devices");
    most_cus.push_back(most);
    device_cus.push_back(std::min(most, one_device));
    mm.total.push_back(m.integer("N_" + id, 1, most));
    Affine<> sum;
    for (std::size_t f = 0; f < F; ++f) {
      mm.cus[k].push_back(m.integer("n_" + id + "_" + std::to_string(f + 1), 0, std::max(1, device_cus.back())));
      sum += mm.cus[k].back();
    }
    m.subject_to(mm.total[k] == sum);
    if (!bound_rows) {
      m.subject_to(mm.execution >= kn.wcet / mm.total[k]);
      continue;
    }
    auto bound_ms = [&](double N) {
      at.clock = clock_at(static_cast<int>(N));
      const double port = options.memory_time ? kind.memory.port_bytes_per_cycle.value() * at.clock : 0.0;
      at.read_port_bandwidth = at.write_port_bandwidth = port;
      // The busiest device's ports include this kernel's own: its DDR share is at most 1 / (ports x CUs).
      const double busiest = std::ceil(N / double(F));
      const int x = kn.read_ports + kn.read_write_ports, y = kn.write_ports + kn.read_write_ports;
      if (options.memory_time && x > 0 && kind.memory.read_bandwidth.value() > 0)
        at.read_port_bandwidth = std::min(port, kind.memory.read_bandwidth.value() / (x * busiest));
      if (options.memory_time && y > 0 && kind.memory.write_bandwidth.value() > 0)
        at.write_port_bandwidth = std::min(port, kind.memory.write_bandwidth.value() / (y * busiest));
      return 1e3 * detail::cu_execution_time(kn, N, at);
    };
    // A table is affine, so the phase is bounded row by row below.
    mm.execution_bounds.push_back(tabulate(mm.total[k], bound_ms, "T_" + id) * units::ms);
    if (options.memory_time && transfers) {
      auto compute_ms = [&](double N) {
        at.clock = clock_at(static_cast<int>(N));
        at.read_port_bandwidth = at.write_port_bandwidth = 0;
        return 1e3 * detail::cu_execution_time(kn, N, at);
      };
      compute_tables.push_back(tabulate(mm.total[k], compute_ms, "TC_" + id) * units::ms);
    }
  }
  detail::add_resource_rows(m, app, mm.cus, cap, F);
  std::vector<std::vector<Discrete<>>> devices(F);
  for (std::size_t f = 0; f < F; ++f)
    for (std::size_t k = 0; k < K; ++k) devices[f].push_back(mm.cus[k][f]);

  if (transfers) {
    const double hp = arch.host_to_device.bandwidth.value(), dh = arch.device_to_host.bandwidth.value();
    std::vector<std::vector<int>> placement_bound(K);
    for (std::size_t k = 0; k < K; ++k) placement_bound[k].assign(F, device_cus[k]);
    mm.placed = detail::add_placement(m, app, mm.cus, placement_bound);
    for (std::size_t k = 0; k < K; ++k)
      for (std::size_t f = 0; f < F; ++f) devices[f].push_back(mm.placed[k][f]);
    const auto& mem = arch.kind.memory;
    if (options.memory_time && mem.read_bandwidth.value() > 0 && mem.write_bandwidth.value() > 0) {
      // Worst-case DDR sharing (eqs. 4.19-4.25): a CU of k on f reads at
      // most BDR / NR_f per port, NR_f = sum_j x_j n_jf, so T_exe >= its
      // compute time + dr_k NR_f / (x_k BDR) + dw_k NW_f / (y_k BDW) when
      // alpha_kf = 1, with dr_k, dw_k at their smallest (the most CUs).
      std::vector<Affine<>> readers(F), writers(F);
      double most_readers = 0, most_writers = 0;
      for (std::size_t k = 0; k < K; ++k) {
        const auto& kn = app.kernel(k);
        const int x = kn.read_ports + kn.read_write_ports, y = kn.write_ports + kn.read_write_ports;
        for (std::size_t f = 0; f < F; ++f) readers[f] += double(x) * mm.cus[k][f], writers[f] += double(y) * mm.cus[k][f];
        most_readers += double(x) * device_cus[k];
        most_writers += double(y) * device_cus[k];
      }
      for (std::size_t k = 0; k < K; ++k) {
        const auto& kn = app.kernel(k);
        const int x = kn.read_ports + kn.read_write_ports, y = kn.write_ports + kn.read_write_ports;
        const double N = most_cus[k], di = kn.data_in.value(), c = kn.constants.value();
        const double dr = (kn.input_scaling * di + kn.constant_scaling * c) / N + (1 - kn.input_scaling) * di +
                          (1 - kn.constant_scaling) * c;
        const double dw = kn.data_out.value() / N;
        const double r = x > 0 ? dr / (x * mem.read_bandwidth.value()) : 0.0;
        const double w = y > 0 ? dw / (y * mem.write_bandwidth.value()) : 0.0;
        // Sharing that cannot move the bound by a part in 10^6 is left out:
        // coefficients that small upset the LP solver's tolerances.
        if (r * most_readers + w * most_writers <= 1e-6 * kn.wcet.value() / N) continue;
        for (std::size_t f = 0; f < F; ++f)
          mm.execution_bounds.push_back(
              compute_tables[k] + (readers[f] - most_readers * (1.0 - mm.placed[k][f])) * Constant<dim::time>(r) +
              (writers[f] - most_writers * (1.0 - mm.placed[k][f])) * Constant<dim::time>(w));
      }
    }
    const auto times = detail::add_transfer_rows(m, app, mm.cus, mm.total, mm.placed, most_cus, options.locality, hp, dh);
    mm.host_to_device = times.host_to_device;
    mm.device_to_host = times.device_to_host;
    // Placement binaries keep these models out of the symmetric decomposition
    // (solvers.md), so the general search would revisit every permutation of
    // the devices: order them by the CUs they hold, weighted by use (in the
    // linear models with bound rows, where GLPK searches alone).
    for (std::size_t f = 0; bound_rows && f + 1 < F; ++f) {
      Affine<> here, next;
      for (std::size_t k = 0; k < K; ++k) {
        double w = 1.0;
        for (std::size_t t = 0; t < names.size(); ++t) w += resource_at(app.kernel(k).use, t);
        here += w * mm.cus[k][f];
        next += w * mm.cus[k][f + 1];
      }
      m.subject_to(here >= next);
    }
    mm.ii = m.real("II", units::ms, 0.0);
    if (options.schedule == Schedule::sequential_phases) {
      if (!bound_rows) m.subject_to(mm.execution <= mm.ii - mm.host_to_device - mm.device_to_host, "II");
      for (const auto& t : mm.execution_bounds) m.subject_to(t <= mm.ii - mm.host_to_device - mm.device_to_host);
    } else {
      if (!bound_rows) m.subject_to(mm.execution <= mm.ii, "II_execution");
      for (const auto& t : mm.execution_bounds) m.subject_to(t <= mm.ii);
      m.subject_to(mm.host_to_device + mm.device_to_host <= mm.ii, "II_transfers");
    }
  } else if (bound_rows) {
    mm.ii = m.real("II", units::ms, 0.0);
    for (const auto& t : mm.execution_bounds) m.subject_to(t <= mm.ii);
  }
  // Only the compute-only model has the decomposition's structure; with
  // transfers, the locality binaries and the ordering rows above would make
  // the groups (n and placement per device) an incomplete declaration, which
  // Model::solve rejects. Detection still looks at those models.
  if (!transfers) m.interchangeable(devices);

  if (options.beta > 0) {
    mm.has_spreading = true;
    mm.spreading = m.real("phi", 0, double(F));
    for (std::size_t k = 0; k < K; ++k) {
      Affine<> phi_k;
      for (std::size_t f = 0; f < F; ++f) phi_k += tabulate(mm.cus[k][f], [](double n) { return n / (1.0 + n); });
      m.subject_to(phi_k <= mm.spreading);
    }
  }
  if (!transfers && !bound_rows) {
    if (mm.has_spreading) m.minimize(options.alpha * (mm.execution / units::ms) + options.beta * mm.spreading);
    else m.minimize(mm.execution);
  } else {
    if (mm.has_spreading) m.minimize(options.alpha * (mm.ii / units::ms) + options.beta * mm.spreading);
    else m.minimize(mm.ii);
  }
  return mm;
}

// The instances for the records ychart ships, compiled once in ychart's
// compiled part (impl/src_pipeline.hpp); header-only, or for a record of the
// user's own, the templates above are instantiated where they are used.
#define YCHART_DSE_MAPPING_MODEL_INSTANCES(EXTERN, R) \
  EXTERN template MappingModel<R> build_mapping_model<R>(const Application<R>&, const Architecture<R>&, const MappingModelOptions<R>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_MAPPING_MODEL_INSTANCES(extern, FpgaResources)
#endif

}  // namespace ychart::pipeline
