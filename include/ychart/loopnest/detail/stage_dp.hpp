// ychart/loopnest/detail/stage_dp.hpp
// Pipelined bindings with contiguous stages by dynamic programming over
// (layers done, set of processors used): the chain is cut into stages, each
// on its own processor, in O(L^2 2^P P). Exact, like the MILP in
// binding_model.hpp, which GLPK proves in 0.3-0.5 s on 50 layers and 3
// processors where this takes microseconds (docs/performance.md); the tests
// check the two against each other and against enumeration.
#pragma once

#include "../cnn.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace ychart::loopnest::detail {

struct StagePlan {
  double value = std::numeric_limits<double>::infinity();
  Binding binding;
};

/// cost(i, j): the additive cost of layer i on processor j. With `bottleneck`,
/// minimises the largest stage time; otherwise the summed cost subject to
/// every stage time <= cap. Empty binding: no contiguous binding exists.
template <class Cost>
StagePlan best_stages(const CostTable& t, bool bottleneck, double cap, Cost cost) {
  const std::size_t L = t.layers, P = t.processors, masks = std::size_t(1) << P;
  const double inf = std::numeric_limits<double>::infinity();
  // Prefix sums of time and cost per processor, and of forbidden pairs.
  std::vector<double> time(P * (L + 1), 0.0), sum(P * (L + 1), 0.0);
  std::vector<std::size_t> bad(P * (L + 1), 0);
  for (std::size_t j = 0; j < P; ++j)
    for (std::size_t i = 0; i < L; ++i) {
      const bool ok = t.allowed(i, j);
      time[j * (L + 1) + i + 1] = time[j * (L + 1) + i] + (ok ? t.time(i, j) : 0.0);
      sum[j * (L + 1) + i + 1] = sum[j * (L + 1) + i] + (ok ? cost(i, j) : 0.0);
      bad[j * (L + 1) + i + 1] = bad[j * (L + 1) + i] + (ok ? 0 : 1);
    }
  struct Step {
    std::size_t from = 0, mask = 0, processor = 0;
  };
  std::vector<double> best((L + 1) * masks, inf);
  std::vector<Step> parent((L + 1) * masks);
  best[0] = 0.0;
  for (std::size_t i = 1; i <= L; ++i)
    for (std::size_t mask = 1; mask < masks; ++mask)
      for (std::size_t j = 0; j < P; ++j) {
        if (!((mask >> j) & 1u)) continue;
        const std::size_t before = mask & ~(std::size_t(1) << j);
        for (std::size_t k = 0; k < i; ++k) {
          const double prev = best[k * masks + before];
          if (prev == inf || bad[j * (L + 1) + i] != bad[j * (L + 1) + k]) continue;
          const double stage = time[j * (L + 1) + i] - time[j * (L + 1) + k];
          double value;
          if (bottleneck) {
            value = std::max(prev, stage);
          } else {
            if (stage > cap) continue;
            value = prev + sum[j * (L + 1) + i] - sum[j * (L + 1) + k];
          }
          if (value < best[i * masks + mask]) best[i * masks + mask] = value, parent[i * masks + mask] = {k, before, j};
        }
      }
  StagePlan plan;
  std::size_t end = 0;
  for (std::size_t mask = 1; mask < masks; ++mask)
    if (best[L * masks + mask] < plan.value) plan.value = best[L * masks + mask], end = mask;
  if (plan.value == inf) return plan;
  plan.binding.assign(L, 0);
  for (std::size_t i = L, mask = end; i > 0;) {
    const auto s = parent[i * masks + mask];
    for (std::size_t k = s.from; k < i; ++k) plan.binding[k] = s.processor;
    i = s.from, mask = s.mask;
  }
  return plan;
}

}  // namespace ychart::loopnest::detail
