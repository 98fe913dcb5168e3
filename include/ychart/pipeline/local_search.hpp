// ychart/pipeline/local_search.hpp
// Improving a mapping by local moves priced by evaluate(): add a compute
// unit, remove one, move one to another device; steepest descent on a KPI
// (the II by default) while every cap holds. For performance models outside
// the exact classes (memory contention, clock degradation) it turns any
// feasible mapping -- a heuristic's, a bound model's, first_fit()'s -- into
// a local optimum fast. It proves nothing: pair it with a lower bound.
// One function for identical devices and for device groups of several kinds.
#pragma once

#include "../config.hpp"
#include "../model/tolerances.hpp"
#include "application.hpp"
#include "architecture.hpp"
#include "evaluate.hpp"
#include "mapping.hpp"
#include "resources.hpp"

#include "../error.hpp"

#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <vector>

namespace ychart::pipeline {

struct LocalSearchOptions {
  int max_iterations = 10000;  // accepted moves
  /// A move must lower the KPI by more than this fraction to count.
  double min_improvement = tolerances::roundoff;
};

/// What a local search returns: the local optimum, its evaluation, and
/// how many moves it took and mappings it priced.
struct LocalSearchResult {
  Mapping mapping;
  Evaluation evaluation;
  int moves = 0;
  long evaluations = 0;
};

/// The II in seconds, the default KPI.
inline double initiation_interval(const Evaluation& e) { return e.ii.value(); }

namespace detail {

/// The descent itself, for any evaluator: price(m) evaluates a mapping,
/// allowed(k, f) says whether kernel k may have CUs on device f.
template <class Price, class Allowed>
LocalSearchResult descend(Mapping start, const Price& price, const Allowed& allowed,
                          const std::function<double(const Evaluation&)>& kpi, const LocalSearchOptions& search) {
  LocalSearchResult r;
  r.evaluation = price(start);
  r.evaluations = 1;
  if (!r.evaluation.feasible)
    throw model_error("ychart: local_search needs a feasible start: " + r.evaluation.violations.front());
  r.mapping = std::move(start);
  double best = kpi(r.evaluation);
  const std::size_t K = r.mapping.kernels(), F = r.mapping.devices();
  while (r.moves < search.max_iterations) {
    std::optional<Mapping> next;
    Evaluation next_eval;
    double next_value = best;
    auto consider = [&](Mapping& m) {
      const auto e = price(m);
      ++r.evaluations;
      if (!e.feasible) return;
      const double v = kpi(e);
      if (v < next_value - search.min_improvement * std::abs(best)) next_value = v, next = m, next_eval = e;
    };
    Mapping m = r.mapping;
    for (std::size_t k = 0; k < K; ++k)
      for (std::size_t f = 0; f < F; ++f) {
        if (!allowed(k, f)) continue;
        ++m.cus[k][f];  // add one CU of k on f
        consider(m);
        --m.cus[k][f];
        if (m.cus[k][f] == 0) continue;
        --m.cus[k][f];
        if (m.total(k) >= 1) consider(m);  // remove one
        for (std::size_t g = 0; g < F; ++g)
          if (g != f && allowed(k, g)) {
            ++m.cus[k][g];  // move one from f to g
            consider(m);
            --m.cus[k][g];
          }
        ++m.cus[k][f];
      }
    if (!next) break;
    r.mapping = std::move(*next);
    r.evaluation = std::move(next_eval);
    best = next_value;
    ++r.moves;
  }
  return r;
}

}  // namespace detail

/// Steepest descent from `start` (which must be feasible under `options`):
/// each step prices every mapping one move away -- a CU added, removed, or
/// moved to another device that runs its task -- and takes the best one
/// that is feasible and lowers `kpi`.
template <ResourceRecord... Rs>
LocalSearchResult local_search(const Application<Rs...>& app, const Platform<Rs...>& platform, Mapping start,
                               const EvaluationOptions<Rs...>& options,
                               const std::function<double(const Evaluation&)>& kpi = initiation_interval,
                               const LocalSearchOptions& search = {}) {
  detail::MappingEvaluator<Rs...> evaluator(app, platform, options);  // one device table for the whole descent
  return detail::descend(
      std::move(start), [&](const Mapping& m) { return evaluator.run(m); },
      [&](std::size_t k, std::size_t d) { return evaluator.table().wcet(k, d) > 0; }, kpi, search);
}

/// One CU per task, in application order, on the first device (group after
/// group) that runs it and still has room under `caps` (empty: the
/// capacity); no value when a task fits nowhere. A feasible start for
/// local_search().
template <ResourceRecord... Rs>
std::optional<Mapping> first_fit(const Application<Rs...>& app, const Platform<Rs...>& platform,
                                 const std::type_identity_t<KindCaps<Rs...>>& caps = {}) {
  const auto table = detail::device_table(app, platform, caps);
  const std::size_t K = app.size(), D = table.devices();
  std::vector<std::vector<double>> used(D);
  for (std::size_t d = 0; d < D; ++d) used[d].assign(table.of(d).cap.size(), 0.0);
  Mapping m;
  m.cus.assign(K, std::vector<int>(D, 0));
  for (std::size_t k = 0; k < K; ++k) {
    bool placed = false;
    for (std::size_t d = 0; d < D && !placed; ++d) {
      if (!(table.wcet(k, d) > 0)) continue;
      bool fits = true;
      for (std::size_t t = 0; t < used[d].size(); ++t)
        fits = fits && used[d][t] + table.use(k, d)[t] <= table.of(d).cap[t] * (1 + tolerances::roundoff);
      if (!fits) continue;
      for (std::size_t t = 0; t < used[d].size(); ++t) used[d][t] += table.use(k, d)[t];
      m.cus[k][d] = 1;
      placed = true;
    }
    if (!placed) return std::nullopt;
  }
  return m;
}

// The instances for the platforms ychart's examples and tests use (FPGAs
// alone; FPGAs and GPUs), compiled once in ychart's compiled part
// (impl/src_pipeline.hpp); header-only, or for other records, the templates
// above are instantiated where they are used.
#define YCHART_DSE_LOCAL_SEARCH_INSTANCES(EXTERN, ...) \
  EXTERN template LocalSearchResult local_search<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, Mapping, const EvaluationOptions<__VA_ARGS__>&, const std::function<double(const Evaluation&)>&, const LocalSearchOptions&); \
  EXTERN template std::optional<Mapping> first_fit<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, const KindCaps<__VA_ARGS__>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_LOCAL_SEARCH_INSTANCES(extern, FpgaResources)
YCHART_DSE_LOCAL_SEARCH_INSTANCES(extern, FpgaResources, GpuResources)
#endif

}  // namespace ychart::pipeline
