// ychart/pipeline/platform_model.hpp
// The mapping onto a heterogeneous platform as an optimisation model:
// integer compute units of every task on every device (none where the task
// has no implementation for the device's kind), each device's resource rows
// in its own kind's record and cap, and the initiation interval. Work is
// split between a task's CUs in proportion to their speed, so its time is
// the reciprocal of a sum of rates:
//   1 / T_exe <= sum_d n_kd / WCET_k,g(d)   for every task k,
// a convex `posynomial <= affine` row that the mixed-integer searches
// (outer approximation, branch and bound) solve exactly; on one kind it is
// study 001's T_exe >= WCET_k / N_k. With transfers the host-transfer rows
// are the one-kind model's (detail/transfer_rows.hpp) and II is the sum of
// the phases or the larger of transfers and execution. Devices of one group
// are ordered by the load they carry, which removes the symmetric copies of
// every mapping from the search. mapping() reads a solution back for
// evaluate(), whose II on it equals the model's.
// With `tabulate`, each task's time is instead a table over its CU totals
// per kind (detail/kind_totals.hpp), T_exe >= sum_c T_kc z_kc, and the whole
// model is linear: GLPK's bound is much stronger than outer approximation's
// once placement and locality binaries enter. Bounds on the optimum (a
// known mapping's II, the compute-only optimum) keep the tables short.
#pragma once

#include "../config.hpp"
#include "../model/tolerances.hpp"
#include "detail/kind_totals.hpp"
#include "detail/resource_rows.hpp"
#include "detail/solution_mapping.hpp"
#include "detail/transfer_rows.hpp"
#include "application.hpp"
#include "mapping.hpp"
#include "architecture.hpp"
#include "evaluate.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/operators.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ychart::pipeline {

/// What every heterogeneous mapping model takes.
template <ResourceRecord... Rs>
struct PlatformMappingOptions {
  /// Per-device cap on each resource of each kind; empty: the capacity.
  std::tuple<std::optional<Rs>...> caps{};
  Schedule schedule = Schedule::compute_only;
  bool locality = true;
  /// Declared upper bound of every CU count; the caps give tighter ones.
  int max_cus = 1000;
  /// Most per-kind CU totals a tabulated task may have (before pruning);
  /// a larger table is refused rather than built slowly.
  long max_table = 200000;
};

template <ResourceRecord... Rs>
struct PlatformModelOptions : PlatformMappingOptions<Rs...> {
  /// Write each task's time as a table over its per-kind CU totals, one
  /// binary per entry (a MILP GLPK proves), instead of the convex rate row.
  /// The bounds keep the tables small and the model exact: entries slower
  /// than ii_upper_bound_ms (the II of a mapping feasible under these
  /// options) cannot be in a better mapping, and one CU fewer as fast as
  /// execution_lower_bound_ms (at most every mapping's T_exe, e.g. the
  /// compute-only optimum) replaces an entry without costing anything.
  bool tabulate = false;
  std::optional<double> execution_lower_bound_ms, ii_upper_bound_ms;
};

struct PlatformModel {
  Model model;
  Variable<dim::time> execution;  // T_exe (ms); absent when tabulated
  Real<dim::time> ii;             // II (ms), with transfers or tabulated
  Affine<dim::time> host_to_device, device_to_host;  // empty for compute_only
  std::vector<Discrete<>> total;                // N_k
  std::vector<std::vector<Discrete<>>> cus;     // n_kd
  std::vector<std::vector<Discrete<>>> placed;  // alpha_kd (transfer models only)
  std::vector<std::vector<Discrete<>>> choice;  // z_kc (tabulated only)
  Schedule schedule = Schedule::compute_only;
  bool tabulated = false;

  /// The initiation interval at a solution (as MappingModel's).
  Constant<dim::time> initiation_interval(const Solution& s) const {
    return Constant<dim::time>(schedule == Schedule::compute_only && !tabulated ? s.value(execution) * execution.si_scale()
                                                                                : s.value(ii) * ii.si_scale());
  }
  Mapping mapping(const Solution& s) const { return detail::solution_mapping(cus, s); }
};

