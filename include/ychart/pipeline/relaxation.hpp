// ychart/pipeline/relaxation.hpp
// The geometric-programming relaxation of a mapping: CU counts made real,
// and, the devices being identical, every kernel split equally between them
// (study 001 eqs. 3.14-3.21 and 4.30-4.36):
//   minimise II  s.t.  WCET_k / N_k <= II,  N_k >= 1,
//                      sum_k N_k R_kt / F <= cap_t  for every resource t.
// Spreading, transfers and integrality are dropped, so its optimum is a
// lower bound on every mapping's compute time; solved by Ipopt in log space
// in milliseconds, with the sensitivities saying which resource binds.
#pragma once

#include "../config.hpp"
#include "application.hpp"
#include "architecture.hpp"
#include "resources.hpp"

#include "../expr/operators.hpp"
#include "../model/model.hpp"

#include <optional>
#include <type_traits>
#include <string>
#include <vector>

namespace ychart::pipeline {

template <ResourceRecord R>
struct Relaxation {
  Model model;
  Variable<dim::time> ii;            // ms
  std::vector<Variable<>> cus;       // N_k, real
  std::vector<std::size_t> resource_row;  // constraint index per resource (npos: no kernel uses it)
};

template <ResourceRecord R>
Relaxation<R> build_relaxation(const Application<R>& app, const Platform<R>& arch,
                               const std::type_identity_t<std::optional<R>>& cap = std::nullopt) {
  arch.validate();
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no kernel", app.name());
  Relaxation<R> r;
  r.ii = r.model.positive("II", units::ms);
  for (std::size_t k = 0; k < app.size(); ++k) {
    r.cus.push_back(r.model.positive("N_" + app.kernel(k).name + "#" + std::to_string(k), 1.0));  // (3.19)
    r.model.subject_to(app.kernel(k).implementation().wcet / r.cus.back() <= r.ii);                                // (3.15), (3.18)
  }
  const auto names = resource_names<R>();
  const auto limit = resource_values(cap ? *cap : arch.kind().capacity);
  const double share = 1.0 / arch.devices();
  for (std::size_t t = 0; t < names.size(); ++t) {
    Posynomial<> use;
    bool any = false;
    for (std::size_t k = 0; k < app.size(); ++k)
      if (const double u = resource_at(app.kernel(k).implementation().use, t); u > 0) use += share * u * r.cus[k], any = true;
    r.resource_row.push_back(any ? r.model.subject_to(use <= limit[t], names[t]) : std::size_t(-1));  // (3.20), (3.21)
  }
  r.model.minimize(r.ii);  // (3.17)
  return r;
}

// The instances for the records ychart ships, compiled once in ychart's
// compiled part (impl/src_pipeline.hpp); header-only, or for a record of the
// user's own, the templates above are instantiated where they are used.
#define YCHART_DSE_RELAXATION_INSTANCES(EXTERN, R) \
  EXTERN template Relaxation<R> build_relaxation<R>(const Application<R>&, const Platform<R>&, const std::type_identity_t<std::optional<R>>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_RELAXATION_INSTANCES(extern, FpgaResources)
#endif

}  // namespace ychart::pipeline
