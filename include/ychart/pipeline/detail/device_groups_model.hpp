// ychart/pipeline/detail/device_groups_model.hpp
// build_mapping_model() over device groups: the rows of mapping_model.hpp's
// second list (a rate row or a table per task). Included by
// mapping_model.hpp after the options and model types it fills.
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

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::pipeline::detail {

/// The model over device groups: rate rows, or with `tabulate` tables of
/// the per-kind CU totals (mapping_model.hpp's second list).
template <ResourceRecord... Rs>
MappingModel build_device_groups_model(const Application<Rs...>& app, const Platform<Rs...>& platform,
                                       const MappingModelOptions<Rs...>& options) {
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no task", app.name());
  if (options.memory_time || options.clock_degradation || options.beta > 0)
    throw model_error("ychart: memory_time, clock_degradation and the spreading term (beta > 0) are modelled on identical "
                      "devices only: a one-kind platform, without tabulate");
  const auto table = device_table(app, platform, options.caps);
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

  MappingModel pm;
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
    const auto on = add_task_cus(m, table, G, k, task.name, platform.name, options.max_cus, pm.cus, pm.total);
    bound[k] = on.bound;
    most[k] = on.most;
    Affine<dim::frequency> rate;
    for (std::size_t d = 0; d < D; ++d)
      if (bound[k][d] > 0) rate += pm.cus[k][d] * Constant<dim::frequency>(1.0 / table.wcet(k, d));
    if (!tab) {
      m.subject_to(1.0 / pm.execution <= rate, "rate_" + id);
      continue;
    }
    check_table_size(on.most_of_kind, options.max_table, task.name);
    const auto entries = tabulate_kind_totals(on.most_of_kind, on.wcet_ms, std::vector<double>(G, 0.0), slowest,
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
    auto pick = add_kind_total_choice(m, id, entries, on.on_kind);
    pm.choice.push_back(pick.choice);
    m.subject_to(*exe >= pick.time, "time_" + id);
  }
  add_device_rows(m, table, pm.cus);

  if (!transfers) {
    if (tab) {
      pm.ii = *exe;
      m.minimize(pm.ii);
    } else {
      m.minimize(pm.execution);
    }
    return pm;
  }
  pm.placed = add_placement(m, app, pm.cus, bound);
  const auto times = add_transfer_rows(m, app, pm.cus, pm.total, pm.placed, most, options.locality, hp, dh);
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

}  // namespace ychart::pipeline::detail
