// ychart/pipeline/detail/busy_time_power_model.hpp
// build_power_model() over device groups, each CU priced while it is busy:
// the rows of power_model.hpp's second list. Included by power_model.hpp
// after the options and model types it fills.
#pragma once

#include "../../model/tolerances.hpp"
#include "../application.hpp"
#include "../architecture.hpp"
#include "device_group_rows.hpp"
#include "device_table.hpp"
#include "kind_totals.hpp"
#include "transfer_rows.hpp"

#include "../../error.hpp"
#include "../../expr/operators.hpp"
#include "../../model/model.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace ychart::pipeline::detail {

/// The busy-time power model over device groups (power_model.hpp's second
/// list). Throws model_error when a task fits no device, II_max is not
/// positive, a schedule needs bandwidths the platform lacks, an option
/// belongs to the identical-devices model, or a task's table exceeds
/// options.max_table; when no CU count of some task meets II_max the model
/// is infeasible (its solve says so).
template <ResourceRecord... Rs>
PowerModel build_busy_time_power_model(const Application<Rs...>& app, const Platform<Rs...>& platform,
                                       Constant<dim::time> ii_max, const PowerModelOptions<Rs...>& options) {
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no task", app.name());
  const double ii = ii_max.in(units::ms);
  if (!(ii > 0.0) || !std::isfinite(ii)) throw model_error("ychart: the power model needs a positive, finite II_max");
  const auto& pmodel = options.model;
  if (pmodel.memory_contention || pmodel.clock_degradation || pmodel.shared_device_clock)
    throw model_error("ychart: the busy-time power model supports neither memory contention, clock degradation nor "
                      "shared device clocks");
  if (options.devices_used || !options.min_cus.empty() || !options.max_cus.empty() || options.objective_cutoff)
    throw model_error("ychart: devices_used, min_cus, max_cus and objective_cutoff belong to the power model with "
                      "scaled clocks on identical devices");
  if (options.max_cus_default < 1) throw model_error("ychart: max_cus_default must be at least 1");
  const auto table = device_table(app, platform, options.caps);
  const std::size_t K = app.size(), D = table.devices(), G = sizeof...(Rs);
  const bool transfers = options.model.schedule != Schedule::compute_only;
  const bool sequential = options.model.schedule == Schedule::sequential_phases;
  const double hp = platform.host_to_device.bandwidth.value(), dh = platform.device_to_host.bandwidth.value();
  if (transfers && !(hp > 0.0 && dh > 0.0))
    throw model_error("ychart: the " + to_string(options.model.schedule) +
                      " schedule needs the host-to-device and device-to-host bandwidths");

  PowerModel pm;
  auto& m = pm.model;
  pm.schedule = options.model.schedule;
  pm.devices = pm.architecture_devices = static_cast<int>(D);
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
    const auto on = add_task_cus(m, table, G, k, task.name, platform.name, options.max_cus_default, pm.cus, pm.total);
    bound[k] = on.bound;
    most[k] = on.most;
    const auto& most_of_kind = on.most_of_kind;
    const auto& wcet_ms = on.wcet_ms;
    const auto& power_w = on.power_w;
    const auto& on_kind = on.on_kind;
    check_table_size(most_of_kind, options.max_table, task.name);

    // Fewer CUs as fast as II_max needs and no more energy replace these,
    // unless execution adds to the transfers (sequential phases).
    auto tab = tabulate_kind_totals(most_of_kind, wcet_ms, power_w, ii, [&](double, double ef, double, double e) {
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
    auto pick = add_kind_total_choice(m, id, tab, on_kind);
    pm.choice[k] = pick.choice;
    pm.totals[k] = tab.totals;
    energy += pick.energy_mj;
    const auto& time = pick.time;
    if (too_slow) m.subject_to(execution >= time, "no_CU_count_of_" + id + "_meets_II_max");
    else if (sequential) m.subject_to(execution >= time, "time_" + id);
  }
  add_device_rows(m, table, pm.cus);
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
    pm.placed = add_placement(m, app, pm.cus, bound);
    const auto times = add_transfer_rows(m, app, pm.cus, pm.total, pm.placed, most, options.model.locality, hp, dh);
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

}  // namespace ychart::pipeline::detail