namespace detail {

/// Task k's compute units on a platform, as variables: n_kd (0 where it has
/// no implementation, at most what one device takes under its cap) and
/// N_k = sum_d n_kd, appended to cus and total; and what its tables need.
struct TaskCus {
  std::vector<int> bound;                // [d] CUs of the task one device takes
  std::vector<int> most_of_kind;         // [g] CUs all devices of kind g take
  std::vector<double> wcet_ms, power_w;  // [g] one CU of its implementation (1 ms, 0 W where none)
  std::vector<Affine<>> on_kind;         // [g] its CUs on the devices of kind g
  int most = 0;                          // N_k's upper bound
};

inline TaskCus add_task_cus(Model& m, const DeviceTable& table, std::size_t kinds, std::size_t k,
                            const std::string& task, const std::string& platform, int max_cus,
                            std::vector<std::vector<Discrete<>>>& cus, std::vector<Discrete<>>& total) {
  const std::size_t D = table.devices();
  const std::string id = task + "#" + std::to_string(k);
  TaskCus t;
  t.bound.assign(D, 0);
  t.most_of_kind.assign(kinds, 0);
  t.wcet_ms.assign(kinds, 1.0);
  t.power_w.assign(kinds, 0.0);
  t.on_kind.resize(kinds);
  Affine<> sum;
  for (std::size_t d = 0; d < D; ++d) {
    const std::size_t g = table.group[d];
    if (table.wcet(k, d) > 0) {
      t.bound[d] = cus_per_device(table.use(k, d), table.of(d).cap, max_cus);
      t.wcet_ms[g] = table.wcet(k, d) * 1e3, t.power_w[g] = table.power(k, d);
    }
    t.most = std::min(max_cus, t.most + t.bound[d]);
    t.most_of_kind[g] = std::min(max_cus, t.most_of_kind[g] + t.bound[d]);
    cus[k].push_back(m.integer("n_" + id + "_" + std::to_string(d + 1), 0, t.bound[d]));
    sum += cus[k][d];
    t.on_kind[g] += cus[k][d];
  }
  if (t.most < 1)
    throw model_error("ychart: no device of platform '" + platform + "' takes one CU of task '" + task +
                      "' within its caps", task);
  total.push_back(m.integer("N_" + id, 1, t.most));
  m.subject_to(total[k] == sum);
  return t;
}

/// Every device's resource rows in its kind's record and cap, and, against
/// symmetry, devices of one group ordered by the weighted load they carry.
inline void add_device_rows(Model& m, const DeviceTable& table, const std::vector<std::vector<Discrete<>>>& cus) {
  const std::size_t K = cus.size(), D = table.devices();
  for (std::size_t d = 0; d < D; ++d) {
    std::vector<std::vector<double>> use;
    for (std::size_t k = 0; k < K; ++k) use.push_back(table.use(k, d));
    add_device_resource_rows(m, d, table.of(d).resource_names, use, cus, table.of(d).cap);
  }
  for (std::size_t d = 0; d + 1 < D; ++d) {
    if (table.group[d] != table.group[d + 1]) continue;
    Affine<> here, next;
    for (std::size_t k = 0; k < K; ++k) {
      double w = 1.0;
      for (double u : table.use(k, d)) w += u;
      here += w * cus[k][d];
      next += w * cus[k][d + 1];
    }
    m.subject_to(here >= next);
  }
}

}  // namespace detail

