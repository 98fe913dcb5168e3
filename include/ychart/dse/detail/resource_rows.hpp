// ychart/dse/detail/resource_rows.hpp
// The per-device resource rows every mapping model has (study 001 eqs. 3.9,
// 4.4, 5.2): for each device and each member of the resource record that
// some kernel uses, sum_k n_kf use_kt <= cap_t.
#pragma once

#include "../application.hpp"
#include "../resources.hpp"

#include "../../expr/operators.hpp"
#include "../../model/model.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace ychart::dse::detail {

/// Adds the rows to `m`; cus[k][f] are the CU counts, cap one value per resource.
template <ResourceRecord R>
void add_resource_rows(Model& m, const Application<R>& app, const std::vector<std::vector<Discrete<>>>& cus,
                       const std::vector<double>& cap, std::size_t devices) {
  const auto names = resource_names<R>();
  for (std::size_t f = 0; f < devices; ++f)
    for (std::size_t t = 0; t < names.size(); ++t) {
      Affine<> use;
      bool any = false;
      for (std::size_t k = 0; k < app.size(); ++k)
        if (const double r = resource_at(app.kernel(k).use, t); r > 0) use += r * cus[k][f], any = true;
      if (any) m.subject_to(use <= cap[t], names[t] + "_" + std::to_string(f + 1));
    }
}

}  // namespace ychart::dse::detail
