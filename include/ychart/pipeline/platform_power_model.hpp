// ychart/pipeline/platform_power_model.hpp
// The power-optimal mapping onto a heterogeneous platform under a
// throughput constraint: minimise the power evaluate() prices at II_max
// (static power of every device in use, each CU's dynamic power while it is
// busy) subject to II <= II_max, as an exact mixed-integer linear model.
//
// Why it is linear. A task's time and energy depend on its CUs only through
// how many it has on each device KIND (implementations are per kind): with
// c_g CUs on kind g, T = 1 / sum_g c_g / WCET_g and the energy per run is
// E = T sum_g c_g P_g (a rate-weighted mean of the kinds' WCET_g P_g). Both
// are tabulated over the task's feasible per-kind totals c; one binary z_kc
// per entry picks the task's totals, and
//   sum_c z_kc = 1,   sum_{d of kind g} n_kd = sum_c c_g z_kc,
//   energy = sum_kc E_kc z_kc,   T_exe >= sum_c T_kc z_kc  (sequential phases).
// Entries slower than II_max are left out; for the schedules whose II does
// not add execution to the transfers, so is an entry that one CU fewer of
// some kind would match in time (<= II_max) and energy (<=): fewer CUs never
// use more resources, devices or transfers. Devices in use are binaries
// u_d >= placement (their static power in the objective), devices of one
// group are ordered by load against symmetry, and the host-transfer rows
// (duplication, locality) are the II model's (detail/transfer_rows.hpp).
// mapping() reads a solution back; evaluate() at operating_ii = II_max,
// with PerformanceModel::scale_clocks off and clock_gating on, prices it at
// the model's objective.
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
#include "platform_model.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/operators.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ychart::pipeline {

/// Caps, schedule, locality and the table limit, as the II model takes them.
template <ResourceRecord... Rs>
using PlatformPowerModelOptions = PlatformMappingOptions<Rs...>;

struct PlatformPowerModel {
  Model model;
  std::vector<Discrete<>> total;                // N_k
  std::vector<std::vector<Discrete<>>> cus;     // n_kd
  std::vector<std::vector<Discrete<>>> placed;  // alpha_kd (transfer models only)
  std::vector<Discrete<>> used;                 // u_d: device d is powered
  std::vector<std::vector<Discrete<>>> choice;  // z_kc
  std::vector<std::vector<std::vector<int>>> totals;  // [k][c][g]: the per-kind CU totals of entry c
  Affine<> objective;                           // W at II_max
  Schedule schedule = Schedule::compute_only;

  Mapping mapping(const Solution& s) const { return detail::solution_mapping(cus, s); }
};

