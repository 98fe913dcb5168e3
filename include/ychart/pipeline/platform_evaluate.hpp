// ychart/pipeline/platform_evaluate.hpp
// Exact evaluation of a fixed mapping on a heterogeneous platform: each
// device's utilisation in its own kind's resources, each task's work split
// between its compute units in proportion to their speed (so CUs of one task
// on an FPGA and a GPU finish together), host transfers with duplication
// and locality, the initiation interval by schedule, and power at an
// operating II. Returns the same Evaluation as the one-kind evaluate(), with
// each device's kind and resource names filled in.
//
// Timing. Task k with n_kd CUs on device d of kind g(d) runs at rate
//   R_k = sum_d n_kd / WCET_k,g(d)  (runs per second),
// taking T_k = 1 / R_k; the execution phase is max_k T_k. On one kind this
// is study 001's WCET_k / N_k. Power: devices in use draw their kind's
// static power (logic and memory); each CU draws its implementation's
// dynamic power while it is busy (T_k per run); there is no clock scaling.
// Device use and caps, counts and spreading, and the phases are the one-kind
// evaluator's formulas (evaluate.hpp's detail::set_device_use, set_counts,
// set_phases), so one fix reaches both.
#pragma once

#include "../config.hpp"
#include "detail/host_transfers.hpp"
#include "evaluate.hpp"
#include "application.hpp"
#include "mapping.hpp"
#include "architecture.hpp"
#include "resources.hpp"

#include "../error.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ychart::pipeline {

template <ResourceRecord... Rs>
struct PlatformEvaluationOptions {
  Schedule schedule = Schedule::compute_only;
  /// Data between tasks that sit entirely on one device stays there.
  bool locality = true;
  /// Per-device cap on each resource of each kind; empty: the capacity.
  std::tuple<std::optional<Rs>...> caps{};
  /// Price power at this initiation interval (the run waits for it).
  std::optional<Constant<dim::time>> operating_ii;
};

namespace detail {

/// For each task, its implementation's wcet (s), power (W) and resource
/// use (fraction of capacity, then cap as a fraction) on each device; 0
/// wcet where it cannot run. Shared by the evaluator and the model.
struct DeviceTable {
  std::vector<std::vector<double>> wcet;                   // [k][d]
  std::vector<std::vector<double>> power;                  // [k][d]
  std::vector<std::vector<std::vector<double>>> use;       // [k][d][t], in the kind's units
  std::vector<std::vector<double>> capacity, cap;          // [d][t]
  std::vector<std::vector<std::string>> resource_names;    // [d]
  std::vector<std::string> kind;                           // [d]
  std::vector<std::size_t> group;                          // [d]
  std::vector<double> nominal_clock;                       // [d]
  std::vector<double> static_power, memory_static_power;   // [d], W while powered
};

template <ResourceRecord... Rs>
DeviceTable device_table(const Application<Rs...>& app, const Platform<Rs...>& platform,
                         const std::tuple<std::optional<Rs>...>& caps) {
  platform.validate();
  DeviceTable t;
  const std::size_t K = app.size(), D = static_cast<std::size_t>(platform.devices());
  t.wcet.assign(K, std::vector<double>(D, 0.0));
  t.power.assign(K, std::vector<double>(D, 0.0));
  t.use.assign(K, std::vector<std::vector<double>>(D));
  platform.for_each_group([&](auto g, const auto& group) {
    using R = std::remove_cvref_t<decltype(group.kind.capacity)>;
    const auto capacity = resource_values(group.kind.capacity);
    const auto& cap_g = std::get<decltype(g)::value>(caps);
    const auto cap = cap_g ? resource_values(*cap_g) : capacity;
    for (int i = 0; i < group.devices; ++i) {
      t.capacity.push_back(capacity);
      t.cap.push_back(cap);
      t.resource_names.push_back(resource_names<R>());
      t.kind.push_back(group.kind.name);
      t.group.push_back(decltype(g)::value);
      t.nominal_clock.push_back(group.kind.clock.nominal.value());
      t.static_power.push_back(group.kind.static_power.value());
      t.memory_static_power.push_back(group.kind.memory.static_power.value());
      const std::size_t d = t.kind.size() - 1;
      for (std::size_t k = 0; k < K; ++k) {
        const auto& impl = std::get<decltype(g)::value>(app.kernel(k).on);
        t.use[k][d] = impl ? resource_values(impl->use) : std::vector<double>(capacity.size(), 0.0);
        if (impl) t.wcet[k][d] = impl->wcet.value(), t.power[k][d] = impl->power.value();
      }
    }
  });
  return t;
}

}  // namespace detail

