// ychart/pipeline/platform_local_search.hpp
// Local search and a first-fit start on a heterogeneous platform: the
// one-kind layer's steepest descent (add, remove or move one CU, priced by
// the platform's evaluate()), never giving a task CUs on a kind it has no
// implementation for. It proves nothing; the exact models do.
#pragma once

#include "../config.hpp"
#include "../model/tolerances.hpp"
#include "application.hpp"
#include "local_search.hpp"
#include "mapping.hpp"
#include "architecture.hpp"
#include "platform_evaluate.hpp"
#include "resources.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <tuple>
#include <vector>

namespace ychart::pipeline {

/// Steepest descent from `start` (feasible under `options`) on `kpi`.
template <ResourceRecord... Rs>
LocalSearchResult local_search(const Application<Rs...>& app, const Platform<Rs...>& platform, Mapping start,
                               const PlatformEvaluationOptions<Rs...>& options,
                               const std::function<double(const Evaluation&)>& kpi = initiation_interval,
                               const LocalSearchOptions& search = {}) {
  const auto table = detail::device_table(app, platform, options.caps);
  return detail::descend(
      std::move(start), [&](const Mapping& m) { return evaluate(app, platform, m, options); },
      [&](std::size_t k, std::size_t d) { return table.wcet[k][d] > 0; }, kpi, search);
}

/// One CU per task, in application order, on the first device (group after
/// group) that runs it and still has room under `caps`; no value when a
/// task fits nowhere. A feasible start for local_search().
template <ResourceRecord... Rs>
std::optional<Mapping> first_fit(const Application<Rs...>& app, const Platform<Rs...>& platform,
                                 const std::tuple<std::optional<Rs>...>& caps = {}) {
  const auto table = detail::device_table(app, platform, caps);
  const std::size_t K = app.size(), D = table.kind.size();
  std::vector<std::vector<double>> used(D);
  for (std::size_t d = 0; d < D; ++d) used[d].assign(table.cap[d].size(), 0.0);
  Mapping m;
  m.cus.assign(K, std::vector<int>(D, 0));
  for (std::size_t k = 0; k < K; ++k) {
    bool placed = false;
    for (std::size_t d = 0; d < D && !placed; ++d) {
      if (!(table.wcet[k][d] > 0)) continue;
      bool fits = true;
      for (std::size_t t = 0; t < used[d].size(); ++t)
        fits = fits && used[d][t] + table.use[k][d][t] <= table.cap[d][t] * (1 + tolerances::roundoff);
      if (!fits) continue;
      for (std::size_t t = 0; t < used[d].size(); ++t) used[d][t] += table.use[k][d][t];
      m.cus[k][d] = 1;
      placed = true;
    }
    if (!placed) return std::nullopt;
  }
  return m;
}

// The instances for the platforms ychart's examples and tests use
// (FPGAs alone; FPGAs and GPUs), compiled once in ychart's compiled part
// (impl/src_pipeline.hpp); header-only, or for other records, the templates
// above are instantiated where they are used.
#define YCHART_DSE_PLATFORM_LOCAL_SEARCH_INSTANCES(EXTERN, ...) \
  EXTERN template LocalSearchResult local_search<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, Mapping, const PlatformEvaluationOptions<__VA_ARGS__>&, const std::function<double(const Evaluation&)>&, const LocalSearchOptions&); \
  EXTERN template std::optional<Mapping> first_fit<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, const KindCaps<__VA_ARGS__>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_PLATFORM_LOCAL_SEARCH_INSTANCES(extern, FpgaResources)
YCHART_DSE_PLATFORM_LOCAL_SEARCH_INSTANCES(extern, FpgaResources, GpuResources)
#endif

}  // namespace ychart::pipeline
