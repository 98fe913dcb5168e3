// ychart/pipeline/detail/device_group_rows.hpp
// The rows every model of a platform of device groups starts from: each
// task's integer CUs per device (none where it has no implementation for
// the device's kind) and their total, each device's resource rows in its
// own kind's record and cap, and the load order of the devices of one group
// (against the symmetric copies of every mapping). The II and power models
// over device groups (detail/device_groups_model.hpp, platform power model)
// add their times and energies to these.
#pragma once

#include "../../error.hpp"
#include "../../expr/operators.hpp"
#include "../../model/model.hpp"
#include "device_table.hpp"
#include "resource_rows.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace ychart::pipeline {

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
    std::vector<double> weight;
    for (std::size_t k = 0; k < K; ++k) weight.push_back(load_weight(table.use(k, d)));
    add_load_order_row(m, weight, cus, d);
  }
}

}  // namespace detail

}  // namespace ychart::pipeline