/// Evaluates `m` (columns: the platform's devices, group after group).
/// Throws model_error when the mapping does not fit (sizes, a task without
/// CUs, CUs where a task has no implementation, negative counts) or a
/// schedule needs link bandwidths the platform lacks; cap violations are
/// reported in Evaluation::violations.
template <ResourceRecord... Rs>
Evaluation evaluate(const Application<Rs...>& app, const Platform<Rs...>& platform, const Mapping& m,
                    const PlatformEvaluationOptions<Rs...>& options = {}) {
  const auto table = detail::device_table(app, platform, options.caps);
  const std::size_t K = app.size(), D = table.kind.size();
  if (m.cus.size() != K)
    throw model_error("ychart: mapping has " + std::to_string(m.cus.size()) + " tasks, application '" + app.name() +
                      "' has " + std::to_string(K), app.name());
  for (std::size_t k = 0; k < K; ++k) {
    const auto& name = app.kernel(k).name;
    if (m.cus[k].size() != D)
      throw model_error("ychart: mapping row of task '" + name + "' has " + std::to_string(m.cus[k].size()) +
                        " devices, platform '" + platform.name + "' has " + std::to_string(D), name);
    for (std::size_t d = 0; d < D; ++d) {
      if (m.cus[k][d] < 0) throw model_error("ychart: negative CU count for task '" + name + "'", name);
      if (m.cus[k][d] > 0 && table.wcet[k][d] == 0.0)
        throw model_error("ychart: task '" + name + "' has no implementation on " + table.kind[d] +
                          " but the mapping gives it CUs on device " + std::to_string(d + 1), name);
    }
    if (m.total(k) < 1) throw model_error("ychart: task '" + name + "' has no compute unit", name);
  }
  if (options.schedule != Schedule::compute_only &&
      !(platform.host_to_device.bandwidth.value() > 0.0 && platform.device_to_host.bandwidth.value() > 0.0))
    throw model_error("ychart: the " + to_string(options.schedule) +
                      " schedule needs the host-to-device and device-to-host bandwidths");

  Evaluation e;
  e.device_kind = table.kind;
  e.device_resource_names = table.resource_names;
  e.utilisation.resize(D);
  e.in_use.assign(D, false);
  for (std::size_t d = 0; d < D; ++d)
    detail::set_device_use(e, m, d, [&](std::size_t k) -> const std::vector<double>& { return table.use[k][d]; },
                           table.capacity[d], table.cap[d], table.resource_names[d], table.kind[d]);
  e.devices_used = static_cast<int>(std::count(e.in_use.begin(), e.in_use.end(), true));
  e.device_clock.assign(D, 0.0);
  for (std::size_t d = 0; d < D; ++d)
    if (e.in_use[d]) e.device_clock[d] = table.nominal_clock[d];

  detail::set_counts(e, m);
  // Rates add up: the work is split in proportion to each CU's speed.
  e.kernel_time.assign(K, 0.0);
  double exe = 0.0;
  for (std::size_t k = 0; k < K; ++k) {
    double rate = 0.0;
    for (std::size_t d = 0; d < D; ++d)
      if (const int n = m.cus[k][d]; n > 0) rate += n / table.wcet[k][d];
    e.kernel_time[k] = 1.0 / rate;
    exe = std::max(exe, e.kernel_time[k]);
  }

  const auto traffic = options.schedule == Schedule::compute_only ? detail::HostTraffic{}
                                                                  : detail::host_traffic(app, m, options.locality);
  const double ii = detail::set_phases(e, options.schedule, traffic, platform.host_to_device.bandwidth.value(),
                                      platform.device_to_host.bandwidth.value(), exe, options.operating_ii, K);

  if (options.operating_ii) {
    PowerBreakdown p;
    double logic = 0.0, memory = 0.0, compute_energy = 0.0;
    for (std::size_t d = 0; d < D; ++d)
      if (e.in_use[d]) logic += table.static_power[d], memory += table.memory_static_power[d];
    for (std::size_t k = 0; k < K; ++k)
      for (std::size_t d = 0; d < D; ++d) compute_energy += m.cus[k][d] * table.power[k][d] * e.kernel_time[k];
    p.device_static = Constant<dim::power>(logic);
    p.memory_static = Constant<dim::power>(memory);
    p.compute = Constant<dim::power>(compute_energy / ii);
    p.total = Constant<dim::power>(logic + memory + compute_energy / ii);
    p.energy_per_run = Constant<dim::energy>(p.total.value() * ii);
    e.power = p;
  }
  e.feasible = e.violations.empty();
  return e;
}

// The instances for the platforms ychart's examples and tests use
// (FPGAs alone; FPGAs and GPUs), compiled once in ychart's compiled part
// (impl/src_pipeline.hpp); header-only, or for other records, the templates
// above are instantiated where they are used.
#define YCHART_DSE_PLATFORM_EVALUATE_INSTANCES(EXTERN, ...) \
  EXTERN template detail::DeviceTable detail::device_table<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, const KindCaps<__VA_ARGS__>&); \
  EXTERN template Evaluation evaluate<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, const Mapping&, const PlatformEvaluationOptions<__VA_ARGS__>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_PLATFORM_EVALUATE_INSTANCES(extern, FpgaResources)
YCHART_DSE_PLATFORM_EVALUATE_INSTANCES(extern, FpgaResources, GpuResources)
#endif

}  // namespace ychart::pipeline
