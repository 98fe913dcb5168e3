// ychart/pipeline/detail/resource_rows.hpp
// What the caps say per device, for every mapping model: the resource rows
// (study 001 eqs. 3.9, 4.4, 5.2) -- for each device and each member of the
// resource record that some kernel uses, sum_k n_kf use_kt <= cap_t -- and
// how many CUs of one kernel a device takes (the models' bounds and big-Ms).
#pragma once

#include "../../model/tolerances.hpp"
#include "../application.hpp"
#include "../minimum_counts.hpp"
#include "../resources.hpp"

#include "../../expr/operators.hpp"
#include "../../model/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace ychart::pipeline::detail {

/// Adds device f's rows to `m`: use[k][t] is one CU of kernel k in the
/// device's resources (names[t]), cap[t] the device's cap.
inline void add_device_resource_rows(Model& m, std::size_t f, const std::vector<std::string>& names,
                                     const std::vector<std::vector<double>>& use,
                                     const std::vector<std::vector<Discrete<>>>& cus, const std::vector<double>& cap) {
  for (std::size_t t = 0; t < names.size(); ++t) {
    Affine<> sum;
    bool any = false;
    for (std::size_t k = 0; k < use.size(); ++k)
      if (const double r = use[k][t]; r > 0) sum += r * cus[k][f], any = true;
    if (any) m.subject_to(sum <= cap[t], names[t] + "_" + std::to_string(f + 1));
  }
}

/// The rows of `devices` identical devices; use[k] is task k's (DeviceTable::uses_on_kind),
/// cus[k][f] are the CU counts, cap one value per resource.
template <ResourceRecord R>
void add_resource_rows(Model& m, const std::vector<std::vector<double>>& use,
                       const std::vector<std::vector<Discrete<>>>& cus, const std::vector<double>& cap,
                       std::size_t devices) {
  for (std::size_t f = 0; f < devices; ++f) add_device_resource_rows(m, f, resource_names<R>(), use, cus, cap);
}

/// A CU's weight in the load order: 1 plus its uses.
inline double load_weight(const std::vector<double>& use) {
  double w = 1.0;
  for (double u : use) w += u;
  return w;
}

/// Against symmetry: device d carries at least the weighted load of device
/// d + 1 (of the same kind), weight[k] per CU of task k.
inline void add_load_order_row(Model& m, const std::vector<double>& weight,
                               const std::vector<std::vector<Discrete<>>>& cus, std::size_t d) {
  Affine<> here, next;
  for (std::size_t k = 0; k < cus.size(); ++k) {
    here += weight[k] * cus[k][d];
    next += weight[k] * cus[k][d + 1];
  }
  m.subject_to(here >= next);
}

/// CUs of one kernel that one device takes under the cap (max_cus when it
/// uses no capped resource); use and cap one value per resource.
inline int cus_per_device(const std::vector<double>& use, const std::vector<double>& cap, int max_cus) {
  double u = max_cus;
  for (std::size_t t = 0; t < use.size(); ++t)
    if (use[t] > 0) u = std::min(u, std::floor(cap[t] / use[t] * (1 + tolerances::ulps) + tolerances::roundoff));
  return static_cast<int>(std::max(0.0, u));
}

template <ResourceRecord R>
int cus_per_device(const Implementation<R>& k, const std::vector<double>& cap, int max_cus) {
  return cus_per_device(resource_values(k.use), cap, max_cus);
}

/// Kernel k's CU counts on F identical devices under the power options:
/// N_k in [fewest, most] (CU_min_k and what F devices hold, narrowed by
/// min_cus / max_cus; fewest > most when none fits); per_device: what one
/// device holds under the cap.
struct CuRange {
  int fewest = 1, most = 1, per_device = 1;
};

template <ResourceRecord R, class PowerOptions>
CuRange cu_range(const Implementation<R>& kn, std::size_t k, Constant<dim::time> ii_max,
                 const std::vector<double>& cap, int F, const PowerOptions& options) {
  const int U = cus_per_device(kn, cap, options.max_cus_default);
  CuRange c{minimum_cus(kn.wcet, ii_max), std::min(U * F, options.max_cus_default), U};
  if (!options.min_cus.empty()) c.fewest = std::max(c.fewest, options.min_cus[k]);
  if (!options.max_cus.empty()) c.most = std::min(c.most, options.max_cus[k]);
  return c;
}

}  // namespace ychart::pipeline::detail