/// Builds the model of mapping `app` onto `platform`. Throws model_error
/// when a task fits no device or a schedule needs bandwidths the platform
/// lacks.
template <ResourceRecord... Rs>
PlatformModel build_platform_model(const Application<Rs...>& app, const Platform<Rs...>& platform,
                                   const PlatformModelOptions<Rs...>& options = {}) {
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no task", app.name());
  const auto table = detail::device_table(app, platform, options.caps);
  const std::size_t K = app.size(), D = table.devices();
  const bool transfers = options.schedule != Schedule::compute_only;
  const double hp = platform.host_to_device.bandwidth.value(), dh = platform.device_to_host.bandwidth.value();
  if (transfers && !(hp > 0.0 && dh > 0.0))
    throw model_error("ychart: the " + to_string(options.schedule) +
                      " schedule needs the host-to-device and device-to-host bandwidths");

  const bool tab = options.tabulate;
  const double slowest = options.ii_upper_bound_ms.value_or(std::numeric_limits<double>::infinity());
  const double fast_enough = options.execution_lower_bound_ms.value_or(0.0);
  if (tab && !(slowest > 0.0 && fast_enough >= 0.0 && fast_enough <= slowest * (1 + tolerances::roundoff)))
    throw model_error("ychart: the tabulated model needs 0 <= execution_lower_bound_ms <= ii_upper_bound_ms");

  PlatformModel pm;
  auto& m = pm.model;
  pm.schedule = options.schedule;
  pm.tabulated = tab;
  std::optional<Real<dim::time>> exe;  // T_exe of the tabulated model
  if (tab) exe = m.real(transfers ? "T_exe" : "II", units::ms, 0.0);
  else pm.execution = m.positive(transfers ? "T_exe" : "II", units::ms);
  std::vector<std::vector<int>> bound(K, std::vector<int>(D, 0));  // CUs of k one device d takes
  std::vector<int> most(K, 0);
  pm.cus.resize(K);
  for (std::size_t k = 0; k < K; ++k) {
    const auto& task = app.kernel(k);
    const std::string id = task.name + "#" + std::to_string(k);
    const std::size_t G = sizeof...(Rs);
    const auto on = detail::add_task_cus(m, table, G, k, task.name, platform.name, options.max_cus, pm.cus, pm.total);
    bound[k] = on.bound;
    most[k] = on.most;
    Affine<dim::frequency> rate;
    for (std::size_t d = 0; d < D; ++d)
      if (bound[k][d] > 0) rate += pm.cus[k][d] * Constant<dim::frequency>(1.0 / table.wcet(k, d));
    if (!tab) {
      m.subject_to(1.0 / pm.execution <= rate, "rate_" + id);
      continue;
    }
    detail::check_table_size(on.most_of_kind, options.max_table, task.name);
    const auto entries = detail::tabulate_kind_totals(on.most_of_kind, on.wcet_ms, std::vector<double>(G, 0.0), slowest,
                                                      [&](double t_fewer, double, double, double) {
                                                        return t_fewer <= fast_enough * (1 + tolerances::ulps);
                                                      });
    if (entries.totals.empty()) {
      // No totals reach the upper bound: no mapping beats it.
      m.subject_to(*exe >= Constant<dim::time>(2e-3 * slowest + 1.0), "no_totals_of_" + id + "_beat_the_upper_bound");
      m.subject_to(*exe <= Constant<dim::time>(1e-3 * slowest));
      pm.choice.emplace_back();
      continue;
    }
    auto pick = detail::add_kind_total_choice(m, id, entries, on.on_kind);
    pm.choice.push_back(pick.choice);
    m.subject_to(*exe >= pick.time, "time_" + id);
  }
  detail::add_device_rows(m, table, pm.cus);

  if (!transfers) {
    if (tab) {
      pm.ii = *exe;
      m.minimize(pm.ii);
    } else {
      m.minimize(pm.execution);
    }
    return pm;
  }
  pm.placed = detail::add_placement(m, app, pm.cus, bound);
  const auto times = detail::add_transfer_rows(m, app, pm.cus, pm.total, pm.placed, most, options.locality, hp, dh);
  pm.host_to_device = times.host_to_device;
  pm.device_to_host = times.device_to_host;
  pm.ii = m.real("II", units::ms, 0.0);
  if (options.schedule == Schedule::sequential_phases) {
    if (tab) m.subject_to(*exe <= pm.ii - pm.host_to_device - pm.device_to_host, "II");
    else m.subject_to(pm.execution <= pm.ii - pm.host_to_device - pm.device_to_host, "II");
  } else {
    if (tab) m.subject_to(*exe <= pm.ii, "II_execution");
    else m.subject_to(pm.execution <= pm.ii, "II_execution");
    m.subject_to(pm.host_to_device + pm.device_to_host <= pm.ii, "II_transfers");
  }
  m.minimize(pm.ii);
  return pm;
}

// The instances for the platforms ychart's examples and tests use
// (FPGAs alone; FPGAs and GPUs), compiled once in ychart's compiled part
// (impl/src_pipeline.hpp); header-only, or for other records, the templates
// above are instantiated where they are used.
#define YCHART_DSE_PLATFORM_MODEL_INSTANCES(EXTERN, ...) \
  EXTERN template PlatformModel build_platform_model<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, const PlatformModelOptions<__VA_ARGS__>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_PLATFORM_MODEL_INSTANCES(extern, FpgaResources)
YCHART_DSE_PLATFORM_MODEL_INSTANCES(extern, FpgaResources, GpuResources)
#endif

}  // namespace ychart::pipeline
