// ychart/baselines/shan2021_h1.hpp
// Study 001's heuristic H1 (Shan 2021, ch. 6.2) as a baseline: the exact
// power model of pipeline/power_model.hpp restricted to F_min devices and
// N_k in {CU_min_k, CU_min_k + 1}, without the DDR energy in the objective
// (the transfer-time constraint stays). It is a set of model options, so
// it is solved by pipeline::solve_power_optimal and priced by
// pipeline::evaluate like any other mapping.
#pragma once

#include "../pipeline/power_model.hpp"

#include <algorithm>

namespace ychart::baselines::shan2021 {

template <pipeline::ResourceRecord R>
pipeline::PowerModelOptions<R> h1_options(const pipeline::Application<R>& app, const pipeline::Platform<R>& arch,
                                          Constant<dim::time> ii_max, pipeline::PowerModelOptions<R> base = {}) {
  base.devices_used = std::min(pipeline::minimum_devices(app, arch, ii_max, base.cap()), arch.devices());
  base.min_cus.clear();
  base.max_cus.clear();
  for (const auto& k : app.kernels()) {
    const int n = pipeline::minimum_cus(k.implementation().wcet, ii_max);
    base.min_cus.push_back(n);
    base.max_cus.push_back(n + 1);
  }
  base.memory_energy = false;
  return base;
}

}  // namespace ychart::baselines::shan2021