/// Builds the power model of mapping `app` onto `platform` at II_max.
/// Throws model_error when a task fits no device, II_max is not positive,
/// a schedule needs bandwidths the platform lacks, or a task's table
/// exceeds options.max_table; when no CU count of some task meets II_max
/// the model is infeasible (its solve says so).
template <ResourceRecord... Rs>
PlatformPowerModel build_platform_power_model(const Application<Rs...>& app, const Platform<Rs...>& platform,
                                              Constant<dim::time> ii_max,
                                              const PlatformPowerModelOptions<Rs...>& options = {}) {
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no task", app.name());
  const double ii = ii_max.in(units::ms);
  if (!(ii > 0.0) || !std::isfinite(ii)) throw model_error("ychart: the power model needs a positive, finite II_max");
  const auto table = detail::device_table(app, platform, options.caps);
  const std::size_t K = app.size(), D = table.devices(), G = sizeof...(Rs);
  const bool transfers = options.schedule != Schedule::compute_only;
  const bool sequential = options.schedule == Schedule::sequential_phases;
  const double hp = platform.host_to_device.bandwidth.value(), dh = platform.device_to_host.bandwidth.value();
  if (transfers && !(hp > 0.0 && dh > 0.0))
    throw model_error("ychart: the " + to_string(options.schedule) +
                      " schedule needs the host-to-device and device-to-host bandwidths");

  PlatformPowerModel pm;
  auto& m = pm.model;
  pm.schedule = options.schedule;
  auto execution = m.real("T_exe", units::ms, 0.0, ii);
  std::vector<std::vector<int>> bound(K, std::vector<int>(D, 0));
  std::vector<int> most(K, 0);
  Affine<> energy;  // mJ per run
  pm.cus.resize(K);
  pm.choice.resize(K);
  pm.totals.resize(K);
  for (std::size_t k = 0; k < K; ++k) {
    const auto& task = app.kernel(k);
    const std::string id = task.name + "#" + std::to_string(k);
    const auto on = detail::add_task_cus(m, table, G, k, task.name, platform.name, options.max_cus, pm.cus, pm.total);
    bound[k] = on.bound;
    most[k] = on.most;
    const auto& most_of_kind = on.most_of_kind;
    const auto& wcet_ms = on.wcet_ms;
    const auto& power_w = on.power_w;
    const auto& on_kind = on.on_kind;
    detail::check_table_size(most_of_kind, options.max_table, task.name);

    // Fewer CUs as fast as II_max needs and no more energy replace these,
    // unless execution adds to the transfers (sequential phases).
    auto tab = detail::tabulate_kind_totals(most_of_kind, wcet_ms, power_w, ii, [&](double, double ef, double, double e) {
      return !sequential && ef <= e * (1 + tolerances::ulps);
    });
    bool too_slow = false;
    if (tab.totals.empty()) {
      // No CU count meets II_max: the task keeps its fastest totals, and a
      // row its time breaks makes the model infeasible (GLPK proves it at once).
      too_slow = true;
      double rate = 0.0, draw = 0.0;
      for (std::size_t g = 0; g < G; ++g) rate += most_of_kind[g] / wcet_ms[g], draw += most_of_kind[g] * power_w[g];
      tab.totals.push_back(most_of_kind);
      tab.time_ms.push_back(1.0 / rate);
      tab.energy_mj.push_back(draw / rate);
    }
    auto pick = detail::add_kind_total_choice(m, id, tab, on_kind);
    pm.choice[k] = pick.choice;
    pm.totals[k] = tab.totals;
    energy += pick.energy_mj;
    const auto& time = pick.time;
    if (too_slow) m.subject_to(execution >= time, "no_CU_count_of_" + id + "_meets_II_max");
    else if (sequential) m.subject_to(execution >= time, "time_" + id);
  }
  detail::add_device_rows(m, table, pm.cus);
  // Devices in use and their static power; within a group the powered ones come first.
  Affine<> static_power;
  for (std::size_t d = 0; d < D; ++d) {
    pm.used.push_back(m.binary("used_" + std::to_string(d + 1)));
    for (std::size_t k = 0; k < K; ++k)
      if (bound[k][d] > 0) m.subject_to(pm.cus[k][d] <= double(bound[k][d]) * pm.used[d]);
    if (const double w = table.of(d).static_power + table.of(d).memory_static_power; w > 0) static_power += w * pm.used[d];
    if (d > 0 && table.group[d - 1] == table.group[d]) m.subject_to(pm.used[d - 1] >= pm.used[d]);
  }
  if (transfers) {
    pm.placed = detail::add_placement(m, app, pm.cus, bound);
    const auto times = detail::add_transfer_rows(m, app, pm.cus, pm.total, pm.placed, most, options.locality, hp, dh);
    if (sequential) m.subject_to(execution + times.host_to_device + times.device_to_host <= ii_max, "II");
    else m.subject_to(times.host_to_device + times.device_to_host <= ii_max, "II_transfers");
  }
  pm.objective = static_power + energy / ii;
  bool priced = false;  // a term with a variable: some power depends on the mapping
  for (std::size_t t = 0; t < pm.objective.terms().size(); ++t)
    priced |= pm.objective.terms().coefficient(t) != 0.0 && !pm.objective.terms().factors(t).empty();
  if (!priced)
    throw model_error("ychart: platform '" + platform.name + "' and application '" + app.name() +
                      "' have no power to minimise: set the kinds' static_power or the implementations' power", platform.name);
  m.minimize(pm.objective);
  return pm;
}

// The instances for the platforms ychart's examples and tests use
// (FPGAs alone; FPGAs and GPUs), compiled once in ychart's compiled part
// (impl/src_pipeline.hpp); header-only, or for other records, the templates
// above are instantiated where they are used.
#define YCHART_DSE_PLATFORM_POWER_MODEL_INSTANCES(EXTERN, ...) \
  EXTERN template PlatformPowerModel build_platform_power_model<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, Constant<dim::time>, const PlatformPowerModelOptions<__VA_ARGS__>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_PLATFORM_POWER_MODEL_INSTANCES(extern, FpgaResources)
YCHART_DSE_PLATFORM_POWER_MODEL_INSTANCES(extern, FpgaResources, GpuResources)
#endif

}  // namespace ychart::pipeline
