// ychart/pipeline/local_search.hpp
// Improving a mapping by local moves priced by evaluate(): add a compute
// unit, remove one, move one to another device; steepest descent on a KPI
// (the II by default) while every cap holds. For performance models outside
// the exact classes (memory contention, clock degradation) it turns any
// feasible mapping -- a heuristic's, a bound model's, first_fit()'s -- into
// a local optimum fast. It proves nothing: pair it with a lower bound.
// The heterogeneous overloads (platform_local_search.hpp) share the descent.
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
/// each step prices every mapping one move away and takes the best one
/// that is feasible and lowers `kpi`.
template <ResourceRecord R>
LocalSearchResult local_search(const Application<R>& app, const Platform<R>& arch, Mapping start,
                               const EvaluationOptions<R>& options,
                               const std::function<double(const Evaluation&)>& kpi = initiation_interval,
                               const LocalSearchOptions& search = {}) {
  return detail::descend(
      std::move(start), [&](const Mapping& m) { return evaluate(app, arch, m, options); },
      [](std::size_t, std::size_t) { return true; }, kpi, search);
}

/// One CU per kernel, in application order, each on the first device that
/// still has room under `cap` (empty: the capacity). No value when a kernel
/// fits nowhere. A feasible start for local_search().
template <ResourceRecord R>
std::optional<Mapping> first_fit(const Application<R>& app, const Platform<R>& arch, std::optional<R> cap = {}) {
  const auto limit = resource_values(cap ? *cap : arch.kind().capacity);
  const std::size_t F = static_cast<std::size_t>(arch.devices());
  std::vector<std::vector<double>> used(F, std::vector<double>(limit.size(), 0.0));
  Mapping m;
  m.cus.assign(app.size(), std::vector<int>(F, 0));
  for (std::size_t k = 0; k < app.size(); ++k) {
    const auto use = resource_values(app.kernel(k).implementation().use);
    bool placed = false;
    for (std::size_t f = 0; f < F && !placed; ++f) {
      bool fits = true;
      for (std::size_t t = 0; t < limit.size(); ++t) fits = fits && used[f][t] + use[t] <= limit[t] * (1 + tolerances::roundoff);
      if (!fits) continue;
      for (std::size_t t = 0; t < limit.size(); ++t) used[f][t] += use[t];
      m.cus[k][f] = 1;
      placed = true;
    }
    if (!placed) return std::nullopt;
  }
  return m;
}

// The instances for the records ychart ships, compiled once in ychart's
// compiled part (impl/src_pipeline.hpp); header-only, or for a record of the
// user's own, the templates above are instantiated where they are used.
#define YCHART_DSE_LOCAL_SEARCH_INSTANCES(EXTERN, R) \
  EXTERN template LocalSearchResult local_search<R>(const Application<R>&, const Platform<R>&, Mapping, const EvaluationOptions<R>&, const std::function<double(const Evaluation&)>&, const LocalSearchOptions&); \
  EXTERN template std::optional<Mapping> first_fit<R>(const Application<R>&, const Platform<R>&, std::optional<R>);
#if !YCHART_HEADER_ONLY
YCHART_DSE_LOCAL_SEARCH_INSTANCES(extern, FpgaResources)
#endif

}  // namespace ychart::pipeline
